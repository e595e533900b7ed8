/**
 * The pure parts of sync (docs/security.md#sync): the allowlist mapper, the crypto, the hybrid
 * clock and the per-field merge. Real WebCrypto; no mocks.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ConversationRecord, TurnRecord } from '../../store/db';
import type { LedgerRecord } from '../../store/disclosures';
import {
  createSetup,
  deriveSyncKeys,
  docIdOf,
  joinSetup,
  openDoc,
  paddedSize,
  sealDoc,
  SIZE_BUCKETS,
  SYNC_ITERATIONS,
  UnreadableDocError,
  WrongSyncPassphraseError,
} from './crypto';
import { Hlc } from './hlc';
import { conversationFields, KEY_PATTERNS, KEY_REMOVED, ledgerDoc, settingsFields, turnDoc } from './mapper';
import { mergeDocs, restamp, type ConversationDoc } from './model';

const FEW = 1000; // iterations for tests of everything but the floor
const SECRETS = [
  'sk-proj-AAAAbbbbCCCCddddEEEEffff0000',
  'AIzaSyA1234567890abcdefghijklmnopqrstu',
  'sk-ant-api03-ZZZZyyyyXXXXwwww1111',
];
const KEYISH = /sk-[A-Za-z0-9_-]{8,}|AIza[0-9A-Za-z_-]{20,}|sk-ant-/;

describe('SY-2 the allowlist mapper: no key, vault record or passphrase reaches a sync document', () => {
  const vaultShaped = {
    secret: SECRETS[0],
    apiKey: SECRETS[1],
    ciphertext: 'c2VjcmV0',
    passphrase: 'correct horse',
    version: 2,
  };

  it('SY-2 a conversation record with vault-shaped fields and key patterns maps to allowlisted fields only, scrubbed', () => {
    const rec = {
      id: 'c1',
      title: `my key is ${SECRETS[0]}`,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      turnCount: 1,
      preview: 'p',
      nextSeq: 3,
      system: `use ${SECRETS[2]} please`,
      activeLeaf: 't1',
      meta: {
        disclosurePolicy: { note: SECRETS[1], ...vaultShaped },
        deliveryReceipt: { responseId: 'resp_1' },
        vault: vaultShaped,
      },
      ...vaultShaped,
    } as unknown as ConversationRecord;
    const out = conversationFields(rec, SECRETS);
    expect(Object.keys(out).sort()).toEqual(['activeLeaf', 'createdAt', 'meta.disclosurePolicy', 'system', 'title']);
    const json = JSON.stringify(out);
    expect(json).not.toMatch(KEYISH);
    for (const s of SECRETS) expect(json).not.toContain(s);
    expect(json).not.toContain('correct horse');
    expect(json).not.toContain('c2VjcmV0');
    expect(out.title).toBe(`my key is ${KEY_REMOVED}`);
  });

  it('SY-2 a turn with an extra vault field is refused; key patterns in its text are removed', () => {
    const r: TurnRecord = {
      conversationId: 'c1',
      seq: 0,
      parentId: '',
      turn: { id: 't1', role: 'user', blocks: [{ type: 'text', text: `here: ${SECRETS[1]} and ${SECRETS[0]}` }] },
    };
    const doc = turnDoc(r, [])!;
    expect(JSON.stringify(doc)).not.toMatch(KEYISH);
    expect(doc.turn.blocks[0]).toEqual({ type: 'text', text: `here: ${KEY_REMOVED} and ${KEY_REMOVED}` });
    const withSecret = { ...r, turn: { ...r.turn, ...vaultShaped } } as unknown as TurnRecord;
    expect(JSON.stringify(turnDoc(withSecret, SECRETS))).not.toMatch(KEYISH);
    expect(turnDoc({ ...r, turn: { ...r.turn, status: 'streaming' } }, [])).toBeUndefined();
  });

  it('SY-2 a ledger record and the settings keep no key, even in an endpoint URL or a free-form value', () => {
    const led = ledgerDoc(
      {
        id: 7,
        conversationId: 'c1',
        at: '2026-01-01T00:00:00.000Z',
        providerId: 'gemini',
        api: 'gemini',
        model: 'm',
        endpoint: `https://generativelanguage.googleapis.com/v1?key=${SECRETS[1]}`,
        turns: [['t1', 'h']],
        status: 'completed',
        mode: 'snapshot',
        ...vaultShaped,
      } as unknown as LedgerRecord,
      SECRETS,
    );
    expect(led.rec.id).toBeUndefined();
    const s = settingsFields(
      {
        baseUrls: { openai: `https://proxy.example/${SECRETS[0]}` },
        endpoints: [{ id: 'e', name: 'n', baseUrl: 'https://x.example', flavor: 'generic', ...vaultShaped } as never],
        invalidKeys: ['openai'],
      },
      { mode: 'x', apiKey: SECRETS[2] },
      SECRETS,
    );
    expect(Object.keys(s).sort()).toEqual(['baseUrls', 'disclosurePolicy', 'endpoints']);
    for (const json of [JSON.stringify(led), JSON.stringify(s)]) {
      expect(json).not.toMatch(KEYISH);
      expect(json).not.toContain('correct horse');
      expect(json).not.toContain('c2VjcmV0');
    }
  });

  it('SY-2 property: no generated key of any known shape survives the mapper, wherever it is put', () => {
    const key = fc.oneof(
      fc.stringMatching(/^sk-[A-Za-z0-9]{20,40}$/),
      fc.stringMatching(/^sk-ant-api03-[A-Za-z0-9_-]{20,40}$/),
      fc.stringMatching(/^AIza[0-9A-Za-z_-]{35}$/),
    );
    fc.assert(
      fc.property(key, fc.string(), fc.string(), (k, before, after) => {
        const text = `${before} ${k} ${after}`;
        const rec = { id: 'c', title: text, createdAt: 'x', system: text } as unknown as ConversationRecord;
        const json = JSON.stringify(conversationFields(rec, []));
        return !json.includes(k) && KEY_PATTERNS.every((p) => !new RegExp(p.source).test(json));
      }),
      { numRuns: 300 },
    );
  });
});

describe('SY-3 sync crypto', () => {
  it('SY-3 the production floor is 600,000 PBKDF2 iterations and fewer are refused', async () => {
    expect(SYNC_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    await expect(deriveSyncKeys('p', new Uint8Array(16), 1000)).rejects.toThrow(RangeError);
  });

  it('SY-3 a body opens only with its own keys and its own document id; each seal has a fresh IV', async () => {
    const { setup, keys } = await createSetup('right', FEW, true);
    const body = { k: 'turn', text: 'hello secret world' };
    const a = await sealDoc(keys, 'hA', body);
    const b = await sealDoc(keys, 'hA', body);
    expect(a.e).not.toBe(b.e);
    expect(await openDoc(keys, 'hA', a)).toEqual(body);
    await expect(openDoc(keys, 'hB', a)).rejects.toThrow(UnreadableDocError);
    await expect(joinSetup(setup, 'wrong', true)).rejects.toThrow(WrongSyncPassphraseError);
    const again = await joinSetup(setup, 'right', true);
    expect(await openDoc(again, 'hA', a)).toEqual(body);
    const other = await createSetup('right', FEW, true); // same passphrase, another salt
    await expect(openDoc(other.keys, 'hA', a)).rejects.toThrow(UnreadableDocError);
  });

  it('SY-3 bodies are padded to size buckets: lengths within a bucket give the same ciphertext length', async () => {
    const { keys } = await createSetup('p', FEW, true);
    const len = async (n: number) => (await sealDoc(keys, 'h', 'x'.repeat(n))).e.length;
    expect(await len(10)).toBe(await len(400));
    expect(await len(600)).toBe(await len(1900));
    expect(await len(400)).toBeLessThan(await len(600));
    expect(paddedSize(0)).toBe(SIZE_BUCKETS[0]);
    expect(paddedSize(200_000) % SIZE_BUCKETS.at(-1)!).toBe(0);
  });

  it('SY-3 document ids are keyed hashes: stable per passphrase, unlinkable to the natural id', async () => {
    const { keys, setup } = await createSetup('p', FEW, true);
    const id = await docIdOf(keys, 'turn', 'conv-1', 'turn-1');
    expect(id).toMatch(/^h[A-Za-z0-9_-]{22}$/);
    expect(id).not.toContain('conv-1');
    expect(await docIdOf(await joinSetup(setup, 'p', true), 'turn', 'conv-1', 'turn-1')).toBe(id);
    expect(await docIdOf(keys, 'turn', 'conv-1', 'turn-2')).not.toBe(id);
    const other = await createSetup('p', FEW, true);
    expect(await docIdOf(other.keys, 'turn', 'conv-1', 'turn-1')).not.toBe(id);
  });
});

describe('SY-4 the per-field merge', () => {
  const clockA = () => {
    let t = 1_000;
    return new Hlc('A', () => t++);
  };

  it('SY-4 the hybrid clock never goes backwards and passes every stamp it observed', () => {
    let wall = 5_000;
    const a = new Hlc('A', () => wall);
    const s1 = a.tick();
    wall = 1_000; // the wall clock jumps back
    const s2 = a.tick();
    expect(s2 > s1).toBe(true);
    const b = new Hlc('B', () => 10);
    b.observe(s2);
    expect(b.tick() > s2).toBe(true);
  });

  it('SY-4 later writer wins per field, concurrent edits of different fields both survive, delete wins', () => {
    const a = clockA();
    const base: ConversationDoc = {
      k: 'conv',
      cid: 'c',
      f: restamp(undefined, { title: 'T', pinned: false }, () => a.tick())!,
    };
    const left: ConversationDoc = { ...base, f: restamp(base.f, { title: 'Left', pinned: false }, () => a.tick())! };
    const right: ConversationDoc = { ...base, f: restamp(base.f, { title: 'T', pinned: true }, () => a.tick())! };
    const m = mergeDocs(left, right);
    expect(m.f.title!.v).toBe('Left');
    expect(m.f.pinned!.v).toBe(true);
    const later: ConversationDoc = { ...base, f: restamp(base.f, { title: 'Later', pinned: false }, () => a.tick())! };
    expect(mergeDocs(left, later).f.title!.v).toBe('Later');
    const deleted: ConversationDoc = { ...base, del: a.tick() };
    const editedAfter: ConversationDoc = {
      ...base,
      f: restamp(base.f, { title: 'After', pinned: false }, () => a.tick())!,
    };
    expect(mergeDocs(deleted, editedAfter).del).toBe(deleted.del);
    expect(mergeDocs(editedAfter, deleted).del).toBe(deleted.del);
  });

  it('SY-4 property: the merge is commutative, associative and idempotent', () => {
    const stamp = fc.integer({ min: 1, max: 50 }).map((n) => `${String(n).padStart(13, '0')}:000000:n`);
    const doc = fc
      .record({
        title: fc.option(fc.tuple(fc.string(), stamp), { nil: undefined }),
        pinned: fc.option(fc.tuple(fc.boolean(), stamp), { nil: undefined }),
        del: fc.option(stamp, { nil: undefined }),
      })
      .map((r): ConversationDoc => {
        const f: ConversationDoc['f'] = {};
        if (r.title) f.title = { v: r.title[0] + r.title[1], t: r.title[1] };
        if (r.pinned) f.pinned = { v: String(r.pinned[0]) + r.pinned[1], t: r.pinned[1] };
        return { k: 'conv', cid: 'c', f, ...(r.del ? { del: r.del } : {}) };
      });
    const norm = (d: ConversationDoc) => JSON.stringify({ f: Object.entries(d.f).sort(), del: d.del });
    fc.assert(
      fc.property(doc, doc, doc, (x, y, z) => {
        expect(norm(mergeDocs(x, y))).toBe(norm(mergeDocs(y, x)));
        expect(norm(mergeDocs(mergeDocs(x, y), z))).toBe(norm(mergeDocs(x, mergeDocs(y, z))));
        expect(norm(mergeDocs(x, x))).toBe(norm(x));
      }),
    );
  });
});
