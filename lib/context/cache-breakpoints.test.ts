/**
 * Anthropic prompt caching (docs/disclosure.md): breakpoints on the stable prefix, within the 4-breakpoint
 * limit, and the body stays valid for the contract validator.
 */
import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../test/contract';
import { TranscriptError } from '../transcript/codec';
import { addCacheBreakpoints, MIN_CACHEABLE_TOKENS } from './cache-breakpoints';
import { assistant, CLAUDE, transcript, turn, user } from './context.test-helper';
import { plan } from './plan';

const TARGET = { api: 'anthropic-messages', model: 'claude-sonnet-4-5' } as const;
const EPHEMERAL = { type: 'ephemeral' };
const LONG = 'All work and no play makes Jack a dull boy. '.repeat(120);

type Body = {
  system?: unknown;
  tools?: Record<string, unknown>[];
  messages: { role: string; content: Record<string, unknown>[] }[];
};

function markers(body: Body): string[] {
  const out: string[] = [];
  if (Array.isArray(body.system))
    body.system.forEach((b: Record<string, unknown>, k) => b.cache_control && out.push(`system[${k}]`));
  body.tools?.forEach((b, k) => b.cache_control && out.push(`tools[${k}]`));
  body.messages.forEach((m, i) => m.content.forEach((b, k) => b.cache_control && out.push(`messages[${i}][${k}]`)));
  return out;
}

describe('addCacheBreakpoints', () => {
  const t = transcript(
    [
      user('u0', LONG),
      turn(
        'a0',
        'assistant',
        [
          { type: 'thinking', text: 'Hmm.', signature: 'sig' },
          { type: 'text', text: 'Indeed.' },
        ],
        { origin: CLAUDE },
      ),
      user('u1', 'Why?'),
      assistant('a1', 'Because.', CLAUDE),
      user('u2', 'Tell me more.'),
    ],
    { system: 'Be brief.' },
  );

  it('marks the system prompt, the message before the newest user turn and the newest user turn', () => {
    const p = plan(t, TARGET);
    expect(p.estimatedInputTokens).toBeGreaterThanOrEqual(MIN_CACHEABLE_TOKENS);
    const body = addCacheBreakpoints(p.body!, p) as unknown as Body;
    expect(body.system).toEqual([{ type: 'text', text: 'Be brief.', cache_control: EPHEMERAL }]);
    expect(markers(body)).toEqual(['system[0]', 'messages[3][0]', 'messages[4][0]']);
    expect(body.messages[3]!.content[0]).toEqual({ type: 'text', text: 'Because.', cache_control: EPHEMERAL });
    expect(validateRequest('anthropic-messages', body)).toEqual([]);
  });

  it('never changes the plan’s body', () => {
    const p = plan(t, TARGET);
    const before = JSON.stringify(p.body);
    addCacheBreakpoints(p.body!, p);
    expect(JSON.stringify(p.body)).toBe(before);
  });

  it('marks the last tool when there is no system prompt, and skips blocks that cannot be cached', () => {
    const tools = transcript(
      [
        user('u0', LONG),
        turn(
          'a0',
          'assistant',
          [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_call', id: 'toolu_1', name: 'search', input: { q: 'jack' } },
          ],
          { origin: CLAUDE },
        ),
        turn('r0', 'tool', [{ type: 'tool_result', callId: 'toolu_1', content: 'found' }]),
      ],
      {
        tools: [
          { name: 'search', inputSchema: { type: 'object' } },
          { name: 'read', inputSchema: { type: 'object' } },
        ],
      },
    );
    const p = plan(tools, { ...TARGET, thinking: false });
    const body = addCacheBreakpoints(p.body!, p) as unknown as Body;
    expect(body.system).toBeUndefined();
    expect(markers(body)).toEqual(['tools[1]', 'messages[1][1]', 'messages[2][0]']);
    expect(body.messages[1]!.content[1]).toMatchObject({ type: 'tool_use', cache_control: EPHEMERAL });
    expect(body.messages[2]!.content[0]).toMatchObject({ type: 'tool_result', cache_control: EPHEMERAL });
    expect(validateRequest('anthropic-messages', body)).toEqual([]);
  });

  it('stays within 4 breakpoints, counting those already in the body', () => {
    const p = plan(t, TARGET);
    const pre = structuredClone(p.body!) as unknown as Body;
    pre.messages[0]!.content[0]!.cache_control = EPHEMERAL;
    pre.messages[1]!.content[0]!.cache_control = EPHEMERAL;
    const body = addCacheBreakpoints(pre as unknown as Record<string, unknown>, p) as unknown as Body;
    expect(markers(body)).toEqual(['system[0]', 'messages[0][0]', 'messages[1][0]', 'messages[3][0]']);
    expect(validateRequest('anthropic-messages', body)).toEqual([]);
  });

  it('leaves short conversations alone (same object)', () => {
    const short = transcript([user('u0', 'hi')], { system: 'Be brief.' });
    const p = plan(short, TARGET);
    expect(addCacheBreakpoints(p.body!, p)).toBe(p.body);
  });

  it('rejects another API’s plan or a body without messages', () => {
    const p = plan(t, { api: 'openai-chat', model: 'gpt-4o' });
    expect(() => addCacheBreakpoints(p.body!, p)).toThrow(
      new TranscriptError('plan.target.api', 'cache breakpoints are for anthropic-messages, not openai-chat'),
    );
    const c = plan(t, TARGET);
    expect(() => addCacheBreakpoints({ model: 'x' }, c)).toThrow(TranscriptError);
  });
});

describe('addCacheBreakpoints and mixed TTLs', () => {
  it('A-S2: adds no 5-minute breakpoint in front of a replayed 1-hour one', () => {
    const body = {
      model: 'claude-sonnet-4-6',
      max_tokens: 1000,
      stream: true,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: LONG, cache_control: { type: 'ephemeral', ttl: '1h' } }] },
      ],
    };
    const out = addCacheBreakpoints(body, {
      target: { api: 'anthropic-messages', model: 'claude-sonnet-4-6', provider: 'anthropic' },
      estimatedInputTokens: 5_000,
    });
    expect(out).toBe(body);
    expect(validateRequest('anthropic-messages', out)).toEqual([]);
  });
});
