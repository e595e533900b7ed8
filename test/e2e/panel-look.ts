/**
 * Page-side checks of how the panel looks: text contrast (WCAG 2 ratio, colours resolved by the
 * browser itself through a canvas, so `color-mix()`/`light-dark()` values are measured as drawn)
 * and horizontal overflow at a narrow width.
 */
import type { Page } from 'playwright-core';

/** One text element whose contrast is below the threshold. */
export interface LowContrast {
  what: string;
  text: string;
  ratio: number;
}

/** One visible element with text of its own, as {@link textScan} measures it. */
interface TextSample {
  /** `tag.class.class`. */
  what: string;
  /** Its own text (not its children's), trimmed. */
  text: string;
  /** Computed font size, CSS px. */
  size: number;
  /** WCAG 2 contrast ratio of its text against the first opaque background behind it. */
  ratio: number;
  /** It lies inside KaTeX output (which sizes its own glyphs). */
  katex: boolean;
}

/**
 * The visible elements matching `selector` that have text of their own, each with its computed
 * font size and its text's contrast ratio (WCAG 2.x relative luminance; colours resolved by the
 * browser through a canvas, so `color-mix()`/`light-dark()` are measured as drawn). The one page
 * walk both {@link lowContrast} and {@link textBelow} judge.
 */
function textScan(page: Page, selector: string): Promise<TextSample[]> {
  return page.evaluate((selector) => {
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const rgba = (css: string): [number, number, number, number] => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = '#000';
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!, a! / 255];
    };
    const lum = ([r, g, b]: number[]) => {
      const c = [r!, g!, b!].map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
    };
    const background = (el: Element): number[] => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = rgba(getComputedStyle(e).backgroundColor);
        if (c[3] > 0.99) return c;
      }
      return rgba(getComputedStyle(document.documentElement).backgroundColor)[3] > 0.99
        ? rgba(getComputedStyle(document.documentElement).backgroundColor)
        : rgba('Canvas');
    };
    const out: TextSample[] = [];
    for (const el of document.querySelectorAll(selector)) {
      const own = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      const box = el.getBoundingClientRect();
      if (!own || box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(el);
      const fg = rgba(style.color);
      const bg = background(el);
      // A translucent text colour is drawn over the background.
      const drawn = [0, 1, 2].map((i) => fg[i]! * fg[3] + bg[i]! * (1 - fg[3]));
      const [hi, lo] = [lum(drawn), lum(bg)].sort((a, b) => b - a);
      out.push({
        what: `${el.localName}.${[...el.classList].join('.')}`,
        text: own,
        size: parseFloat(style.fontSize),
        ratio: (hi! + 0.05) / (lo! + 0.05),
        katex: el.closest('.katex') !== null,
      });
    }
    return out;
  }, selector);
}

/**
 * The visible elements matching `selector` that have text of their own (`checked`), and those
 * whose text has a contrast ratio below `min` against the first opaque background behind it
 * (`low`; WCAG 2.x relative luminance).
 */
export async function lowContrast(
  page: Page,
  selector: string,
  min = 4.5,
): Promise<{ checked: number; low: LowContrast[] }> {
  const seen = await textScan(page, selector);
  const low = seen
    .filter((t) => t.ratio < min)
    .map((t) => ({ what: t.what, text: t.text.slice(0, 40), ratio: Math.round(t.ratio * 100) / 100 }));
  return { checked: seen.length, low };
}

/**
 * Elements that stick out past the right edge of the viewport (not counting content inside a
 * scrolling container, which scrolls on its own), and whether the page scrolls sideways.
 */
export function horizontalOverflow(page: Page): Promise<{ pageScrolls: boolean; outside: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (e: Element) => /auto|scroll|hidden|clip/.test(getComputedStyle(e).overflowX);
    const outside: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 0.5) continue;
      let inScroller = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) if (scrolls(p)) inScroller = true;
      if (!inScroller) outside.push(`${el.localName}.${[...el.classList].join('.')} right=${Math.round(box.right)}`);
    }
    return { pageScrolls: document.documentElement.scrollWidth > width, outside };
  });
}

/**
 * The computed font size (CSS px) of the last visible element matching each selector, or null when
 * none is visible; the browser resolves the whole cascade (its own extension-page rules included).
 */
export function fontSizes<K extends string>(
  page: Page,
  selectors: Record<K, string>,
): Promise<Record<K, number | null>> {
  const asked: Record<string, string> = selectors;
  return page.evaluate((selectors) => {
    const out: Record<string, number | null> = {};
    for (const [name, sel] of Object.entries(selectors)) {
      const seen = [...document.querySelectorAll(sel)].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0;
      });
      const el = seen[seen.length - 1];
      out[name] = el ? parseFloat(getComputedStyle(el).fontSize) : null;
    }
    return out;
  }, asked) as Promise<Record<K, number | null>>;
}

/**
 * The visible elements matching `selector` with text of their own whose computed font size is below
 * `min` px. KaTeX output is not counted: it sizes its own glyphs (sub- and superscripts), not the
 * panel's type scale.
 */
export async function textBelow(
  page: Page,
  selector: string,
  min: number,
): Promise<{ checked: number; small: string[] }> {
  const seen = (await textScan(page, selector)).filter((t) => !t.katex);
  const small = seen.filter((t) => t.size < min).map((t) => `${t.what} "${t.text.slice(0, 30)}" ${t.size}px`);
  return { checked: seen.length, small };
}
