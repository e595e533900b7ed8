/**
 * The toolbar button opens the side panel (Chrome; docs/side-panel.md). Chrome keeps the panel
 * behaviour with the extension's settings, across worker and browser restarts, so it is set when
 * `runtime.onInstalled` fires (install, update, browser update) rather than at every worker start,
 * where it cost a `sidePanel` binding and a call on each wake (docs/architecture.md#the-service-workers-start-up).
 */
import type { InstalledDetails } from './first-run';

/** The `sidePanel` call this needs; absent in Firefox (its sidebar opens from View → Sidebar). */
export interface PanelBehaviorApi {
  setPanelBehavior(o: { openPanelOnActionClick: boolean }): Promise<void>;
}

/**
 * Registers the `onInstalled` listener synchronously (L1). `sidePanel` is read only when the
 * listener runs, so a worker start that is not an install never touches the API.
 */
export function registerPanelBehavior(
  runtime: { onInstalled: { addListener(fn: (details: InstalledDetails) => void): void } },
  sidePanel: () => PanelBehaviorApi | undefined,
): void {
  runtime.onInstalled.addListener(() => {
    void sidePanel()
      ?.setPanelBehavior({ openPanelOnActionClick: true })
      .catch(() => undefined);
  });
}
