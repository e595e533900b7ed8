import { describe, expect, it } from 'vitest';
import type { InstalledDetails } from './first-run';
import { registerPanelBehavior, type PanelBehaviorApi } from './panel-behavior';

describe('panel behaviour (the toolbar button opens the side panel)', () => {
  it('registers at once but touches sidePanel only when onInstalled fires, for every reason', async () => {
    let listener: ((d: InstalledDetails) => void) | undefined;
    let reads = 0;
    const calls: unknown[] = [];
    const api: PanelBehaviorApi = { setPanelBehavior: async (o) => void calls.push(o) };
    registerPanelBehavior({ onInstalled: { addListener: (fn) => (listener = fn) } }, () => (reads++, api));
    expect(listener).toBeTypeOf('function');
    expect(reads).toBe(0);
    for (const reason of ['install', 'update', 'chrome_update']) listener!({ reason });
    await Promise.resolve();
    expect(calls).toEqual([
      { openPanelOnActionClick: true },
      { openPanelOnActionClick: true },
      { openPanelOnActionClick: true },
    ]);
  });

  it('does nothing without a sidePanel API (Firefox), and a refused call is not an unhandled rejection', async () => {
    let listener: ((d: InstalledDetails) => void) | undefined;
    registerPanelBehavior({ onInstalled: { addListener: (fn) => (listener = fn) } }, () => undefined);
    expect(() => listener!({ reason: 'install' })).not.toThrow();
    registerPanelBehavior({ onInstalled: { addListener: (fn) => (listener = fn) } }, () => ({
      setPanelBehavior: () => Promise.reject(new Error('no side panel')),
    }));
    expect(() => listener!({ reason: 'update' })).not.toThrow();
    await new Promise((r) => setTimeout(r, 0));
  });
});
