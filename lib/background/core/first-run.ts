/**
 * First run (docs/side-panel.md, item 6): when Baton is installed (not updated, not reloaded), the options
 * page opens in a tab on its "Add your first key" card, so a new person is never left with a
 * toolbar button that does nothing useful yet.
 */

/** What `runtime.onInstalled` passes: `reason` is `install`, `update`, `chrome_update` or `shared_module_update`. */
export interface InstalledDetails {
  reason: string;
  temporary?: boolean;
}

/** True only for a fresh install: updates and browser updates never open a tab. */
export function opensOptionsOnInstall(details: InstalledDetails): boolean {
  return details.reason === 'install';
}

/** The parts of `browser.runtime` this needs (a stub in tests). */
export interface FirstRunRuntime {
  onInstalled: { addListener(fn: (details: InstalledDetails) => void): void };
  openOptionsPage(): Promise<void>;
}

/**
 * Registers the `onInstalled` listener synchronously (L1: listeners are registered when the worker
 * starts). Opening the page may fail (a browser without options pages): that is ignored.
 */
export function registerFirstRun(runtime: FirstRunRuntime): void {
  runtime.onInstalled.addListener((details) => {
    if (opensOptionsOnInstall(details)) void runtime.openOptionsPage().catch(() => undefined);
  });
}
