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
    expect(finalTurn).toEqual({
      type: 'turnUpdated',
      conversationId: 'c1',
      turn: turn('Hello world!', 'complete'),
      seq: expect.any(Number),
    });
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

describe('broadcasts as deltas (docs/architecture.md#streaming-to-the-side-panel)', () => {
  const withBlocks = (blocks: Turn['blocks'], status: Turn['status'] = 'streaming'): Turn => ({
    ...turn('', status),
    blocks,
  });

  it('sends the text appended since the last broadcast, numbered, with its offset; a whole turn only when its shape changes', async () => {
    let current = withBlocks([]);
    const { deps, events, tick } = setup(() => undefined);
    deps.broadcastMs = 100;
    const cp = createCheckpointer(deps, 'c1', () => current);
    const step = (t: Turn) => {
      current = t;
      tick(150);
      cp.onEvent({});
    };
    step(withBlocks([{ type: 'thinking', text: 'Hm' }]));
    step(withBlocks([{ type: 'thinking', text: 'Hm, yes' }]));
    step(
      withBlocks([
        { type: 'thinking', text: 'Hm, yes.' },
        { type: 'text', text: 'Hel' },
      ]),
    );
    step(
      withBlocks([
        { type: 'thinking', text: 'Hm, yes.' },
        { type: 'text', text: 'Hello' },
        { type: 'tool_call', id: 'k1', name: 'f', input: {} },
      ]),
    );
    await cp.final(
      withBlocks(
        [
          { type: 'thinking', text: 'Hm, yes.' },
          { type: 'text', text: 'Hello' },
          { type: 'tool_call', id: 'k1', name: 'f', input: { a: 1 } },
        ],
        'complete',
      ),
    );
    const summary = events
      .filter((e) => e.type === 'turnUpdated' || e.type === 'textDelta')
      .map((e) =>
        e.type === 'textDelta'
          ? `${e.seq} delta ${e.index}@${e.at} ${JSON.stringify(e.text)}`
          : `${e.seq} turn ${e.turn.blocks.length}`,
      );
    expect(summary).toEqual([
      '1 turn 1', // the first broadcast of the answer is whole
      '2 delta 0@2 ", yes"',
      '3 delta 0@7 "."',
      '4 delta 1@0 "Hel"', // a new text block at the end starts as a delta
      '5 turn 3', // a tool call appeared: whole turn
      '6 turn 3', // the final state
    ]);
    expect(cp.live()?.seq).toBe(6);
    expect(cp.live()?.turn.status).toBe('complete');
  });

  it('keeps every message the size of its chunk, however long the answer grows', () => {
    let text = '';
    const { deps, events, tick } = setup(() => undefined);
    deps.broadcastMs = 100;
    deps.checkpointChars = 500;
    const cp = createCheckpointer(deps, 'c1', () => withBlocks([{ type: 'text', text }]));
    for (let i = 0; i < 2000; i++) {
      text += `chunk ${i} of the answer. `;
      tick(150);
      cp.onEvent({ i });
    }
    const sizes = events.map((e) => JSON.stringify(e).length);
    expect(events.filter((e) => e.type === 'turnUpdated')).toHaveLength(1);
    expect(Math.max(...sizes.slice(1))).toBeLessThan(300);
    // Concatenating the deltas gives the text.
    const deltas = events.filter((e) => e.type === 'textDelta');
    expect(deltas.map((d) => d.text).join('')).toBe(
      text.slice(((events[0] as { turn: Turn }).turn.blocks[0] as { text: string }).text.length),
    );
    expect(deltas.every((d, i) => d.seq === i + 2)).toBe(true);
  });

  it('live() is the last broadcast state, not text the panel has not been sent', () => {
    let text = 'a';
    const { deps, tick } = setup(() => undefined);
    deps.broadcastMs = 100;
    const cp = createCheckpointer(deps, 'c1', () => withBlocks([{ type: 'text', text }]));
    expect(cp.live()).toBeUndefined();
    tick(150);
    cp.onEvent({});
    text = 'ab';
    tick(10); // inside the broadcast window: not sent yet
    cp.onEvent({});
    expect(cp.live()).toEqual({ turn: withBlocks([{ type: 'text', text: 'a' }]), seq: 1 });
  });
});
