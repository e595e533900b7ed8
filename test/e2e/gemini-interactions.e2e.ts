/**
 * One conversation through the side panel across five targets (docs/provider-rules.md, Gemini
 * Interactions; docs/disclosure.md, "Snapshot or delta"): OpenAI → Gemini over the Interactions
 * API, stateless, answering with a tool call → Anthropic → Gemini Interactions again, chained with
 * a receipt once the person lets Google store the conversation → Gemini over generateContent.
 * Every request is judged by its fake's validator; the preview line and "Who has seen this" are
 * checked at each step; an edit before the stored answer sends the whole history, with the
 * reason shown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValid, posts } from './fakes';
import { waitFor } from './harness';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('gemini-interactions.e2e.ts');

type Body = Record<string, unknown>;

describe.skipIf(!HAS_CHROMIUM)('Gemini Interactions in a conversation across five targets', () => {
  let s: PanelSession;
  beforeAll(async () => {
    s = await openPanelSession();
  });
  afterAll(async () => {
    await s?.close();
  });

  const summary = () => s.page.locator('[data-disclosure-summary]');
  const line = async () => (await summary().textContent()) ?? '';
  /** Types `draft` and waits for the preview line to include `part`. */
  const previewSays = async (draft: string, part: string) => {
    await s.page.getByLabel('Message', { exact: true }).fill(draft);
    await waitFor(`the preview to say "${part}"`, async () => ((await line()).includes(part) ? true : undefined));
    return line();
  };
  const openTab = async (name: string) => {
    if ((await s.page.getByRole('tab', { name }).count()) === 0) await summary().click();
    await s.page.getByRole('tab', { name }).click();
  };
  const closeSheet = async () => {
    const close = s.page.getByRole('button', { name: 'Close the details' });
    if (await close.count()) await close.click();
  };
  const lastGoogle = () => posts(s.fakes.google).at(-1)!;

  it('OpenAI → Interactions (stateless, tool call) → Anthropic → Interactions (chained) → generateContent', async () => {
    // 1. OpenAI.
    s.fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'Hello from OpenAI.' });
    await s.panel.choose('openai', 'gpt-5.5');
    await s.panel.send('Hi');
    expect(await s.panel.waitForAnswer(1)).toBe('complete');

    // 2. Gemini over Interactions (the person's choice for a model both APIs serve), stateless.
    await s.panel.choose('google', 'gemini-3.8-flash');
    const api = s.page.getByRole('combobox', { name: 'Gemini API' });
    await api.waitFor();
    expect(await api.inputValue()).toBe('gemini-generate-content');
    await api.selectOption('gemini-interactions');
    s.fakes.google.enqueue('gemini-interactions', {
      kind: 'tool-call',
      text: 'Let me look.',
      calls: [{ id: 'call_gi_1', name: 'lookup', arguments: { q: 'weather' } }],
    });
    const stateless = await previewSays('What is the weather?', 'to Google Gemini gemini-3.8-flash');
    expect(stateless).not.toContain('only new turns');
    await s.panel.send('What is the weather?');
    expect(await s.panel.waitForAnswer(2)).toBe('complete');
    let g = lastGoogle();
    expect(g.api).toBe('gemini-interactions');
    expectValid(g);
    expect((g.body as Body).store).toBe(false);
    expect(JSON.stringify((g.body as Body).input)).toContain('Hello from OpenAI.');

    // 3. Anthropic: the Interactions tool call arrives as a native tool_use (its result repaired).
    s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'Hello from Claude.' });
    await s.panel.choose('anthropic', 'claude-sonnet-4-6');
    await s.panel.send('And you, Claude?');
    expect(await s.panel.waitForAnswer(3)).toBe('complete');
    const a = posts(s.fakes.anthropic).at(-1)!;
    expectValid(a);
    expect(JSON.stringify(a.body)).toContain('"tool_use"');

    // 4. Back on Interactions; the person lets Google store the conversation (Policy tab).
    await s.panel.choose('google', 'gemini-3.8-flash');
    await s.page.getByRole('combobox', { name: 'Gemini API' }).selectOption('gemini-interactions');
    await previewSays('Stored one', 'to Google Gemini gemini-3.8-flash');
    await openTab('Policy');
    await s.page.getByRole('checkbox', { name: /^Let Google Gemini store this conversation/ }).check();
    await closeSheet();
    // No receipt yet: the whole history, stored, with the reason.
    expect(await previewSays('Stored one', 'whole history: no delivery receipt')).toContain('whole history');
    s.fakes.google.enqueue('gemini-interactions', { kind: 'text', text: 'Stored answer one.' });
    await s.panel.send('Stored one');
    expect(await s.panel.waitForAnswer(4)).toBe('complete');
    g = lastGoogle();
    expectValid(g);
    expect(g.body).toMatchObject({ store: true });
    expect((g.body as Body).previous_interaction_id).toBeUndefined();

    // The receipt holds: only the new turn, with previous_interaction_id, as previewed.
    expect(await previewSays('Stored two', 'only new turns')).toContain('only new turns');
    await openTab('Request');
    const shown = JSON.parse((await s.page.getByLabel('Request body').textContent()) ?? '') as Body;
    await closeSheet();
    s.fakes.google.enqueue('gemini-interactions', { kind: 'text', text: 'Stored answer two.' });
    await s.panel.send('Stored two');
    expect(await s.panel.waitForAnswer(5)).toBe('complete');
    g = lastGoogle();
    expectValid(g);
    expect(g.body).toEqual(shown);
    expect(g.body).toMatchObject({ store: true });
    expect((g.body as Body).previous_interaction_id).toMatch(/^v1_/);
    expect(JSON.stringify((g.body as Body).input).match(/"text":"[^"]*"/g)).toEqual(['"text":"Stored two"']);

    // Who has seen this: Google keeps it (stored interactions).
    await s.page.getByLabel('Message', { exact: true }).fill('Next');
    await openTab('Who has seen this');
    const google = s.page.locator('[data-seen-provider="google"]');
    await google.waitFor();
    expect(await google.textContent()).toContain('Google Gemini keeps this conversation (stored interactions)');
    expect(await s.page.locator('[data-seen-provider="openai"] [data-seen-keeps]').count()).toBe(0);
    await closeSheet();

    // An edit before the stored answer: the edit's own send carries the whole history.
    const storedOne = s.panel.turns().and(s.page.locator('[data-role="user"]')).nth(3);
    await storedOne.getByRole('button', { name: 'Edit and resend' }).click();
    await s.page.getByLabel('Edit message', { exact: true }).fill('Stored one, edited');
    s.fakes.google.enqueue('gemini-interactions', { kind: 'text', text: 'Edited answer.' });
    await s.page.getByRole('button', { name: 'Save and resend', exact: true }).click();
    await waitFor('the edited answer', async () =>
      (await s.panel.lastTurnText()).includes('Edited answer.') ? true : undefined,
    );
    g = lastGoogle();
    expectValid(g);
    expect((g.body as Body).previous_interaction_id).toBeUndefined();
    expect(JSON.stringify((g.body as Body).input)).toContain('Hello from OpenAI.');
    // Back on the earlier version: its stored answer is not the receipt's any more — the reason is shown.
    await storedOne.getByRole('button', { name: 'Previous version' }).click();
    const why = await previewSays('After the switch', "no longer in this conversation's active version");
    expect(why).toContain('whole history');

    // 5. Gemini over generateContent: the whole history in its own form.
    await s.page.getByRole('combobox', { name: 'Gemini API' }).selectOption('gemini-generate-content');
    s.fakes.google.enqueue('gemini-generate-content', { kind: 'text', text: 'Hello from generateContent.' });
    await s.panel.send('And over generateContent?');
    await waitFor('the generateContent answer', async () =>
      (await s.panel.lastTurnText()).includes('Hello from generateContent.') ? true : undefined,
    );
    g = lastGoogle();
    expect(g.api).toBe('gemini-generate-content');
    expectValid(g);
    expect(JSON.stringify((g.body as Body).contents)).toContain('Stored answer two.');
  });
});
