/**
 * docs/disclosure.md "Fitting" end to end, through the side panel UI against the fake providers: a
 * conversation that does not fit its `maxTurns` policy; "Summarise them instead…" with another
 * provider than the target; Cancel sends nothing; Summarise sends the fake summariser exactly the
 * dropped turns in its native form; the next send to the target carries the labelled summary turn
 * (user role) in their place, and the preview ("View request") showed that same body. A second
 * panel open on the conversation shows the summary notice as soon as it is stored, and drops it
 * when it is cleared (`summaryUpdated`). At 320 px, with a screenshot of the dialog
 * (`test-results/screenshots/summary-dialog.png`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_INSTRUCTION } from '../../lib/context/summary';
import type { DisclosureLedger } from '../../lib/messaging/disclosure-types';
import type { ConversationStore } from '../../lib/store/conversations';
import type { Turn } from '../../lib/transcript/schema';
import { expectValid, posts } from './fakes';
import { waitFor } from './harness';
import { openPanelSession, type PanelSession } from './panel-kit';
import { request, SidePanel } from './pages';
import { HAS_CHROMIUM, ROOT, warnIfNoChromium } from './paths';

warnIfNoChromium('summary.e2e.ts');

const ID = 'summary-e2e';
/** Four exchanges answered by OpenAI; with `maxTurns: 4` a new message drops the three oldest (6 turns). */
const TURNS: Turn[] = [1, 2, 3, 4].flatMap((i): Turn[] => [
  { id: `u${i}`, role: 'user', blocks: [{ type: 'text', text: `Question ${i}: remember the number ${i * 11}.` }] },
  {
    id: `a${i}`,
    role: 'assistant',
    origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' },
    status: 'complete',
    blocks: [{ type: 'text', text: `Noted ${i * 11}.` }],
  },
]);
const DRAFT = 'Which numbers did I give you?';
const SHOTS = path.join(ROOT, 'test-results/screenshots');
const SUMMARY_TEXT = 'The user gave the numbers 11, 22 and 33; each was noted.';

describe.skipIf(!HAS_CHROMIUM)('summarise the earlier part (docs/disclosure.md, "Fitting")', () => {
  let s: PanelSession;

  beforeAll(async () => {
    s = await openPanelSession({ width: 320, height: 900 });
    await s.browser.evalInWorker(
      async ({ id, turns }) => {
        const { store } = await (globalThis as unknown as { batonReady: Promise<{ store: ConversationStore }> })
          .batonReady;
        const now = new Date().toISOString();
        await store.create({ id, title: 'Numbers', now });
        for (const turn of turns) await store.appendTurn(id, turn, now);
      },
      { id: ID, turns: TURNS },
    );
    await request(s.page, 'setDisclosurePolicy', { conversationId: ID, policy: { maxTurns: 4 } });
    await s.page.reload();
    await s.panel.ready();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('Cancel sends nothing; Summarise sends the dropped turns to the summariser; the next send carries the summary turn as previewed; Stop using it', async () => {
    const { page, panel, fakes } = s;
    await panel.openConversation(ID);
    await waitFor('the seeded turns', async () => (await panel.turns().count()) === TURNS.length);
    await panel.choose('openai', 'gpt-5.5');
    await page.getByLabel('Message', { exact: true }).fill(DRAFT);
    const offer = page.getByRole('button', { name: 'Summarise them instead…' });
    await offer.waitFor();
    // The line first shows the conversation as it stands (4 dropped: the preview on open is not
    // debounced), then, once the draft's preview lands, the draft's exchange too: 6 dropped.
    const offerText = () => page.locator('[data-summary-offer]').textContent();
    await waitFor(
      'the offer for the send of the draft',
      async () => (await offerText())?.includes('The oldest 6 turns are dropped to fit (the default).') === true,
    );

    // The dialog: the summariser defaults to the target; pick Anthropic; Cancel sends nothing.
    const dialog = page.getByRole('dialog', { name: 'Summarise the earlier turns?' });
    const pick = async () => {
      await offer.click();
      await dialog.waitFor();
      expect(await dialog.getByLabel('Summariser provider').inputValue()).toBe('openai');
      await dialog.getByLabel('Summariser provider').selectOption('anthropic');
      await dialog.getByLabel('Summariser model').fill('claude-sonnet-4-6');
      await dialog
        .getByText(/^Anthropic \(http:\/\/127\.0\.0\.1:\d+\) will receive those turns, model claude-sonnet-4-6\.$/)
        .waitFor();
    };
    await pick();
    expect(await dialog.textContent()).toContain('6 earlier turns will be summarised.');
    expect(await dialog.textContent()).toMatch(
      /~[\d,]+ tokens in, at most 2,048 out: (up to ~\$\d+\.\d\d|under \$0\.01)\./,
    );
    await dialog.locator('[data-summary-first-disclosure]').waitFor();
    // Readable at 320 px: nothing wider than the panel.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'summary-dialog.png') });
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await new Promise((r) => setTimeout(r, 500));
    expect(posts(fakes.anthropic)).toEqual([]);
    expect(posts(fakes.openai)).toEqual([]);

    // A second panel (another window) on the same conversation: it hears of the summary from the background (`summaryUpdated`).
    const otherPage = await s.browser.context.newPage();
    await otherPage.setViewportSize({ width: 320, height: 900 });
    await otherPage.goto(`chrome-extension://${s.browser.extensionId}/sidepanel.html`);
    const other = new SidePanel(otherPage);
    await other.ready();
    await other.openConversation(ID);
    await waitFor('the seeded turns in the second panel', async () => (await other.turns().count()) === TURNS.length);
    await other.choose('openai', 'gpt-5.5');
    await otherPage.getByRole('button', { name: 'Summarise them instead…' }).waitFor();
    const otherNotice = otherPage.getByRole('region', { name: 'Summary of earlier turns' });
    expect(await otherNotice.count()).toBe(0);

    // Summarise: the summariser receives exactly the dropped turns, natively, then the instruction.
    await page.bringToFront();
    await pick();
    fakes.anthropic.enqueue('anthropic-messages', { kind: 'text', text: SUMMARY_TEXT });
    await dialog.getByRole('button', { name: 'Summarise', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    const asked = posts(fakes.anthropic);
    expect(asked).toHaveLength(1);
    expectValid(asked[0]!);
    expect((asked[0]!.body as { messages: unknown[]; system?: unknown }).system).toBeUndefined();
    expect((asked[0]!.body as { messages: unknown[] }).messages).toEqual([
      ...TURNS.slice(0, 6).map((t) => ({
        role: t.role,
        content: [{ type: 'text', text: (t.blocks[0] as { text: string }).text }],
      })),
      { role: 'user', content: [{ type: 'text', text: SUMMARY_INSTRUCTION }] },
    ]);
    const notice = page.getByRole('region', { name: 'Summary of earlier turns' });
    await waitFor(
      'the summary notice',
      async () =>
        ((await notice.textContent()) ?? '').includes(
          'Earlier 6 turns are sent as a summary written by claude-sonnet-4-6',
        ) || undefined,
    );
    await notice.getByRole('button', { name: 'View summary' }).click();
    await notice.getByText(SUMMARY_TEXT).waitFor();
    // The second panel shows it too, with no action of its own (its turns did not change).
    await waitFor(
      'the summary notice in the second panel',
      async () =>
        ((await otherNotice.textContent()) ?? '').includes(
          'Earlier 6 turns are sent as a summary written by claude-sonnet-4-6',
        ) || undefined,
    );

    // The preview shows the summary turn in place of the six; the send carries exactly that body.
    const line = page.locator('[data-disclosure-summary]');
    await waitFor(
      'the preview with the summary',
      async () => ((await line.textContent()) ?? '').startsWith('4 of 10 turns') || undefined,
    );
    await line.click();
    await page.getByRole('tab', { name: 'Request', exact: true }).click();
    const shown = JSON.parse((await page.getByLabel('Request body').textContent()) ?? '') as {
      input: { role: string }[];
    };
    // The turns are the sheet's other tab (docs/side-panel.md).
    await page.getByRole('tab', { name: 'Turns', exact: true }).click();
    expect(
      await page
        .locator('[data-disclosure-turn]')
        .evaluateAll((els) =>
          els.map((e) => `${e.getAttribute('data-disclosure-turn')}:${e.getAttribute('data-included')}`),
        ),
    ).toEqual([
      'summary-u1:true',
      'u1:false',
      'a1:false',
      'u2:false',
      'a2:false',
      'u3:false',
      'a3:false',
      'u4:true',
      'a4:true',
      'draft:true',
    ]);
    fakes.openai.enqueue('openai-responses', { kind: 'text', text: 'You gave me 11, 22, 33 and 44.' });
    await panel.send(DRAFT);
    expect(await panel.waitForAnswer(5)).toBe('complete');
    const sent = posts(fakes.openai);
    expect(sent).toHaveLength(1);
    expectValid(sent[0]!);
    expect(sent[0]!.body).toEqual(shown);
    const input = JSON.stringify(shown.input[0]);
    expect(shown.input[0]!.role).toBe('user');
    expect(input).toContain('[Summary of 6 earlier turns of this conversation, written by anthropic/claude-sonnet-4-6');
    expect(input).toContain(SUMMARY_TEXT);
    expect(JSON.stringify(shown)).not.toContain('Question 1');
    expect(JSON.stringify(shown)).toContain('Question 4');

    // The ledger: Anthropic received the six turns (a summary request), OpenAI the summary turn and the rest.
    const ledger = await request<DisclosureLedger>(page, 'listDisclosures', { conversationId: ID });
    expect(
      ledger.entries.map((e) => [e.providerId, e.purpose ?? 'send', e.turns.map(([id]) => id).slice(0, 3)]),
    ).toEqual([
      ['anthropic', 'summary', ['u1', 'a1', 'u2']],
      ['openai', 'send', ['summary-u1', 'u4', 'a4']],
    ]);

    // Stop using it: the summary is removed and the oldest turns are dropped again (the turns were never changed).
    await notice.getByRole('button', { name: 'Stop using it' }).click();
    await notice.waitFor({ state: 'hidden' });
    await otherNotice.waitFor({ state: 'hidden' });
    await otherPage.close();
    expect(await request(page, 'getSummary', { conversationId: ID })).toEqual({});
    await offer.waitFor();
    expect(
      (await request<{ turns: Turn[] }>(page, 'getConversation', { id: ID })).turns.slice(0, 8).map((t) => t.id),
    ).toEqual(TURNS.map((t) => t.id));
  });
});
