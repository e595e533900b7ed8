/**
 * The tree of turns (docs/transcript.md#versions-and-branches): the version-2 step of the upgrade
 * ladder, the active path every reader sees, versions from regenerate and edit, switching and
 * deleting versions, and the Baton export/import keeping every branch (property-tested).
 */
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { TRANSCRIPT_FORMAT, type Turn } from '../transcript/schema';
import { treeOf, withVersions, withoutVersions, otherVersionCount } from '../transcript/versions';
import { ConversationStore } from './conversations';
import { DB_VERSION, openBatonDb, type BatonDb, type ConversationRecord } from './db';
import { importConversations } from './import-store';
import { readTurnWindow } from './turn-window';

let n = 0;
const open: BatonDb[] = [];
async function fresh(): Promise<ConversationStore> {
  const db = await openBatonDb(`tree-${++n}`);
  open.push(db);
  return new ConversationStore(db);
}
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

const T0 = '2026-12-01T10:00:00.000Z';
const user = (id: string, text = id): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
const answer = (id: string, provider = 'openai'): Turn => ({
  id,
  role: 'assistant',
  origin: { provider, api: 'openai-responses', model: 'm' },
  blocks: [{ type: 'text', text: id }],
});
const ids = (turns: readonly Turn[]) => turns.map((t) => t.id);

async function linear(s: ConversationStore, turns: Turn[]): Promise<void> {
  await s.create({ id: 'c1', now: T0 });
  for (const t of turns) await s.appendTurn('c1', t, T0);
}

describe('upgrade ladder, version 2: linear conversations become trees', () => {
  it('D4 a version-1 database (old record shapes, two interleaved conversations) reopens with each path intact', async () => {
    const name = `tree-ladder-${++n}`;
    const v1 = await openBatonDb(name, {}, 1);
    expect(v1.version).toBe(1);
    const conv = (id: string, count: number): ConversationRecord =>
      ({
        id,
        title: id,
        createdAt: T0,
        updatedAt: T0,
        turnCount: count,
        preview: '',
        nextSeq: count + 1,
      }) as ConversationRecord;
    await v1.add('conversations', conv('a', 3));
    await v1.add('conversations', conv('b', 2));
    await v1.add('conversations', conv('empty', 0));
    // The version-1 shape: no parentId, seq gaps from an old delete.
    const old = (conversationId: string, seq: number, turn: Turn) => ({ conversationId, seq, turn }) as never;
    await v1.add('turns', old('b', 0, user('b1')));
    await v1.add('turns', old('a', 0, user('a1')));
    await v1.add('turns', old('a', 2, answer('a2')));
    await v1.add('turns', old('b', 1, answer('b2')));
    await v1.add('turns', old('a', 3, user('a3')));
    v1.close();

    const db = await openBatonDb(name);
    open.push(db);
    expect(db.version).toBe(DB_VERSION);
    const s = new ConversationStore(db);
    expect(ids((await s.get('a')).turns)).toEqual(['a1', 'a2', 'a3']);
    expect(ids((await s.get('b')).turns)).toEqual(['b1', 'b2']);
    expect((await s.get('empty')).turns).toEqual([]);
    expect((await s.getRecord('a'))?.activeLeaf).toBe('a3');
    expect((await s.getRecord('empty'))?.activeLeaf).toBeUndefined();
    const parents = (await db.getAll('turns')).map((r) => [r.turn.id, r.parentId]);
    expect(parents).toEqual([
      ['a1', ''],
      ['a2', 'a1'],
      ['a3', 'a2'],
      ['b1', ''],
      ['b2', 'b1'],
    ]);
    // And it keeps working: a new turn continues the path.
    await s.appendTurn('a', answer('a4'), T0);
    expect(ids((await s.toTranscript('a')).turns)).toEqual(['a1', 'a2', 'a3', 'a4']);
  });
});

describe('versions and the active path', () => {
  it('a regenerate adds an answer beside the first; every reader sees only the active one', async () => {
    const s = await fresh();
    await linear(s, [user('u1'), answer('a1'), user('u2'), answer('a2', 'openai')]);
    // What the engine does for a regenerate: the path ends at the answered turn, then the new answer is appended.
    await s.selectTurn('c1', 'u2', T0, true);
    const meta = await s.appendTurn('c1', answer('a2b', 'anthropic'), T0);
    expect(meta.turnCount).toBe(4);
    expect(ids((await s.get('c1')).turns)).toEqual(['u1', 'a1', 'u2', 'a2b']);
    expect(ids((await s.cachedTranscript('c1')).turns)).toEqual(['u1', 'a1', 'u2', 'a2b']);
    expect(ids((await s.get('c1', 2)).turns)).toEqual(['u2', 'a2b']);
    const w = await readTurnWindow(s.db, 'c1', { limit: 3 });
    expect([ids(w.turns), w.hasEarlier, w.first?.id]).toEqual([['a1', 'u2', 'a2b'], true, 'u1']);
    expect(w.versions).toEqual({ a2b: { index: 2, count: 2, previous: 'a2' } });
    // The first answer stays reachable.
    await s.selectTurn('c1', 'a2', T0);
    expect(ids((await s.toTranscript('c1')).turns)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect((await readTurnWindow(s.db, 'c1', {})).versions).toEqual({ a2: { index: 1, count: 2, next: 'a2b' } });
  });

  it('an edit of the third of six user turns starts a branch; switching follows the newest continuation', async () => {
    const s = await fresh();
    const six = [1, 2, 3, 4, 5, 6].flatMap((i) => [user(`u${i}`), answer(`a${i}`)]);
    await linear(s, six);
    const meta = await s.appendTurn('c1', user('u3b', 'edited'), T0, {}, 'u3');
    expect(meta.turnCount).toBe(5);
    await s.appendTurn('c1', answer('a3b'), T0);
    expect(ids((await s.get('c1')).turns)).toEqual(['u1', 'a1', 'u2', 'a2', 'u3b', 'a3b']);
    // Back to the first version of turn 3: its branch is whole again, up to a6.
    await s.selectTurn('c1', 'u3', T0);
    expect(ids((await s.get('c1')).turns)).toEqual(ids(six));
    expect((await s.getRecord('c1'))?.turnCount).toBe(12);
    // An edit of the first message makes a second root.
    await s.appendTurn('c1', user('u1b'), T0, {}, 'u1');
    expect(ids((await s.get('c1')).turns)).toEqual(['u1b']);
    expect((await readTurnWindow(s.db, 'c1', {})).versions).toEqual({ u1b: { index: 2, count: 2, previous: 'u1' } });
    await s.selectTurn('c1', 'u1', T0);
    // The newest continuation of u1 reaches the u3b branch (created after the first one).
    expect(ids((await s.get('c1')).turns)).toEqual(['u1', 'a1', 'u2', 'a2', 'u3b', 'a3b']);
  });

  it('deleting one version removes it and its later turns only, and shows the version before it', async () => {
    const s = await fresh();
    await linear(s, [user('u1'), answer('a1'), user('u2'), answer('a2')]);
    await s.appendTurn('c1', user('u2b'), T0, {}, 'u2');
    await s.appendTurn('c1', answer('a2b'), T0);
    const r = await s.deleteTurnsFrom('c1', 'u2b', T0, true);
    expect(r.deleted.sort()).toEqual(['a2b', 'u2b']);
    expect(r.meta.turnCount).toBe(4);
    expect(ids((await s.get('c1')).turns)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(await s.versionCount('c1', 'u2')).toBe(1);
    // A version not on the active path: the path stays.
    await s.appendTurn('c1', user('u2c'), T0, {}, 'u2');
    await s.selectTurn('c1', 'u2', T0);
    await s.deleteTurnsFrom('c1', 'u2c', T0, true);
    expect(ids((await s.get('c1')).turns)).toEqual(['u1', 'a1', 'u2', 'a2']);
  });

  it('the window pages back along the active path only', async () => {
    const s = await fresh();
    await linear(s, [user('u1'), answer('a1'), user('u2'), answer('a2')]);
    await s.appendTurn('c1', user('u2b'), T0, {}, 'u2');
    await s.appendTurn('c1', answer('a2b'), T0);
    const w = await readTurnWindow(s.db, 'c1', { limit: 1, before: 'u2b' });
    expect([ids(w.turns), w.hasEarlier]).toEqual([['a1'], true]);
    const whole = await readTurnWindow(s.db, 'c1', {});
    expect([ids(whole.turns), whole.hasEarlier]).toEqual([['u1', 'a1', 'u2b', 'a2b'], false]);
  });
});

/** A random tree built by the store's own operations: appends, regenerates, edits and switches. */
const opArb = fc.array(
  fc.record({ kind: fc.constantFrom('append', 'regenerate', 'edit', 'select'), pick: fc.nat(50) }),
  { minLength: 1, maxLength: 25 },
);

describe('Baton export and import keep every branch', () => {
  it('round trip: the tree, the order of versions and the active path come back exactly (property)', async () => {
    await fc.assert(
      fc.asyncProperty(opArb, async (ops) => {
        const s = await fresh();
        await s.create({ id: 'c1', now: T0, title: 'Tree' });
        let k = 0;
        for (const op of ops) {
          const path = (await s.get('c1')).turns;
          const all = (await s.toTranscriptTree('c1')).tree.turns;
          const last = path.at(-1);
          if (op.kind === 'append' || !last) {
            await s.appendTurn('c1', last?.role === 'user' ? answer(`t${k++}`) : user(`t${k++}`), T0);
          } else if (op.kind === 'regenerate') {
            const u = path.findLast((t) => t.role === 'user');
            if (u) {
              await s.selectTurn('c1', u.id, T0, true);
              await s.appendTurn('c1', answer(`t${k++}`, 'anthropic'), T0);
            }
          } else if (op.kind === 'edit') {
            const users = path.filter((t) => t.role === 'user');
            const u = users[op.pick % users.length];
            if (u) await s.appendTurn('c1', user(`t${k++}`, 'edited'), T0, {}, u.id);
          } else {
            await s.selectTurn('c1', all[op.pick % all.length]!.turn.id, T0);
          }
        }
        const { transcript, tree } = await s.toTranscriptTree('c1');
        const file = JSON.parse(JSON.stringify(withVersions(transcript, tree)));
        // Every other reader sees a plain transcript v1 of the active path.
        expect(withoutVersions(file).turns).toEqual((await s.get('c1')).turns);
        const target = await fresh();
        const out = await importConversations(target.db, [file], { now: T0 });
        expect(out.failed).toEqual([]);
        const before = await s.toTranscriptTree('c1');
        const after = await target.toTranscriptTree('c1');
        expect(after.tree).toEqual(before.tree);
        expect((await target.getRecord('c1'))?.turnCount).toBe((await s.getRecord('c1'))?.turnCount);
        expect((await target.get('c1')).turns).toEqual((await s.get('c1')).turns);
        expect(otherVersionCount(file)).toBe(before.tree.turns.length - transcript.turns.length);
      }),
      { numRuns: 25 },
    );
  });

  it('a malformed tree in the file is refused whole, naming where', async () => {
    const base = {
      format: TRANSCRIPT_FORMAT,
      version: 1 as const,
      id: 'x',
      turns: [user('u1'), answer('a1')],
    };
    const bad = [
      { order: [['u1', null]], turns: [] },
      {
        order: [
          ['u1', null],
          ['a1', 'u1'],
          ['a0', 'zz'],
        ],
        turns: [answer('a0')],
      },
      {
        order: [
          ['u1', null],
          ['a1', 'u1'],
          ['a0', 'u1'],
        ],
        turns: [{ id: 'a0', role: 'assistant', blocks: [] }],
      },
      'nope',
    ];
    for (const v of bad) expect(() => treeOf({ ...base, meta: { batonVersions: v } })).toThrow(/meta\.batonVersions/);
    const s = await fresh();
    const out = await importConversations(s.db, [{ ...base, meta: { batonVersions: bad[1] } }], { now: T0 });
    expect(out.failed.map((f) => f.reason)).toEqual([
      expect.stringMatching(/parent zz of turn a0 is not an earlier turn/),
    ]);
    expect(await s.list()).toEqual([]);
  });
});
