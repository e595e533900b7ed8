/**
 * Sync end to end in Node (docs/security.md#sync): two devices replicate through a real
 * `pouchdb-server --in-memory` on 127.0.0.1, started here. After each test, a scan of the server's
 * raw `_all_docs` and `_changes` finds no plaintext and no key pattern.
 */
import 'fake-indexeddb/auto';
import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Turn } from '../../transcript/schema';
import { SyncEngine } from './engine';
import { makeDevice, startPouchServer, type Device, type TestServer } from './sync-server.test-helper';

let server: TestServer;
let dbn = 0;
let url = '';
/** Every text a scan must not find on the server. */
let plaintexts: string[] = [];
const KEY = 'sk-proj-SyncTestKey0123456789abcdef';
const KEYISH = /sk-[A-Za-z0-9_-]{8,}|AIza[0-9A-Za-z_-]{20,}|sk-ant-/;
/** A server document id as `docIdOf` makes it (`h` + 22 base64url characters), quoted. */
const DOC_ID = /"h[A-Za-z0-9_-]{22}"/g;
/** A body's ciphertext as the server stores it (SY-3: `{ e: base64 }`). */
const CIPHERTEXT = /"e":"[A-Za-z0-9+/]+={0,2}"/g;

beforeAll(async () => {
  server = await startPouchServer();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const access = () => ({ url, user: '', password: '' });
const newDb = () => {
  url = `${server.origin}/baton-${++dbn}`;
  plaintexts = [];
};

const NOW = '2026-12-01T10:00:00.000Z';
const userTurn = (id: string, text: string): Turn => ({
  id,
  role: 'user',
  createdAt: NOW,
  blocks: [{ type: 'text', text }],
});
const asst = (id: string, blocks: Turn['blocks']): Turn => ({
  id,
  role: 'assistant',
  createdAt: NOW,
  status: 'complete',
  origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' },
  blocks,
});

/** A conversation with a tool call, its result, and two versions of the answer. */
async function seedConversation(d: Device, id = 'conv-alpha'): Promise<void> {
  await d.store.create({ id, title: 'Lighthouse keeper schedule', now: NOW, system: 'You are a tide expert' });
  await d.store.appendTurn(id, userTurn('u1', `When is high tide in Brest? my key ${KEY}`), NOW);
  await d.store.appendTurn(
    id,
    asst('a1', [{ type: 'tool_call', id: 'call_1', name: 'tide_table_lookup', input: { port: 'Brest' } }]),
    NOW,
  );
  await d.store.appendTurn(
    id,
    { id: 'r1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'call_1', content: 'HW 06:42 marmalade' }] },
    NOW,
  );
  await d.store.appendTurn(id, asst('a2', [{ type: 'text', text: 'High water at 06:42, first version zebra' }]), NOW);
  await d.store.appendTurn(
    id,
    asst('a2b', [{ type: 'text', text: 'High water 06:42, second version quokka' }]),
    NOW,
    {},
    'a2',
  );
  plaintexts.push(
    'Lighthouse',
    'tide expert',
    'Brest',
    'tide_table_lookup',
    'marmalade',
    'zebra',
    'quokka',
    'conv-alpha',
    'call_1',
    'gpt-5.5',
    'openai',
  );
}

/** Reads the server's raw `_all_docs` and `_changes` and fails on any plaintext or key pattern. */
async function scanServer(): Promise<void> {
  if (!url) return;
  const all = await (await fetch(`${url}/_all_docs?include_docs=true`)).text();
  const changes = await (await fetch(`${url}/_changes?include_docs=true&style=all_docs`)).text();
  for (const raw of [all, changes]) {
    // Document ids are 128 random-looking bits in base64url (docIdOf), so about one id in 20,000
    // holds "sk-" and eight more id characters by chance, and a body's ciphertext (base64, a few KB
    // per run) holds "AIza" and twenty more letters or digits about once in 5,000 runs; the key scan
    // looks at everything else. A body that is not pure base64 (a plaintext leak) is still scanned.
    expect(raw.replace(DOC_ID, '"<id>"').replace(CIPHERTEXT, '"e":"<ciphertext>"')).not.toMatch(KEYISH);
    expect(raw).not.toContain(KEY);
    for (const p of plaintexts) expect(raw, `server holds "${p}"`).not.toContain(p);
    const docs = JSON.parse(raw) as {
      rows?: { doc?: Record<string, unknown> }[];
      results?: { doc?: Record<string, unknown> }[];
    };
    for (const r of docs.rows ?? docs.results ?? []) {
      if (!r.doc) continue;
      const fields = Object.keys(r.doc).filter((k) => !k.startsWith('_'));
      expect(fields.every((k) => k === 'e')).toBe(true);
    }
  }
}

afterEach(async () => {
  await scanServer();
  url = '';
});

const PASS = 'correct horse battery staple';

/**
 * A fresh server database and device A holding the seeded conversation (or what `seed` writes),
 * with sync set up there (`create`). `over`: engine dependencies, as {@link makeDevice} takes them.
 */
async function deviceA(over: Parameters<typeof makeDevice>[1] = {}, seed = seedConversation): Promise<Device> {
  newDb();
  const a = await makeDevice('A', over);
  await seed(a);
  await a.engine.create({ ...access(), passphrase: PASS });
  return a;
}

/** {@link deviceA}, and device B joined to it with the same passphrase. */
async function twoDevices(
  over: Parameters<typeof makeDevice>[1] = {},
  seed = seedConversation,
): Promise<{ a: Device; b: Device }> {
  const a = await deviceA(over, seed);
  const b = await makeDevice('B', over);
  await b.engine.join({ ...access(), passphrase: PASS });
  return { a, b };
}

/** The server database's `update_seq`: it moves whenever anything is written there. */
const updateSeq = async () => ((await (await fetch(url)).json()) as { update_seq: unknown }).update_seq;

describe('SY-3 SY-5 two devices through a real CouchDB-protocol server', () => {
  it('SY-5 a conversation with tool calls and versions made on A appears on B whole, and continues there natively', async () => {
    newDb();
    const a = await makeDevice('A');
    const b = await makeDevice('B');
    await seedConversation(a);
    a.secrets.push(KEY);
    const sa = await a.engine.create({ ...access(), passphrase: PASS });
    expect(sa.state, JSON.stringify(sa.error)).toBe('idle');
    const sb = await b.engine.join({ ...access(), passphrase: PASS });
    expect(sb.state, JSON.stringify(sb.error)).toBe('idle');

    const onA = await a.store.toTranscriptTree('conv-alpha');
    const onB = await b.store.toTranscriptTree('conv-alpha');
    expect(onB.transcript.title).toBe('Lighthouse keeper schedule');
    expect(onB.transcript.system).toBe('You are a tide expert');
    expect(onB.transcript.turns.map((t) => t.id)).toEqual(['u1', 'a1', 'r1', 'a2b']);
    expect(onB.tree.turns.map((t) => [t.turn.id, t.parentId]).sort()).toEqual(
      onA.tree.turns.map((t) => [t.turn.id, t.parentId]).sort(),
    );
    expect(onB.transcript.turns[1]).toEqual(onA.transcript.turns[1]);
    // The key typed into a message never left A.
    expect(JSON.stringify(onB)).not.toContain(KEY);
    expect(await b.store.versionCount('conv-alpha', 'a2b')).toBe(2);
    expect(b.events.some((e) => e.type === 'conversationUpdated')).toBe(true);

    // B continues natively; A receives it.
    await b.store.appendTurn('conv-alpha', userTurn('u2', 'And tomorrow?'), NOW);
    await b.engine.syncNow();
    await a.engine.syncNow();
    const a2 = await a.store.toTranscript('conv-alpha');
    expect(a2.turns.map((t) => t.id)).toEqual(['u1', 'a1', 'r1', 'a2b', 'u2']);
  }, 60_000);

  it('SY-5 nothing is echoed: a cycle after both devices are in step writes nothing to the server', async () => {
    const { a, b } = await twoDevices();
    await a.engine.syncNow();
    await b.engine.syncNow();
    expect((await b.store.toTranscript('conv-alpha')).turns).toHaveLength(4);
    const before = await updateSeq();
    await a.engine.syncNow();
    await b.engine.syncNow();
    expect(await updateSeq()).toEqual(before);
  }, 60_000);

  it('SY-4 concurrent title edits converge on both devices by edit time, whichever arrives last; edits of different fields both survive', async () => {
    let clock = Date.parse(NOW);
    const { a, b } = await twoDevices({ now: () => clock });
    const at = (ms: number) => new Date(ms).toISOString();
    // B edits the title after A, and pins; A's edit reaches the server last.
    await a.store.update('conv-alpha', { title: 'Title from A' }, at(clock + 5));
    await b.store.update('conv-alpha', { title: 'Title from B', pinned: true }, at(clock + 10));
    clock += 20;
    await b.engine.syncNow();
    clock += 10;
    await a.engine.syncNow();
    clock += 10;
    await b.engine.syncNow();
    const ra = await a.store.getRecord('conv-alpha');
    const rb = await b.store.getRecord('conv-alpha');
    // The later edit (B's) wins on both, although A's arrived last.
    expect(ra!.title).toBe('Title from B');
    expect(rb!.title).toBe('Title from B');
    expect(ra!.pinned).toBe(true);
    expect(rb!.pinned).toBe(true);
    // And the other way round: A's later edit wins when B's arrives last.
    await b.store.update('conv-alpha', { title: 'Second title from B' }, at(clock + 1));
    await a.store.update('conv-alpha', { title: 'Second title from A' }, at(clock + 2));
    clock += 10;
    await a.engine.syncNow();
    clock += 10;
    await b.engine.syncNow();
    clock += 10;
    await a.engine.syncNow();
    expect((await a.store.getRecord('conv-alpha'))!.title).toBe('Second title from A');
    expect((await b.store.getRecord('conv-alpha'))!.title).toBe('Second title from A');
    // An edit time ahead of the device's clock counts as now: it cannot win every later edit.
    await a.store.update('conv-alpha', { title: 'Title from the future' }, at(clock + 3_600_000));
    clock += 10;
    await a.engine.syncNow();
    clock += 10;
    await b.store.update('conv-alpha', { title: 'Title after the future' }, at(clock));
    clock += 10;
    await b.engine.syncNow();
    clock += 10;
    await a.engine.syncNow();
    expect((await a.store.getRecord('conv-alpha'))!.title).toBe('Title after the future');
    plaintexts.push('Title from', 'title from', 'the future');
  }, 60_000);

  it('SY-5 an answer synced while interrupted, then completed, reaches the other device completed (and is not echoed)', async () => {
    const { a, b } = await twoDevices();
    // A streams a new answer; the worker dies (L2: interrupted) and that checkpoint syncs.
    await a.store.appendTurn('conv-alpha', userTurn('u2', 'And low tide, pelican?'), NOW);
    const streaming: Turn = { ...asst('a3', [{ type: 'text', text: 'Low water at 12' }]), status: 'streaming' };
    await a.store.appendTurn('conv-alpha', streaming, NOW);
    await a.store.recoverStreaming(NOW);
    await a.engine.syncNow();
    await b.engine.syncNow();
    const onB = async () => (await b.store.toTranscript('conv-alpha')).turns.find((t) => t.id === 'a3');
    expect((await onB())?.status).toBe('interrupted');
    // The answer is completed on A (a resumed or finished stream replaces the turn).
    const done = asst('a3', [{ type: 'text', text: 'Low water at 12:55, cormorant' }]);
    await a.store.putTurn('conv-alpha', done, '2026-12-01T10:05:00.000Z');
    await a.engine.syncNow();
    b.events.length = 0;
    await b.engine.syncNow();
    expect(await onB()).toEqual(done);
    expect(b.events).toContainEqual(expect.objectContaining({ type: 'conversationUpdated' }));
    // Search on B finds the completed text.
    const tree = await b.store.toTranscriptTree('conv-alpha');
    expect(tree.transcript.turns.at(-1)).toEqual(done);
    // Nothing echoes back.
    const before = await updateSeq();
    await b.engine.syncNow();
    await a.engine.syncNow();
    expect(await updateSeq()).toEqual(before);
    // A finished answer here is never taken back by an unfinished copy from elsewhere.
    expect((await a.store.toTranscript('conv-alpha')).turns.at(-1)).toEqual(done);
    plaintexts.push('pelican', 'cormorant', 'Low water');
  }, 60_000);

  it('SY-5 a push cut short by the worker’s death resumes from its replication checkpoint in the next worker', async () => {
    newDb();
    const a = await makeDevice('A');
    await a.engine.create({ ...access(), passphrase: PASS });
    await a.store.create({ id: 'conv-long', title: 'Long walrus log', now: NOW });
    for (let i = 0; i < 300; i++) await a.store.appendTurn('conv-long', userTurn(`m${i}`, `walrus line ${i}`), NOW);
    plaintexts.push('walrus');
    // The server connection of the first worker dies after its second batch is written.
    const realFetch = globalThis.fetch;
    let batches = 0;
    let dead = false;
    const compared: number[] = [];
    vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
      if (dead) throw new TypeError('Failed to fetch: the worker is gone');
      const u = input instanceof Request ? input.url : String(input);
      if (u.includes('/_revs_diff')) compared.push(Object.keys(JSON.parse(String(init?.body))).length);
      const res = await realFetch(input, init);
      if (u.includes('/_bulk_docs') && ++batches === 2) dead = true;
      return res;
    });
    try {
      const cut = await a.engine.syncNow();
      expect(cut.state).toBe('error');
      const count = async () => ((await (await realFetch(url)).json()) as { doc_count: number }).doc_count;
      const afterDeath = await count();
      expect(afterDeath).toBeGreaterThanOrEqual(200);
      expect(afterDeath).toBeLessThan(300);
      // The next worker: a new engine over the same stores and the same mirror database.
      dead = false;
      compared.length = 0;
      const next = new SyncEngine(a.deps);
      expect((await next.syncNow()).state).toBe('idle');
      // It compared only what came after the checkpoint, not the 300 turns again.
      const sum = compared.reduce((x, y) => x + y, 0);
      expect(sum).toBeGreaterThan(0);
      expect(sum).toBeLessThanOrEqual(302 - 100);
      expect(await count()).toBeGreaterThanOrEqual(301);
    } finally {
      vi.unstubAllGlobals();
    }
    const b = await makeDevice('B');
    await b.engine.join({ ...access(), passphrase: PASS });
    expect((await b.store.toTranscript('conv-long')).turns).toHaveLength(300);
  }, 120_000);

  it('SY-3 Delete all data removes the local mirror too (forgetLocal)', async () => {
    const a = await deviceA();
    const Pouch = a.deps.pouch();
    const mirrorName = a.deps.mirrorName!;
    expect((await new Pouch(mirrorName, a.deps.mirrorOptions).info()).doc_count).toBeGreaterThan(0);
    await a.engine.forgetLocal();
    expect((await new Pouch(mirrorName, a.deps.mirrorOptions).info()).doc_count).toBe(0);
  }, 60_000);

  it('SY-4 a delete on B removes the conversation on A (delete wins over a concurrent edit)', async () => {
    const { a, b } = await twoDevices({}, async (d) => {
      await seedConversation(d);
      await seedConversation(d, 'conv-beta');
    });
    await b.store.delete('conv-alpha');
    await a.store.update('conv-alpha', { title: 'Edited meanwhile' });
    await b.engine.syncNow();
    await a.engine.syncNow();
    await b.engine.syncNow();
    expect(await a.store.getRecord('conv-alpha')).toBeUndefined();
    expect(await b.store.getRecord('conv-alpha')).toBeUndefined();
    expect(a.events).toContainEqual({ type: 'conversationDeleted', id: 'conv-alpha' });
    expect((await a.store.toTranscript('conv-beta')).turns).toHaveLength(4);
    expect((await b.store.toTranscript('conv-beta')).turns).toHaveLength(4);
  }, 60_000);

  it('SY-3 a wrong passphrase on a third device reads nothing, says so and changes nothing', async () => {
    await deviceA();
    const c = await makeDevice('C');
    await expect(c.engine.join({ ...access(), passphrase: 'not the passphrase' })).rejects.toMatchObject({
      code: 'wrong_passphrase',
      message: expect.stringMatching(/does not open/),
    });
    expect(await c.engine.config()).toBeUndefined();
    expect(await c.store.list()).toEqual([]);
    expect((await c.engine.status()).state).toBe('off');
  }, 60_000);

  it('SY-5 Remove my data from the server leaves no document and no set-up there, and switches sync off', async () => {
    const a = await deviceA();
    expect(((await (await fetch(url)).json()) as { doc_count: number }).doc_count).toBeGreaterThan(0);
    await a.engine.removeRemote();
    const res = await fetch(`${url}/_all_docs`);
    if (res.ok) expect(((await res.json()) as { rows: unknown[] }).rows).toEqual([]);
    else expect(res.status).toBe(404);
    expect((await fetch(`${url}/_local/baton-sync`)).status).toBe(404);
    expect((await a.engine.status()).state).toBe('off');
    expect((await a.store.toTranscript('conv-alpha')).turns).toHaveLength(4);
  }, 60_000);

  it('SY-5 documents another passphrase wrote are a clear status; nothing local is lost', async () => {
    const a = await deviceA();
    // A document sealed under other keys, put on the server directly.
    await fetch(`${url}/hForeignDocument000000`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ e: btoa('x'.repeat(64)) }),
    });
    const s = await a.engine.syncNow();
    expect(s.state).toBe('error');
    expect(s.error?.code).toBe('foreign_documents');
    expect(s.unreadable).toBe(1);
    expect((await a.store.toTranscript('conv-alpha')).turns).toHaveLength(4);
  }, 60_000);
});

describe('SY-5 a server that is down, slow or answers garbage', () => {
  let garbage: Server;
  let garbageOrigin = '';
  let hang = false;
  beforeAll(async () => {
    garbage = createServer((req, res) => {
      if (hang) return; // never answers
      if (req.url?.includes('_local/baton-sync')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html>not couchdb</html>');
    });
    await new Promise<void>((r) => garbage.listen(0, '127.0.0.1', () => r()));
    garbageOrigin = `http://127.0.0.1:${(garbage.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    garbage.closeAllConnections();
    await new Promise((r) => garbage.close(r));
  });

  it('SY-5 a server that went down is status `unreachable`, keeps the data, and the next cycle catches up', async () => {
    const a = await deviceA();
    // Point the configuration at a closed port, as if the server went down.
    const cfg = (await a.engine.config())!;
    await a.db.put('settings', { key: 'sync', value: { ...cfg, url: 'http://127.0.0.1:9/baton' } });
    await a.store.appendTurn('conv-alpha', userTurn('u9', 'written while offline'), NOW);
    const s = await a.engine.syncNow();
    expect(s.state).toBe('error');
    expect(s.error?.code, s.error?.message).toBe('unreachable');
    expect(s.pending).toBeGreaterThan(0);
    expect((await a.store.toTranscript('conv-alpha')).turns.at(-1)!.id).toBe('u9');
    await a.db.put('settings', { key: 'sync', value: cfg });
    expect((await a.engine.syncNow()).state).toBe('idle');
    const b = await makeDevice('B');
    await b.engine.join({ ...access(), passphrase: PASS });
    expect((await b.store.toTranscript('conv-alpha')).turns.at(-1)!.id).toBe('u9');
    plaintexts.push('written while offline');
  }, 60_000);

  it('SY-5 garbage answers are status `bad_server`; a server that does not answer is `timeout`', async () => {
    const a = await makeDevice('A', { timeoutMs: 500 });
    await seedConversation(a);
    await expect(
      a.engine.create({ url: `${garbageOrigin}/baton`, user: '', password: '', passphrase: PASS }),
    ).rejects.toMatchObject({
      code: 'bad_server',
    });
    expect(await a.engine.config()).toBeUndefined();
    hang = true;
    await expect(
      a.engine.join({ url: `${garbageOrigin}/baton`, user: '', password: '', passphrase: PASS }),
    ).rejects.toMatchObject({
      code: 'timeout',
    });
    hang = false;
    expect((await a.store.toTranscript('conv-alpha')).turns).toHaveLength(4);
  }, 60_000);
});
