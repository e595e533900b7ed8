// @vitest-environment happy-dom
/**
 * Ask several models at once in the side panel (docs/side-panel.md#ask-several-models-at-once):
 * adding and removing targets, one first-disclosure confirmation per target (a declined one drops
 * out, said so, and the others still go), the answers side by side with their labels, and
 * *Continue with this*, which makes that answer the active version and its target the picker's.
 */
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMeta, SendTarget } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import type { MockConnector } from '../testing/mock-connector';
import { openConversation } from '../testing/open-conversation';
import { samplePreview } from '../testing/preview-fixture';

afterEach(cleanup);

const meta: ConversationMeta = {
  id: 'c1',
  title: 'Chat',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  turnCount: 2,
  preview: '',
};
const user = (id: string, text: string): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
const answer = (id: string, text: string, provider: string, model: string, status?: Turn['status']): Turn => ({
  id,
  role: 'assistant',
  origin: { provider, api: provider === 'anthropic' ? 'anthropic-messages' : 'openai-responses', model },
  createdAt: '2026-01-01T00:00:01Z',
  blocks: [{ type: 'text', text }],
  usage: { inputTokens: 1200, outputTokens: 340 },
  ...(status ? { status } : {}),
});
const ANTHROPIC_ORIGIN = 'https://api.anthropic.com';

/** A background where OpenAI has received the conversation and Anthropic has not. */
function background(opts: { compared?: boolean } = {}) {
  let leaf = 'x1';
  let compared = opts.compared === true;
  const stored = [user('u1', 'one'), answer('a1', 'first', 'openai', 'gpt-5')];
  return {
    previewSend: ({ target }: { target: SendTarget }) =>
      target.providerId === 'anthropic'
        ? samplePreview({
            needsConfirmation: true,
            target: {
              providerId: 'anthropic',
              api: 'anthropic-messages',
              model: target.model,
              origin: ANTHROPIC_ORIGIN,
            },
          })
        : samplePreview(),
    sendCompare: ({ targets }: { targets: { target: SendTarget }[] }) => ({
      userTurnId: 'u2',
      answers: targets.map((t, i) => ({ target: t.target, turnId: `x${i + 1}` })),
      dropped: [],
    }),
    getConversation: () => ({
      meta,
      busy: false,
      turns: [
        ...stored,
        user('u2', 'Which?'),
        leaf === 'x1'
          ? answer('x1', 'OPENAI-SAYS', 'openai', 'gpt-5')
          : answer('x2', 'CLAUDE-SAYS', 'anthropic', 'claude-x'),
      ],
      versions: { [leaf]: { index: leaf === 'x1' ? 1 : 2, count: 2 } },
    }),
    selectVersion: ({ turnId }: { turnId: string }) => {
      leaf = turnId;
      return meta;
    },
    // The stored compare group (docs/side-panel.md#ask-several-models-at-once): both answers until one is picked.
    getCompare: () =>
      compared
        ? {
            userTurnId: 'u2',
            answers: [
              answer('x1', 'OPENAI-SAYS', 'openai', 'gpt-5'),
              answer('x2', 'CLAUDE-SAYS', 'anthropic', 'claude-x'),
            ],
          }
        : null,
    endCompare: () => {
      compared = false;
      return null;
    },
    listDisclosures: () => ({
      seenBy: [],
      turns: {},
      entries: [
        {
          id: 1,
          at: '2026-01-01T00:00:05Z',
          providerId: 'anthropic',
          api: 'anthropic-messages',
          model: 'claude-x',
          endpoint: ANTHROPIC_ORIGIN,
          status: 'completed' as const,
          mode: 'snapshot' as const,
          turns: [['u2', 'h'] as [string, string]],
          usage: { inputTokens: 1500, outputTokens: 200 },
          costUsd: 0.02,
        },
      ],
    }),
  };
}

/** Adds a second target (Anthropic, model `claude-x`) and types the message. */
function askTwo(text: string): void {
  fireEvent.click(screen.getByRole('button', { name: '+ Ask several models' }));
  const provider = screen.getByRole('combobox', { name: 'Provider 2' }) as HTMLSelectElement;
  expect(provider.value).toBe('anthropic');
  fireEvent.input(screen.getByLabelText('Model 2'), { target: { value: 'claude-x' } });
  fireEvent.input(screen.getByLabelText('Message'), { target: { value: text } });
}

/** The background streams both answers and ends. */
function streamBoth(m: MockConnector): void {
  m.emit({ type: 'turnUpdated', conversationId: 'c1', turn: user('u2', 'Which?') });
  m.emit({
    type: 'turnUpdated',
    conversationId: 'c1',
    turn: answer('x1', 'OPENAI-SAYS', 'openai', 'gpt-5', 'streaming'),
  });
  m.emit({
    type: 'turnUpdated',
    conversationId: 'c1',
    turn: answer('x2', 'CLAUDE', 'anthropic', 'claude-x', 'streaming'),
  });
  m.emit({ type: 'turnUpdated', conversationId: 'c1', turn: answer('x1', 'OPENAI-SAYS', 'openai', 'gpt-5') });
  m.emit({ type: 'turnUpdated', conversationId: 'c1', turn: answer('x2', 'CLAUDE-SAYS', 'anthropic', 'claude-x') });
  m.emit({ type: 'sendStateChanged', conversationId: 'c1', state: 'idle' });
}

describe('ask several models at once', () => {
  it('adds up to three more targets, each named and removable', async () => {
    await openConversation(meta, [user('u1', 'one'), answer('a1', 'first', 'openai', 'gpt-5')], background());
    for (let i = 0; i < 3; i++)
      fireEvent.click(screen.getByRole('button', { name: i === 0 ? '+ Ask several models' : '+ Add a model' }));
    expect(screen.getByLabelText('Model 4')).toBeTruthy();
    // Four in all: no more can be added.
    expect(screen.queryByRole('button', { name: '+ Add a model' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove model 3' }));
    expect(screen.queryByLabelText('Model 4')).toBeNull();
    expect(screen.getByRole('button', { name: '+ Add a model' })).toBeTruthy();
  });

  it("numbers every picker row once several models are asked: the picker's own is 1, as in the rows below", async () => {
    await openConversation(meta, [user('u1', 'one'), answer('a1', 'first', 'openai', 'gpt-5')], background());
    const numbers = (sel: string) => [...document.querySelectorAll(`${sel} .compare-number`)].map((n) => n.textContent);
    // One model: no numbers.
    expect(numbers('.picker')).toEqual([]);
    askTwo('Which?');
    expect(numbers('.picker')).toEqual(['1']);
    expect(numbers('.compare-targets')).toEqual(['2']);
    const rows = await screen.findByRole('list', { name: 'What each model receives' });
    await waitFor(() => expect(rows.querySelectorAll('[data-compare-preview]')).toHaveLength(2));
    expect(numbers('.compare-disclosure')).toEqual(['1', '2']);
    // The badge is decoration: the fields keep their names.
    expect(screen.getByRole('combobox', { name: 'Provider' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove model 2' }));
    expect(numbers('.picker')).toEqual([]);
  });

  it('confirms the first disclosure of each target on its own, shows the answers side by side, and Continue with this switches to that target', async () => {
    const m = await openConversation(meta, [user('u1', 'one'), answer('a1', 'first', 'openai', 'gpt-5')], background());
    askTwo('Which?');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    // OpenAI has the conversation already: only Anthropic asks.
    const dialog = await screen.findByRole('dialog', { name: 'Send this conversation to Anthropic?' });
    expect(m.callsOf('sendCompare')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disclose and send' }));
    await waitFor(() => expect(m.callsOf('sendCompare')).toHaveLength(1));
    expect(m.callsOf('sendCompare')[0]).toMatchObject({
      conversationId: 'c1',
      text: 'Which?',
      targets: [
        { target: { providerId: 'openai', model: 'gpt-5' } },
        {
          target: { providerId: 'anthropic', model: 'claude-x' },
          confirmedDisclosure: true,
          confirmedFor: { providerId: 'anthropic', origin: ANTHROPIC_ORIGIN },
        },
      ],
    });
    expect(m.callsOf('sendCompare')[0]!.targets[0]).not.toHaveProperty('confirmedDisclosure');

    streamBoth(m);
    const region = await screen.findByRole('region', { name: 'Answers to compare' });
    await waitFor(() => expect(region.getAttribute('data-compare-done')).toBe('true'));
    const cards = region.querySelectorAll('[data-compare-answer]');
    expect([...cards].map((c) => c.getAttribute('data-compare-answer'))).toEqual(['x1', 'x2']);
    expect(cards[0]!.textContent).toContain('OPENAI-SAYS');
    expect(cards[1]!.textContent).toContain('CLAUDE-SAYS');
    // Tokens and cost from the ledger record where there is one; the turn's own usage otherwise.
    await waitFor(() => expect(cards[1]!.querySelector('[data-compare-stats]')!.textContent).toContain('$0.02'));
    expect(cards[1]!.querySelector('[data-compare-stats]')!.textContent).toContain('1.5k in · 200 out tokens');
    expect(cards[0]!.querySelector('[data-compare-stats]')!.textContent).toContain('1.2k in · 340 out tokens');

    fireEvent.click(within(cards[1] as HTMLElement).getByRole('button', { name: /^Continue with this/ }));
    await waitFor(() => expect(m.callsOf('selectVersion')).toEqual([{ conversationId: 'c1', turnId: 'x2' }]));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Answers to compare' })).toBeNull());
    expect((screen.getByRole('combobox', { name: 'Provider' }) as HTMLSelectElement).value).toBe('anthropic');
    expect((screen.getByRole('combobox', { name: 'Model' }) as HTMLInputElement).value).toBe('claude-x');
    // The chosen answer is the shown version; the added targets are gone (the next send goes to one).
    await screen.findByText('CLAUDE-SAYS');
    expect(screen.queryByLabelText('Model 2')).toBeNull();
  });

  it('a declined confirmation drops that target with its reason; the other still goes', async () => {
    const m = await openConversation(meta, [user('u1', 'one'), answer('a1', 'first', 'openai', 'gpt-5')], background());
    askTwo('Which?');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send this conversation to Anthropic?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(m.callsOf('sendCompare')).toHaveLength(1));
    expect(m.callsOf('sendCompare')[0]!.targets).toEqual([{ target: { providerId: 'openai', model: 'gpt-5' } }]);
    const region = await screen.findByRole('region', { name: 'Answers to compare' });
    expect(within(region).getByRole('list', { name: 'Not sent' }).textContent).toMatch(
      /Not sent to .*Anthropic: Not sent: you did not confirm the disclosure/,
    );
  });

  it('previews what each target receives before the send, one compact row each, with the first disclosures marked', async () => {
    const m = await openConversation(meta, [user('u1', 'one'), answer('a1', 'first', 'openai', 'gpt-5')], background());
    askTwo('Which?');
    const rows = await screen.findByRole('list', { name: 'What each model receives' });
    await waitFor(() => expect(rows.querySelectorAll('[data-compare-preview]')).toHaveLength(2));
    const [first, second] = [...rows.querySelectorAll('[data-compare-preview]')] as HTMLElement[];
    await waitFor(() => expect(second!.textContent).toContain('First disclosure'));
    expect(first!.textContent).toMatch(/gpt-5 · OpenAI/i);
    expect(first!.textContent).not.toContain('First disclosure');
    expect(second!.textContent).toMatch(/claude[ -]x · Anthropic/i);
    expect(first!.textContent).toMatch(/of \d+ turns? · ~[\d.k]+ tokens/);
    // Each target's own preview, planned as the compare sends it.
    const asked = m.callsOf('previewSend') as { target: SendTarget; compare?: true; text?: string }[];
    const last = (id: string) => asked.filter((c) => c.target.providerId === id && c.text === 'Which?').at(-1);
    expect(last('openai')).toMatchObject({ compare: true });
    expect(last('anthropic')).toMatchObject({ compare: true, target: { model: 'claude-x' } });
  });

  it('after the answers arrive, no row still says First disclosure: the ledger records written with them ended it', async () => {
    const bg = background();
    // The store as the background has it: the answers, and Anthropic's ledger record with its own,
    // are written when the answers end (docs/disclosure.md), just before their final events.
    let ended = false;
    const before = [user('u1', 'one'), answer('a1', 'first', 'openai', 'gpt-5')];
    const m = await openConversation(meta, before, {
      ...bg,
      getConversation: () =>
        ended
          ? { ...bg.getConversation(), versions: {} }
          : {
              meta,
              busy: false,
              turns: [...before, user('u2', 'Which?'), answer('x1', '', 'openai', 'gpt-5', 'streaming')],
            },
      previewSend: (p) => (p.target.providerId === 'anthropic' && ended ? samplePreview() : bg.previewSend(p)),
    });
    askTwo('Which?');
    const rows = await screen.findByRole('list', { name: 'What each model receives' });
    const texts = () => [...rows.querySelectorAll('[data-compare-preview]')].map((r) => r.textContent ?? '');
    await waitFor(() => expect(texts()[1]).toContain('First disclosure'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send this conversation to Anthropic?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disclose and send' }));
    await waitFor(() => expect(m.callsOf('sendCompare')).toHaveLength(1));
    const asked = m.callsOf('previewSend').length;
    ended = true;
    streamBoth(m);
    const region = await screen.findByRole('region', { name: 'Answers to compare' });
    await waitFor(() => expect(region.getAttribute('data-compare-done')).toBe('true'));
    // At once, not after the next refresh: a mark asked before the answers ended is not shown any more.
    expect(texts()).toHaveLength(2);
    expect(texts().filter((t) => t.includes('First disclosure'))).toEqual([]);
    // The rows are asked again once the send ended, and still say no first disclosure.
    await waitFor(() =>
      expect(
        m
          .callsOf('previewSend')
          .slice(asked)
          .filter((c) => c.target.providerId === 'anthropic'),
      ).not.toEqual([]),
    );
    await waitFor(() => expect(texts().every((t) => /tokens/.test(t) && !t.includes('First disclosure'))).toBe(true));
  });

  it('rows asked after the panel read a stored answer but before its usage was recorded re-settle on the corrected figure when its final event arrives', async () => {
    // The panel opens the conversation while Anthropic's answer x2 is already stored (status complete) but
    // the usage Anthropic reported is not yet recorded: the background's estimate for Anthropic is
    // uncorrected until then. The answer's final event is broadcast after the usage is recorded.
    const bg = background();
    let usageRecorded = false;
    const turns = [
      user('u1', 'one'),
      answer('a1', 'first', 'openai', 'gpt-5'),
      user('u2', 'Which?'),
      answer('x2', 'CLAUDE-SAYS', 'anthropic', 'claude-x'),
    ];
    const m = await openConversation(meta, turns, {
      ...bg,
      getConversation: () => ({ meta, busy: false, turns }),
      previewSend: (p: { target: SendTarget }) =>
        p.target.providerId === 'anthropic'
          ? samplePreview({
              target: {
                providerId: 'anthropic',
                api: 'anthropic-messages',
                model: p.target.model,
                origin: ANTHROPIC_ORIGIN,
              },
              estimatedInputTokens: usageRecorded ? 2600 : 1000,
              estimateSource: usageRecorded ? 'corrected' : 'estimate',
            })
          : samplePreview(),
    });
    askTwo('And now?');
    const rows = await screen.findByRole('list', { name: 'What each model receives' });
    const anthropicRow = () => rows.querySelector('[data-compare-preview="2"]')!;
    await waitFor(() => expect(anthropicRow().getAttribute('data-estimate-source')).toBe('estimate'));
    expect(anthropicRow().textContent).toContain('~1k tokens');
    const asked = m.callsOf('previewSend').length;
    usageRecorded = true;
    // The final event of x2: the same stored turn and status the panel already shows.
    m.emit({ type: 'turnUpdated', conversationId: 'c1', turn: turns[3]!, seq: 7 });
    await waitFor(() => expect(anthropicRow().getAttribute('data-estimate-source')).toBe('corrected'));
    expect(anthropicRow().textContent).toContain('~2.6k tokens');
    expect(m.callsOf('previewSend').length).toBeGreaterThan(asked);
  });

  it('shows the answers side by side again after a reload until one is picked; Continue with this ends it', async () => {
    const bg = background({ compared: true });
    const m = await openConversation(
      meta,
      [
        user('u1', 'one'),
        answer('a1', 'first', 'openai', 'gpt-5'),
        user('u2', 'Which?'),
        answer('x1', 'OPENAI-SAYS', 'openai', 'gpt-5'),
      ],
      bg,
    );
    const region = await screen.findByRole('region', { name: 'Answers to compare' });
    expect(region.getAttribute('data-compare-done')).toBe('true');
    const cards = region.querySelectorAll('[data-compare-answer]');
    expect([...cards].map((c) => c.getAttribute('data-compare-answer'))).toEqual(['x1', 'x2']);
    expect(cards[1]!.textContent).toContain('CLAUDE-SAYS');
    // Its time and cost come from the ledger record written when it ended.
    await waitFor(() => expect(cards[1]!.querySelector('[data-compare-stats]')!.textContent).toContain('$0.02'));
    expect(cards[1]!.querySelector('[data-compare-stats]')!.textContent).toContain('4.0 s');
    fireEvent.click(within(cards[1] as HTMLElement).getByRole('button', { name: /^Continue with this/ }));
    await waitFor(() => expect(m.callsOf('endCompare')).toEqual([{ conversationId: 'c1' }]));
    expect(m.callsOf('selectVersion')).toEqual([{ conversationId: 'c1', turnId: 'x2' }]);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Answers to compare' })).toBeNull());
    await screen.findByText('CLAUDE-SAYS');
  });

  it('every card has the same quiet Continue with this, named with its model; none competes as the primary action', async () => {
    await openConversation(
      meta,
      [
        user('u1', 'one'),
        answer('a1', 'first', 'openai', 'gpt-5'),
        user('u2', 'Which?'),
        answer('x1', 'OPENAI-SAYS', 'openai', 'gpt-5'),
      ],
      background({ compared: true }),
    );
    const region = await screen.findByRole('region', { name: 'Answers to compare' });
    const buttons = within(region).getAllByRole('button', { name: /^Continue with this/ });
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      expect.stringMatching(/gpt-5.*OpenAI/i),
      expect.stringMatching(/claude[ -]x.*Anthropic/i),
    ]);
    expect(new Set(buttons.map((b) => b.className)).size).toBe(1);
    for (const b of buttons) expect(b.classList.contains('primary')).toBe(false);
    // Each card is named for its model too.
    expect([...region.querySelectorAll('[data-compare-answer]')].map((c) => c.getAttribute('aria-label'))).toEqual([
      expect.stringMatching(/^Answer from .*gpt-5/i),
      expect.stringMatching(/^Answer from .*claude[ -]x/i),
    ]);
  });
});
