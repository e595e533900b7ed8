/**
 * The hand-over of "Add this page to Baton" (the context menu, docs/side-panel.md#add-this-page):
 * the background writes {@link AddPageRequest} under {@link ADD_PAGE_REQUEST_KEY} in
 * `storage.session` (extension pages only, cleared when the browser closes); the side panel,
 * which may only now be opening, reads it, removes it and reads that tab.
 */

/** The `storage.session` key. */
export const ADD_PAGE_REQUEST_KEY = 'baton.addPageRequest';

/** A request older than this (ms) is ignored: the click was for a panel that never read it. */
export const ADD_PAGE_REQUEST_TTL_MS = 60_000;

/** Which tab to add, and when the menu was clicked (ms since the epoch). */
export interface AddPageRequest {
  tabId: number;
  at: number;
}

/** The request in a `storage.session` value, or undefined when it is missing, malformed or stale. */
export function freshAddPageRequest(value: unknown, now: number): AddPageRequest | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { tabId, at } = value as Partial<AddPageRequest>;
  if (typeof tabId !== 'number' || !Number.isInteger(tabId) || typeof at !== 'number') return undefined;
  return now - at >= 0 && now - at <= ADD_PAGE_REQUEST_TTL_MS ? { tabId, at } : undefined;
}
