import { describe, expect, it } from 'vitest';
import { opensOptionsOnInstall, registerFirstRun, type InstalledDetails } from './first-run';

describe('first run (docs/side-panel.md, item 6)', () => {
  it('opens the options page on install only, never on update', async () => {
    let listener: ((d: InstalledDetails) => void) | undefined;
    let opened = 0;
    registerFirstRun({
      onInstalled: { addListener: (fn) => (listener = fn) },
      openOptionsPage: async () => void opened++,
    });
    expect(listener).toBeTypeOf('function');
    listener!({ reason: 'update' });
    listener!({ reason: 'chrome_update' });
    await Promise.resolve();
    expect(opened).toBe(0);
    listener!({ reason: 'install' });
    await Promise.resolve();
    expect(opened).toBe(1);
    expect(opensOptionsOnInstall({ reason: 'install', temporary: true })).toBe(true);
  });

  it('a refused openOptionsPage is not an unhandled rejection', async () => {
    let listener: ((d: InstalledDetails) => void) | undefined;
    registerFirstRun({
      onInstalled: { addListener: (fn) => (listener = fn) },
      openOptionsPage: () => Promise.reject(new Error('no options page')),
    });
    expect(() => listener!({ reason: 'install' })).not.toThrow();
    await new Promise((r) => setTimeout(r, 0));
  });
});
