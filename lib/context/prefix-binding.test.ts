/**
 * A-B2: Anthropic binds thinking to everything before it, the system prompt included; and the
 * preview says when the instructions changed since the last send to a provider
 * (docs/disclosure.md#instructions). Pure functions over ledger-shaped records.
 */
import { describe, expect, it } from 'vitest';
import type { Transcript } from '../transcript/schema';
import { instructionsChange, prefixChangedThinking, systemHash } from './prefix-binding';

const transcript: Transcript = {
  format: 'baton.transcript',
  version: 1,
  id: 'c',
  turns: [
    { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Hi' }] },
    {
      id: 'a1',
      role: 'assistant',
      origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6' },
      usage: { reasoningTokens: 40 },
      blocks: [
        { type: 'thinking', text: 'hmm', signature: 'sig' },
        { type: 'text', text: 'Hello' },
      ],
    },
    { id: 'u2', role: 'user', blocks: [{ type: 'text', text: 'More' }] },
  ],
};
const sent = [
  ['u1', 'h1'],
  ['a1', 'h2'],
  ['u2', 'h3'],
] as const;
const blocks = [{ turn: 'a1', index: 0, fates: [{ fate: 'kept' as const, detail: '' }] }];
const record = (system: string | undefined) => ({
  providerId: 'anthropic',
  endpoint: 'https://api.anthropic.com',
  status: 'completed' as const,
  turns: [['u1', 'h1']] as [string, string][],
  answer: ['a1', 'h2'] as [string, string],
  ...(system !== undefined ? { system } : {}),
});

describe('A-B2: the system prompt is part of the prefix a thinking block is bound to', () => {
  it('same instructions: kept; other instructions: prefix-changed; a record without the note: judged on turns', () => {
    const same = systemHash('Be brief.');
    const input = { sent, transcript, blocks };
    expect(prefixChangedThinking({ ...input, records: [record(same)], system: same })).toBeUndefined();
    expect(prefixChangedThinking({ ...input, records: [record(same)], system: systemHash('Be long.') })).toEqual({
      reason: 'prefix-changed',
      turns: 1,
      reasoningTokens: 40,
    });
    expect(prefixChangedThinking({ ...input, records: [record('')], system: same })).toMatchObject({ turns: 1 });
    expect(prefixChangedThinking({ ...input, records: [record(undefined)], system: same })).toBeUndefined();
  });
});

describe('instructionsChange (docs/disclosure.md#instructions)', () => {
  const anthropic = { providerId: 'anthropic', origin: 'https://api.anthropic.com' };
  it('compares with the last completed send to the same provider and origin, ignoring summaries and old records', () => {
    const a = systemHash('A');
    expect(systemHash(undefined)).toBe('');
    expect(systemHash('  ')).toBe('');
    expect(instructionsChange([], anthropic, 'A')).toBeUndefined();
    expect(instructionsChange([record(undefined)], anthropic, 'A')).toBeUndefined();
    expect(instructionsChange([record('')], anthropic, 'A')).toBe('added');
    expect(instructionsChange([record(a)], anthropic, 'B')).toBe('changed');
    expect(instructionsChange([record(a)], anthropic, ' ')).toBe('removed');
    expect(instructionsChange([record(''), record(a)], anthropic, 'A')).toBeUndefined();
    // A failed send, a summary request, another origin: none of them is what the provider last had.
    expect(instructionsChange([record(a), { ...record(''), status: 'failed' }], anthropic, 'A')).toBeUndefined();
    expect(instructionsChange([record(a), { ...record(''), purpose: 'summary' }], anthropic, 'A')).toBeUndefined();
    expect(instructionsChange([record(a), { ...record(''), endpoint: 'https://proxy.test' }], anthropic, 'A')).toBe(
      undefined,
    );
    expect(instructionsChange([record(a)], { ...anthropic, providerId: 'openai' }, 'B')).toBeUndefined();
  });
});
