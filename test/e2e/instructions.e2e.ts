/**
 * Conversation instructions in real Chromium against the fake providers (docs/side-panel.md#instructions,
 * docs/disclosure.md#instructions), in a 360 px wide panel: set in the textbox named *Instructions*
 * before the first message, they reach Anthropic (`system`), OpenAI Responses (`instructions`),
 * Gemini (`systemInstruction`) and an OpenAI-compatible Chat endpoint (a leading `system` message),
 * each fake judging the request; changed after a send, the preview says so. Screenshots of the
 * opened field and of the preview's sentence at 360 px go to `test-results/screenshots/`; at the
 * moment of each shot the test reads what the page shows.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeApi } from '../fake-providers';
import { E2E_KEYS, expectValid, posts } from './fakes';
import { waitFor } from './harness';
import { horizontalOverflow } from './panel-look';
import { request } from './pages';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, ROOT, warnIfNoChromium } from './paths';

warnIfNoChromium('instructions.e2e.ts');

const SHOTS = path.join(ROOT, 'test-results/screenshots');
const RULES = 'Answer in French. Keep every answer under three sentences.';

/** Whether all of `loc` is inside the viewport sideways and some of it vertically. */
function inView(loc: Locator): Promise<boolean> {
  return loc.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return (
      r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight && r.left >= 0 && r.right <= innerWidth + 0.5
    );
  });
}

describe.skipIf(!HAS_CHROMIUM)('instructions reach each API in its own field (360 px panel)', () => {
  let s: PanelSession;
  let customId = '';

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    s = await openPanelSession({ width: 360, height: 760 });
    const status = await request<{ id: string }>(s.page, 'saveEndpoint', {
      name: 'Local compat',
      baseUrl: s.fakes.customBaseUrl,
    });
    customId = status.id;
    await request(s.page, 'setKey', { providerId: customId, key: E2E_KEYS.compat });
    await s.page.reload();
    await s.panel.ready();
  });
  afterAll(async () => {
    await s?.close();
  });

  const line = () => s.page.getByRole('button', { name: /^Instructions/ });
  const box = () => s.page.getByRole('textbox', { name: 'Instructions', exact: true });

  /** In a new chat: writes the instructions and saves them (the conversation is created), then sends one message. */
  async function sendWithInstructions(
    providerId: string,
    model: string,
    fake: 'openai' | 'anthropic' | 'google' | 'custom',
    api: FakeApi,
  ): Promise<Record<string, unknown>> {
    const before = posts(s.fakes[fake], api).length;
    s.fakes[fake].enqueue(api, { kind: 'text', text: 'D’accord.' });
    await s.panel.newChat();
    await line().click();
    await box().fill(RULES);
    await s.page.getByRole('button', { name: 'Save', exact: true }).click();
    await waitFor('the instructions saved', async () => (await line().innerText()).includes(RULES));
    await s.panel.choose(providerId, model);
    await s.panel.send('Bonjour ?');
    expect(await s.panel.waitForAnswer(1)).toBe('complete');
    const sent = posts(s.fakes[fake], api).slice(before);
    expect(sent).toHaveLength(1);
    expectValid(sent[0]!);
    const body = sent[0]!.body as Record<string, unknown>;
    if (typeof body.model === 'string') expect(body.model).toBe(model);
    // Sent once, in the instructions' own field, never as a user message.
    expect(JSON.stringify(body).split(RULES).length - 1).toBe(1);
    return body;
  }

  it('Anthropic: the top-level system field (A-R1)', async () => {
    const body = await sendWithInstructions('anthropic', 'claude-sonnet-4-6', 'anthropic', 'anthropic-messages');
    const system = body.system as string | { type: string; text: string }[];
    expect(typeof system === 'string' ? system : system.map((b) => b.text).join('')).toBe(RULES);
    expect(JSON.stringify(body.messages)).not.toContain(RULES);
  });

  it('OpenAI Responses: instructions (R-1)', async () => {
    const body = await sendWithInstructions('openai', 'gpt-5.5', 'openai', 'openai-responses');
    expect(body.instructions).toBe(RULES);
  });

  it('Gemini: systemInstruction (G-R1)', async () => {
    const body = await sendWithInstructions('google', 'gemini-2.5-flash', 'google', 'gemini-generate-content');
    expect(body.systemInstruction).toEqual({ parts: [{ text: RULES }] });
  });

  it('OpenAI Chat (custom endpoint): a leading system message (C-R1)', async () => {
    const body = await sendWithInstructions(customId, 'gpt-4o', 'custom', 'openai-chat');
    expect((body.messages as unknown[])[0]).toEqual({ role: 'system', content: RULES });
  });

  it('screenshot at 360 px: the opened Instructions field, in view, nothing sticking out sideways', async () => {
    await line().click();
    await box().waitFor();
    expect(await box().inputValue()).toBe(RULES);
    for (const [name, loc] of Object.entries({
      line: line(),
      box: box(),
      save: s.page.getByRole('button', { name: 'Save', exact: true }),
      message: s.page.getByLabel('Message', { exact: true }),
    }))
      expect(await inView(loc), name).toBe(true);
    expect(await s.page.getByText(/^Sent with every message of this conversation/).isVisible()).toBe(true);
    const file = path.join(SHOTS, 'instructions-360.png');
    await s.page.screenshot({ path: file });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
    expect(await horizontalOverflow(s.page)).toEqual({ pageScrolls: false, outside: [] });
    await s.page.getByRole('button', { name: 'Cancel', exact: true }).click();
  });

  it('the options page default: new chats start with it, and their first request carries it', async () => {
    const options = await s.browser.openPage('options.html');
    try {
      const field = options.getByRole('textbox', { name: 'Instructions for new chats', exact: true });
      await waitFor('the default loaded', async () => await field.isEnabled());
      await field.fill('Always answer in Portuguese.');
      await options.getByRole('button', { name: 'Save instructions', exact: true }).click();
      await options.getByText('Saved: new chats start with these instructions.').waitFor();
      await options.setViewportSize({ width: 800, height: 1000 });
      await field.scrollIntoViewIfNeeded();
      await options.screenshot({ path: path.join(SHOTS, 'instructions-options-default.png') });
    } finally {
      await options.close();
    }
    await s.page.reload();
    await s.panel.ready();
    await s.panel.newChat();
    await waitFor('the default on the new chat', async () =>
      (await line().innerText()).includes('Always answer in Portuguese.'),
    );
    const before = posts(s.fakes.google, 'gemini-generate-content').length;
    s.fakes.google.enqueue('gemini-generate-content', { kind: 'text', text: 'Olá.' });
    await s.panel.choose('google', 'gemini-2.5-flash');
    await s.panel.send('Hello?');
    expect(await s.panel.waitForAnswer(1)).toBe('complete');
    const body = posts(s.fakes.google, 'gemini-generate-content')[before]!.body as Record<string, unknown>;
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Always answer in Portuguese.' }] });
    await request(s.page, 'setDefaultInstructions', { instructions: '' });
  });

  it('changed after a send, the preview says so for that provider; screenshot at 360 px', async () => {
    s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'Bien sûr.' });
    await s.panel.newChat();
    await s.panel.choose('anthropic', 'claude-sonnet-4-6');
    await line().click();
    await box().fill(RULES);
    await s.page.getByRole('button', { name: 'Save', exact: true }).click();
    await s.panel.send('Bonjour ?');
    expect(await s.panel.waitForAnswer(1)).toBe('complete');
    const change = s.page.locator('[data-instructions-change]');
    expect(await change.count()).toBe(0);
    await line().click();
    await box().fill('Answer in German.');
    await s.page.getByRole('button', { name: 'Save', exact: true }).click();
    await waitFor('the preview to say the instructions changed', async () => (await change.count()) === 1);
    expect(await change.innerText()).toBe(
      'Instructions changed since the last send to Anthropic: its prompt cache starts again.',
    );
    expect(await inView(change)).toBe(true);
    expect(await line().innerText()).toContain('Answer in German.');
    const file = path.join(SHOTS, 'instructions-changed-360.png');
    await s.page.screenshot({ path: file });
    expect(fs.statSync(file).size).toBeGreaterThan(10_000);
    // The next send carries the new text, and the sentence is gone after it.
    const before = posts(s.fakes.anthropic, 'anthropic-messages').length;
    s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'Jawohl.' });
    await s.panel.send('Und jetzt?');
    expect(await s.panel.waitForAnswer(2)).toBe('complete');
    const body = posts(s.fakes.anthropic, 'anthropic-messages')[before]!.body as { system: unknown };
    expect(JSON.stringify(body.system)).toContain('Answer in German.');
    await waitFor('the sentence gone after the send', async () => (await change.count()) === 0);
  });
});
