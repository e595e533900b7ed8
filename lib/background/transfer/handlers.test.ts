import 'fake-indexeddb/auto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { IMPORT_LIMITS, TRANSFER_REQUESTS } from '../../messaging/transfer-protocol';
import type { BatonDb } from '../../store/db';
import { decodeTranscript } from '../../transcript/codec';
import { BatonError } from '../../messaging/errors';
import { createTestBackground, NOW } from '../background.test-helper';
import { fileBytes, slug } from './handlers';
import { detectImportKind } from '../../importers/detect';
import { route, type Handlers } from '../core/router';

let db: BatonDb | undefined;
afterEach(() => db?.close());

/** The shared background with an empty database; `exportPartChars` sizes the export parts. */
async function setup(exportPartChars?: number) {
  const bg = await createTestBackground(undefined, {
    name: 'transfer-test',
    conversation: false,
    ...(exportPartChars ? { exportPartChars } : {}),
  });
  db = bg.db;
  return { db: bg.db, store: bg.store, events: bg.events, h: bg.h };
}

const node = (id: string, parent: string | null, children: string[], message?: object) => ({
  id,
  parent,
  children,
  ...(message ? { message } : {}),
});
const msg = (id: string, role: string, text: string, t: number, model?: string) => ({
  id,
  author: { role },
  create_time: t,
  content: { content_type: 'text', parts: [text] },
  status: 'finished_successfully',
  metadata: model ? { model_slug: model } : {},
});
/** A two-conversation ChatGPT `conversations.json`. */
const chatgpt = JSON.stringify([
  {
    id: 'c-one',
    title: 'Oslo weather',
    create_time: 1704629915,
    update_time: 1704629999,
    current_node: 'a',
    mapping: {
      root: node('root', null, ['u']),
      u: node('u', 'root', ['a'], msg('u', 'user', 'Weather in Oslo?', 1704629915)),
      a: node('a', 'u', [], msg('a', 'assistant', 'Rain, 4°C.', 1704629920, 'gpt-4o')),
    },
  },
  {
    id: 'c-two',
    title: 'Pasta',
    create_time: 1704700000,
    update_time: 1704700100,
    current_node: 'a2',
    mapping: {
      r: node('r', null, ['u2']),
      u2: node('u2', 'r', ['a2'], msg('u2', 'user', 'Dinner?', 1704700000)),
      a2: node('a2', 'u2', [], msg('a2', 'assistant', 'Puttanesca.', 1704700005, 'gpt-4o')),
    },
  },
]);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const zip = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)])));

describe('importFile', () => {
  it('I3 imports a ChatGPT export zip (kind told from the content), then the same file again adds nothing', async () => {
    const { store, h, events } = await setup();
    const data = b64(zip({ 'conversations.json': chatgpt, 'user.json': '{}' }));
    const first = await h.importFile({ name: 'export.zip', data, encoding: 'base64' }, 'extension');
    expect(first).toEqual({
      kind: 'chatgpt-export',
      file: 'export.zip',
      imported: [
        { id: 'chatgpt-export:c-one', title: 'Oslo weather', turns: 2 },
        { id: 'chatgpt-export:c-two', title: 'Pasta', turns: 2 },
      ],
      skipped: [],
    });
    expect((await store.get('chatgpt-export:c-one')).turns.map((t) => [t.role, t.blocks])).toEqual([
      ['user', [{ type: 'text', text: 'Weather in Oslo?' }]],
      ['assistant', [{ type: 'text', text: 'Rain, 4°C.' }]],
    ]);
    // Open pages hear about each new conversation.
    expect(events).toEqual(
      await Promise.all(
        ['chatgpt-export:c-one', 'chatgpt-export:c-two'].map(async (id) => ({
          type: 'conversationUpdated',
          meta: (await store.list()).find((c) => c.id === id),
        })),
      ),
    );
    const again = await h.importFile({ name: 'export.zip', data, encoding: 'base64' }, 'extension');
    expect(events).toHaveLength(2);
    expect(again).toEqual({
      kind: 'chatgpt-export',
      file: 'export.zip',
      imported: [],
      skipped: [
        { id: 'chatgpt-export:c-one', title: 'Oslo weather', why: 'duplicate', reason: 'already imported (unchanged)' },
        { id: 'chatgpt-export:c-two', title: 'Pasta', why: 'duplicate', reason: 'already imported (unchanged)' },
      ],
    });
    expect((await store.list()).length).toBe(2);
  });

  it('I3 skips a broken conversation with its reason and imports the rest', async () => {
    const { h } = await setup();
    const broken = JSON.stringify([...JSON.parse(chatgpt), { id: 'c-bad', title: 'Broken' }]);
    const out = await h.importFile(
      { name: 'conversations.json', data: broken, encoding: 'text', kind: 'chatgpt-export' },
      'extension',
    );
    expect(out.imported.map((c) => c.id)).toEqual(['chatgpt-export:c-one', 'chatgpt-export:c-two']);
    expect(out.skipped).toEqual([
      {
        id: 'c-bad',
        title: 'Broken',
        why: 'invalid',
        reason: 'mapping: missing: the conversation has no message tree',
      },
    ]);
  });

  it('I2 imports JSON with __proto__ keys without polluting prototypes', async () => {
    const { store, h } = await setup();
    const evil = chatgpt.replace(
      '"title":"Pasta"',
      '"title":"Pasta","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}',
    );
    expect(evil).not.toBe(chatgpt);
    const out = await h.importFile({ name: 'c.json', data: evil, encoding: 'text' }, 'extension');
    expect(out.imported).toHaveLength(2);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    const rec = await store.getRecord('chatgpt-export:c-two');
    expect(Object.getPrototypeOf(rec)).toBe(Object.prototype);
    expect(JSON.stringify(rec)).not.toContain('polluted');
  });

  it('I3 refuses a file over the cap before decoding it, in the schema and in the handler', async () => {
    const { h } = await setup();
    const over = 'A'.repeat(IMPORT_LIMITS.dataChars + 4);
    expect(TRANSFER_REQUESTS.importFile.input.safeParse({ name: 'x', data: over, encoding: 'base64' }).success).toBe(
      false,
    );
    // A text over the cap in characters is refused without encoding it.
    expect(() => fileBytes('x'.repeat(IMPORT_LIMITS.fileBytes + 1), 'text')).toThrow(
      /over Baton's 32 MiB import limit; nothing was read \(I3\)/,
    );
    // Multi-byte text under the cap in characters but over it in bytes.
    expect(() => fileBytes('é'.repeat(IMPORT_LIMITS.fileBytes / 2 + 1), 'text')).toThrow(
      /bytes, over Baton's 32 MiB import limit/,
    );
    await expect(h.importFile({ name: 'x', data: 'not base64!', encoding: 'base64' }, 'extension')).rejects.toThrow(
      'The file data is not valid base64.',
    );
  });

  it('I3 M1 the router refuses an oversized importFile, or one from a chat page, before any handler runs', async () => {
    const called: string[] = [];
    const handlers = new Proxy(
      {},
      { get: (_t, k) => () => (called.push(String(k)), Promise.resolve(null)) },
    ) as Handlers;
    const env = { ownId: 'ext', extensionOrigin: 'chrome-extension://ext', handlers };
    const page = { id: 'ext', url: 'chrome-extension://ext/options.html', origin: 'chrome-extension://ext' };
    const big = await route(
      { type: 'importFile', payload: { name: 'x', data: 'A'.repeat(IMPORT_LIMITS.dataChars + 4), encoding: 'base64' } },
      page,
      env,
    );
    expect(big).toEqual({
      ok: false,
      error: { code: 'bad_request', message: expect.stringMatching(/^importFile: data: /) },
    });
    const content = { id: 'ext', url: 'https://chatgpt.com/c/1', origin: 'https://chatgpt.com', tab: {}, frameId: 0 };
    const fromPage = await route({ type: 'exportAll', payload: { format: 'baton' } }, content, env);
    expect(fromPage).toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'exportAll is not allowed from this sender' },
    });
    expect(called).toEqual([]);
  });

  it('says when the kind cannot be told, and names the file on a whole-file error', async () => {
    const { h } = await setup();
    await expect(
      h.importFile({ name: 'notes.json', data: '{"hello": 1}', encoding: 'text' }, 'extension'),
    ).rejects.toThrow(
      new BatonError(
        'bad_request',
        'notes.json: could not tell what kind of file this is: choose its kind and import it again',
      ),
    );
    await expect(
      h.importFile(
        { name: 'a.jsonl', data: b64(zip({ 'conversations.json': chatgpt })), encoding: 'base64', kind: 'claude-code' },
        'extension',
      ),
    ).rejects.toThrow('a.jsonl: a zip archive is accepted only for chatgpt-export and claude-export, not claude-code');
    await expect(
      h.importFile(
        { name: 'evil.zip', data: b64(zip({ '../conversations.json': chatgpt })), encoding: 'base64' },
        'extension',
      ),
    ).rejects.toThrow(/zip-slip/);
  });
});

describe('detectImportKind', () => {
  it('tells each kind from the start of its text', () => {
    const cases: [string, string][] = [
      ['{"format":"baton.transcript","version":1,"id":"x","turns":[]}', 'baton'],
      ['{"timestamp":"t","type":"session_meta","payload":{}}\n{}', 'codex'],
      ['{"type":"session","id":"d7","timestamp":"t"}\n{}', 'pi'],
      ['{"sessionId":"s","projectHash":"h","startTime":"t"}\n{}', 'gemini-cli'],
      ['{\n  "sessionId": "s",\n  "projectHash": "h",\n  "messages": []\n}', 'gemini-cli'],
      ['{"parentUuid":null,"sessionId":"s","type":"user","uuid":"u","message":{}}\n', 'claude-code'],
      [
        '{"type":"summary","summary":"Fix it","leafUuid":"l1"}\n{"parentUuid":null,"sessionId":"s","type":"user","uuid":"u","message":{"content":[{"type":"tool_use","input":{}}]}}\n',
        'claude-code',
      ],
      [chatgpt, 'chatgpt-export'],
      ['[{"uuid":"u","name":"n","chat_messages":[]}]', 'claude-export'],
      ['{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}', 'gemini-generate-content'],
      ['{"input":[{"role":"user","content":"hi"}]}', 'openai-responses'],
      ['{"system":"s","messages":[{"role":"user","content":"hi"}]}', 'anthropic-messages'],
      ['{"messages":[{"role":"system","content":"s"},{"role":"user","content":"hi"}]}', 'openai-chat'],
    ];
    expect(cases.map(([text]) => detectImportKind(text))).toEqual(cases.map(([, k]) => k));
    expect(() => detectImportKind('{"messages":[{"role":"user","content":"hi"}]}')).toThrow(/could not tell/);
  });
});

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SHARED = path.resolve(ROOT, '../shared/fixtures');
const hasShared = fs.existsSync(SHARED);
if (!hasShared) console.warn('skipping: ../shared/fixtures not found');

describe.skipIf(!hasShared)('detectImportKind on every shared import fixture', () => {
  it('tells the kind of each file of chatgpt-export, claude-export and agent-transcripts', () => {
    const kindOf = (dir: string, f: string) =>
      dir === 'agent-transcripts'
        ? ((['claude-code', 'codex', 'gemini-cli', 'pi'] as const).find((k) => f.startsWith(`${k}-`)) ?? f)
        : dir;
    const files = ['chatgpt-export', 'claude-export', 'agent-transcripts'].flatMap((d) =>
      fs.readdirSync(path.join(SHARED, d)).map((f) => [d, f] as const),
    );
    expect(files.length).toBeGreaterThanOrEqual(15);
    const got = files.map(([d, f]) => [f, detectImportKind(fs.readFileSync(path.join(SHARED, d, f), 'utf8'))]);
    expect(got).toEqual(files.map(([d, f]) => [f, kindOf(d, f)]));
  });
});

describe('export', () => {
  const KEY = 'sk-ant-api03-SECRETSECRETSECRET-0123456789';

  it('S5 exports one conversation as a transcript that decodes, without the store meta or any key material', async () => {
    const { db, h } = await setup();
    await db.put('vault', {
      providerId: 'anthropic',
      version: 1,
      secret: KEY,
      boundOrigin: 'https://api.anthropic.com',
      savedAt: NOW,
    } as never);
    await h.importFile({ name: 'c.json', data: chatgpt, encoding: 'text' }, 'extension');
    const file = await h.exportConversation({ id: 'chatgpt-export:c-one', format: 'baton' }, 'extension');
    expect(file).toMatchObject({
      filename: 'Oslo-weather.baton.json',
      mimeType: 'application/json',
      count: 1,
      failed: [],
    });
    const t = decodeTranscript(JSON.parse(file.content));
    expect(t).toMatchObject({
      id: 'chatgpt-export:c-one',
      title: 'Oslo weather',
      source: { kind: 'chatgpt-export', id: 'c-one' },
    });
    expect(t.turns.map((x) => x.id)).toEqual(['u', 'a']);
    expect(t.meta).toBeUndefined();
    const md = await h.exportConversation({ id: 'chatgpt-export:c-one', format: 'markdown' }, 'extension');
    expect(md.content).toBe(
      '# Oslo weather\n\n_from chatgpt-export `c-one` · created 2024-01-07T12:18:35.000Z · 2 turns_\n\n## You\n\nWeather in Oslo?\n\n## Assistant · gpt-4o (chatgpt-web)\n\nRain, 4°C.\n',
    );
    const all = await h.exportAll({ format: 'baton' }, 'extension');
    for (const s of [file.content, md.content, all.content]) {
      expect(s).not.toContain(KEY);
      expect(s).not.toContain(KEY.slice(-12));
    }
    await expect(h.exportConversation({ id: 'nope', format: 'baton' }, 'extension')).rejects.toThrow(
      new BatonError('not_found', 'This conversation no longer exists.'),
    );
  });

  it('exports everything, oldest first, in parts that join into the whole file', async () => {
    const { store, h } = await setup(200);
    await h.importFile({ name: 'c.json', data: chatgpt, encoding: 'text' }, 'extension');
    await store.create({ id: 'own', now: '2026-01-01T00:00:00.000Z', title: 'Mine' });
    const whole = await (await setup()).h.exportAll({ format: 'markdown' }, 'extension');
    expect(whole).toMatchObject({ filename: 'baton-export-2026-11-30.md', count: 0, content: '' });

    const collect = async (format: 'baton' | 'markdown') => {
      const parts: string[] = [];
      let after: string | undefined;
      for (;;) {
        const p = await h.exportAll({ format, ...(after ? { after } : {}) }, 'extension');
        expect(p.count).toBe(1);
        parts.push(p.content);
        if (!p.next) return parts;
        after = p.next;
      }
    };
    const lines = (await collect('baton')).join('').trimEnd().split('\n');
    expect(lines.map((l) => decodeTranscript(JSON.parse(l)).id)).toEqual([
      'chatgpt-export:c-one',
      'chatgpt-export:c-two',
      'own',
    ]);
    const md = (await collect('markdown')).join('');
    expect(md.split('\n---\n\n').map((s) => s.split('\n')[0])).toEqual(['# Oslo weather', '# Pasta', '# Mine']);
  });

  it('names files by a safe slug of the title', () => {
    expect([slug('Fix / the ../build: "now"'), slug('   '), slug('Ünïcode çafé 日本')]).toEqual([
      'Fix-the-build-now',
      'conversation',
      'Unicode-cafe-日本',
    ]);
  });
});
