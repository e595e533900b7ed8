/**
 * The side panel's side of streaming (docs/architecture.md#streaming-to-the-side-panel): deltas
 * applied in `seq` order against their offset; a gap (a panel that opened or reconnected
 * mid-answer, holding the stored checkpoint) asks `resumeStream` once, then goes on with deltas;
 * duplicates and stale snapshots change nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Connector } from '../messaging/client';
import type { BackgroundEvent, ConversationView, RequestType, Settings } from '../messaging/protocol';
import type { Turn } from '../transcript/schema';
import { ChatModel } from './chat-model';
import { appendLogOf } from './turns';

const settings: Settings = {
  providers: [{ id: 'openai', name: 'OpenAI', api: 'openai-responses', hasKey: true }],
  defaultTarget: { providerId: 'openai', model: 'gpt-5' },
};
const answer = (text: string, status: Turn['status'] = 'streaming'): Turn => ({
  id: 'a1',
  role: 'assistant',
  origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5' },
  status,
  blocks: text ? [{ type: 'text', text }] : [],
});
const view = (stored: Turn): ConversationView => ({
  meta: {
    id: 'c1',
    title: 't',
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    turnCount: 2,
    preview: '',
  },
  turns: [{ id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'q' }] }, stored],
  busy: true,
});
const delta = (at: number, seq: number, text: string): BackgroundEvent => ({
  type: 'textDelta',
  conversationId: 'c1',
  turnId: 'a1',
  index: 0,
  kind: 'text',
  at,
  seq,
  text,
});

/** A panel model whose store holds `stored` (the last checkpoint) and whose worker's live answer is `live`. */
async function panel(stored: Turn, live: () => { turn: Turn; seq: number } | null) {
  let emit: (e: BackgroundEvent) => void = () => undefined;
  const resumes: unknown[] = [];
  let answerResume: () => void = () => undefined;
  const c: Connector = {
    request: ((type: RequestType, payload: unknown) => {
      if (type === 'getSettings') return Promise.resolve(settings);
      if (type === 'listConversations') return Promise.resolve([view(stored).meta]);
      if (type === 'getConversation') return Promise.resolve(view(stored));
      if (type === 'resumeStream') {
        resumes.push(payload);
        // Answered later, so deltas arrive while the panel waits.
        return new Promise<unknown>((r) => (answerResume = () => r(live())));
      }
      return Promise.resolve([]);
    }) as Connector['request'],
    subscribe: (onEvent) => {
      emit = onEvent;
      return () => undefined;
    },
  };
  const m = new ChatModel(c);
  m.start();
  await m.open('c1');
  const text = () => {
    const b = m.state.turns.find((t) => t.id === 'a1')?.blocks[0];
    return b && b.type === 'text' ? b.text : '';
  };
  return { m, emit: (e: BackgroundEvent) => emit(e), resumes, answerResume: () => answerResume(), text };
}

describe('streamed deltas in the side panel', () => {
  it('applies deltas that continue the text, in order; duplicates and overlaps add nothing twice', async () => {
    const p = await panel(answer('Hello'), () => null);
    p.emit(delta(5, 1, ', wor'));
    p.emit(delta(10, 2, 'ld'));
    p.emit(delta(10, 2, 'ld')); // duplicate seq
    p.emit({ type: 'turnUpdated', conversationId: 'c1', turn: answer('Hello, world!'), seq: 3 });
    p.emit(delta(12, 3, '!')); // already in the snapshot
    p.emit(delta(13, 4, ' Bye'));
    expect(p.text()).toBe('Hello, world! Bye');
    expect(p.resumes).toEqual([]);
    p.emit({ type: 'turnUpdated', conversationId: 'c1', turn: answer('Hello, world!'), seq: 2 }); // stale
    expect(p.text()).toBe('Hello, world! Bye');
  });

  it('a panel holding an older checkpoint asks for the state once, then continues with the deltas that came meanwhile', async () => {
    // Stored: 'Hel' (the last checkpoint); the worker has broadcast up to seq 7 ('Hello, wo').
    const p = await panel(answer('Hel'), () => ({ turn: answer('Hello, wo'), seq: 7 }));
    p.emit(delta(9, 8, 'rl')); // at 9 > 3 held: a gap
    p.emit(delta(11, 9, 'd')); // arrives while the resume is pending
    p.emit(delta(7, 7, 'wo')); // older than the resumed state
    expect(p.resumes).toEqual([{ conversationId: 'c1' }]);
    expect(p.text()).toBe('Hel');
    p.answerResume();
    await new Promise((r) => setTimeout(r, 0));
    expect(p.text()).toBe('Hello, world');
    p.emit(delta(12, 10, '!'));
    expect(p.text()).toBe('Hello, world!');
    expect(p.resumes).toHaveLength(1);
    // The final whole turn ends it.
    p.emit({ type: 'turnUpdated', conversationId: 'c1', turn: answer('Hello, world!', 'complete'), seq: 11 });
    expect(p.m.state.turns.at(-1)!.status).toBe('complete');
  });

  it('a seq gap on a continuing text is a gap too', async () => {
    const p = await panel(answer('ab'), () => ({ turn: answer('abcd'), seq: 3 }));
    p.emit(delta(2, 1, 'c'));
    p.emit(delta(4, 3, 'e')); // seq 2 ('d') was lost
    expect(p.resumes).toHaveLength(1);
    p.answerResume();
    await new Promise((r) => setTimeout(r, 0));
    expect(p.text()).toBe('abcd');
  });

  it('records the appended chunks, so a renderer reads only what is new', async () => {
    const p = await panel(answer('Hello'), () => null);
    const before = p.m.state.turns[1]!.blocks[0]!;
    expect(appendLogOf(before)).toBeUndefined();
    p.emit(delta(5, 1, ', '));
    const one = p.m.state.turns[1]!.blocks[0]!;
    p.emit(delta(7, 2, 'you'));
    const two = p.m.state.turns[1]!.blocks[0]!;
    expect(appendLogOf(one)).toMatchObject({ end: 1 });
    expect(appendLogOf(two)!.log).toBe(appendLogOf(one)!.log);
    expect(appendLogOf(two)!.log.slice(0, appendLogOf(two)!.end)).toEqual([', ', 'you']);
  });
});
