/**
 * The bounded cold preview (docs/architecture.md#the-path-index) is the whole read's preview:
 * over random conversations (roles, tool pairs, thinking, origins, pins), random budgets and turn
 * limits, random exclusions, with and without stored counts, a counts-only `previewSend` allowed
 * to read only the kept turns deep-equals one that reads the whole path, each from a cold
 * transcript cache and a fresh `Discloser`. Real stores over fake-indexeddb.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatonDb } from '../../store/db';
import { DisclosureStore } from '../../store/disclosures';
import { storedCountsFor } from '../../store/turn-counts';
import type { Block, Turn } from '../../transcript/schema';
import { ANTHROPIC, createTestBackground, NOW } from '../background.test-helper';
import { Discloser, previewSend, type PreparedSend, type PreviewSendInput } from './engine';

let db: BatonDb | undefined;
afterEach(() => db?.close());

/** mulberry32: a small seeded generator, so a failure names its case. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SAME = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6' } as const;
const OTHER = { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' } as const;

/** Words of random length, so turns differ in size (and the budget cuts at varied places). */
function words(r: () => number, max: number): string {
  const n = 1 + Math.floor(r() * max);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(['alpha', 'beta', 'gamma', 'delta', 'epsilon'][Math.floor(r() * 5)]!);
  return out.join(' ');
}

/** A random conversation: exchanges of a user turn, then answers with tool calls and their results. */
function conversation(r: () => number, exchanges: number): Turn[] {
  const turns: Turn[] = [];
  let n = 0;
  const pin = (t: Turn): Turn => (r() < 0.06 ? { ...t, meta: { pinned: true } } : t);
  for (let x = 0; x < exchanges; x++) {
    turns.push(pin({ id: `u${n++}`, role: 'user', blocks: [{ type: 'text', text: words(r, 200) }] }));
    const rounds = r() < 0.3 ? 2 : 1;
    for (let k = 0; k < rounds; k++) {
      const origin = r() < 0.5 ? SAME : OTHER;
      const blocks: Block[] = [];
      if (r() < 0.3) blocks.push({ type: 'thinking', text: words(r, 40) });
      blocks.push({ type: 'text', text: words(r, 300) });
      const call = r() < 0.35 && k < rounds - 1 ? `call${n}` : undefined;
      if (call) blocks.push({ type: 'tool_call', id: call, name: 'lookup', input: { q: words(r, 5) } });
      turns.push(pin({ id: `a${n++}`, role: 'assistant', origin, status: 'complete', blocks }));
      if (call)
        turns.push(
          pin({ id: `t${n++}`, role: 'tool', blocks: [{ type: 'tool_result', callId: call, content: words(r, 80) }] }),
        );
    }
  }
  return turns;
}

/** Records what `d.prepare` (the real one) returned last, as plain data (the plan's lazy fields read). */
function lastPlan(d: Discloser): () => { plan: unknown; sent: unknown; body: unknown; delivery: unknown } {
  const prepare = d.prepare.bind(d);
  let last: PreparedSend | undefined;
  d.prepare = async (input) => (last = await prepare(input));
  return () => {
    const { planned } = last!;
    return JSON.parse(
      JSON.stringify({ plan: planned.plan, sent: planned.sent, body: planned.body, delivery: planned.delivery }),
    ) as { plan: { dropped: unknown[] }; sent: unknown; body: unknown; delivery: unknown };
  };
}

describe('bounded cold preview (docs/architecture.md#the-path-index)', () => {
  it('deep-equals the whole read’s preview over random conversations, pins, budgets and exclusions', async () => {
    const bg = await createTestBackground(undefined, { name: 'bounded-preview' });
    db = bg.db;
    const { store, settings, vault, h } = bg;
    const reads = { bounded: 0, whole: 0 };
    let withStandIns = 0;
    for (let seed = 1; seed <= 36; seed++) {
      const r = rng(seed);
      const id = `b${seed}`;
      const turns = conversation(r, 4 + Math.floor(r() * 30));
      await store.create({ id, now: NOW });
      for (const t of turns) await store.appendTurn(id, t, NOW);
      const policy: { maxTokens?: number; maxTurns?: number } = {};
      if (r() < 0.8) policy.maxTokens = 200 + Math.floor(r() * 6000);
      if (r() < 0.2) policy.maxTurns = 1 + Math.floor(r() * 20);
      await h.setDisclosurePolicy({ conversationId: id, policy }, 'extension');
      const input: PreviewSendInput = { conversationId: id, target: ANTHROPIC, countsOnly: true };
      if (r() < 0.8) input.text = words(r, 30);
      if (r() < 0.15) input.exclusions = { excludeTurns: [turns[Math.floor(r() * turns.length)]!.id] };
      // Counts stored on the records (as after any earlier preview), except sometimes.
      if (r() < 0.85) {
        store.transcripts.clear();
        await previewSend({ store, settings, vault, bounded: false }, new Discloser(new DisclosureStore(db)), input);
        await storedCountsFor(db).flush();
      }
      store.transcripts.clear();
      const d1 = new Discloser(new DisclosureStore(db));
      const p1 = lastPlan(d1);
      const bounded = await previewSend({ store, settings, vault }, d1, input);
      reads[d1.lastRead!.read]++;
      store.transcripts.clear();
      const d2 = new Discloser(new DisclosureStore(db));
      const p2 = lastPlan(d2);
      const whole = await previewSend({ store, settings, vault, bounded: false }, d2, input);
      expect(d2.lastRead?.read).toBe('whole');
      expect(bounded, `seed ${seed} (${JSON.stringify(d1.lastRead)})`).toEqual(whole);
      // The plan itself: turns, included, dropped, report, stats, body and the ledger's hashes.
      expect(p1(), `seed ${seed} (${JSON.stringify(d1.lastRead)})`).toEqual(p2());
      if (d1.lastRead!.standIns > 0) withStandIns++;
      // Counts only is the full preview without its per-turn list and body (the counts made
      // from the sent turns' entries alone equal those the full list makes).
      store.transcripts.clear();
      const full = await previewSend(
        { store, settings, vault, bounded: false },
        new Discloser(new DisclosureStore(db)),
        { ...input, countsOnly: false },
      );
      expect(bounded, `seed ${seed}`).toEqual({ ...full, perTurn: [], body: {}, countsOnly: true });
    }
    // Both ways were taken: most cases plan over a bounded read, the others fell back.
    expect(reads.bounded).toBeGreaterThan(15);
    expect(reads.whole).toBeGreaterThan(0);
    expect(withStandIns).toBeGreaterThan(10);
  }, 120_000);

  it('the previews after a bounded one reuse its read while the whole path is read, until a write', async () => {
    const bg = await createTestBackground(undefined, { name: 'bounded-reused' });
    db = bg.db;
    const { store, settings, vault } = bg;
    const r = rng(11);
    const id = 'reused';
    await store.create({ id, now: NOW });
    for (const t of conversation(r, 30)) await store.appendTurn(id, t, NOW);
    const input: PreviewSendInput = { conversationId: id, target: ANTHROPIC, countsOnly: true };
    await bg.h.setDisclosurePolicy({ conversationId: id, policy: { maxTokens: 400 } }, 'extension');
    await previewSend({ store, settings, vault, bounded: false }, new Discloser(new DisclosureStore(db)), input);
    await storedCountsFor(db).flush();
    store.transcripts.clear();
    // The whole read the bounded preview starts is held until released: a preview that waited for
    // it would never resolve.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const wholeRead = store.toTranscript.bind(store);
    store.toTranscript = async (x) => (await gate, wholeRead(x));
    const sliced = store as unknown as { completeBounded(id: string): Promise<unknown> };
    const completeRead = sliced.completeBounded.bind(store);
    sliced.completeBounded = async (x) => (await gate, completeRead(x));
    const d1 = new Discloser(new DisclosureStore(db));
    const first = await previewSend({ store, settings, vault }, d1, input);
    expect(d1.lastRead).toMatchObject({ read: 'bounded' });
    expect(d1.lastRead!.standIns).toBeGreaterThan(0);
    expect(store.transcripts.reading(id)).toBe(true);
    const d2 = new Discloser(new DisclosureStore(db));
    const timeout = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5_000));
    const second = await Promise.race([previewSend({ store, settings, vault }, d2, input), timeout]);
    expect(second).toEqual(first);
    expect(d2.lastRead).toMatchObject({ read: 'bounded', reused: true });
    release();
    // A write makes the kept read stale: the next preview plans the conversation as it is now.
    await store.appendTurn(
      id,
      { id: 'later', role: 'user', blocks: [{ type: 'text', text: 'a later question' }] },
      NOW,
    );
    const d3 = new Discloser(new DisclosureStore(db));
    const third = await previewSend({ store, settings, vault }, d3, input);
    expect(d3.lastRead?.reused).toBeUndefined();
    store.transcripts.clear();
    const whole = await previewSend(
      { store, settings, vault, bounded: false },
      new Discloser(new DisclosureStore(db)),
      input,
    );
    expect(third).toEqual(whole);
    expect(third.turns).toBe(first.turns + 1);
  });

  it('after a bounded preview the whole path is read once, and the next preview plans over it', async () => {
    const bg = await createTestBackground(undefined, { name: 'bounded-then-whole' });
    db = bg.db;
    const { store, settings, vault, h } = bg;
    const r = rng(7);
    const id = 'warm';
    await store.create({ id, now: NOW });
    for (const t of conversation(r, 30)) await store.appendTurn(id, t, NOW);
    await h.setDisclosurePolicy({ conversationId: id, policy: { maxTokens: 400 } }, 'extension');
    const input: PreviewSendInput = { conversationId: id, target: ANTHROPIC, countsOnly: true };
    await previewSend({ store, settings, vault, bounded: false }, new Discloser(new DisclosureStore(db)), input);
    await storedCountsFor(db).flush();
    store.transcripts.clear();
    const d1 = new Discloser(new DisclosureStore(db));
    const first = await previewSend({ store, settings, vault }, d1, input);
    expect(d1.lastRead).toMatchObject({ read: 'bounded' });
    expect(d1.lastRead!.standIns).toBeGreaterThan(0);
    // The whole read started after the bounded preview; once it is done, previews plan over it.
    expect(store.transcripts.has(id) || store.transcripts.reading(id)).toBe(true);
    await store.cachedTranscript(id);
    const d2 = new Discloser(new DisclosureStore(db));
    expect(await previewSend({ store, settings, vault }, d2, input)).toEqual(first);
    expect(d2.lastRead?.read).toBe('whole');
    expect(store.transcripts.has(id)).toBe(true);
  });
});
