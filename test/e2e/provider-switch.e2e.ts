/**
 * Scenario 2: one conversation through the side panel UI — OpenAI, then Anthropic, then Gemini,
 * then back to OpenAI. Each provider's request passes its contract validator and carries the
 * earlier turns in its native form; the return to OpenAI replays OpenAI's own reasoning state.
 * Also N2 (each key only to its own origin) and S5 (no key in any stored record).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectKeysOnlyToTheirOrigins, expectValid, findKeyMaterial, posts } from './fakes';
import { readDb, storedTurns, textOf } from './pages';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('provider-switch.e2e.ts');

interface ResponsesItem {
  type: string;
  role?: string;
  encrypted_content?: string;
  content?: { type: string; text?: string }[];
}

describe.skipIf(!HAS_CHROMIUM)('one conversation across OpenAI, Anthropic, Gemini and back', () => {
  let s: PanelSession;

  beforeAll(async () => {
    s = await openPanelSession();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('every switch sends a valid native history; the return to OpenAI replays its encrypted reasoning', async () => {
    s.fakes.openai.enqueue('openai-responses', {
      kind: 'thinking',
      thinking: 'Plan a greeting.',
      signature: 'enc-e2e-reasoning-1',
      text: 'Hello from OpenAI.',
    });
    await s.panel.choose('openai', 'gpt-5.5');
    await s.panel.send('Hi');
    expect(await s.panel.waitForAnswer(1)).toBe('complete');

    s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'Hello from Claude.' });
    await s.panel.choose('anthropic', 'claude-sonnet-4-6');
    await s.panel.send('And you, Claude?');
    expect(await s.panel.waitForAnswer(2)).toBe('complete');

    s.fakes.google.enqueue('gemini-generate-content', { kind: 'text', text: 'Hello from Gemini.' });
    await s.panel.choose('google', 'gemini-3-pro-preview');
    await s.panel.send('And you, Gemini?');
    expect(await s.panel.waitForAnswer(3)).toBe('complete');

    s.fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'Back on OpenAI.' });
    await s.panel.choose('openai', 'gpt-5.5');
    await s.panel.send('Back to you.');
    expect(await s.panel.waitForAnswer(4)).toBe('complete');

    // The UI: eight turns, three provider-switch markers.
    expect(await s.panel.turnSummary()).toEqual(
      Array.from({ length: 4 }, () => ['user:complete', 'assistant:complete']).flat(),
    );
    expect(await s.page.locator('[data-provider-switch]').count()).toBe(3);

    // One send per step, each to its own server, each valid.
    const openai = posts(s.fakes.openai);
    const anthropic = posts(s.fakes.anthropic);
    const google = posts(s.fakes.google);
    expect(openai.map((r) => r.api)).toEqual(['openai-responses', 'openai-responses']);
    expect(anthropic.map((r) => r.api)).toEqual(['anthropic-messages']);
    expect(google.map((r) => `${r.api} ${r.model}`)).toEqual(['gemini-generate-content gemini-3-pro-preview']);
    for (const r of [...openai, ...anthropic, ...google]) expectValid(r);

    // Anthropic: the OpenAI answer as a native assistant message (its reasoning is OpenAI's own, dropped: X3).
    expect((anthropic[0]!.body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello from OpenAI.' }] },
      { role: 'user', content: [{ type: 'text', text: 'And you, Claude?' }] },
    ]);
    // Gemini: user/model contents holding every earlier turn's text.
    const contents = (
      google[0]!.body as { contents: { role: string; parts: { text?: string; thought?: boolean }[] }[] }
    ).contents;
    expect(
      contents.map((c) => [
        c.role,
        c.parts
          .filter((p) => !p.thought)
          .map((p) => p.text ?? '')
          .join(''),
      ]),
    ).toEqual([
      ['user', 'Hi'],
      ['model', 'Hello from OpenAI.'],
      ['user', 'And you, Claude?'],
      ['model', 'Hello from Claude.'],
      ['user', 'And you, Gemini?'],
    ]);
    // Back on OpenAI: its own reasoning item replayed with the encrypted content (same origin, R-K2), the other answers as messages.
    const input = (openai[1]!.body as { input: ResponsesItem[] }).input;
    expect(input.filter((i) => i.type === 'reasoning')).toEqual([
      expect.objectContaining({ type: 'reasoning', encrypted_content: 'enc-e2e-reasoning-1' }),
    ]);
    const said = input
      .filter((i) => i.type === 'message')
      .map((i) => [i.role, (i.content ?? []).map((c) => c.text ?? '').join('')]);
    expect(said).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello from OpenAI.'],
      ['user', 'And you, Claude?'],
      ['assistant', 'Hello from Claude.'],
      ['user', 'And you, Gemini?'],
      ['assistant', 'Hello from Gemini.'],
      ['user', 'Back to you.'],
    ]);
    expect(input.findIndex((i) => i.type === 'reasoning')).toBeLessThan(input.findIndex((i) => i.role === 'assistant'));

    // Stored: the answers carry their origins; the first OpenAI answer kept its reasoning state.
    const id = await s.panel.currentConversationId();
    const turns = await storedTurns(s.page, id);
    expect(
      turns.filter((t) => t.role === 'assistant').map((t) => [t.origin?.provider, t.origin?.api, textOf(t)]),
    ).toEqual([
      ['openai', 'openai-responses', 'Hello from OpenAI.'],
      ['anthropic', 'anthropic-messages', 'Hello from Claude.'],
      ['google', 'gemini-generate-content', 'Hello from Gemini.'],
      ['openai', 'openai-responses', 'Back on OpenAI.'],
    ]);
  });

  it('N2 each key went only to its own origin, in its own header', () => {
    expect(expectKeysOnlyToTheirOrigins(s.fakes)).toBeGreaterThanOrEqual(4);
  });

  it('S5 no conversation or turn record holds key material', async () => {
    const db = await readDb(s.page);
    expect(db.turns.length).toBe(8);
    expect(findKeyMaterial(JSON.stringify(db))).toEqual([]);
  });

  it('S4 no key material in the console output of the worker and the pages', async () => {
    expect(findKeyMaterial((await s.browser.capturedLogs(s.page)).join('\n'))).toEqual([]);
  });
});
