/**
 * docs/architecture.md#the-background-by-feature, the file half, end to end in Chromium: a ChatGPT export zip (built at test time from
 * the shared fixture, in a temp folder) and a Claude Code session imported through the options
 * page's file input; the summary and the stored conversations (real IndexedDB); the same files
 * again add nothing; the imported agent session continued on the fake Anthropic provider with
 * native tool_use / tool_result; exports (options page and side panel menu) decode as
 * transcripts and hold no key material.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile } from '../../lib/importers/import-file';
import { decodeTranscript } from '../../lib/transcript/codec';
import type { Transcript } from '../../lib/transcript/schema';
import { expectKeysOnlyToTheirOrigins, expectValid, findKeyMaterial, posts, startFakes, type FakeSet } from './fakes';
import { ExtensionBrowser, waitFor } from './harness';
import { configureProviders, readDb, SidePanel, storedTurns, type DbDump } from './pages';
import { HAS_CHROMIUM, ROOT, warnIfNoChromium } from './paths';

warnIfNoChromium('import-export.e2e.ts');
const SHARED = path.resolve(ROOT, '../shared/fixtures');
const hasShared = fs.existsSync(SHARED);
if (!hasShared) console.warn('skipping import-export.e2e.ts: ../shared/fixtures not found');

const CHATGPT = path.join(SHARED, 'chatgpt-export/librechat-chatgpt-export.json');
const CLAUDE_CODE = path.join(SHARED, 'agent-transcripts/claude-code-session-basic.jsonl');

/** What the importer makes of a file, computed in Node: the expected stored conversations. */
function expected(kind: 'chatgpt-export' | 'claude-code', file: string): Transcript[] {
  return importFile(kind, fs.readFileSync(file)).conversations;
}

const dbShape = (db: DbDump) => ({
  conversations: db.conversations.map((c) => [c.id, c.title, c.turnCount]).sort(),
  turns: db.turns.length,
});

async function downloadOf(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = (await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), click()])) as [
    Download,
    void,
  ];
  const file = await download.path();
  return { name: download.suggestedFilename(), text: fs.readFileSync(file, 'utf8') };
}

describe.skipIf(!HAS_CHROMIUM || !hasShared)('import and export in the extension', () => {
  let fakes: FakeSet;
  let browser: ExtensionBrowser;
  let options: Page;
  let tmp: string;
  let zipPath: string;
  const chatgpt = expected('chatgpt-export', CHATGPT);
  const session = expected('claude-code', CLAUDE_CODE)[0]!;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-e2e-import-'));
    zipPath = path.join(tmp, 'chatgpt-export.zip');
    fs.writeFileSync(
      zipPath,
      zipSync({
        'conversations.json': new Uint8Array(fs.readFileSync(CHATGPT)),
        'user.json': new TextEncoder().encode('{}'),
      }),
    );
    fakes = await startFakes();
    browser = await ExtensionBrowser.launch();
    options = await browser.openPage('options.html');
    await configureProviders(options, fakes);
    await options.reload();
    await options.getByRole('heading', { name: 'Import and export' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await fakes?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function importThrough(file: string): Promise<string> {
    const before = await options.locator('[data-import-summary]').count();
    if (before) await options.evaluate(() => document.querySelector('[data-import-summary]')?.remove());
    await options.getByLabel('Import a file').setInputFiles(file);
    return waitFor(
      `the summary of ${path.basename(file)}`,
      () =>
        options
          .locator('[data-import-summary] p[role="status"]')
          .textContent({ timeout: 15_000 })
          .then((t) => t ?? undefined),
      20_000,
    );
  }

  it('I3 imports a ChatGPT export zip and a Claude Code session through the options page, with a summary', async () => {
    expect(await importThrough(zipPath)).toBe('chatgpt-export.zip: Imported 2 conversations.');
    expect(await importThrough(CLAUDE_CODE)).toBe('claude-code-session-basic.jsonl: Imported 1 conversation.');
    const db = await readDb(options);
    expect(dbShape(db).conversations).toEqual([...chatgpt, session].map((t) => [t.id, t.title, t.turns.length]).sort());
    for (const t of [...chatgpt, session]) expect(await storedTurns(options, t.id), t.id).toEqual(t.turns);
    const rec = db.conversations.find((c) => c.id === session.id)!;
    expect(rec.source).toEqual({ kind: 'claude-code', id: session.source!.id });
  });

  it('I3 importing the same files again adds nothing and says why', async () => {
    const before = dbShape(await readDb(options));
    expect(await importThrough(zipPath)).toBe(
      'chatgpt-export.zip: Imported 0 conversations; skipped 2 (2 already in Baton).',
    );
    expect(await importThrough(CLAUDE_CODE)).toBe(
      'claude-code-session-basic.jsonl: Imported 0 conversations; skipped 1 (1 already in Baton).',
    );
    expect(await options.locator('[data-import-summary] li[data-why="duplicate"]').allTextContents()).toEqual([
      `${session.title}: already in Baton — already imported (unchanged)`,
    ]);
    expect(dbShape(await readDb(options))).toEqual(before);
  });

  it('I4 continues the imported agent session on Anthropic with native tool_use / tool_result, the imported text never in the system prompt', async () => {
    const page = await browser.openPage('sidepanel.html');
    const panel = new SidePanel(page);
    await panel.ready();
    await panel.openConversation(session.id);
    await waitFor('the imported turns', async () => (await panel.turns().count()) === session.turns.length);
    const before = posts(fakes.anthropic).length;
    await panel.choose('anthropic', 'claude-sonnet-4-5');
    await panel.send('Carry on from here, please.');
    const answers = session.turns.filter((t) => t.role === 'assistant').length;
    expect(await panel.waitForAnswer(answers + 1)).toBe('complete');
    const sent = posts(fakes.anthropic).slice(before);
    expect(sent.map((r) => r.api)).toEqual(['anthropic-messages']);
    expectValid(sent[0]!);
    const body = sent[0]!.body as { system?: unknown; messages: { role: string; content: unknown }[] };
    const json = JSON.stringify(body.messages);
    expect(json).toContain('"type":"tool_use"');
    expect(json).toContain('"type":"tool_result"');
    const calls = session.turns.flatMap((t) => t.blocks.flatMap((b) => (b.type === 'tool_call' ? [b.id] : [])));
    for (const id of calls) expect(json).toContain(JSON.stringify(id));
    // I4 / N5: the imported first message travels as a user message, never as system text.
    const firstText = (session.turns[0]!.blocks[0] as { text: string }).text;
    expect(JSON.stringify(body.system ?? '')).not.toContain(firstText.slice(0, 40));
    expect(JSON.stringify(body.messages[0])).toContain(JSON.stringify(firstText.slice(0, 40)).slice(1, -1));
    expect(body.messages[0]!.role).toBe('user');

    // S5: the conversation exported from the side panel menu decodes and holds no key material.
    const one = await downloadOf(page, async () => {
      await panel.conversationAction('Export as Baton JSON');
    });
    expect(one.name).toMatch(/\.baton\.json$/);
    expect(findKeyMaterial(one.text)).toEqual([]);
    const t = decodeTranscript(JSON.parse(one.text));
    expect(t.id).toBe(session.id);
    expect(t.turns.slice(0, session.turns.length)).toEqual(session.turns);
    expect(t.turns.slice(session.turns.length).map((x) => `${x.role}:${x.origin?.provider ?? ''}`)).toEqual([
      'user:',
      'assistant:anthropic',
    ]);
    await page.close();
  });

  it('S5 exports everything from the options page: Baton JSONL that decodes, Markdown; no key material', async () => {
    const jsonl = await downloadOf(options, () =>
      options.getByRole('button', { name: 'Export all (Baton JSON)' }).click(),
    );
    expect(jsonl.name).toMatch(/^baton-export-\d{4}-\d{2}-\d{2}\.baton\.jsonl$/);
    const all = jsonl.text
      .trimEnd()
      .split('\n')
      .map((l) => decodeTranscript(JSON.parse(l)));
    expect(all.map((x) => x.id).sort()).toEqual([...chatgpt, session].map((x) => x.id).sort());
    for (const x of chatgpt) expect(all.find((y) => y.id === x.id)).toEqual(x);
    const md = await downloadOf(options, () => options.getByRole('button', { name: 'Export all (Markdown)' }).click());
    expect(md.name).toMatch(/\.md$/);
    expect(md.text).toContain(`# ${chatgpt[0]!.title}`);
    expect(md.text).toContain('**Tool call** `browser`');
    for (const text of [jsonl.text, md.text]) expect(findKeyMaterial(text)).toEqual([]);
    expect(await options.locator('[data-export-note]').textContent()).toBe(`Exported 3 conversations to ${md.name}.`);
  });

  it('I2 a file with __proto__ / constructor / prototype keys imports without polluting any prototype', async () => {
    const evil = path.join(tmp, 'evil.baton.json');
    fs.writeFileSync(
      evil,
      '{"format":"baton.transcript","version":1,"id":"evil-1","title":"Evil","__proto__":{"polluted":"yes"},' +
        '"turns":[{"id":"u1","role":"user","blocks":[{"type":"text","text":"hi","constructor":{"prototype":{"polluted":"yes"}}}]}],' +
        '"meta":{"x":{"__proto__":{"polluted":"yes"}}}}',
    );
    expect(await importThrough(evil)).toBe('evil.baton.json: Imported 1 conversation.');
    expect(
      await browser.evalInWorker(
        () => [
          ({} as { polluted?: unknown }).polluted,
          Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'),
        ],
        undefined,
      ),
    ).toEqual([undefined, false]);
    expect(await options.evaluate(() => (({}) as { polluted?: unknown }).polluted ?? 'absent')).toBe('absent');
    const stored = await storedTurns(options, 'evil-1');
    expect(stored).toEqual([{ id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'hi' }] }]);
    expect(JSON.stringify((await readDb(options)).conversations.find((c) => c.id === 'evil-1'))).not.toContain(
      'polluted',
    );
  });

  it('N2: keys went only to their own origins', () => {
    expect(expectKeysOnlyToTheirOrigins(fakes)).toBeGreaterThanOrEqual(1);
  });
});
