// @vitest-environment happy-dom
/**
 * The disclosure preview in the side panel (docs/disclosure.md): the one line, its expansion with per-turn
 * toggles, the sheet's "Request" and "Who has seen this" tabs, and the first-disclosure confirmation.
 */
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { DisclosureLedger, DisclosurePreview } from '../../lib/messaging/disclosure-types';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { openConversation } from '../testing/open-conversation';
import { sampleSettings, type MockConnector, type MockHandlers } from '../testing/mock-connector';
import { SAMPLE_BODY as BODY, samplePreview as preview } from '../testing/preview-fixture';
import { formatCost, formatTokens, summaryLine } from './disclosure-format';

afterEach(cleanup);

const T0 = '2026-11-30T08:00:00.000Z';
const meta: ConversationMeta = { id: 'c1', title: 'Chat c1', createdAt: T0, updatedAt: T0, turnCount: 2, preview: '' };
const TURNS: Turn[] = [
  { id: 'u1', role: 'user', createdAt: T0, blocks: [{ type: 'text', text: 'First question' }] },
  {
    id: 'a1',
    role: 'assistant',
    origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5' },
    status: 'complete',
    blocks: [
      { type: 'thinking', text: 'hmm' },
      { type: 'text', text: 'First answer' },
    ],
  },
];

/** The background's answer to `previewSend`: with `countsOnly`, the counts only (docs/architecture.md#long-conversations-and-speed). */
const answering =
  (over: Partial<DisclosurePreview> = {}) =>
  (p: { countsOnly?: boolean | undefined }) =>
    p.countsOnly ? { ...preview(over), perTurn: [], body: {}, countsOnly: true as const } : preview(over);

const open = (extra: MockHandlers = {}): Promise<MockConnector> =>
  openConversation(meta, TURNS, { sendMessage: () => ({ userTurnId: 'u2' }), ...extra });

const type = (text: string) => fireEvent.input(screen.getByLabelText('Message'), { target: { value: text } });
const line = () => screen.findByText((_, el) => el?.hasAttribute('data-disclosure-summary') ?? false);

describe('disclosure text', () => {
  it('formats tokens and cost', () => {
    expect([formatTokens(950), formatTokens(3240), formatTokens(12_400), formatTokens(1_250_000)]).toEqual([
      '950',
      '3.2k',
      '12k',
      '1.3M',
    ]);
    expect([formatCost(undefined), formatCost(0.001), formatCost(0.0123), formatCost(1.2)]).toEqual([
      undefined,
      '<$0.01',
      '$0.01',
      '$1.20',
    ]);
  });

  it('the one line says turns, tokens, cost, target and what was dropped', () => {
    expect(
      summaryLine(
        preview({
          turns: 20,
          includedTurns: 14,
          thinkingDropped: 2,
          imagesOmitted: 1,
          droppedByReason: { excluded: 1, 'over-budget': 5 },
        }),
        'Anthropic',
      ),
    ).toBe(
      '14 of 20 turns · ~3.2k tokens · ~$0.01 · to Anthropic gpt-5 · 2 thinking blocks dropped · 1 image omitted · 1 turn left out · 5 old turns over the limit',
    );
    expect(
      summaryLine(preview({ estimatedCostUsd: 0.001, estimatedInputTokens: 40, thinkingDropped: 0 }), 'OpenAI'),
    ).toBe('3 of 3 turns · ~40 tokens · <$0.01 · to OpenAI gpt-5');
    expect(summaryLine(preview({ allowed: false, forbidden: 'locked to openai' }), 'Anthropic')).toBe(
      'Not sent to Anthropic: locked to openai',
    );
  });
});

describe('the preview above the composer', () => {
  it('says in plain words which earlier reasoning will not be used, and what it costs again (docs/provider-rules.md, A-B1, A-B2, A-B5)', async () => {
    await open({
      previewSend: answering({
        reasoningUnused: [
          { reason: 'dropped-earlier', turns: 3, reasoningTokens: 4_200 },
          { reason: 'other-model', turns: 1, reasoningTokens: 0 },
          { reason: 'prefix-changed', turns: 2, reasoningTokens: 0 },
        ],
      }),
    });
    type('Next');
    const list = await screen.findByRole('list', { name: 'Reasoning not used' });
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'Earlier reasoning on 3 turns will not be used: the conversation changed before them, and the provider dropped it (~4.2k reasoning tokens to spend again).',
      'Earlier reasoning on 1 turn will not be used: it was written by another model.',
      'Earlier reasoning on 2 turns will not be used: the conversation before them changed since, so Anthropic will drop it.',
    ]);
  });

  it('shows no reasoning note when all earlier reasoning is sent', async () => {
    await open({ previewSend: answering() });
    type('Next');
    await line();
    expect(screen.queryByRole('list', { name: 'Reasoning not used' })).toBeNull();
    expect(document.querySelector('[data-tools-with-reasoning]')).toBeNull();
  });

  it.each([
    [
      'effort-none',
      'Reasoning is off for this request: gpt-5.6-sol takes tools on Chat Completions only without reasoning. The Responses API keeps both.',
    ],
    [
      'tools-left-out',
      'Tools are left out of this request: gpt-5.6-sol calls tools only through the Responses API, not Chat Completions. Reasoning stays on.',
    ],
  ] as const)('C-T9 says which change the request needed and why (%s)', async (outcome, text) => {
    await open({ previewSend: answering({ toolsWithReasoning: { outcome, model: 'gpt-5.6-sol' } }) });
    type('Next');
    await line();
    await waitFor(() => expect(document.querySelector('[data-tools-with-reasoning]')?.textContent).toBe(text));
  });

  it('refreshes for the draft and shows the line; expands into turns with fates and the exact request', async () => {
    const m = await open({ previewSend: answering() });
    type('Next');
    expect((await line()).textContent).toBe(
      '3 of 3 turns · ~3.2k tokens · ~$0.01 · to OpenAI gpt-5 · 1 thinking block dropped',
    );
    // Collapsed, only the counts are asked for (docs/architecture.md#long-conversations-and-speed); expanding asks for the whole preview.
    expect(m.callsOf('previewSend').at(-1)).toEqual({
      conversationId: 'c1',
      target: { providerId: 'openai', model: 'gpt-5' },
      text: 'Next',
      countsOnly: true,
    });
    fireEvent.click(screen.getByRole('button', { name: /3 of 3 turns/ }));
    const list = await screen.findByRole('list', { name: 'Turns in this send' });
    expect(m.callsOf('previewSend').at(-1)).toEqual({
      conversationId: 'c1',
      target: { providerId: 'openai', model: 'gpt-5' },
      text: 'Next',
    });
    expect(
      [...list.querySelectorAll('[data-disclosure-turn]')].map((li) => li.getAttribute('data-disclosure-turn')),
    ).toEqual(['u1', 'a1', 'draft']);
    expect(within(list).getByText('thinking: not sent (reasoning from another model)')).toBeTruthy();
    expect((screen.getByLabelText('Send turn 3 (Your new message)') as HTMLInputElement).disabled).toBe(true);
    // docs/side-panel.md: the expanded sheet's tabs; the one clicked is the one shown.
    fireEvent.click(screen.getByRole('tab', { name: 'Request' }));
    expect(screen.getByRole('tab', { name: 'Request' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByRole('list', { name: 'Turns in this send' })).toBeNull();
    expect(screen.getByLabelText('Request body').textContent).toBe(JSON.stringify(BODY, null, 2));
  });

  it('a turn left out is asked for in the preview and sent with the message', async () => {
    const m = await open({ previewSend: answering() });
    type('Next');
    fireEvent.click(await screen.findByRole('button', { name: /3 of 3 turns/ }));
    fireEvent.click(await screen.findByLabelText('Send turn 1 (You)'));
    await waitFor(() => expect(m.callsOf('previewSend').at(-1)).toMatchObject({ excludeTurns: ['u1'] }));
    fireEvent.click(screen.getByLabelText('Send block 1 of turn 2'));
    await waitFor(() =>
      expect(m.callsOf('previewSend').at(-1)).toMatchObject({
        excludeTurns: ['u1'],
        excludeBlocks: [{ turn: 'a1', index: 0 }],
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(m.callsOf('sendMessage')).toHaveLength(1));
    expect(m.callsOf('sendMessage')[0]).toEqual({
      conversationId: 'c1',
      text: 'Next',
      target: { providerId: 'openai', model: 'gpt-5' },
      excludeTurns: ['u1'],
      excludeBlocks: [{ turn: 'a1', index: 0 }],
    });
  });

  it('provider state from an imported file: said on its own line, sent only once chosen (docs/security.md)', async () => {
    const m = await open({
      previewSend: (q: { countsOnly?: boolean | undefined; replayImportedState?: boolean | undefined }) =>
        answering({ importedState: { turns: 2, replayed: q.replayImportedState === true } })(q),
    });
    type('Next');
    expect(await screen.findByText('Provider state from an imported file on 2 turns is not sent')).toBeTruthy();
    const box = screen.getByLabelText('Send provider state from the imported file') as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    await waitFor(() => expect(m.callsOf('previewSend').at(-1)).toMatchObject({ replayImportedState: true }));
    expect(await screen.findByText('Provider state from an imported file on 2 turns is sent')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(m.callsOf('sendMessage')).toHaveLength(1));
    expect(m.callsOf('sendMessage')[0]).toEqual({
      conversationId: 'c1',
      text: 'Next',
      target: { providerId: 'openai', model: 'gpt-5' },
      replayImportedState: true,
    });
  });

  it('without imported provider state there is no such line or control', async () => {
    await open({ previewSend: answering() });
    type('Next');
    await screen.findByRole('button', { name: /3 of 3 turns/ });
    expect(screen.queryByLabelText('Send provider state from the imported file')).toBeNull();
  });

  it('"Who has seen this?" lists providers per conversation and per turn', async () => {
    const ledger: DisclosureLedger = {
      entries: [],
      seenBy: [
        {
          providerId: 'openai',
          endpoint: 'https://api.openai.com',
          models: ['gpt-5'],
          sends: 2,
          firstAt: T0,
          lastAt: T0,
        },
        {
          providerId: 'anthropic',
          endpoint: 'https://api.anthropic.com',
          models: ['claude-sonnet-4-5'],
          sends: 1,
          firstAt: T0,
          lastAt: T0,
        },
      ],
      turns: { u1: [0, 1], a1: [1] },
    };
    const m = await open({ previewSend: answering(), listDisclosures: () => ledger });
    type('Next');
    fireEvent.click(await screen.findByRole('button', { name: /3 of 3 turns/ }));
    await screen.findByRole('list', { name: 'Turns in this send' });
    fireEvent.click(screen.getByRole('tab', { name: 'Who has seen this' }));
    const providers = await screen.findByRole('list', { name: 'Providers' });
    expect([...providers.querySelectorAll('li')].map((li) => li.getAttribute('data-seen-provider'))).toEqual([
      'openai',
      'anthropic',
    ]);
    const perTurn = screen.getByRole('list', { name: 'Per turn' });
    // Different recipients: one range per turn, each a single line.
    expect([...perTurn.querySelectorAll(':scope > li')].map((li) => li.textContent)).toEqual([
      'Turn 1 (First question): OpenAI (gpt-5), Anthropic (claude-sonnet-4-5)',
      'Turn 2 (First answer): Anthropic (claude-sonnet-4-5)',
    ]);
    expect(m.callsOf('listDisclosures')).toEqual([{ conversationId: 'c1' }]);
    // No send recorded a drop: no such list.
    expect(screen.queryByRole('list', { name: 'Dropped by the provider' })).toBeNull();
  });

  it('"Who has seen this?" says per send what the provider reported it dropped (A-B5), and reads entries without it', async () => {
    const entry = (id: number, over: Partial<DisclosureLedger['entries'][number]> = {}) => ({
      id,
      at: T0,
      providerId: 'anthropic',
      api: 'anthropic-messages',
      model: 'claude-sonnet-4-6',
      endpoint: 'https://api.anthropic.com',
      status: 'completed' as const,
      mode: 'snapshot' as const,
      turns: [['u1', 'h1'] as [string, string]],
      ...over,
    });
    const ledger: DisclosureLedger = {
      entries: [
        entry(1),
        entry(2, {
          dropped: { what: 'reasoning', blocks: 2, turns: ['a1', 'a3'], reasons: ['prefix_binding_mismatch'] },
        }),
        entry(3, { dropped: { what: 'reasoning', blocks: 1, turns: [], reasons: ['model_binding_mismatch'] } }),
      ],
      seenBy: [
        {
          providerId: 'anthropic',
          endpoint: 'https://api.anthropic.com',
          models: ['claude-sonnet-4-6'],
          sends: 3,
          firstAt: T0,
          lastAt: T0,
        },
      ],
      turns: { u1: [0] },
    };
    await open({ previewSend: answering(), listDisclosures: () => ledger });
    type('Next');
    fireEvent.click(await screen.findByRole('button', { name: /3 of 3 turns/ }));
    await screen.findByRole('list', { name: 'Turns in this send' });
    fireEvent.click(screen.getByRole('tab', { name: 'Who has seen this' }));
    const drops = await screen.findByRole('list', { name: 'Dropped by the provider' });
    const lines = [...drops.querySelectorAll('li')];
    expect(lines.map((li) => li.getAttribute('data-ledger-dropped'))).toEqual(['2', '3']);
    expect(lines[0]!.textContent).toMatch(
      /Anthropic dropped Claude's reasoning on 2 earlier turns \(the conversation before them changed\)\.$/,
    );
    expect(lines[1]!.textContent).toMatch(
      /Anthropic dropped Claude's reasoning on 1 earlier block \(another model wrote it\)\.$/,
    );
  });
});

describe('switching provider, then model, then Regenerate', () => {
  it('no preview is asked for, or shown with, a model of another provider; the regenerate goes to the chosen pair', async () => {
    const MODELS: Record<string, string[]> = {
      openai: ['gpt-5'],
      anthropic: ['claude-sonnet-4-6', 'claude-haiku-4-5'],
    };
    const m = await openConversation(meta, TURNS, {
      getSettings: () => {
        const s = sampleSettings();
        return {
          ...s,
          providers: s.providers.map((p) => (p.id === 'anthropic' ? { ...p, defaultModel: 'claude-sonnet-4-6' } : p)),
        };
      },
      listModels: ({ providerId }) => (MODELS[providerId] ?? []).map((id) => ({ id })),
      previewSend: (p) =>
        preview({ target: { ...preview().target, providerId: p.target.providerId, model: p.target.model } }),
      regenerateTurn: () => null,
    });
    await waitFor(() => expect(m.callsOf('previewSend').length).toBeGreaterThan(0));
    expect((await line()).textContent).toContain('to OpenAI gpt-5');
    // Every text the line shows from here on.
    const shown = new Set<string>();
    const observer = new MutationObserver(() => {
      const el = document.querySelector('[data-disclosure-summary]');
      if (el) shown.add(el.textContent ?? '');
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    fireEvent.change(screen.getByRole('combobox', { name: 'Provider' }), { target: { value: 'anthropic' } });
    fireEvent.input(screen.getByRole('combobox', { name: 'Model' }), { target: { value: 'claude-haiku-4-5' } });
    await waitFor(() =>
      expect(document.querySelector('[data-disclosure-summary]')?.textContent).toContain(
        'to Anthropic claude-haiku-4-5',
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Regenerate answer' }));
    await waitFor(() => expect(m.callsOf('regenerateTurn')).toHaveLength(1));
    observer.disconnect();

    for (const { target } of m.callsOf('previewSend')) expect(MODELS[target.providerId]).toContain(target.model);
    expect(m.callsOf('regenerateTurn')[0]!.target).toEqual({ providerId: 'anthropic', model: 'claude-haiku-4-5' });
    const names: Record<string, string> = { OpenAI: 'openai', Anthropic: 'anthropic' };
    for (const text of shown) {
      const [, provider, model] = / to (OpenAI|Anthropic) (\S+)/.exec(text) ?? [];
      expect(MODELS[names[provider!]!], text).toContain(model);
    }
  });
});

describe('snapshot or delta toggle', () => {
  it('off by default; turning it on stores the conversation policy and refreshes the preview', async () => {
    const m = await open({
      previewSend: answering(),
      getDisclosurePolicy: () => ({ global: {}, conversation: { maxTurns: 40 } }),
      setDisclosurePolicy: () => null,
    });
    type('Next');
    fireEvent.click(await screen.findByRole('button', { name: /3 of 3 turns/ }));
    fireEvent.click(screen.getByRole('tab', { name: 'Policy' }));
    const box = screen.getByLabelText(/Let OpenAI store this conversation and send only new turns/) as HTMLInputElement;
    expect(box.checked).toBe(false);
    const before = m.callsOf('previewSend').length;
    fireEvent.click(box);
    await waitFor(() =>
      expect(m.callsOf('setDisclosurePolicy')).toEqual([
        { conversationId: 'c1', policy: { maxTurns: 40, delivery: 'stateful' } },
      ]),
    );
    await waitFor(() => expect(m.callsOf('previewSend').length).toBeGreaterThan(before));
    expect((screen.getByLabelText(/Let OpenAI store/) as HTMLInputElement).checked).toBe(true);
  });
});

describe('first-time provider confirmation', () => {
  it('asks before a first disclosure; Cancel sends nothing; confirming sends with confirmedDisclosure', async () => {
    const m = await open({ previewSend: answering({ needsConfirmation: true }) });
    type('Next');
    await line();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send this conversation to OpenAI?' });
    expect(within(dialog).getByText(/2 earlier turns and your new message/)).toBeTruthy();
    // The line showed only the counts: the dialog was opened with the whole preview.
    expect(m.callsOf('previewSend').at(-1)).not.toHaveProperty('countsOnly');
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' })));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(m.callsOf('sendMessage')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    fireEvent.keyDown(await screen.findByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(m.callsOf('sendMessage')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disclose and send' }));
    await waitFor(() =>
      expect(m.callsOf('sendMessage')).toEqual([
        {
          conversationId: 'c1',
          text: 'Next',
          target: { providerId: 'openai', model: 'gpt-5' },
          confirmedDisclosure: true,
          confirmedFor: { providerId: 'openai', origin: 'https://api.openai.com' },
        },
      ]),
    );
  });

  it('sends at once when the provider has seen the conversation, even before the debounced preview arrived', async () => {
    const m = await open({ previewSend: answering() });
    type('Next');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(m.callsOf('sendMessage')).toHaveLength(1));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
