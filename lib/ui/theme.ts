/**
 * Light and dark themes: by default the page follows `prefers-color-scheme` (CSS `color-scheme:
 * light dark`); a person may force one. The choice is kept in the page's `localStorage` (not a
 * secret) and applied as `data-theme` on the root element, which `base.css` reads.
 */

export type ThemeChoice = 'auto' | 'light' | 'dark';
export const THEMES: readonly ThemeChoice[] = ['auto', 'light', 'dark'];
const KEY = 'baton.theme';

/** The stored choice, `auto` when none (or storage is unavailable). */
export function loadTheme(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): ThemeChoice {
  try {
    const v = storage?.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'auto';
  } catch {
    return 'auto';
  }
}

/** Applies and stores `choice`. */
export function applyTheme(
  choice: ThemeChoice,
  root: HTMLElement = document.documentElement,
  storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined = globalThis.localStorage,
): void {
  if (choice === 'auto') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
  try {
    if (choice === 'auto') storage?.removeItem(KEY);
    else storage?.setItem(KEY, choice);
  } catch {
    // storage unavailable: the choice lasts for this page only
  }
}

/** The choice after `c` in the toggle's cycle: auto → light → dark → auto. */
export function nextTheme(c: ThemeChoice): ThemeChoice {
  return THEMES[(THEMES.indexOf(c) + 1) % THEMES.length]!;
}

export const THEME_LABEL: Record<ThemeChoice, string> = { auto: 'Auto', light: 'Light', dark: 'Dark' };
