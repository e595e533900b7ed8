/**
 * The list pages (docs/architecture.md#the-conversation-list, D4): after any sequence of writes
 * through the store's own writers — create, append, stream checkpoint, title and pin edits,
 * version switches, deletes, stream recovery, instructions, policy, capture, import, sync apply —
 * `list()` (which reads only the pages) equals the list made from the full conversation records.
 * The oracle below works from the records alone and shares no code with the pages.
 */
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMeta } from '../messaging/protocol';
import type { Transcript, Turn } from '../transcript/schema';
import { storeCapturedConversation } from './captured';
import { ConversationStore } from './conversations';
import { DB_VERSION, openBatonDb, type BatonDb } from './db';
import { DisclosureStore } from './disclosures';
import { importConversations } from './import-store';
import { seedOldVersion } from './store.test-helper';
import { applySyncedConversation } from './sync-apply';

let n = 0;
let db: BatonDb | undefined;
afterEach(() => db?.close());

/** The oracle: every record without its store-only fields, pinned first, newest first, ties by id descending. */
async function expectedList(d: BatonDb): Promise<ConversationMeta[]> {
  const storeOnly = new Set(['nextSeq', 'system', 'tools', 'meta', 'activeLeaf', 'compareOf', 'editedAt']);
  const metas = (await d.getAll('conversations')).map(
    (r) =>
      Object.fromEntries(
        Object.entries(r).filter(([k, v]) => !storeOnly.has(k) && v !== undefined),
      ) as unknown as ConversationMeta,
  );
  const key = (m: ConversationMeta) => [m.pinned ? 0 : 1, m.updatedAt, m.id] as const;
  return metas.sort((a, b) => {
    const [pa, ua, ia] = key(a);
    const [pb, ub, ib] = key(b);
    if (pa !== pb) return pa - pb;
    if (ua !== ub) return ua < ub ? 1 : -1;
    return ia < ib ? 1 : ia > ib ? -1 : 0;
  });
}

const IDS = ['a', 'b', 'c', 'd', 'e', 'f'];
const time = (i: number) => new Date(Date.UTC(2026, 10, 30, 10, 0, i % 50)).toISOString();
/**
 * Titles and previews: plain text, any code point (control characters, emoji, lone surrogates), and
 * the page format's own separator and escape characters, alone and in runs.
 */
const text = fc.oneof(
  fc.string({ minLength: 0, maxLength: 12 }),
  fc.string({ minLength: 0, maxLength: 12, unit: 'binary' }),
  fc
    .array(fc.constantFrom('\u001f', '\u0010', '0', '1', '"', '\\', '😀', '\n', ',', ' '), { maxLength: 8 })
    .map((cs) => cs.join('')),
);
const turnOf = (id: string, role: Turn['role'], t: string, status?: Turn['status']): Turn => ({
  id,
  role,
  blocks: [{ type: 'text', text: t }],
  ...(status ? { status } : {}),
});

/** One write through the store, on conversation `IDS[c]` (a missing one makes most writes fail, which is fine). */
const op = fc.oneof(
  fc.record({ k: fc.constant('create' as const), c: fc.nat(5), title: fc.option(text, { nil: undefined }) }),
  fc.record({ k: fc.constant('append' as const), c: fc.nat(5), t: text, title: fc.option(text, { nil: undefined }) }),
  fc.record({ k: fc.constant('stream' as const), c: fc.nat(5), t: text }),
  fc.record({
    k: fc.constant('update' as const),
    c: fc.nat(5),
    title: fc.option(text, { nil: undefined }),
    pinned: fc.option(fc.boolean(), { nil: undefined }),
  }),
  fc.record({ k: fc.constant('edit' as const), c: fc.nat(5), t: text }),
  fc.record({ k: fc.constant('cut' as const), c: fc.nat(5), back: fc.nat(3) }),
  fc.record({ k: fc.constant('select' as const), c: fc.nat(5), back: fc.nat(3) }),
  fc.record({ k: fc.constant('deleteTurn' as const), c: fc.nat(5), back: fc.nat(3) }),
  fc.record({ k: fc.constant('delete' as const), c: fc.nat(5) }),
  fc.record({ k: fc.constant('recover' as const) }),
  fc.record({ k: fc.constant('system' as const), c: fc.nat(5), t: text }),
  fc.record({ k: fc.constant('policy' as const), c: fc.nat(5) }),
  fc.record({ k: fc.constant('capture' as const), c: fc.nat(5), t: text }),
  fc.record({ k: fc.constant('import' as const), c: fc.nat(5), t: text }),
  fc.record({
    k: fc.constant('sync' as const),
    c: fc.nat(5),
    title: fc.option(text, { nil: undefined }),
    pinned: fc.option(fc.boolean(), { nil: undefined }),
    t: text,
  }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

async function apply(d: BatonDb, s: ConversationStore, o: Op, i: number, seq: { n: number }): Promise<void> {
  const now = time(i);
  const id = 'c' in o ? IDS[o.c]! : '';
  const nth = async (back: number) => {
    const turns = (await s.get(id)).turns;
    return turns[Math.max(0, turns.length - 1 - back)]?.id ?? 'none';
  };
  switch (o.k) {
    case 'create':
      return void (await s.create({ id, now, ...(o.title !== undefined ? { title: o.title } : {}) }));
    case 'append':
      return void (await s.appendTurn(
        id,
        turnOf(`t${seq.n++}`, 'user', o.t),
        now,
        o.title !== undefined ? { title: o.title, lastTarget: { providerId: 'openai', model: 'gpt-5.5' } } : {},
      ));
    case 'stream': {
      const turn = turnOf(`t${seq.n++}`, 'assistant', '', 'streaming');
      await s.appendTurn(id, turn, now);
      return void (await s.putTurn(id, { ...turn, blocks: [{ type: 'text', text: o.t }] }, time(i + 1)));
    }
    case 'update':
      return void (await s.update(
        id,
        {
          ...(o.title !== undefined ? { title: o.title } : {}),
          ...(o.pinned !== undefined ? { pinned: o.pinned } : {}),
        },
        now,
      ));
    case 'edit':
      return void (await s.appendTurn(id, turnOf(`t${seq.n++}`, 'user', o.t), now, {}, await nth(1)));
    case 'cut':
      return void (await s.deleteTurnsFrom(id, await nth(o.back), now, o.back % 2 === 0));
    case 'select':
      return void (await s.selectTurn(id, await nth(o.back), now));
    case 'deleteTurn':
      return void (await s.deleteTurn(id, await nth(o.back), now));
    case 'delete':
      return s.delete(id);
    case 'recover':
      return void (await s.recoverStreaming(now));
    case 'system':
      return void (await s.setSystem(id, o.t));
    case 'policy':
      return new DisclosureStore(d).setConversationPolicy(id, {});
    case 'capture':
      return void (await storeCapturedConversation(d, {
        id: `${id}-cap${seq.n++}`,
        title: o.t,
        now,
        source: { kind: 'chatgpt', url: 'https://chatgpt.com/c/x' },
        turns: [turnOf(`t${seq.n++}`, 'user', o.t)],
      }));
    case 'import': {
      const t: Transcript = {
        format: 'baton.transcript',
        version: 1,
        id: `${id}-imp${seq.n++}`,
        title: o.t,
        createdAt: now,
        turns: [turnOf(`t${seq.n++}`, 'user', o.t), turnOf(`t${seq.n++}`, 'assistant', `${o.t}!`)],
      } as Transcript;
      return void (await importConversations(d, [t], { now }));
    }
    case 'sync':
      return void (await applySyncedConversation(
        d,
        {
          id,
          fields: {
            ...(o.title !== undefined ? { title: o.title } : {}),
            ...(o.pinned !== undefined ? { pinned: o.pinned } : {}),
          },
          turns: [{ parentId: '', seq: 0, turn: turnOf(`t${seq.n++}`, 'user', o.t) }],
          removedTurns: [],
          ledger: [],
        },
        now,
      ));
  }
}

describe('the list pages', () => {
  it('D4 list() equals the list made from the full records after random writes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40, size: 'medium' }), async (ops) => {
        db?.close();
        db = await openBatonDb(`list-pages-${++n}`);
        const s = new ConversationStore(db);
        const seq = { n: 0 };
        // Most writes need an existing conversation: half of the ids start with one.
        for (const id of IDS.slice(0, 3)) await s.create({ id, now: time(0) });
        // Checked after every write: a later write to the same conversation would repair a missed page.
        for (const [i, o] of ops.entries()) {
          await apply(db, s, o, i, seq).catch(() => undefined);
          expect(await s.list()).toEqual(await expectedList(db));
        }
      }),
      { numRuns: 80 },
    );
  });

  it('D4 a write that fails leaves the list as it was (the pages are in the same transaction)', async () => {
    db = await openBatonDb(`list-pages-${++n}`);
    const s = new ConversationStore(db);
    await s.create({ id: 'a', now: time(0) });
    await s.appendTurn('a', turnOf('u1', 'user', 'first'), time(1));
    const before = await s.list();
    // Same turn id again: the turn's unique index refuses it and the whole transaction aborts.
    await expect(s.appendTurn('a', turnOf('u1', 'user', 'again'), time(2))).rejects.toThrow();
    expect(await s.list()).toEqual(before);
    expect(before[0]).toMatchObject({ preview: 'first', updatedAt: time(1), turnCount: 1 });
  });

  it('keeps titles with any characters (quotes, separators, astral, control) as they were', async () => {
    db = await openBatonDb(`list-pages-${++n}`);
    const s = new ConversationStore(db);
    const titles = [
      'a "b" \\ c\u0000\u0001\n\t😀 ,[]{}',
      '\u001f',
      '\u0010',
      '\u00100\u00101\u001f\u0010',
      '',
      '\ud800 lone surrogate',
    ];
    for (const [i, title] of titles.entries()) await s.create({ id: `x${i}\u001f\u0010`, now: time(i), title });
    await s.appendTurn('x0\u001f\u0010', turnOf('u1', 'user', 'preview \u001f\u0010 😀'), time(9));
    const listed = await s.list();
    expect(listed.map((m) => m.title).sort()).toEqual([...titles].sort());
    expect(listed.find((m) => m.id === 'x0\u001f\u0010')?.preview).toBe('preview \u001f\u0010 😀');
    expect(listed).toEqual(await expectedList(db));
  });

  // The list step (version 5) is independent of the path-index step (version 4): a database of
  // either older version gets its pages from the records it holds.
  it.each([3, 4])('D4 the version-5 step builds the pages of what a version-%i database holds', async (from) => {
    const name = `list-pages-${++n}`;
    const record = (id: string, updatedAt: string, pinned?: boolean) => ({
      id,
      title: `T ${id}`,
      createdAt: time(0),
      updatedAt,
      turnCount: 0,
      preview: '',
      nextSeq: 0,
      system: 'long instructions that the list never reads',
      ...(pinned ? { pinned } : {}),
    });
    await seedOldVersion(name, from, record('old', time(1), true), []);
    const old = await openBatonDb(name, {}, from);
    expect([...old.objectStoreNames]).not.toContain('summaries');
    await old.add('conversations', record('new', time(3)) as never);
    await old.add('conversations', record('mid', time(2)) as never);
    old.close();
    db = await openBatonDb(name);
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames]).toEqual(expect.arrayContaining(['paths', 'summaries']));
    expect((await new ConversationStore(db).list()).map((m) => m.id)).toEqual(['old', 'new', 'mid']);
    expect(await new ConversationStore(db).list()).toEqual(await expectedList(db));
  });
});
