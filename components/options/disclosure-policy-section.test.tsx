// @vitest-environment happy-dom
/** The global disclosure policy form on the options page (docs/disclosure.md). */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { DisclosurePolicy } from '../../lib/messaging/disclosure-types';
import { MockRequestError, mockConnector, sampleSettings } from '../testing/mock-connector';
import { DisclosurePolicySection } from './disclosure-policy-section';
import { OptionsPage } from './options-page';

afterEach(cleanup);

function setup(global: DisclosurePolicy, fail?: string) {
  let stored = global;
  const m = mockConnector({
    getDisclosurePolicy: () => ({ global: stored }),
    setDisclosurePolicy: ({ policy }) => {
      if (fail) throw new MockRequestError({ code: 'bad_request', message: fail });
      stored = policy;
      return null;
    },
  });
  render(<DisclosurePolicySection connector={m.connector} providers={sampleSettings().providers} />);
  return m;
}

const type = (label: string, value: string) => fireEvent.input(screen.getByLabelText(label), { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save disclosure policy' }));
const checked = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).checked;

describe('DisclosurePolicySection', () => {
  it('shows the stored global policy and saves the edited one, keeping fields it does not show', async () => {
    const m = setup({
      maxTurns: 40,
      foreignReasoning: 'text',
      neverProviders: ['google'],
      delivery: 'stateful',
      lockedProvider: 'openai',
    });
    await screen.findByLabelText('Max turns');
    expect((screen.getByLabelText('Max turns') as HTMLInputElement).value).toBe('40');
    expect((screen.getByLabelText('Max tokens') as HTMLInputElement).value).toBe('');
    expect([
      checked('Send it as labelled text'),
      checked('Drop it'),
      checked('Send them'),
      checked('Omit them'),
    ]).toEqual([true, false, true, false]);
    expect([checked('OpenAI'), checked('Anthropic'), checked('Google Gemini')]).toEqual([false, false, true]);

    type('Max turns', '');
    type('Max tokens', '32,000');
    fireEvent.click(screen.getByLabelText('Drop it'));
    fireEvent.click(screen.getByLabelText('Omit them'));
    fireEvent.click(screen.getByLabelText('Anthropic'));
    fireEvent.click(screen.getByLabelText('Google Gemini'));
    save();
    await screen.findByText('Disclosure policy saved.');
    expect(m.callsOf('setDisclosurePolicy')).toEqual([
      {
        policy: {
          delivery: 'stateful',
          lockedProvider: 'openai',
          maxTokens: 32000,
          foreignReasoning: 'drop',
          images: 'omit',
          neverProviders: ['anthropic'],
        },
      },
    ]);
    expect((screen.getByLabelText('Max tokens') as HTMLInputElement).value).toBe('32000');
  });

  it('A-B3 Claude’s thinking after a changed conversation: dropped by default, "fail" is stored and shown again', async () => {
    const m = setup({ maxTurns: 5 });
    const group = await screen.findByRole('group', {
      name: "Claude's earlier thinking when the conversation before it changed",
    });
    const drop = within(group).getByLabelText('Let Anthropic drop it and report what it dropped') as HTMLInputElement;
    const fail = within(group).getByLabelText('Fail the send') as HTMLInputElement;
    expect([drop.checked, fail.checked]).toEqual([true, false]);
    fireEvent.click(fail);
    save();
    await screen.findByText('Disclosure policy saved.');
    expect(m.callsOf('setDisclosurePolicy')).toEqual([
      { policy: { maxTurns: 5, foreignReasoning: 'drop', images: 'send', prefixMismatchBehavior: 'error' } },
    ]);
    cleanup();

    // Loaded again from what was stored: "fail" is chosen; back to dropping stores the default (no field).
    const again = setup({ maxTurns: 5, prefixMismatchBehavior: 'error' });
    await screen.findByLabelText('Fail the send');
    expect([checked('Let Anthropic drop it and report what it dropped'), checked('Fail the send')]).toEqual([
      false,
      true,
    ]);
    fireEvent.click(screen.getByLabelText('Let Anthropic drop it and report what it dropped'));
    save();
    await screen.findByText('Disclosure policy saved.');
    expect(again.callsOf('setDisclosurePolicy')).toEqual([
      { policy: { maxTurns: 5, foreignReasoning: 'drop', images: 'send' } },
    ]);
  });

  it('refuses invalid limits with a sentence beside each field and sends nothing', async () => {
    const m = setup({});
    await screen.findByLabelText('Max turns');
    type('Max turns', '0');
    type('Max tokens', '12.5k');
    save();
    expect(screen.getAllByRole('alert').map((e) => e.textContent)).toEqual([
      'Max turns: must be at least 1, or empty for no limit.',
      'Max tokens: enter a whole number of tokens, or leave it empty for no limit.',
    ]);
    expect(screen.getByLabelText('Max turns').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Not saved: correct the fields marked above.')).toBeTruthy();
    expect(m.callsOf('setDisclosurePolicy')).toEqual([]);

    type('Max turns', '12');
    type('Max tokens', '');
    save();
    await screen.findByText('Disclosure policy saved.');
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(m.callsOf('setDisclosurePolicy')).toEqual([
      { policy: { maxTurns: 12, foreignReasoning: 'drop', images: 'send' } },
    ]);
  });

  it('shows the background refusal and keeps the form as typed', async () => {
    setup({}, 'Invalid disclosure policy: nope');
    await screen.findByLabelText('Max turns');
    type('Max turns', '5');
    save();
    await screen.findByText('Not saved: Invalid disclosure policy: nope');
    expect((screen.getByLabelText('Max turns') as HTMLInputElement).value).toBe('5');
  });

  it('keeps a never-send provider that is no longer configured', async () => {
    const m = setup({ neverProviders: ['gone-endpoint'] });
    await screen.findByLabelText('Max turns');
    expect(checked('gone-endpoint (not configured)')).toBe(true);
    save();
    await waitFor(() =>
      expect(m.callsOf('setDisclosurePolicy')).toEqual([
        { policy: { foreignReasoning: 'drop', images: 'send', neverProviders: ['gone-endpoint'] } },
      ]),
    );
  });

  it('is the options page’s Disclosure section, offering the configured providers', async () => {
    const m = mockConnector({
      getSettings: () => sampleSettings(),
      getDisclosurePolicy: () => ({ global: { images: 'omit' } }),
      setDisclosurePolicy: () => null,
    });
    render(<OptionsPage connector={m.connector} permissions={{ request: () => Promise.resolve(true) }} />);
    const heading = await screen.findByRole('heading', { name: 'Disclosure' });
    const form = await within(heading.closest('section')!).findByRole('form', { name: 'Disclosure policy' });
    await waitFor(() => expect((within(form).getByLabelText('Omit them') as HTMLInputElement).checked).toBe(true));
    expect(
      within(within(form).getByRole('group', { name: 'Never send any conversation to' }))
        .getAllByRole('checkbox')
        .map((c) => c.parentElement?.textContent?.trim()),
    ).toEqual(['OpenAI', 'Anthropic', 'Google Gemini']);
    fireEvent.click(within(form).getByLabelText('OpenAI'));
    fireEvent.click(within(form).getByRole('button', { name: 'Save disclosure policy' }));
    await waitFor(() =>
      expect(m.callsOf('setDisclosurePolicy')).toEqual([
        { policy: { foreignReasoning: 'drop', images: 'omit', neverProviders: ['openai'] } },
      ]),
    );
  });
});
