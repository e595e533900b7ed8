import 'fake-indexeddb/auto';
import { unwrap } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transcript, Turn } from '../transcript/schema';
import { ConversationStore } from './conversations';
import { openBatonDb, type BatonDb } from './db';
import { dedupeKey, importConversations, isQuotaError, STORAGE_FULL } from './import-store';
import { storageFullError } from './quota';

let n = 0;
let db: BatonDb | undefined;
async function open(): Promise<{ db: BatonDb; store: ConversationStore }> {
  db = await openBatonDb(`import-test-${++n}`);
  return { db, store: new ConversationStore(db) };
}
afterEach(() => db?.close());

const NOW = '2026-11-30T10:00:00.000Z';
const LATER = '2026-11-30T11:00:00.000Z';
const user = (id: string, text: string, createdAt?: string): Turn => ({
  id,
  role: 'user',
  ...(createdAt ? { createdAt } : {}),
  blocks: [{ type: 'text', text }],
});
const answer = (id: string, text: string, extra: Partial<Turn> = {}): Turn => ({
  id,
  role: 'assistant',
  origin: { provider: 'chatgpt-web', api: 'web', model: 'gpt-4' },
  blocks: [{ type: 'text', text }],
  ...extra,
});
const conv = (sourceId: string, turns: Turn[], extra: Partial<Transcript> = {}): Transcript => ({
  format: 'baton.transcript',
  version: 1,
  id: `chatgpt-export:${sourceId}`,
  title: `Chat ${sourceId}`,
  source: { kind: 'chatgpt-export', id: sourceId },
  turns,
  ...extra,
});

describe('importConversations', () => {
  it('writes each conversation with its turns and list metadata', async () => {
    const { db, store } = await open();
    const a = conv(
      'a',
      [
        user('u1', 'Hello', '2024-01-01T10:00:00.000Z'),
        answer('a1', 'Hi there', { createdAt: '2024-01-01T10:00:05.000Z' }),
      ],
      { createdAt: '2024-01-01T09:59:00.000Z', meta: { importWarnings: ['x'] } },
    );
    const out = await importConversations(db, [a], { now: NOW, file: 'conversations.json' });
    expect(out).toEqual({
      imported: [{ id: 'chatgpt-export:a', title: 'Chat a', turns: 2, warnings: ['x'] }],
      duplicates: [],
      failed: [],
    });
    expect(await store.list()).toEqual([
      {
        id: 'chatgpt-export:a',
        title: 'Chat a',
        createdAt: '2024-01-01T09:59:00.000Z',
        updatedAt: '2024-01-01T10:00:05.000Z',
        turnCount: 2,
        preview: 'Hi there',
        source: { kind: 'chatgpt-export', id: 'a' },
      },
    ]);
    const { record, turns } = await store.get('chatgpt-export:a');
    expect(turns).toEqual(a.turns);
    expect(record.meta).toEqual({
      batonImport: {
        key: 'source:chatgpt-export:a',
        hash: expect.stringMatching(/^[0-9a-f]{16}$/),
        at: NOW,
        file: 'conversations.json',
        meta: { importWarnings: ['x'] },
      },
    });
    // A new turn goes after the imported ones.
    await store.appendTurn('chatgpt-export:a', user('u2', 'More'), LATER);
    expect((await store.get('chatgpt-export:a')).turns.map((t) => t.id)).toEqual(['u1', 'a1', 'u2']);
  });

  it('I3 the same batch twice adds nothing and says why', async () => {
    const { db, store } = await open();
    const batch = [conv('a', [user('u1', 'one')]), conv('b', [user('u1', 'two')])];
    await importConversations(db, batch, { now: NOW });
    const again = await importConversations(db, batch, { now: LATER });
    expect(again).toEqual({
      imported: [],
      duplicates: [
        { id: 'chatgpt-export:a', title: 'Chat a', reason: 'already imported (unchanged)' },
        { id: 'chatgpt-export:b', title: 'Chat b', reason: 'already imported (unchanged)' },
      ],
      failed: [],
    });
    expect((await store.list()).map((c) => c.id).sort()).toEqual(['chatgpt-export:a', 'chatgpt-export:b']);
    expect(await db.count('turns')).toBe(2);
  });

  it('I3 a newer version of an imported conversation is a duplicate that says it differs', async () => {
    const { db, store } = await open();
    await importConversations(db, [conv('a', [user('u1', 'one')])], { now: NOW });
    const grown = conv('a', [user('u1', 'one'), answer('a1', 'two')]);
    expect((await importConversations(db, [grown], { now: LATER })).duplicates).toEqual([
      {
        id: 'chatgpt-export:a',
        title: 'Chat a',
        reason: 'already imported; the file holds a different version — delete the stored one to import this one',
      },
    ]);
    expect((await store.get('chatgpt-export:a')).turns).toEqual([user('u1', 'one')]);
  });

  it('I3 dedupes by source kind and id even under another conversation id', async () => {
    const { db, store } = await open();
    await store.create({ id: 'captured-1', now: NOW, source: { kind: 'chatgpt-export', id: 'a' } });
    const out = await importConversations(db, [conv('a', [user('u1', 'one')])], { now: NOW });
    expect(out.duplicates).toEqual([
      { id: 'captured-1', title: 'Chat a', reason: 'already in Baton (same source chatgpt-export)' },
    ]);
    expect(out.imported).toEqual([]);
    expect(await db.count('turns')).toBe(0);
  });

  it('I3 dedupes by content hash when the source has no id', async () => {
    const { db } = await open();
    const t1: Transcript = {
      format: 'baton.transcript',
      version: 1,
      id: 'x1',
      source: { kind: 'chatgpt-web', url: 'https://chatgpt.com/c/1' },
      turns: [user('u1', 'same')],
    };
    const t2: Transcript = { ...t1, id: 'x2' };
    const t3: Transcript = { ...t1, id: 'x3', turns: [user('u1', 'different')] };
    expect(dedupeKey(t1)).toBe(dedupeKey(t2));
    expect(dedupeKey(t1)).not.toBe(dedupeKey(t3));
    const out = await importConversations(db, [t1, t2, t3], { now: NOW });
    expect(out.imported.map((c) => c.id)).toEqual(['x1', 'x3']);
    expect(out.duplicates).toEqual([{ id: 'x1', reason: 'already imported (unchanged)' }]);
  });

  it('I3 a conversation that fails midway leaves nothing behind; the others still import', async () => {
    const { db, store } = await open();
    // An orphan turn record at seq 1 of "chatgpt-export:bad": the second turn's write fails after
    // the metadata and the first turn were written in the same transaction.
    await db.add('turns', { conversationId: 'chatgpt-export:bad', seq: 1, parentId: '', turn: user('orphan', 'x') });
    const out = await importConversations(
      db,
      [
        conv('ok1', [user('u1', 'a')]),
        conv('bad', [user('u1', 'b'), answer('a1', 'c')]),
        conv('ok2', [user('u1', 'd')]),
      ],
      { now: NOW },
    );
    expect(out.imported.map((c) => c.id)).toEqual(['chatgpt-export:ok1', 'chatgpt-export:ok2']);
    expect(out.failed).toEqual([
      {
        id: 'chatgpt-export:bad',
        title: 'Chat bad',
        reason: expect.stringMatching(/^could not be stored \(nothing was written\): ConstraintError/),
      },
    ]);
    expect(await store.getRecord('chatgpt-export:bad')).toBeUndefined();
    const left = await db.getAll(
      'turns',
      IDBKeyRange.bound(['chatgpt-export:bad', -Infinity], ['chatgpt-export:bad', Infinity]),
    );
    expect(left.map((r) => r.turn.id)).toEqual(['orphan']);
  });

  it('rejects an invalid transcript with its JSON path and imports the rest', async () => {
    const { db } = await open();
    const bad = {
      ...conv('a', [user('u1', 'x')]),
      turns: [{ id: 'u1', role: 'user', blocks: [{ type: 'text', txt: 'x' }] }],
    } as unknown as Transcript;
    const out = await importConversations(db, [bad, conv('b', [user('u1', 'y')])], { now: NOW });
    expect(out.imported.map((c) => c.id)).toEqual(['chatgpt-export:b']);
    expect(out.failed).toHaveLength(1);
    expect(out.failed[0]).toMatchObject({ id: 'chatgpt-export:a', title: 'Chat a' });
    expect(out.failed[0]!.reason).toMatch(/^not a valid transcript: .*turns\[0\]\.blocks\[0\]/);
  });

  it('stores a streaming turn as interrupted and shortens an over-long id', async () => {
    const { db, store } = await open();
    const long = 'y'.repeat(300);
    const t: Transcript = {
      format: 'baton.transcript',
      version: 1,
      id: long,
      turns: [user('u1', 'q'), answer('a1', 'partial', { status: 'streaming' })],
    };
    const out = await importConversations(db, [t], { now: NOW });
    const id = out.imported[0]!.id;
    expect(id).toMatch(/^import:[0-9a-f]{16}$/);
    const got = await store.get(id);
    expect(got.turns[1]).toEqual(answer('a1', 'partial', { status: 'interrupted' }));
    expect(got.record).toMatchObject({
      title: 'Imported conversation',
      createdAt: NOW,
      updatedAt: NOW,
      turnCount: 2,
      preview: 'partial',
    });
  });

  it('D2 storage full: the conversation being written and every later one are left out whole, earlier ones stay', async () => {
    const { db, store } = await open();
    await importConversations(db, [conv('old', [user('u1', 'kept')])], { now: NOW });
    const before = { convs: await db.getAll('conversations'), turns: await db.getAll('turns') };
    // Fault injection on the raw IndexedDB objects (under idb's wrappers): from the second turn
    // written on, a write fails as a full disk makes it fail.
    let writes = 0;
    const raw = unwrap(db) as IDBDatabase;
    const transaction = raw.transaction;
    raw.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
      const t = transaction.apply(this, args);
      const objectStore = t.objectStore;
      t.objectStore = function (this: IDBTransaction, name: string) {
        const s = objectStore.call(this, name);
        const add = s.add;
        if (name === 'turns')
          s.add = function (this: IDBObjectStore, ...a: Parameters<IDBObjectStore['add']>) {
            if (++writes > 1) throw new DOMException('quota', 'QuotaExceededError');
            return add.apply(this, a);
          };
        return s;
      };
      return t;
    } as IDBDatabase['transaction'];
    const out = await importConversations(
      db,
      [conv('a', [user('u1', 'x')]), conv('b', [user('u1', 'y'), answer('a1', 'z')]), conv('c', [user('u1', 'w')])],
      { now: LATER },
    );
    raw.transaction = transaction;
    expect(out).toEqual({
      imported: [{ id: 'chatgpt-export:a', title: 'Chat a', turns: 1 }],
      duplicates: [],
      failed: [
        { id: 'chatgpt-export:b', title: 'Chat b', reason: STORAGE_FULL },
        { id: 'chatgpt-export:c', title: 'Chat c', reason: STORAGE_FULL },
      ],
    });
    expect((await store.list()).map((c) => c.id).sort()).toEqual(['chatgpt-export:a', 'chatgpt-export:old']);
    // The earlier conversation's records are byte-identical.
    expect(await db.get('conversations', 'chatgpt-export:old')).toEqual(before.convs[0]);
    expect((await db.getAll('turns')).filter((r) => r.conversationId === 'chatgpt-export:old')).toEqual(before.turns);
    expect(await store.getRecord('chatgpt-export:b')).toBeUndefined();
  });

  it('D2 recognises a quota error, also inside an AbortError', () => {
    expect([
      isQuotaError(new DOMException('q', 'QuotaExceededError')),
      isQuotaError(
        Object.assign(new DOMException('a', 'AbortError'), { inner: new DOMException('q', 'QuotaExceededError') }),
      ),
      isQuotaError(new DOMException('a', 'AbortError')),
      isQuotaError(new Error('x')),
      isQuotaError(storageFullError()),
    ]).toEqual([true, true, false, false, true]);
  });
});
