// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { DisclosureLedger, PreviewTurn } from '../../lib/messaging/disclosure-types';
import { DisclosureLedgerView, seenRanges } from './disclosure-ledger';

afterEach(cleanup);

const T0 = '2026-01-01T10:00:00.000Z';
const turn = (id: string, preview: string, draft = false): PreviewTurn =>
  ({ id, role: 'user', included: true, pinned: false, tokens: 1, preview, ...(draft ? { draft } : {}) }) as PreviewTurn;

/** 45 turns: 1–40 reached OpenAI and Anthropic, 41 only Anthropic, 42–45 nobody; then a draft. */
function fixture(): { turns: PreviewTurn[]; ledger: DisclosureLedger } {
  const turns = Array.from({ length: 45 }, (_, i) => turn(`t${i + 1}`, `Message ${i + 1}`));
  turns.push(turn('draft', 'not sent', true));
  const map: Record<string, number[]> = {};
  for (let i = 1; i <= 40; i++) map[`t${i}`] = i % 2 ? [0, 1] : [1, 0]; // order does not matter
  map.t41 = [1];
  const seen = (providerId: string, endpoint: string, model: string) => ({
    providerId,
    endpoint,
    models: [model],
    sends: 3,
    firstAt: T0,
    lastAt: T0,
  });
  return {
    turns,
    ledger: {
      entries: [],
      seenBy: [
        seen('openai', 'https://api.openai.com', 'gpt-5'),
        seen('anthropic', 'https://api.anthropic.com', 'claude-sonnet-4-5'),
      ],
      turns: map,
    },
  };
}

describe('Who has seen this, per turn (docs/disclosure.md)', () => {
  it('seenRanges groups consecutive turns with the same recipients, leaving drafts out', () => {
    const { turns, ledger } = fixture();
    expect(seenRanges(turns, ledger).map((r) => [r.from, r.to, r.seenBy])).toEqual([
      [1, 40, [0, 1]],
      [41, 41, [1]],
      [42, 45, []],
    ]);
  });

  it('45 turns read as three lines; a range expands to its turns', () => {
    const { turns, ledger } = fixture();
    render(
      <DisclosureLedgerView
        ledger={ledger}
        turns={turns}
        providerNames={{ openai: 'OpenAI', anthropic: 'Anthropic' }}
      />,
    );
    const perTurn = screen.getByRole('list', { name: 'Per turn' });
    const lines = [...perTurn.querySelectorAll(':scope > li')];
    expect(lines.map((li) => (li.querySelector('summary') ?? li).textContent)).toEqual([
      'Turns 1–40: OpenAI (gpt-5), Anthropic (claude-sonnet-4-5)',
      'Turn 41 (Message 41): Anthropic (claude-sonnet-4-5)',
      'Turns 42–45: no provider',
    ]);
    const first = lines[0]!.querySelector('details')!;
    expect(first.open).toBe(false);
    fireEvent.click(first.querySelector('summary')!);
    first.open = true; // happy-dom does not toggle <details> on a summary click
    const inner = within(first)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(inner).toHaveLength(40);
    expect(inner[0]).toBe('Message 1');
    expect(first.querySelector('ol')!.getAttribute('start')).toBe('1');
    expect(perTurn.textContent).not.toContain('not sent');
  });
});
