/**
 * The path index (docs/architecture.md#the-path-index) against what a whole read gives: after any
 * sequence of the store's writes — append, new version, child (activated or not), replace, the
 * final answer with its ledger record, delete from, delete one, select, streaming recovery, the
 * counts' write-back, sync apply, delete, import, capture — the stored index, when present, lists
 * exactly the active path's turns with their seq, id, role, pin, content hash, block kinds, origin
 * and stored counts. The oracle reads the raw records and walks the parents itself.
 */
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../transcript/schema';
import { turnContentHash } from '../context/hash';
import { ConversationStore } from './conversations';
import { openBatonDb, tx, type BatonDb, type TurnRecord } from './db';
import { DisclosureStore } from './disclosures';
import { applySyncedConversation } from './sync-apply';
import { storedCountsFor } from './turn-counts';
import { importConversations } from './import-store';
import { storeCapturedConversation } from './captured';
import { seedOldVersion } from './store.test-helper';
import { pathIndexBuilderFor } from './path-index-build';

let n = 0;
const open: BatonDb[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

const T0 = '2026-12-02T10:00:00.000Z';
const C = 'c1';

async function fresh(): Promise<{ db: BatonDb; s: ConversationStore }> {
  const db = await openBatonDb(`path-index-${++n}`);
  open.push(db);
  return { db, s: new ConversationStore(db) };
}

let ids = 0;
function turn(role: 'user' | 'assistant', opts: { pinned?: boolean; streaming?: boolean; text?: string } = {}): Turn {
  const id = `t${++ids}`;
  const blocks: Turn['blocks'] =
    role === 'assistant' && ids % 3 === 0
      ? [
          { type: 'thinking', text: 'hm' },
          { type: 'text', text: opts.text ?? id },
        ]
      : [{ type: 'text', text: opts.text ?? id }];
  return {
    id,
    role,
    ...(role === 'assistant' ? { origin: { provider: 'openai', api: 'openai-responses', model: 'm' } } : {}),
    ...(opts.streaming ? { status: 'streaming' as const } : {}),
    ...(opts.pinned ? { meta: { pinned: true } } : {}),
    blocks,
  } as Turn;
}

/** The index as the oracle expects it: the whole read's active path, walked here. */
async function expected(db: BatonDb, id: string): Promise<unknown[] | undefined> {
  const rec = await db.get('conversations', id);
  if (!rec) return undefined;
  const all: TurnRecord[] = await db.getAll('turns', IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
  const byId = new Map(all.map((r) => [r.turn.id, r]));
  const path: TurnRecord[] = [];
  for (let at = rec.activeLeaf; at !== undefined && at !== ''; at = byId.get(at)!.parentId) path.unshift(byId.get(at)!);
  return path.map((r) => ({
    seq: r.seq,
    id: r.turn.id,
    role: r.turn.role,
    pinned: r.turn.meta?.pinned === true,
    hash: turnContentHash(r.turn),
    kinds: r.turn.blocks.map((b) => b.type),
    ...(r.turn.origin ? { origin: r.turn.origin } : {}),
    ...(r.counts ? { counts: r.counts } : {}),
  }));
}

/** A packed chunk as stored (format 2: parallel arrays, docs/architecture.md#the-path-index). */
interface RawChunk {
  chunk: number;
  seq: number[];
  id: string[];
  role: string[];
  hash: string[];
  kinds: string[];
  pinned: number[];
  origins: unknown[];
  originAt: number[];
  variants: string[];
  countEnd: number[];
  countVariant: number[];
  countTokens: number[];
  countToolCalls: number[];
  hasCounts: number[];
}

/** The entries of a packed chunk, decoded here from the stored arrays. */
function decode(c: RawChunk): unknown[] {
  return c.seq.map((seq, i) => {
    const from = i === 0 ? 0 : c.countEnd[i - 1]!;
    const counts: Record<string, { tokens: number; toolCalls: boolean }> = {};
    for (let k = from; k < c.countEnd[i]!; k++)
      counts[c.variants[c.countVariant[k]!]!] = { tokens: c.countTokens[k]!, toolCalls: c.countToolCalls[k] === 1 };
    return {
      seq,
      id: c.id[i],
      role: c.role[i],
      pinned: c.pinned.includes(i),
      hash: c.hash[i],
      kinds: c.kinds[i] === '' ? [] : c.kinds[i]!.split(' '),
      ...(c.originAt[i]! >= 0 ? { origin: c.origins[c.originAt[i]!] } : {}),
      ...(c.hasCounts.includes(i) ? { counts } : {}),
    };
  });
}

/** The stored index, assembled here from the raw records: undefined when there is none. */
async function stored(db: BatonDb, id: string): Promise<{ leaf: string | undefined; entries: unknown[] } | undefined> {
  const recs = (await db.getAll('paths', IDBKeyRange.bound([id, -Infinity], [id, Infinity]))) as unknown as (
    { chunk: -1; format?: number; leaf?: string; length: number } | RawChunk
  )[];
  if (recs.length === 0) return undefined;
  const head = recs[0]! as { chunk: number; format?: number; leaf?: string; length: number };
  expect(head.chunk).toBe(-1);
  expect(head.format).toBe(2);
  const chunks = recs.slice(1) as RawChunk[];
  chunks.forEach((c, i) => expect(c.chunk).toBe(i));
  // Every chunk but the last is full.
  chunks.slice(0, -1).forEach((c) => expect(c.seq.length).toBe(64));
  const entries = chunks.flatMap(decode);
  expect(entries.length).toBe(head.length);
  return { leaf: head.leaf, entries };
}

async function check(db: BatonDb, id: string, mustExist: boolean): Promise<void> {
  const want = await expected(db, id);
  const got = await stored(db, id);
  if (want === undefined) return expect(got).toBeUndefined();
  if (mustExist) expect(got).toBeDefined();
  if (!got) return;
  const rec = await db.get('conversations', id);
  expect(got.leaf).toBe(rec!.activeLeaf);
  expect(got.entries).toEqual(want);
}

type Op =
  | { k: 'append'; user: boolean; pinned: boolean; streaming: boolean }
  | { k: 'bulk'; count: number }
  | { k: 'version'; pick: number }
  | { k: 'child'; pick: number; activate: boolean }
  | { k: 'put'; pick: number; pinned: boolean }
  | { k: 'finish'; pick: number }
  | { k: 'deleteFrom'; pick: number; toSibling: boolean }
  | { k: 'deleteOne'; pick: number }
  | { k: 'select'; pick: number; exact: boolean }
  | { k: 'recover' }
  | { k: 'counts'; every: number }
  | { k: 'sync'; pick: number; change: number; remove: number; leaf: number };

const pick = fc.nat({ max: 1_000 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant('append' as const),
      user: fc.boolean(),
      pinned: fc.boolean(),
      streaming: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('bulk' as const), count: fc.integer({ min: 1, max: 300 }) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('version' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('child' as const), pick, activate: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('put' as const), pick, pinned: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('finish' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('deleteFrom' as const), pick, toSibling: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('deleteOne' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('select' as const), pick, exact: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('recover' as const) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('counts' as const), every: fc.integer({ min: 1, max: 3 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ k: fc.constant('sync' as const), pick, change: pick, remove: pick, leaf: pick }),
  },
);

async function run(db: BatonDb, s: ConversationStore, op: Op): Promise<void> {
  const all: TurnRecord[] = await db.getAll('turns', IDBKeyRange.bound([C, -Infinity], [C, Infinity]));
  const at = (i: number) => all[i % all.length]!;
  const role = (): 'user' | 'assistant' => (all.length % 2 ? 'assistant' : 'user');
  switch (op.k) {
    case 'append':
      await s.appendTurn(C, turn(op.user ? 'user' : 'assistant', { pinned: op.pinned, streaming: op.streaming }), T0);
      return;
    case 'bulk':
      for (let i = 0; i < op.count; i++) await s.appendTurn(C, turn(i % 2 ? 'assistant' : 'user'), T0);
      return;
    case 'recover':
      await s.recoverStreaming(T0);
      return;
    case 'counts': {
      // A whole read registers the records; a plan sets counts; the write-back stores them.
      const { turns } = await s.get(C);
      const counts = storedCountsFor(db);
      turns.forEach((t, i) => {
        if (i % op.every === 0) counts.set(t, 'o200k|x', { tokens: i + 1, toolCalls: i % 2 === 0 });
      });
      await counts.flush();
      return;
    }
  }
  if (all.length === 0) return;
  switch (op.k) {
    case 'version':
      await s.appendTurn(C, turn(at(op.pick).turn.role === 'user' ? 'user' : 'assistant'), T0, {}, at(op.pick).turn.id);
      return;
    case 'child':
      await s.appendChild(C, at(op.pick).turn.id, turn(role()), T0, op.activate);
      return;
    case 'put': {
      const old = at(op.pick).turn;
      const { meta: _m, ...rest } = old;
      await s.putTurn(
        C,
        {
          ...rest,
          blocks: [{ type: 'text', text: `edited ${op.pick}` }],
          ...(op.pinned ? { meta: { pinned: true } } : {}),
        } as Turn,
        T0,
      );
      return;
    }
    case 'finish': {
      const old = at(op.pick).turn;
      await new DisclosureStore(db).finishSend(
        C,
        { ...old, blocks: [...old.blocks, { type: 'text', text: 'final' }] } as Turn,
        T0,
        {
          record: {
            conversationId: C,
            at: T0,
            providerId: 'openai',
            api: 'openai-responses',
            model: 'm',
            endpoint: 'https://api.openai.com',
            turns: [],
            status: 'completed',
            mode: 'snapshot',
          },
        },
      );
      return;
    }
    case 'deleteFrom':
      await s.deleteTurnsFrom(C, at(op.pick).turn.id, T0, op.toSibling);
      return;
    case 'deleteOne':
      await s.deleteTurn(C, at(op.pick).turn.id, T0);
      return;
    case 'select':
      await s.selectTurn(C, at(op.pick).turn.id, T0, op.exact);
      return;
    case 'sync': {
      const parent = at(op.pick);
      const changed = at(op.change);
      const removed = at(op.remove);
      const added = turn(role());
      await applySyncedConversation(
        db,
        {
          id: C,
          fields: { activeLeaf: op.leaf % 2 ? added.id : at(op.leaf).turn.id },
          turns: [
            { parentId: parent.turn.id, seq: 1, turn: added },
            ...(changed.turn.id !== parent.turn.id
              ? [
                  {
                    parentId: changed.parentId,
                    seq: 0,
                    turn: { ...changed.turn, blocks: [{ type: 'text' as const, text: 'synced' }] },
                  },
                ]
              : []),
          ],
          // Only a leaf of the tree is removed (another device removes subtrees whole).
          removedTurns:
            all.some((r) => r.parentId === removed.turn.id) || removed.turn.id === parent.turn.id
              ? []
              : [removed.turn.id],
          ledger: [],
        },
        T0,
      );
      return;
    }
  }
}

describe('path index', () => {
  it('equals the whole read of the active path after any sequence of writes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        const { db, s } = await fresh();
        await s.create({ id: C, now: T0 });
        await check(db, C, true);
        for (const op of ops) {
          await run(db, s, op);
          await check(db, C, true);
        }
        await s.delete(C);
        await check(db, C, false);
        expect(await db.getAll('paths')).toEqual([]);
        db.close();
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('an append rewrites only the head and the last chunk', async () => {
    const { db, s } = await fresh();
    await s.create({ id: C, now: T0 });
    for (let i = 0; i < 300; i++) await s.appendTurn(C, turn(i % 2 ? 'assistant' : 'user'), T0);
    const before = await db.getAll('paths');
    await s.appendTurn(C, turn('user'), T0);
    const after = await db.getAll('paths');
    const changed = after.filter((r, i) => JSON.stringify(r) !== JSON.stringify(before[i]));
    expect(changed.map((r) => r.chunk)).toEqual([-1, 4]);
    await check(db, C, true);
  });

  it('imports and captures are indexed in their own transaction', async () => {
    const { db } = await fresh();
    const out = await importConversations(
      db,
      [
        {
          format: 'baton.transcript',
          version: 1,
          id: 'imp',
          turns: [turn('user'), turn('assistant'), turn('user')],
        } as never,
      ],
      { now: T0 },
    );
    expect(out.failed).toEqual([]);
    await check(db, 'imp', true);
    await storeCapturedConversation(db, {
      id: 'cap',
      title: 'x',
      now: T0,
      turns: [turn('user'), turn('assistant')],
      source: { kind: 'chatgpt', id: 'z' },
    } as never);
    await check(db, 'cap', true);
  });

  it('D4 a version-3 database gets the empty store; its conversations are indexed by their next rebuilding write', async () => {
    const name = `path-index-${++n}`;
    const u = turn('user');
    const a = turn('assistant');
    await seedOldVersion(
      name,
      3,
      { id: C, title: 'x', createdAt: T0, updatedAt: T0, turnCount: 2, preview: '', nextSeq: 2, activeLeaf: a.id },
      [
        { conversationId: C, seq: 0, parentId: '', turn: u },
        { conversationId: C, seq: 1, parentId: u.id, turn: a },
      ],
    );
    const db = await openBatonDb(name);
    open.push(db);
    expect(await db.getAll('paths')).toEqual([]);
    const s = new ConversationStore(db);
    // No index: an append leaves it missing (readers fall back to the whole read) …
    await s.appendTurn(C, turn('user'), T0);
    expect(await stored(db, C)).toBeUndefined();
    // … a whole read notes it for the lazy build, which a write in between cancels …
    const builder = pathIndexBuilderFor(db);
    expect((await s.get(C)).turns).toHaveLength(3);
    await s.appendTurn(C, turn('assistant'), T0);
    await builder.build();
    expect(builder.built).toBe(0);
    expect(await stored(db, C)).toBeUndefined();
    // … and otherwise builds it from the read; the writes after it keep it.
    await s.get(C);
    await builder.build();
    expect(builder.built).toBe(1);
    await check(db, C, true);
    await s.appendTurn(C, turn('user'), T0);
    await check(db, C, true);
    // A write that reads the path writes it whole too.
    await s.deleteTurnsFrom(C, u.id, T0);
    await check(db, C, true);
  });

  it('an index of the first stored form (one object per entry) is read as none and written again packed', async () => {
    const { db, s } = await fresh();
    await s.create({ id: C, now: T0 });
    for (let i = 0; i < 70; i++) await s.appendTurn(C, turn(i % 2 ? 'assistant' : 'user'), T0);
    const rec = await db.get('conversations', C);
    // The first form: a head without `format`, chunks of `entries` objects (here: the right ones).
    const want = (await expected(db, C))!;
    await tx(db, ['paths'], 'readwrite', async (t) => {
      const paths = t.objectStore('paths');
      await paths.delete(IDBKeyRange.bound([C, -Infinity], [C, Infinity]));
      await paths.put({ conversationId: C, chunk: -1, leaf: rec!.activeLeaf, length: want.length } as never);
      await paths.put({ conversationId: C, chunk: 0, entries: want.slice(0, 64) } as never);
      await paths.put({ conversationId: C, chunk: 1, entries: want.slice(64) } as never);
    });
    // Not used: a bounded read falls back to the whole read …
    expect(await s.readBounded(C, () => new Set([0]))).toBeUndefined();
    // … an append drops it rather than extend it …
    await s.appendTurn(C, turn('user'), T0);
    expect(await db.getAll('paths', IDBKeyRange.bound([C, -Infinity], [C, Infinity]))).toEqual([]);
    // … and the whole read has it built again, packed.
    await s.get(C);
    await pathIndexBuilderFor(db).build();
    await check(db, C, true);
    expect(await s.readBounded(C, () => new Set([0]))).toBeDefined();
  });

  it('a readwrite transaction over turns without the index is refused', async () => {
    const { db } = await fresh();
    await expect(tx(db, ['turns'] as never, 'readwrite', async () => undefined)).rejects.toThrow(/paths/);
  });
});
