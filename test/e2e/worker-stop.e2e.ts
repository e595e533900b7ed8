/**
 * Scenario 5: the service worker is stopped over CDP in the middle of a slow stream. The partial
 * answer is kept as `interrupted` with at least its last checkpoint (D1, L2); the side panel
 * reconnects, shows "Response interrupted" and Retry; retrying adds no duplicate user turn.
 * Also L5 (the Stop button) and L1 (a stopped worker wakes for a page's message).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValid, findKeyMaterial, posts } from './fakes';
import { waitFor } from './harness';
import { request, storedTurns, textOf } from './pages';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('worker-stop.e2e.ts');

/** A slow scripted answer: `n` words, one event every `delayMs`. */
function slowWords(n: number, delayMs: number): { text: string; chunks: string[]; delayMs: number } {
  const chunks = Array.from({ length: n }, (_, i) => `word${i + 1} `);
  return { text: chunks.join(''), chunks, delayMs };
}

describe.skipIf(!HAS_CHROMIUM)('streaming while the worker stops', () => {
  let s: PanelSession;

  beforeAll(async () => {
    s = await openPanelSession();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('D1 L2 a CDP stop mid-stream keeps the checkpointed text as interrupted; the panel recovers and Retry adds no duplicate user turn', async () => {
    const slow = slowWords(60, 200);
    s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', ...slow });
    await s.panel.choose('anthropic', 'claude-sonnet-4-6');
    await s.panel.send('Tell me a long story');
    const id = await s.panel.currentConversationId();

    // At least one checkpoint with text is on disk while the answer still streams.
    const checkpointed = await waitFor('a checkpoint holding text', async () => {
      const last = (await storedTurns(s.page, id)).at(-1);
      return last?.role === 'assistant' && last.status === 'streaming' && textOf(last).length >= 'word1 word2 '.length
        ? textOf(last)
        : undefined;
    });
    // A marker in the worker's global scope: gone after a real restart (a fresh worker, not a caught fetch error).
    await s.browser.evalInWorker(() => void ((globalThis as { e2eMarker?: number }).e2eMarker = 1), undefined);
    const stoppedAt = Date.now();
    await s.browser.stopServiceWorker();
    await s.fakes.anthropic.waitForDisconnects(1, 5_000);

    // The panel reconnects, the restarted worker marks the answer interrupted, and the panel says so.
    await waitFor(
      'the interrupted answer in the panel',
      async () => (await s.panel.turnSummary()).join() === 'user:complete,assistant:interrupted',
      10_000,
    );
    const recoveredMs = Date.now() - stoppedAt;
    await s.page.getByText('Response interrupted.', { exact: true }).waitFor();
    const retry = s.page.getByRole('button', { name: 'Retry', exact: true });
    expect(await retry.isEnabled()).toBe(true);
    expect(await s.page.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(0);
    expect(await s.page.locator('p.phase').innerText(), 'no spinner or "writing" state').toBe('');
    expect(recoveredMs, 'L2: recovered within 5 s of the stop').toBeLessThan(5_000);
    expect(
      await s.browser.evalInWorker(() => (globalThis as { e2eMarker?: number }).e2eMarker, undefined),
      'the worker restarted',
    ).toBeUndefined();

    const [user, answer] = await storedTurns(s.page, id);
    expect(user).toMatchObject({ role: 'user', blocks: [{ type: 'text', text: 'Tell me a long story' }] });
    expect(answer!.status).toBe('interrupted');
    const kept = textOf(answer!);
    expect(slow.text.startsWith(kept), 'the kept text is a prefix of the stream').toBe(true);
    expect(kept.startsWith(checkpointed), 'the kept text holds the last checkpoint seen').toBe(true);
    expect(kept.length).toBeLessThan(slow.text.length);
    expect(posts(s.fakes.anthropic)).toHaveLength(1);

    // Retry answers again without a second user turn.
    s.fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: 'A shorter story.' });
    await retry.click();
    await s.page.locator(`[data-turn-id="${answer!.id}"]`).waitFor({ state: 'detached' });
    expect(await s.panel.waitForAnswer(1)).toBe('complete');
    expect(await s.panel.turnSummary()).toEqual(['user:complete', 'assistant:complete']);
    expect((await storedTurns(s.page, id)).map((t) => `${t.role}:${t.status ?? 'complete'}:${textOf(t)}`)).toEqual([
      'user:complete:Tell me a long story',
      'assistant:complete:A shorter story.',
    ]);
    const sent = posts(s.fakes.anthropic);
    expect(sent).toHaveLength(2);
    expectValid(sent[1]!);
    expect((sent[1]!.body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Tell me a long story' }] },
    ]);
  });

  it('L1 a stopped worker wakes for a page message and answers it on the first attempt', async () => {
    await s.browser.stopServiceWorker();
    const list = await request<{ id: string }[]>(s.page, 'listConversations', {});
    expect(list).toHaveLength(1);
  });

  it('L5 Stop aborts the request within 1 s, keeps the partial text as stopped, and clears the keepalive', async () => {
    s.fakes.reset();
    const slow = slowWords(40, 200);
    s.fakes.openai.enqueue('openai-responses', { kind: 'text', ...slow });
    await s.panel.newChat();
    await s.panel.choose('openai', 'gpt-5.5');
    await s.panel.send('Another long one');
    const id = await s.panel.currentConversationId();
    await waitFor('some streamed text in the panel', async () =>
      (await s.panel.turns().last().innerText()).includes('word2'),
    );
    expect(
      await s.browser.evalInWorker(
        async () =>
          (await (globalThis as unknown as { batonReady: Promise<{ keepalive: { active: boolean } }> }).batonReady)
            .keepalive.active,
        undefined,
      ),
    ).toBe(true);

    const clicked = Date.now();
    await s.page.getByRole('button', { name: 'Stop', exact: true }).click();
    await s.fakes.openai.waitForDisconnects(1, 1_000);
    expect(Date.now() - clicked).toBeLessThan(1_000);
    expect(await s.panel.waitForAnswer(1)).toBe('stopped');
    await s.page.getByText('Response interrupted: you stopped it.', { exact: true }).waitFor();

    const answer = (await storedTurns(s.page, id)).at(-1)!;
    expect(answer.status).toBe('stopped');
    expect(textOf(answer).length).toBeGreaterThan(0);
    expect(slow.text.startsWith(textOf(answer))).toBe(true);
    expect(
      await s.browser.evalInWorker(
        async () =>
          (await (globalThis as unknown as { batonReady: Promise<{ keepalive: { active: boolean } }> }).batonReady)
            .keepalive.active,
        undefined,
      ),
    ).toBe(false);
    expect(posts(s.fakes.openai)).toHaveLength(1);
  });

  it('S4 no key material in the console output of the worker (both runs) and the pages', async () => {
    expect(findKeyMaterial((await s.browser.capturedLogs(s.page)).join('\n'))).toEqual([]);
  });
});
