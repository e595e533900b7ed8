/**
 * Full-text search (docs/side-panel.md#search): the index is written in the same transaction as
 * every turn and title write (an aborted write leaves no entry), deletes and edits keep it exact,
 * every version is searchable, and the version-3 step of the upgrade ladder builds it for what is
 * already stored (D4).
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../transcript/schema';
import { storeCapturedConversation } from './captured';
import { ConversationStore } from './conversations';
import { DB_VERSION, openBatonDb, type BatonDb, type ConversationRecord } from './db';
import { importConversations } from './import-store';
import { searchConversations, snippetOf } from './search';
import { TITLE_SEQ, termsOf } from './search-index';
import { failUpgrade, seedOldVersion, user } from './store.test-helper';

let n = 0;
const open: BatonDb[] = [];
async function fresh(): Promise<ConversationStore> {
  const db = await openBatonDb(`search-${++n}`);
  open.push(db);
  return new ConversationStore(db);
}
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

const T0 = '2026-12-01T10:00:00.000Z';
const answer = (id: string, text: string): Turn => ({
  id,
  role: 'assistant',
  origin: { provider: 'openai', api: 'openai-responses', model: 'm' },
  blocks: [{ type: 'text', text }],
});
const found = async (db: BatonDb, q: string) =>
  (await searchConversations(db, q)).map((h) => `${h.conversationId}/${h.turnId ?? 'title'}`);
const marked = (parts: { text: string; mark?: true }[]) => parts.filter((p) => p.mark).map((p) => p.text);

describe('terms', () => {
  it('are MiniSearch words, lower case, accents folded, distinct; overlong runs are left out', () => {
    expect(termsOf('Zürich, zurich! Café-au-lait ' + 'x'.repeat(65))).toEqual(['zurich', 'cafe', 'au', 'lait']);
  });
});

describe('search', () => {
  it('finds a word that occurs only in an assistant answer, with its snippet, across conversations', async () => {
    const s = await fresh();
    await s.create({ id: 'c1', now: T0, title: 'Trip planning' });
    await s.appendTurn('c1', user('u1', 'What should I see in the old town?'), T0);
    await s.appendTurn('c1', answer('a1', 'Visit the Grossmünster, then walk along the Limmat river.'), T0);
    await s.create({ id: 'c2', now: T0, title: 'Other' });
    await s.appendTurn('c2', user('x1', 'Nothing about rivers here.'), T0);

    const hits = await searchConversations(s.db, 'limmat');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ conversationId: 'c1', title: 'Trip planning', turnId: 'a1', role: 'assistant' });
    expect(marked(hits[0]!.snippet)).toEqual(['Limmat']);
    expect(hits[0]!.snippet.map((p) => p.text).join('')).toContain('walk along the Limmat river');
    // Accents folded, the last word a prefix, every word required.
    expect(await found(s.db, 'grossmunster')).toEqual(['c1/a1']);
    expect(await found(s.db, 'walk lim')).toEqual(['c1/a1']);
    expect(await found(s.db, 'walk nothing')).toEqual([]);
    expect((await found(s.db, 'river')).sort()).toEqual(['c1/a1', 'c2/x1']);
    expect(await found(s.db, 'rivers')).toEqual(['c2/x1']);
    // Titles too, with the title's own hit.
    expect(await found(s.db, 'planning')).toEqual(['c1/title']);
    expect(await found(s.db, '  ,, ')).toEqual([]);
    // A prefix matching several words of one turn lists it once.
    await s.appendTurn('c2', answer('x2', 'Theme, theory and thermal things.'), T0);
    expect((await found(s.db, 'ther')).sort()).toEqual(['c2/x2']);
    expect(new Set(await found(s.db, 'th')).size).toBe((await found(s.db, 'th')).length);
  });

  it('indexes tool results and leaves thinking out', async () => {
    const s = await fresh();
    await s.create({ id: 'c1', now: T0 });
    await s.appendTurn(
      'c1',
      {
        id: 'a1',
        role: 'assistant',
        origin: { provider: 'openai', api: 'openai-responses', model: 'm' },
        blocks: [
          { type: 'thinking', text: 'pondering quixotic' },
          { type: 'tool_call', id: 'call1', name: 'weather', input: {} },
        ],
      },
      T0,
    );
    await s.appendTurn(
      'c1',
      {
        id: 'u2',
        role: 'user',
        blocks: [{ type: 'tool_result', callId: 'call1', content: [{ type: 'text', text: 'Drizzle all day' }] }],
      },
      T0,
    );
    expect(await found(s.db, 'drizzle')).toEqual(['c1/u2']);
    expect(await found(s.db, 'quixotic')).toEqual([]);
  });

  it('a streamed answer checkpointed (putTurn) replaces its words; renaming replaces the title', async () => {
    const s = await fresh();
    await s.create({ id: 'c1', now: T0 });
    await s.appendTurn('c1', answer('a1', 'first draft'), T0);
    await s.putTurn('c1', answer('a1', 'final wording'), T0);
    expect(await found(s.db, 'draft')).toEqual([]);
    expect(await found(s.db, 'wording')).toEqual(['c1/a1']);
    await s.update('c1', { title: 'Renamed thing' });
    expect(await found(s.db, 'renamed')).toEqual(['c1/title']);
    expect(await found(s.db, 'new chat')).toEqual([]);
  });

  it('every version stays searchable; deleting a version or a conversation removes its entries', async () => {
    const s = await fresh();
    await s.create({ id: 'c1', now: T0 });
    await s.appendTurn('c1', user('u1', 'question'), T0);
    await s.appendTurn('c1', answer('a1', 'alpha answer'), T0);
    // A regenerate: a second version of the answer; the first is on another branch now.
    await s.appendTurn('c1', answer('a1b', 'beta answer'), T0, {}, 'a1');
    expect(await found(s.db, 'alpha')).toEqual(['c1/a1']);
    expect(await found(s.db, 'beta')).toEqual(['c1/a1b']);
    await s.deleteTurnsFrom('c1', 'a1', T0, true);
    expect(await found(s.db, 'alpha')).toEqual([]);
    expect(await found(s.db, 'answer')).toEqual(['c1/a1b']);
    await s.deleteTurn('c1', 'a1b', T0);
    expect(await found(s.db, 'beta')).toEqual([]);
    await s.delete('c1');
    expect(await s.db.count('search')).toBe(0);
  });

  it('an aborted write leaves no index entry (the same transaction)', async () => {
    const s = await fresh();
    // Two turns with one id: the second add fails after the title and the first turn were indexed.
    await expect(
      storeCapturedConversation(s.db, {
        id: 'cap',
        title: 'Captured zeppelin',
        now: T0,
        source: { kind: 'chatgpt', url: 'https://chatgpt.com/c/1' } as never,
        turns: [user('same', 'zeppelin one'), answer('same', 'zeppelin two')],
      }),
    ).rejects.toThrow();
    expect(await found(s.db, 'zeppelin')).toEqual([]);
    expect(await s.db.count('search')).toBe(0);
    // A conversation that goes in whole is indexed whole.
    await storeCapturedConversation(s.db, {
      id: 'cap2',
      title: 'Captured',
      now: T0,
      source: { kind: 'chatgpt', url: 'https://chatgpt.com/c/2' } as never,
      turns: [user('u', 'hello'), answer('a', 'zeppelin answer')],
    });
    expect(await found(s.db, 'zeppelin')).toEqual(['cap2/a']);
  });

  it('imported conversations are indexed, every branch included', async () => {
    const s = await fresh();
    const out = await importConversations(
      s.db,
      [
        {
          format: 'baton.transcript',
          version: 1,
          id: 'imp',
          title: 'Imported notes',
          turns: [user('u1', 'porcupine facts'), answer('a1', 'quills everywhere')],
        },
      ],
      { now: T0 },
    );
    expect(out.imported).toHaveLength(1);
    expect(await found(s.db, 'quills')).toEqual(['imp/a1']);
    expect(await found(s.db, 'imported')).toEqual(['imp/title']);
  });
});

describe('very common words (the candidate caps)', () => {
  // Small caps, so a handful of turns stands for thousands: 4 keys read per word, 3 records ranked.
  const caps = { keys: 4, ranked: 3 };
  const hits = async (db: BatonDb, q: string) =>
    (await searchConversations(db, q, 20, caps)).map((h) => `${h.conversationId}/${h.turnId ?? 'title'}`);

  it('a rare word beside a very common one still finds its turn, first', async () => {
    const s = await fresh();
    await s.create({ id: 'c1', now: T0, title: 'One' });
    for (let i = 0; i < 8; i++) await s.appendTurn('c1', user(`u${i}`, `the turn number ${i}`), T0);
    // Far past the common word's first keys, so its capped list cannot vouch for this turn.
    await s.create({ id: 'c9', now: T0, title: 'Nine' });
    await s.appendTurn('c9', answer('z', 'the zanzibar archipelago and the coast'), T0);
    expect(await hits(s.db, 'the zanzibar')).toEqual(['c9/z']);
    expect(await hits(s.db, 'zanzibar the')).toEqual(['c9/z']);
    expect(await hits(s.db, 'the zanz')).toEqual(['c9/z']);
  });

  it('a word in more records than the cap ranks at most the capped number, each holding the word', async () => {
    const s = await fresh();
    await s.create({ id: 'c1', now: T0, title: 'One' });
    for (let i = 0; i < 8; i++) await s.appendTurn('c1', user(`u${i}`, `the turn number ${i}`), T0);
    const got = await searchConversations(s.db, 'the', 20, caps);
    expect(got).toHaveLength(caps.ranked);
    for (const h of got) expect(marked(h.snippet)).toEqual(['the']);
    // The first records holding it, in key order (then ranked among themselves).
    expect(got.map((h) => h.turnId).sort()).toEqual(['u0', 'u1', 'u2']);
    // Without the cap every one is found.
    expect(await searchConversations(s.db, 'the')).toHaveLength(8);
  });

  it('two words each over the cap: records holding both come before the first records holding one', async () => {
    const s = await fresh();
    await s.create({ id: 'c1', now: T0, title: 'One' });
    const texts = ['alpha beta', 'alpha', 'alpha', 'beta', 'beta', 'alpha beta', 'alpha beta', 'alpha', 'beta'];
    for (const [i, text] of texts.entries()) await s.appendTurn('c1', user(`u${i}`, text), T0);
    // alpha's first 4 keys: u0 u1 u2 u5; beta's: u0 u3 u4 u5; both hold u0 and u5 (u6 is past the caps).
    expect((await hits(s.db, 'alpha beta')).sort()).toEqual(['c1/u0', 'c1/u5']);
    expect((await hits(s.db, 'beta alpha')).sort()).toEqual(['c1/u0', 'c1/u5']);
    // Uncapped, every turn holding both.
    expect((await found(s.db, 'alpha beta')).sort()).toEqual(['c1/u0', 'c1/u5', 'c1/u6']);
  });
});

describe('snippets', () => {
  it('show the words around the first match on one line, marking every match', () => {
    const text = `${'lead '.repeat(30)}the\nneedle is here and another needle there ${'tail '.repeat(60)}`;
    const parts = snippetOf(text, new Set(['needle']));
    const flat = parts.map((p) => p.text).join('');
    expect(flat.startsWith('…')).toBe(true);
    expect(flat.endsWith('…')).toBe(true);
    expect(flat).toContain('the needle is here and another needle there');
    expect(flat).not.toContain('\n');
    expect(marked(parts)).toEqual(['needle', 'needle']);
    expect(snippetOf('short text', new Set(['text']))).toEqual([{ text: 'short ' }, { text: 'text', mark: true }]);
  });
});

describe('upgrade ladder, version 3: the search index', () => {
  const conv = (id: string, title: string, count: number): ConversationRecord =>
    ({ id, title, createdAt: T0, updatedAt: T0, turnCount: count, preview: '', nextSeq: count }) as ConversationRecord;

  it('D4 a version-2 database reopens with every title and every turn (all branches) indexed', async () => {
    const name = `search-ladder-${++n}`;
    await seedOldVersion(name, 2, { ...conv('a', 'Walrus trip', 2), nextSeq: 3, activeLeaf: 'a2b' }, [
      { conversationId: 'a', seq: 0, parentId: '', turn: user('a1', 'tell me about tusks') },
      { conversationId: 'a', seq: 1, parentId: 'a1', turn: answer('a2', 'ivory tusks') },
      { conversationId: 'a', seq: 2, parentId: 'a1', turn: answer('a2b', 'long teeth') },
    ]);
    const db = await openBatonDb(name);
    open.push(db);
    expect(db.version).toBe(DB_VERSION);
    expect(await found(db, 'walrus')).toEqual(['a/title']);
    expect(await found(db, 'ivory')).toEqual(['a/a2']);
    expect(await found(db, 'teeth')).toEqual(['a/a2b']);
    expect((await db.getAll('search')).map((r) => r.seq)).toEqual([TITLE_SEQ, 0, 1, 2]);
    // Later writes keep it current.
    await new ConversationStore(db).appendTurn('a', user('a3', 'narwhal next'), T0);
    expect(await found(db, 'narwhal')).toEqual(['a/a3']);
  });

  it('D4 a version-1 database climbs both steps: chained, then indexed', async () => {
    const name = `search-ladder-${++n}`;
    await seedOldVersion(name, 1, conv('b', 'Old one', 2), [
      { conversationId: 'b', seq: 0, turn: user('b1', 'hello') },
      { conversationId: 'b', seq: 1, turn: answer('b2', 'saxophone') },
    ]);
    const db = await openBatonDb(name);
    open.push(db);
    expect((await new ConversationStore(db).get('b')).turns.map((t) => t.id)).toEqual(['b1', 'b2']);
    expect(await found(db, 'saxophone')).toEqual(['b/b2']);
  });

  it('D4 an upgrade to version 3 that fails leaves the version-2 data readable', async () => {
    const name = `search-ladder-${++n}`;
    await seedOldVersion(name, 2, { ...conv('c', 'Keep', 1), activeLeaf: 'c1' }, [
      { conversationId: 'c', seq: 0, parentId: '', turn: user('c1', 'keep me') },
    ]);
    const outcome = await failUpgrade(name, 3);
    expect(outcome).toBe('AbortError');
    const old = await openBatonDb(name, {}, 2);
    expect(old.version).toBe(2);
    expect([...old.objectStoreNames]).not.toContain('search');
    expect((await old.getAll('turns')).map((r) => r.turn)).toEqual([user('c1', 'keep me')]);
    old.close();
    const db = await openBatonDb(name);
    open.push(db);
    expect(await found(db, 'keep')).toEqual(['c/title', 'c/c1']);
  });
});
