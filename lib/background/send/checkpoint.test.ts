import { describe, expect, it } from 'vitest';
import type { BackgroundEvent } from '../../messaging/protocol';
import type { Turn } from '../../transcript/schema';
import { createCheckpointer, type CheckpointDeps } from './checkpoint';

const turn = (text: string, status: Turn['status'] = 'streaming'): Turn => ({
  id: 't1',
  role: 'assistant',
  origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
  createdAt: '2026-11-30T00:00:00.000Z',
  status,
  blocks: [{ type: 'text', text }],
});

function setup(failWith: (n: number) => unknown) {
  const events: BackgroundEvent[] = [];
  const stored: Turn[] = [];
  let writes = 0;
  let now = 0;
  const store = {
    putTurn: async (_c: string, t: Turn) => {
      const err = failWith(++writes);
      if (err) throw err;
      stored.push(t);
      return {};
    },
    getRecord: async () => undefined,
  } as unknown as CheckpointDeps['store'];
  const deps: CheckpointDeps = {
    store,
    clock: { now: () => now, sleep: async () => undefined, setTimer: () => () => undefined },
    broadcast: (e) => events.push(e),
    checkpointMs: 1000,
    checkpointChars: 10_000,
  };
  return { deps, events, stored, tick: (ms: number) => (now += ms) };
}

const quota = () => Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
const storageErrors = (events: BackgroundEvent[]) =>
  events.filter((e) => e.type === 'sendStateChanged' && e.error?.code === 'storage_full');

describe('checkpoints and a full storage', () => {
  it('D2 a checkpoint refused for a full storage is reported once when the answer ends; the stream goes on', async () => {
    let current = turn('');
    const { deps, events, stored, tick } = setup((n) => (n === 1 ? quota() : undefined));
    const cp = createCheckpointer(deps, 'c1', () => current);
    current = turn('Hello');
    tick(1500);
    cp.onEvent({ delta: 'Hello' }); // checkpoint 1: refused (storage full)
    current = turn('Hello world');
    tick(1500);
    cp.onEvent({ delta: ' world' }); // checkpoint 2: stored
    await cp.final(turn('Hello world!', 'complete'));
    expect(stored.map((t) => t.blocks)).toEqual([
      [{ type: 'text', text: 'Hello world' }],
      [{ type: 'text', text: 'Hello world!' }],
    ]);
    expect(storageErrors(events)).toHaveLength(1);
    const finalTurn = events.filter((e) => e.type === 'turnUpdated').at(-1);
    expect(finalTurn).toEqual({ type: 'turnUpdated', conversationId: 'c1', turn: turn('Hello world!', 'complete') });
  });

  it('D2 a final write refused (AbortError carrying the quota error, as BatonError storage_full) says the answer was not saved', async () => {
    const full = Object.assign(new Error('Browser storage is full'), { code: 'storage_full' });
    const { deps, events, stored } = setup(() => full);
    const cp = createCheckpointer(deps, 'c1', () => undefined);
    await cp.final(turn('All of it', 'complete'), async () => {
      throw full;
    });
    expect(stored).toEqual([]);
    expect(storageErrors(events)).toEqual([
      {
        type: 'sendStateChanged',
        conversationId: 'c1',
        state: 'idle',
        error: { code: 'storage_full', message: expect.stringMatching(/storage is full/) },
      },
    ]);
  });

  it('other write failures are not reported as a full storage', async () => {
    const { deps, events } = setup(() => new Error('transaction aborted'));
    const cp = createCheckpointer(deps, 'c1', () => undefined);
    await cp.final(turn('x', 'complete'));
    expect(storageErrors(events)).toEqual([]);
  });
});
