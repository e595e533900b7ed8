/**
 * Adversarial `importFile` and export round trips through the real router and store (I2, I3, M3):
 * broken zips, bombs, wrong kinds, base64 garbage, BOMs, huge strings, schema-breaking turns, mixed
 * valid/invalid conversations (the rest import), the same file twice (idempotent), and
 * export → import → identical turns for generated conversations with odd content (fast-check).
 */
import 'fake-indexeddb/auto';
import { strToU8, zipSync } from 'fflate';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { textArb, transcriptArb } from '../../../test/property/arbitraries';
import type { Reply } from '../../messaging/protocol';
import type { BatonDb } from '../../store/db';
import { callFrom, createTestBackground, NOW } from '../background.test-helper';
import { isWellFormed, repairSurrogatesDeep } from '../../transcript/text';
import type { ExportFile, ImportSummary } from '../../messaging/transfer-protocol';
import type { Turn } from '../../transcript/schema';

let db: BatonDb | undefined;
afterEach(() => db?.close());

/** The shared background with an empty database; `call` sends a request from the options page through the router. */
async function setup() {
  const bg = await createTestBackground(undefined, { name: 'adv-transfer', conversation: false });
  db = bg.db;
  return { call: callFrom(bg.h, 'options.html'), store: bg.store, db: bg.db };
}
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const tr = (id: string, turns: unknown[], extra: object = {}) => ({
  format: 'baton.transcript',
  version: 1,
  id,
  turns,
  ...extra,
});
const u = (id: string, text: string) => ({ id, role: 'user', blocks: [{ type: 'text', text }] });

const bad = (message: string) => ({ ok: false, error: { code: 'bad_request', message } });
const ok = <T>(r: Reply<unknown>) => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.data as T;
};

describe('importFile: adversarial files', () => {
  it('I3 broken zips, a zip bomb, zip-slip, a wrong kind, base64 garbage, non-UTF-8, empty and too-deep files are refused with the reason; nothing stored', async () => {
    const { call, store } = await setup();
    const good = zipSync({ 'conversations.json': strToU8('[]') });
    const bomb = zipSync({ 'conversations.json': new Uint8Array(300 * 1024 * 1024) }, { level: 9 });
    const cases: [unknown, string][] = [
      [
        { name: 'x.zip', data: b64(good.slice(0, good.length - 10)), encoding: 'base64' },
        'x.zip: invalid zip archive: invalid zip data',
      ],
      [
        { name: 'x.zip', data: b64(bomb), encoding: 'base64' },
        'x.zip: zip entry "conversations.json" would decompress to 314572800 bytes, over the 268435456-byte limit (decompression bomb, I3)',
      ],
      [
        { name: 'x.zip', data: b64(zipSync({ '../conversations.json': strToU8('[]') })), encoding: 'base64' },
        'x.zip: zip entry "../conversations.json" refused: ".." path segment (zip-slip, I3)',
      ],
      [
        { name: 'x.zip', data: b64(zipSync({ 'a.json': strToU8('[]') })), encoding: 'base64' },
        'x.zip: zip archive has no top-level "conversations.json"',
      ],
      [
        { name: 'x.zip', data: b64(good), encoding: 'base64', kind: 'codex' },
        'x.zip: a zip archive is accepted only for chatgpt-export and claude-export, not codex',
      ],
      [{ name: 'x', data: '!!!!', encoding: 'base64' }, 'The file data is not valid base64.'],
      [{ name: 'x', data: 'QUJD\nREVG', encoding: 'base64' }, 'The file data is not valid base64.'],
      [
        { name: 'x', data: b64(new Uint8Array([0xff, 0xfe, 0x00, 0x41])), encoding: 'base64' },
        'x: file is not valid UTF-8 text',
      ],
      [
        { name: 'x', data: '', encoding: 'base64' },
        'x: could not tell what kind of file this is: choose its kind and import it again',
      ],
      [
        { name: 'x', data: JSON.stringify(tr('t-w', [u('u1', 'a')])), encoding: 'text', kind: 'chatgpt-export' },
        'x: expected a ChatGPT export: an array of conversations, {"conversations": [...]}, or one conversation with a "mapping"',
      ],
      [
        { name: 'x', data: '['.repeat(100_000) + ']'.repeat(100_000), encoding: 'text', kind: 'chatgpt-export' },
        'x: invalid JSON: nested too deeply',
      ],
    ];
    for (const [payload, message] of cases) expect(await call('importFile', payload)).toEqual(bad(message));
    expect(await call('importFile', { name: 'x', data: 'a', encoding: 'text', kind: 'wizard' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request', message: expect.stringMatching(/^importFile: kind: /) },
    });
    expect(await store.list()).toEqual([]);
  }, 60_000);

  it('I2 I3 mixed valid/invalid conversations: the valid ones import, each other one is skipped with its reason; the same file again adds nothing', async () => {
    const { call, store } = await setup();
    const file = {
      name: 'mixed.jsonl',
      encoding: 'text',
      data: [
        JSON.stringify(tr('t-ok', [u('u1', 'a')])),
        JSON.stringify(tr('t-bad', [{ id: 'x', role: 'wizard', blocks: [] }])),
        '{not json',
        JSON.stringify(
          tr('t-img', [
            {
              id: 'u1',
              role: 'user',
              blocks: [{ type: 'image', source: { kind: 'url', url: 'javascript:alert(1)' } }],
            },
          ]),
        ),
        JSON.stringify(tr('t-dupturn', [u('u1', 'a'), u('u1', 'b')])),
        JSON.stringify(tr('t-ok', [u('u1', 'again')])),
        '{"format":"baton.transcript","version":1,"id":"t-proto","turns":[{"id":"u1","role":"user","blocks":[{"type":"text","text":"x","__proto__":{"polluted":1}}]}],"constructor":{"prototype":{"polluted":1}}}',
        JSON.stringify(tr('i'.repeat(5000), [u('u1', 'a long id')])),
        JSON.stringify(tr('t-nul', [u('u1', 'a\u0000\ud800\u2028')])),
      ].join('\n'),
    };
    const first = ok<ImportSummary>(await call('importFile', file));
    expect(first.imported.map((c) => c.id)).toEqual([
      't-ok',
      't-proto',
      expect.stringMatching(/^import:[0-9a-f]{16}$/),
      't-nul',
    ]);
    expect(first.imported[1]!.warnings).toEqual([
      '3 "__proto__" / "constructor" / "prototype" key(s) dropped from the file (I2)',
    ]);
    expect(first.skipped.map((s) => [s.id, s.why, s.reason.replace(/ at position.*$/, '')])).toEqual([
      ['t-bad', 'invalid', 'line 2: turns[0].role: expected "user" | "assistant" | "tool", got "wizard"'],
      [undefined, 'invalid', "line 3: invalid JSON: Expected property name or '}' in JSON"],
      ['t-img', 'invalid', expect.stringMatching(/^(line 4: )?turns\[0\]\.blocks\[0\]\./)],
      ['t-dupturn', 'invalid', expect.stringMatching(/duplicate turn id "u1"/)],
      ['t-ok', 'invalid', 'duplicate conversation id "t-ok" in the same file'],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // docs/security.md: a lone surrogate is repaired on the way in (U+FFFD), reported in the summary.
    expect((await store.get('t-nul')).turns[0]!.blocks).toEqual([{ type: 'text', text: 'a\u0000\uFFFD\u2028' }]);
    const listed = (await store.list()).map((c) => c.id).sort();
    const again = ok<ImportSummary>(await call('importFile', file));
    expect(again.imported).toEqual([]);
    expect(again.skipped.filter((s) => s.why === 'duplicate').map((s) => s.id)).toEqual(
      first.imported.map((c) => c.id),
    );
    expect((await store.list()).map((c) => c.id).sort()).toEqual(listed);
  });

  it('the same file imported twice at once (base64 and text) is stored once', async () => {
    const { call, store } = await setup();
    const text = [JSON.stringify(tr('t-a', [u('u1', 'a')])), JSON.stringify(tr('t-b', [u('u1', 'b')]))].join('\n');
    const [x, y] = await Promise.all([
      call('importFile', { name: 'a.jsonl', data: text, encoding: 'text' }),
      call('importFile', { name: 'a.jsonl', data: b64(strToU8(text)), encoding: 'base64' }),
    ]);
    const sx = ok<ImportSummary>(x);
    const sy = ok<ImportSummary>(y);
    expect([sx.imported.map((c) => c.id), sx.skipped]).toEqual([['t-a', 't-b'], []]);
    expect([sy.imported, sy.skipped.map((c) => [c.id, c.why])]).toEqual([
      [],
      [
        ['t-a', 'duplicate'],
        ['t-b', 'duplicate'],
      ],
    ]);
    expect((await store.list()).map((c) => c.id).sort()).toEqual(['t-a', 't-b']);
  });

  it('a BOM-prefixed JSON file (text or bytes) and a 20 MB single string import; the BOM is not part of the content', async () => {
    const { call, store } = await setup();
    const one = JSON.stringify(tr('t-bom', [u('u1', 'hi')]));
    expect(
      ok<ImportSummary>(await call('importFile', { name: 'a.json', data: `\ufeff${one}`, encoding: 'text' })).imported,
    ).toEqual([{ id: 't-bom', title: 'Imported conversation', turns: 1 }]);
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...strToU8(JSON.stringify(tr('t-bom2', [u('u1', 'hi')])))]);
    expect(
      ok<ImportSummary>(await call('importFile', { name: 'b.json', data: b64(bytes), encoding: 'base64' })).kind,
    ).toBe('baton');
    expect((await store.get('t-bom2')).turns[0]!.blocks).toEqual([{ type: 'text', text: 'hi' }]);
    const huge = 'x'.repeat(20_000_000);
    expect(
      ok<ImportSummary>(
        await call('importFile', {
          name: 'h.json',
          data: JSON.stringify(tr('t-h', [u('u1', huge)])),
          encoding: 'text',
        }),
      ).imported,
    ).toEqual([{ id: 't-h', title: 'Imported conversation', turns: 1 }]);
    expect((await store.get('t-h')).turns[0]!.blocks).toEqual([{ type: 'text', text: huge }]);
  }, 60_000);
});

describe('importFile: the wrong kind and mixed exports', () => {
  it('a Baton transcript imported as another kind is refused or skipped with the reason; nothing stored', async () => {
    const { call, store } = await setup();
    const data = JSON.stringify(tr('t1', [u('u', 'hi')]));
    const skippedWhy = async (kind: string) => {
      const r = await call('importFile', { name: 'f', data, encoding: 'text', kind });
      if (!r.ok) return r.error.message;
      const s = r.data as ImportSummary;
      expect(s.imported).toEqual([]);
      return s.skipped.map((x) => x.reason).join('; ');
    };
    expect(await skippedWhy('openai-chat')).toBe('messages: required field missing (expected array)');
    expect(await skippedWhy('gemini-generate-content')).toBe('contents: required array missing');
    expect(await skippedWhy('claude-export')).toBe(
      'f: expected a Claude export: an array of conversations with "chat_messages"',
    );
    expect(await skippedWhy('codex')).toBe('f: no Codex response items in the file');
    expect(await store.list()).toEqual([]);
  });

  it('I3 a ChatGPT export with a cycle, a non-object, a missing tree and unknown roles: the good conversations import, each bad one is skipped with its reason', async () => {
    const { call } = await setup();
    const node = (id: string, parent: string | null, children: string[], message?: object) => ({
      id,
      parent,
      children,
      ...(message ? { message } : {}),
    });
    const data = JSON.stringify([
      {
        id: 'ok',
        title: 'fine',
        current_node: 'a',
        mapping: {
          r: node('r', null, ['a']),
          a: node('a', 'r', [], {
            id: 'a',
            author: { role: 'user' },
            content: { content_type: 'text', parts: ['hello'] },
          }),
        },
      },
      { id: 'cyc', title: 'cycle', current_node: 'x', mapping: { x: node('x', 'y', ['y']), y: node('y', 'x', ['x']) } },
      42,
      { id: 'nomap', title: 'x' },
      {
        id: 'roles',
        title: 'roles',
        mapping: {
          a: node('a', null, [], {
            id: 'a',
            author: { role: 'wizard' },
            content: { content_type: 'text', parts: ['x'] },
          }),
        },
      },
    ]);
    const s = ok<ImportSummary>(await call('importFile', { name: 'c.json', data, encoding: 'text' }));
    expect(s.imported).toEqual([{ id: 'chatgpt-export:ok', title: 'fine', turns: 1 }]);
    expect(s.skipped).toEqual([
      { id: 'cyc', title: 'cycle', why: 'invalid', reason: 'mapping: cycle: node "x" is its own ancestor' },
      { why: 'invalid', reason: 'conversations[2]: expected an object' },
      { id: 'nomap', title: 'x', why: 'invalid', reason: 'mapping: missing: the conversation has no message tree' },
      { id: 'roles', title: 'roles', why: 'invalid', reason: 'turns: no importable messages' },
    ]);
  });
});

describe('export → import round trip', () => {
  it('a conversation with odd content (generated) exports as a transcript that imports again with identical turns (Baton JSON and JSONL)', async () => {
    await fc.assert(
      fc.asyncProperty(transcriptArb, textArb, async (t, title) => {
        const a = await setup();
        // No system prompt: by design every import turns one into a labelled user preamble (N5, I4).
        await a.store.create({ id: 'conv-1', now: NOW, title, ...(t.tools !== undefined ? { tools: t.tools } : {}) });
        for (const turn of t.turns) await a.store.appendTurn('conv-1', turn, NOW);
        const one = ok<ExportFile>(await a.call('exportConversation', { id: 'conv-1', format: 'baton' }));
        const all = ok<ExportFile>(await a.call('exportAll', { format: 'baton' }));
        a.db.close();
        for (const [file, name] of [
          [one, 'one.baton.json'],
          [all, 'all.baton.jsonl'],
        ] as const) {
          const b = await setup();
          const summary = ok<ImportSummary>(await b.call('importFile', { name, data: file.content, encoding: 'text' }));
          expect(summary.skipped).toEqual([]);
          expect(summary.imported.map((c) => c.id)).toEqual(['conv-1']);
          const back = await b.store.toTranscript('conv-1');
          // docs/security.md: provider state from an imported file is marked (replayed only once confirmed); otherwise identical.
          // and lone surrogates are repaired to U+FFFD on the way in.
          expect(back.turns.map(unmarked)).toEqual(repairSurrogatesDeep(t.turns));
          expect(back.system).toBeUndefined();
          expect(back.tools).toEqual(repairSurrogatesDeep(t.tools));
          // A plain title survives (a blank one is named by the importer, an odd one tidied).
          if (title.trim() === title && title && isWellFormed(title) && !/[\p{Cc}\u2028]/u.test(title))
            expect(back.title).toBe(title);
          // Exported again, it decodes to the same turns.
          const again = JSON.parse(
            ok<ExportFile>(await b.call('exportConversation', { id: 'conv-1', format: 'baton' })).content,
          ) as { turns: unknown };
          expect((again.turns as Turn[]).map(unmarked)).toEqual(repairSurrogatesDeep(JSON.parse(one.content).turns));
          b.db.close();
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});

/** A turn without the Baton importer's `importedProviderState` mark (docs/security.md). */
function unmarked(turn: Turn): Turn {
  if (turn.meta?.importedProviderState !== true) return turn;
  const { importedProviderState: _m, ...meta } = turn.meta;
  const { meta: _all, ...rest } = turn;
  return Object.keys(meta).length ? { ...rest, meta } : rest;
}
