/**
 * End-to-end encrypted sync in Chromium (docs/security.md#sync): a real CouchDB-protocol server
 * (`pouchdb-server --in-memory`, an npm dev dependency, on 127.0.0.1) and three browser profiles
 * playing three devices. A conversation with tool calls and two versions made on A reaches B, set
 * up with *Join* in B's options page, and continues there natively (the fake provider's validator
 * accepts B's request, which carries A's history); concurrent title edits converge on both by
 * their hybrid timestamps; a delete on B removes the conversation on A; a wrong passphrase on C
 * reads nothing and says so. After every test the server's raw `_all_docs` and `_changes` hold no
 * plaintext of the conversations and no key pattern, in the clear or base64-decoded.
 *
 * The tests share the browsers and the server and run in order (each builds on the one before).
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationStore } from '../../lib/store/conversations';
import type { Transcript } from '../../lib/transcript/schema';
import { startPouchServer, type TestServer } from '../../lib/background/sync/sync-server.test-helper';
import { expectValid, findKeyMaterial, posts, startFakes, type FakeSet } from './fakes';
import { ExtensionBrowser, waitFor } from './harness';
import { configureProviders, readDb, request, SidePanel, storedTurns, textOf } from './pages';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('sync.e2e.ts');

const PASSPHRASE = 'correct horse battery staple e2e';
const CLAUDE = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6' } as const;

/** A conversation with a tool call and its result, seeded on device A. */
const SEED: Transcript = {
  format: 'baton.transcript',
  version: 1,
  id: 'sync-e2e-tools',
  tools: [
    {
      name: 'lookup_weather',
      description: 'Current weather of a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ],
  turns: [
    { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'SYNC-QUESTION-WEATHER-IN-OSLO' }] },
    {
      id: 'a1',
      role: 'assistant',
      origin: CLAUDE,
      status: 'complete',
      blocks: [
        { type: 'text', text: 'SYNC-ANSWER-LOOKING-IT-UP' },
        { type: 'tool_call', id: 'toolu_sync01', name: 'lookup_weather', input: { city: 'Oslo-SYNC-CITY' } },
      ],
    },
    {
      id: 't1',
      role: 'tool',
      blocks: [{ type: 'tool_result', callId: 'toolu_sync01', content: 'SYNC-TOOL-RESULT-MINUS-FOUR' }],
    },
    {
      id: 'a2',
      role: 'assistant',
      origin: CLAUDE,
      status: 'complete',
      blocks: [{ type: 'text', text: 'SYNC-ANSWER-MINUS-FOUR-IN-OSLO' }],
    },
    { id: 'u2', role: 'user', blocks: [{ type: 'text', text: 'SYNC-SECOND-QUESTION-COAT' }] },
    {
      id: 'a3',
      role: 'assistant',
      origin: CLAUDE,
      status: 'complete',
      blocks: [{ type: 'text', text: 'SYNC-FIRST-VERSION-COLD' }],
    },
  ],
};
const TITLE = 'SYNC-TITLE-OSLO-WEATHER';

/** Every piece of conversation text the tests write: none may reach the server readable. */
const PLAINTEXTS = [
  TITLE,
  'SYNC-QUESTION-WEATHER-IN-OSLO',
  'SYNC-ANSWER-LOOKING-IT-UP',
  'Oslo-SYNC-CITY',
  'SYNC-TOOL-RESULT-MINUS-FOUR',
  'SYNC-ANSWER-MINUS-FOUR-IN-OSLO',
  'SYNC-SECOND-QUESTION-COAT',
  'SYNC-FIRST-VERSION-COLD',
  'SYNC-REGENERATED-VERSION-FREEZING',
  'SYNC-CONTINUED-ON-B',
  'SYNC-ANSWER-FROM-OPENAI-ON-B',
  'SYNC-TITLE-EDIT-FROM-A',
  'SYNC-TITLE-EDIT-FROM-B',
  'SYNC-TITLE-AFTER-RESTART',
  'lookup_weather',
  'toolu_sync01',
];
/** Key shapes (the three providers' formats): none may reach the server, in the clear or inside a ciphertext. */
const KEY_PATTERNS = [/sk-ant-[A-Za-z0-9_-]{8,}/, /sk-[A-Za-z0-9_-]{20,}/, /AIza[0-9A-Za-z_-]{20,}/];

/** One device: a browser with its own profile and its options page open. */
interface Device {
  browser: ExtensionBrowser;
  options: Page;
}

/** Launches a device; with `fakes`, its three built-in providers point at them (with their keys). */
async function launchDevice(fakes?: FakeSet): Promise<Device> {
  const browser = await ExtensionBrowser.launch();
  const options = await browser.openPage('options.html');
  if (fakes) {
    await configureProviders(options, fakes);
    await options.reload();
  }
  return { browser, options };
}

/** Opens the side panel of `d` as a tab (the size panel-kit uses) and waits until it is ready. */
async function openPanel(d: Device): Promise<SidePanel> {
  const page = await d.browser.context.newPage();
  await page.setViewportSize({ width: 420, height: 900 });
  await page.goto(`chrome-extension://${d.browser.extensionId}/sidepanel.html`);
  const panel = new SidePanel(page);
  await panel.ready();
  return panel;
}

/** {@link SidePanel.choose}, then the model list closed (it can cover the last turn's buttons). */
async function choose(panel: SidePanel, providerId: string, model: string): Promise<void> {
  await panel.choose(providerId, model);
  await panel.page.getByLabel('Model', { exact: true }).press('Escape');
}

/** Fills the Sync section's set-up form and clicks Create or Join. */
async function setUp(p: Page, url: string, passphrase: string, button: 'Create' | 'Join'): Promise<void> {
  await p.getByLabel('Database URL', { exact: true }).fill(url);
  await p.getByLabel('User', { exact: true }).fill('');
  await p.getByLabel('Password', { exact: true }).fill('');
  await p.getByLabel('Sync passphrase', { exact: true }).fill(passphrase);
  await p.getByRole('button', { name: button, exact: true }).click();
}

/** Runs one sync cycle on `d` now (after the one running, if any); it must end idle, without an error. */
async function syncNow(d: Device): Promise<void> {
  const s = await request<{ state: string; error?: { message: string } }>(d.options, 'syncNow', {});
  expect(s.error?.message ?? '', 'sync cycle').toBe('');
  expect(s.state).toBe('idle');
}

/** Decodes the base64 strings in `raw` (ciphertexts) to latin-1 text, so a scan also sees inside them. */
function decodedBase64(raw: string): string {
  const out: string[] = [];
  for (const m of raw.matchAll(/"([A-Za-z0-9+/]{16,}={0,2})"/g))
    out.push(Buffer.from(m[1]!, 'base64').toString('latin1'));
  return out.join('\n');
}

/** The device's sync mirror databases (PouchDB's IndexedDB adapter names its database `_pouch_<name>`). */
async function mirrors(d: Device): Promise<string[]> {
  const names = await d.options.evaluate(async () => (await indexedDB.databases()).map((x) => x.name ?? ''));
  return names.filter((n) => n.includes('baton-sync-mirror'));
}

describe.skipIf(!HAS_CHROMIUM)('end-to-end encrypted sync between browser profiles', () => {
  let server: TestServer;
  let fakes: FakeSet;
  let a: Device;
  let b: Device;
  let dbUrl: string;
  const extra: ExtensionBrowser[] = [];

  beforeAll(async () => {
    [server, fakes] = await Promise.all([startPouchServer(), startFakes()]);
    dbUrl = `${server.origin}/baton-e2e`;
    [a, b] = await Promise.all([launchDevice(fakes), launchDevice(fakes)]);
  });
  afterAll(async () => {
    for (const x of [a?.browser, b?.browser, ...extra]) await x?.close();
    await fakes?.close();
    await server?.stop();
  });

  afterEach(async () => {
    // The server's own view: every document and every change, raw.
    const all = await (await fetch(`${dbUrl}/_all_docs?include_docs=true&conflicts=true`)).text();
    const changes = await (await fetch(`${dbUrl}/_changes?include_docs=true&style=all_docs`)).text();
    const raw = `${all}\n${changes}`;
    const inside = decodedBase64(raw);
    expect(JSON.parse(all).rows.length, 'the server holds documents').toBeGreaterThan(0);
    for (const text of PLAINTEXTS) {
      expect(raw, `"${text}" on the server`).not.toContain(text);
      expect(inside, `"${text}" inside a base64 value on the server`).not.toContain(text);
    }
    for (const p of KEY_PATTERNS) {
      expect(raw, `${p} on the server`).not.toMatch(p);
      expect(inside, `${p} inside a base64 value on the server`).not.toMatch(p);
    }
    expect(findKeyMaterial(raw), 'key pieces on the server').toEqual([]);
    expect(findKeyMaterial(inside), 'key pieces inside a base64 value').toEqual([]);
    // Every body is the sealed ciphertext alone (`e`), besides CouchDB's own fields.
    for (const row of JSON.parse(all).rows as { doc: Record<string, unknown> }[])
      expect(Object.keys(row.doc).filter((k) => !k.startsWith('_'))).toEqual(['e']);
  });

  it(
    'Create on A and Join on B in the options page: a conversation with tool calls and two versions made on A appears on B and continues there natively',
    { timeout: 180_000 },
    async () => {
      // A: the seeded conversation, then a regenerate in the side panel (a second version of the last answer).
      await a.browser.evalInWorker(
        async ({ t, title }) => {
          const { store } = await (globalThis as unknown as { batonReady: Promise<{ store: ConversationStore }> })
            .batonReady;
          const now = new Date().toISOString();
          await store.create({ id: t.id!, title, now, tools: t.tools! });
          for (const turn of t.turns) await store.appendTurn(t.id!, turn, now);
        },
        { t: SEED, title: TITLE },
      );
      const panelA = await openPanel(a);
      await panelA.openConversation(SEED.id!);
      await waitFor('the seeded turns on A', async () => (await panelA.turns().count()) === SEED.turns.length);
      const answersA = await panelA.page.locator('[data-turn-id][data-role="assistant"]').count();
      fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'SYNC-REGENERATED-VERSION-FREEZING' });
      await choose(panelA, 'anthropic', 'claude-sonnet-4-6');
      await panelA.turns().last().getByRole('button', { name: 'Regenerate answer' }).click();
      await panelA.page
        .getByRole('dialog', { name: /^Send this conversation to / })
        .getByRole('button', { name: 'Disclose and send' })
        .click();
      await waitFor('the regenerated answer on A', async () =>
        (await panelA.lastTurnText()).includes('SYNC-REGENERATED-VERSION-FREEZING'),
      );
      expect(await panelA.waitForAnswer(answersA)).toBe('complete');
      expectValid(posts(fakes.anthropic).at(-1)!);

      // A: Create.
      await setUp(a.options, dbUrl, PASSPHRASE, 'Create');
      await expect
        .poll(() => a.options.getByRole('status').filter({ hasText: 'Syncing with' }).innerText(), { timeout: 30_000 })
        .toContain(dbUrl);
      await waitFor(
        'Create to finish on A',
        async () => ((await request<{ lastSync?: string }>(a.options, 'syncStatus', {})).lastSync ? true : undefined),
        30_000,
      );
      // The form is gone and what was typed with it: the passphrase is not in the page.
      expect(await a.options.getByLabel('Sync passphrase', { exact: true }).count()).toBe(0);

      // B: Join with the same passphrase, in its options page.
      await setUp(b.options, dbUrl, PASSPHRASE, 'Join');
      await expect
        .poll(() => b.options.getByRole('status').filter({ hasText: 'Syncing with' }).innerText(), { timeout: 30_000 })
        .toContain('Last sync');

      // B holds the conversation: every turn version, the tools, the title, the active version.
      const onB = await readDb(b.options);
      const conv = onB.conversations.find((c) => c.id === SEED.id);
      expect(conv?.title).toBe(TITLE);
      expect((conv as { tools?: unknown }).tools).toEqual(SEED.tools);
      const texts = (await storedTurns(b.options, SEED.id!)).map((t) => t.blocks);
      expect(texts).toHaveLength(SEED.turns.length + 1);
      const onA = await readDb(a.options);
      const turnsOf = (d: typeof onA) =>
        d.turns
          .filter((r) => r.conversationId === SEED.id)
          .map((r) => ({ parentId: (r as { parentId?: string }).parentId, turn: r.turn }))
          .sort((x, y) => x.turn.id.localeCompare(y.turn.id));
      expect(turnsOf(onB)).toEqual(turnsOf(onA));
      expect(conv?.activeLeaf).toBe(onA.conversations.find((c) => c.id === SEED.id)?.activeLeaf);

      // B's side panel shows it with both versions, and continues it on another provider.
      const panelB = await openPanel(b);
      await waitFor(
        'the conversation listed on B',
        async () => (await panelB.page.locator(`li[data-conversation-id="${SEED.id}"]`).count()) === 1,
      );
      await panelB.openConversation(SEED.id!);
      await waitFor('its turns on B', async () => (await panelB.turns().count()) === SEED.turns.length);
      expect(await panelB.lastTurnText()).toContain('SYNC-REGENERATED-VERSION-FREEZING');
      expect(
        await panelB.turns().last().getByRole('group', { name: 'Versions' }).locator('.turn-version-label').innerText(),
      ).toBe('2 / 2');
      const answersB = await panelB.page.locator('[data-turn-id][data-role="assistant"]').count();
      fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'SYNC-ANSWER-FROM-OPENAI-ON-B' });
      await choose(panelB, 'openai', 'gpt-5.5');
      await panelB.send('SYNC-CONTINUED-ON-B');
      expect(await panelB.waitForAnswer(answersB + 1)).toBe('complete');
      const req = posts(fakes.openai).at(-1)!;
      expectValid(req);
      const body = JSON.stringify(req.body);
      for (const sent of [
        'SYNC-QUESTION-WEATHER-IN-OSLO',
        'SYNC-ANSWER-LOOKING-IT-UP',
        'toolu_sync01',
        'lookup_weather',
        'Oslo-SYNC-CITY',
        'SYNC-TOOL-RESULT-MINUS-FOUR',
        'SYNC-ANSWER-MINUS-FOUR-IN-OSLO',
        'SYNC-SECOND-QUESTION-COAT',
        'SYNC-REGENERATED-VERSION-FREEZING',
        'SYNC-CONTINUED-ON-B',
      ])
        expect(body, sent).toContain(sent);
      expect(body).not.toContain('SYNC-FIRST-VERSION-COLD');

      // Back on A: B's continuation arrives.
      await syncNow(b);
      await syncNow(a);
      expect((await storedTurns(a.options, SEED.id!)).map(textOf)).toEqual(
        expect.arrayContaining(['SYNC-CONTINUED-ON-B', 'SYNC-ANSWER-FROM-OPENAI-ON-B']),
      );
      await panelA.page.close();
      await panelB.page.close();
    },
  );

  it('concurrent title edits converge on both devices (the later edit wins, whichever arrives last)', async () => {
    // A edits first, B a moment later; B's edit reaches the server first, A's last.
    await request(a.options, 'renameConversation', { id: SEED.id, title: 'SYNC-TITLE-EDIT-FROM-A' });
    await new Promise((r) => setTimeout(r, 30));
    await request(b.options, 'renameConversation', { id: SEED.id, title: 'SYNC-TITLE-EDIT-FROM-B' });
    await syncNow(b);
    await syncNow(a);
    await syncNow(b);
    const title = async (d: Device) => (await readDb(d.options)).conversations.find((c) => c.id === SEED.id)?.title;
    expect(await title(a)).toBe('SYNC-TITLE-EDIT-FROM-B');
    expect(await title(b)).toBe('SYNC-TITLE-EDIT-FROM-B');
    // The server holds one revision of it: the merge removed the losing one.
    const rows = (await (await fetch(`${dbUrl}/_all_docs?include_docs=true&conflicts=true`)).json()) as {
      rows: { doc: { _conflicts?: string[] } }[];
    };
    expect(rows.rows.filter((r) => r.doc._conflicts?.length)).toEqual([]);
  });

  it("after A's worker restarts, a cycle loads PouchDB from its own script and B's edit arrives", async () => {
    const life = () => a.browser.evalInWorker(() => performance.timeOrigin, undefined);
    const before = await life();
    await a.browser.stopServiceWorker();
    await request(b.options, 'renameConversation', { id: SEED.id, title: 'SYNC-TITLE-AFTER-RESTART' });
    await syncNow(b);
    // The options page's message wakes A's worker: a new life, not the one that was installed.
    await syncNow(a);
    expect(await life()).not.toBe(before);
    const title = (await readDb(a.options)).conversations.find((c) => c.id === SEED.id)?.title;
    expect(title).toBe('SYNC-TITLE-AFTER-RESTART');
    // The cycle ran PouchDB from lazy/pouchdb.js, imported on demand by a worker that was not being
    // installed (scripts/lazy-modules.ts: Chromium serves again what the install imported).
    expect(
      await a.browser.evalInWorker(
        () => ({
          state: (globalThis as unknown as { serviceWorker?: { state: string } }).serviceWorker?.state,
          pouch: typeof (globalThis as { __batonLazy_loadPouch?: unknown }).__batonLazy_loadPouch,
        }),
        undefined,
      ),
    ).toEqual({ state: 'activated', pouch: 'object' });
  });

  it('a delete on B removes the conversation on A, and A’s open side panel drops it', async () => {
    const panelA = await openPanel(a);
    const row = panelA.page.locator(`li[data-conversation-id="${SEED.id}"]`);
    await waitFor('the conversation listed on A', async () => (await row.count()) === 1);
    await request(b.options, 'deleteConversation', { id: SEED.id });
    await syncNow(b);
    await syncNow(a);
    const onA = await readDb(a.options);
    expect(onA.conversations.map((c) => c.id)).not.toContain(SEED.id);
    expect(onA.turns.filter((t) => t.conversationId === SEED.id)).toEqual([]);
    await waitFor('the conversation gone from A’s list', async () => (await row.count()) === 0);
    await panelA.page.close();
    // It stays deleted on both after another round.
    await syncNow(a);
    await syncNow(b);
    expect((await readDb(b.options)).conversations.map((c) => c.id)).not.toContain(SEED.id);
  });

  it('a wrong passphrase on a third profile reads nothing and says so', { timeout: 120_000 }, async () => {
    // Something for C to (not) read: a new conversation on A, synced.
    await a.browser.evalInWorker(async (title) => {
      const { store } = await (globalThis as unknown as { batonReady: Promise<{ store: ConversationStore }> })
        .batonReady;
      const now = new Date().toISOString();
      await store.create({ id: 'sync-e2e-second', title, now });
      await store.appendTurn(
        'sync-e2e-second',
        { id: 'q', role: 'user', blocks: [{ type: 'text', text: 'SYNC-QUESTION-WEATHER-IN-OSLO' }] },
        now,
      );
    }, TITLE);
    await syncNow(a);
    // B has played its part: closed, so no more than two browsers run at once.
    await b.browser.close();
    const c = await launchDevice();
    extra.push(c.browser);
    await setUp(c.options, dbUrl, 'not the passphrase', 'Join');
    await c.options
      .locator('.sync .note-error')
      .filter({ hasText: 'That sync passphrase does not open the data on this server.' })
      .waitFor({ timeout: 30_000 });
    // Still off, the form still there, nothing stored.
    expect((await request<{ state: string }>(c.options, 'syncStatus', {})).state).toBe('off');
    expect(await c.options.getByRole('button', { name: 'Join', exact: true }).count()).toBe(1);
    const onC = await readDb(c.options);
    expect(onC.conversations).toEqual([]);
    expect(onC.turns).toEqual([]);
    // No local mirror was made either.
    expect(await mirrors(c)).toEqual([]);
  });

  it('Delete all data on A removes its local sync mirror (real IndexedDB) with everything else', async () => {
    expect(await mirrors(a)).toHaveLength(1);
    await request(a.options, 'deleteAllData', { confirm: true });
    expect(await mirrors(a)).toEqual([]);
    expect((await request<{ state: string }>(a.options, 'syncStatus', {})).state).toBe('off');
    expect((await readDb(a.options)).conversations).toEqual([]);
  });
});
