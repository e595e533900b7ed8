/**
 * SY-1: sync constructs nothing while it is off, and runs one-shot cycles from an alarm, debounced
 * local changes and a panel opening.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { makeDevice, testPouch } from './sync-server.test-helper';
import { SYNC_ALARM, SYNC_DEBOUNCE_MS, SyncService } from './service';

describe('SY-1 sync while off, and when it runs', () => {
  it('SY-1 with sync off, an alarm, local changes and a panel opening build no PouchDB database and make no request', async () => {
    let built = 0;
    const d = await makeDevice('off', {
      pouch: () => {
        built++;
        return testPouch();
      },
    });
    const timers: (() => void)[] = [];
    const alarms: string[] = [];
    const service = new SyncService({
      engine: () => d.deps,
      alarms: { create: (n) => alarms.push(n), clear: () => undefined },
      setTimeout: (f) => timers.push(f),
      clearTimeout: () => undefined,
    });
    await service.onAlarm(SYNC_ALARM);
    service.noteEvent({ type: 'conversationDeleted', id: 'x' });
    service.onPanelOpen();
    for (const f of timers) f();
    await new Promise((r) => setTimeout(r, 50));
    expect(built).toBe(0);
    expect(alarms).toEqual([]);
    expect(await service.syncIfOn()).toBeUndefined();
  });

  it('SY-1 a burst of local changes schedules one cycle; streaming deltas schedule none', () => {
    const delays: number[] = [];
    const service = new SyncService({
      engine: () => {
        throw new Error('not needed');
      },
      alarms: { create: () => undefined, clear: () => undefined },
      setTimeout: (_f, ms) => delays.push(ms),
      clearTimeout: () => undefined,
    });
    service.noteEvent({
      type: 'textDelta',
      conversationId: 'c',
      turnId: 't',
      index: 0,
      kind: 'text',
      at: 0,
      seq: 1,
      text: 'x',
    });
    service.noteEvent({
      type: 'turnUpdated',
      conversationId: 'c',
      turn: { id: 't', role: 'assistant', status: 'streaming', blocks: [] },
      seq: 2,
    });
    expect(delays).toEqual([]);
    service.noteEvent({ type: 'conversationDeleted', id: 'c' });
    expect(delays).toEqual([SYNC_DEBOUNCE_MS]);
  });
});
