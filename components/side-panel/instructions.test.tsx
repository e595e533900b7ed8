// @vitest-environment happy-dom
/**
 * docs/side-panel.md#instructions: the instructions line under the title, the textbox named
 * *Instructions*, saving (and the preview asked again), a new chat started by saving them, the
 * options page's default; docs/disclosure.md#instructions: the preview's row and its sentence.
 */
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { DisclosurePreview } from '../../lib/messaging/disclosure-types';
import type { ConversationMeta } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { openConversation } from '../testing/open-conversation';
import { mockConnector } from '../testing/mock-connector';
import { previewRow, samplePreview } from '../testing/preview-fixture';
import { DefaultInstructionsForm } from '../options/default-instructions-form';
import { DisclosureBar } from './disclosure-bar';
import { Instructions } from './instructions';
import { instructionsChangeLine } from './instructions-preview';

afterEach(cleanup);

const T0 = '2026-11-30T08:00:00.000Z';
const meta: ConversationMeta = { id: 'c1', title: 'Chat c1', createdAt: T0, updatedAt: T0, turnCount: 1, preview: '' };
const turns: Turn[] = [{ id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Hello' }] }];
const RULES = 'Answer in French. Keep it short.';

const line = () => screen.getByRole('button', { name: /^Instructions/ });

describe('the instructions line and textbox in the side panel', () => {
  it('shows the stored instructions, edits them in a textbox named Instructions, saves, and asks the preview again', async () => {
    let stored = RULES;
    const m = await openConversation(meta, turns, {
      getInstructions: () => ({ instructions: stored }),
      setInstructions: (p) => {
        stored = p.instructions.trim() ? p.instructions : '';
        return { instructions: stored };
      },
      previewSend: () => samplePreview({ perTurn: [previewRow('u1', 'user', 'Hello', 3)] }),
    });
    await waitFor(() => expect(line().textContent).toContain(RULES));
    expect(line().getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('textbox', { name: 'Instructions' })).toBeNull();
    fireEvent.click(line());
    const box = screen.getByRole('textbox', { name: 'Instructions' }) as HTMLTextAreaElement;
    expect(box.value).toBe(RULES);
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled, 'nothing changed yet').toBe(true);
    const previewsBefore = m.callsOf('previewSend').length;
    fireEvent.input(box, { target: { value: 'Answer in German.' } });
    fireEvent.click(save);
    await waitFor(() =>
      expect(m.callsOf('setInstructions')).toEqual([{ id: 'c1', instructions: 'Answer in German.' }]),
    );
    await waitFor(() => expect(line().textContent).toContain('Answer in German.'));
    expect(screen.queryByRole('textbox', { name: 'Instructions' })).toBeNull();
    expect(screen.getByText('Instructions saved.')).toBeTruthy();
    // Saved instructions change the next send: the preview is asked again.
    await waitFor(() => expect(m.callsOf('previewSend').length).toBeGreaterThan(previewsBefore));

    // Clear, then Escape cancels without saving; Clear + Save removes them.
    fireEvent.click(line());
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Instructions' }), { key: 'Escape' });
    expect(m.callsOf('setInstructions')).toHaveLength(1);
    fireEvent.click(line());
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(line().textContent).toContain('none'));
    expect(m.callsOf('setInstructions')[1]).toEqual({ id: 'c1', instructions: '' });
    expect(screen.getByText('Instructions removed.')).toBeTruthy();
  });

  it('a refused save keeps the text and says why', async () => {
    const m = mockConnector({
      getInstructions: () => ({ instructions: '' }),
      setInstructions: () => {
        throw Object.assign(new Error('This conversation no longer exists.'), { code: 'not_found' });
      },
    });
    render(<Instructions connector={m.connector} conversationId="c1" onCreated={() => {}} onSaved={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: /^Instructions/ }));
    const box = screen.getByRole('textbox', { name: 'Instructions' }) as HTMLTextAreaElement;
    fireEvent.input(box, { target: { value: RULES } });
    fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
    expect((await screen.findByRole('alert')).textContent).toBe('This conversation no longer exists.');
    expect((screen.getByRole('textbox', { name: 'Instructions' }) as HTMLTextAreaElement).value).toBe(RULES);
  });

  it('in a new chat it starts with the default, and saving creates the conversation with the text saved', async () => {
    const created: string[] = [];
    const m = mockConnector({
      getDefaultInstructions: () => ({ instructions: RULES }),
      createConversation: () => ({ ...meta, id: 'new1' }),
    });
    render(
      <Instructions
        connector={m.connector}
        conversationId={undefined}
        target={{ providerId: 'openai', model: 'gpt-5' }}
        onCreated={(id) => created.push(id)}
        onSaved={() => {}}
      />,
    );
    await waitFor(() => expect(line().textContent).toContain(RULES));
    fireEvent.click(line());
    fireEvent.input(screen.getByRole('textbox', { name: 'Instructions' }), { target: { value: 'Be terse.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(created).toEqual(['new1']));
    expect(m.callsOf('createConversation')).toEqual([
      { instructions: 'Be terse.', target: { providerId: 'openai', model: 'gpt-5' } },
    ]);
    expect(line().textContent).toContain('Be terse.');
  });
});

describe('the default instructions in the options page', () => {
  it('a labelled textbox that loads and saves the default', async () => {
    let stored = '';
    const m = mockConnector({
      getDefaultInstructions: () => ({ instructions: stored }),
      setDefaultInstructions: (p) => ({ instructions: (stored = p.instructions.trim() ? p.instructions : '') }),
    });
    render(<DefaultInstructionsForm connector={m.connector} />);
    const box = (await screen.findByRole('textbox', { name: 'Instructions for new chats' })) as HTMLTextAreaElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    fireEvent.input(box, { target: { value: RULES } });
    fireEvent.click(screen.getByRole('button', { name: 'Save instructions' }));
    await waitFor(() => expect(stored).toBe(RULES));
    expect(await screen.findByText('Saved: new chats start with these instructions.')).toBeTruthy();
  });
});

describe('the instructions in the disclosure preview (docs/disclosure.md#instructions)', () => {
  const preview = (instructions: DisclosurePreview['instructions']): DisclosurePreview =>
    samplePreview({ perTurn: [previewRow('u1', 'user', 'Hello', 3)], ...(instructions ? { instructions } : {}) });

  it('says a change once, in the provider’s name', () => {
    expect(instructionsChangeLine(preview({ sent: true, tokens: 9, preview: RULES }), 'Anthropic')).toBeUndefined();
    expect(
      instructionsChangeLine(preview({ sent: true, tokens: 9, preview: RULES, change: 'changed' }), 'Anthropic'),
    ).toBe('Instructions changed since the last send to Anthropic: its prompt cache starts again.');
    expect(instructionsChangeLine(preview({ sent: false, tokens: 0, preview: '', change: 'removed' }), 'OpenAI')).toBe(
      'Instructions removed since the last send to OpenAI: its prompt cache starts again.',
    );
  });

  it('the Turns tab lists them as their own row with their tokens, and the line says the change', () => {
    render(
      <DisclosureBar
        preview={preview({ sent: true, tokens: 1234, preview: RULES, change: 'added' })}
        providerName="Anthropic"
        excludeTurns={[]}
        excludeBlocks={[]}
        onToggleTurn={() => {}}
        onToggleBlock={() => {}}
        ledger={undefined}
        hasConversation
        onLedgerOpen={() => {}}
        providerNames={{}}
      />,
    );
    expect(document.querySelector('[data-instructions-change]')!.textContent).toBe(
      'Instructions added since the last send to Anthropic: its prompt cache starts again.',
    );
    fireEvent.click(document.querySelector('button.disclosure-line')!);
    const sheet = screen.getByRole('region', { name: 'What this send discloses' });
    const row = sheet.querySelector('[data-disclosure-instructions="sent"]') as HTMLElement;
    expect(row.textContent).toContain('~1,234 tokens');
    expect(row.textContent).toContain(RULES);
    // A row of its own, not a turn that could be left out.
    expect(within(row).queryByRole('checkbox')).toBeNull();
  });
});
