import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../../test/contract';
import { loadNeutralTranscript, loadNeutralTranscripts } from '../../../test/fixtures/transcripts';
import { SYNTHETIC } from '../../transcript/prepare';
import type { Turn } from '../../transcript/schema';
import { expectValid, kept, transcript } from './convert-anthropic-messages.test-helper';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages';
import { hasShared, loadCassette, loadChunks, loadJson } from './fixtures.test-helper';
import {
  readAnthropicMessagesHistory,
  readAnthropicMessagesResponse,
  readAnthropicMessagesStreamEvents,
} from './read-anthropic-messages';

const neutral = loadNeutralTranscripts();
const target = (model: string, thinking: boolean) => ({
  api: 'anthropic-messages' as const,
  model,
  maxOutputTokens: 8000,
  thinking,
});

describe('neutral transcripts', () => {
  for (const [name, t] of Object.entries(neutral))
    for (const model of ['claude-sonnet-4-5', 'claude-opus-4-5', 'claude-opus-4-6'])
      for (const thinking of [false, true])
        it(`${name} → ${model}, thinking ${thinking ? 'on' : 'off'}: a valid body and one report entry per input block`, () => {
          const out = convertToAnthropicMessages(t, target(model, thinking));
          expectValid(out.body);
          expect(out.report.blocks.map((b) => `${b.turn}#${b.index}`)).toEqual(
            t.turns.flatMap((turn) => turn.blocks.map((_, i) => `${turn.id}#${i}`)),
          );
        });

  it('mixed-origins → claude-opus-4-5 with thinking: its own thinking replays, foreign reasoning and signatures go', () => {
    const out = convertToAnthropicMessages(loadNeutralTranscript('mixed-origins'), target('claude-opus-4-5', true));
    expect(out.body).toEqual({
      model: 'claude-opus-4-5',
      max_tokens: 8000,
      stream: true,
      system: 'You are a careful assistant.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Find how retries work.' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'call_Ab12', name: 'search_docs', input: { q: 'retry policy' } }],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_Ab12', content: 'retry.md: bounded retries with retry-after' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Read the file.', signature: 'EpYBCkgIBhABsig' },
            { type: 'redacted_thinking', data: 'EmwKAhgBEgy3redacted' },
            { type: 'tool_use', id: 'toolu_01XyZ', name: 'read_file', input: { path: 'retry.md' } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_01XyZ',
              content: [{ type: 'text', text: '# Retries\nAt most 3.' }],
            },
          ],
        },
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'Retries are bounded: at most 3, honouring retry-after.' }],
        },
        { role: 'user', content: [{ type: 'text', text: 'And quota errors?' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Quota errors are never retried.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Show me the code.' }] },
      ],
      tools: [
        {
          name: 'search_docs',
          description: 'Search the docs.',
          input_schema: { type: 'object', properties: { q: { type: 'string' } } },
        },
        { name: 'read_file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
      ],
      // A-B3: replayed thinking goes with the thinking-binding controls (policy default drop_block).
      thinking: { type: 'enabled', budget_tokens: 4000, block_binding: { prefix_mismatch_behavior: 'drop_block' } },
    });
    expect(out.headers).toEqual({ 'anthropic-beta': 'thinking-binding-controls-2026-08-01' });
    const dropped = (turn: string, index: number, detail: string) => ({
      turn,
      index,
      fates: [{ fate: 'dropped', detail }],
    });
    expect(out.report).toEqual({
      input: { format: 'baton', turns: 9, blocks: 14 },
      blocks: [
        kept('u1'),
        dropped(
          'r1',
          0,
          'reasoning from openai/gpt-5.5-2026-04-23 (openai-responses) cannot be replayed to another model (X3, A-K6, R-K6)',
        ),
        kept('r1', 1),
        kept('r2'),
        kept('c1', 0),
        kept('c1', 1),
        kept('c1', 2),
        kept('c2'),
        dropped(
          'g1',
          0,
          'reasoning from google/gemini-3-pro-preview (gemini-generate-content) cannot be replayed to another model (X3, A-K6, R-K6)',
        ),
        kept('g1', 1),
        dropped('g1', 2, 'empty or whitespace-only text (X4, A-E1)'),
        kept('u2'),
        kept('w1'),
        kept('u3'),
      ],
      synthesized: [],
      warnings: [],
    });
  });

  it('orphans with thinking: repaired pairs, labelled orphan result, stub tool, thinking off (X1, X8, A-K2)', () => {
    const out = convertToAnthropicMessages(loadNeutralTranscript('orphans'), target('claude-sonnet-4-5', true));
    expect(out.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 8000,
      stream: true,
      messages: [
        { role: 'user', content: [{ type: 'text', text: SYNTHETIC.firstUserTurn }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hi! How can I help?' }] },
        { role: 'user', content: [{ type: 'text', text: 'List the files.' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_list', name: 'ls', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_list', content: SYNTHETIC.errorResult, is_error: true },
            { type: 'text', text: 'Never mind, stop.' },
            {
              type: 'text',
              text: '[Result of tool call call_ghost, whose call is not in this conversation]\na.txt b.txt',
            },
            { type: 'text', text: 'What did you find?' },
          ],
        },
      ],
      tools: [{ name: 'ls', description: SYNTHETIC.stubDescription, input_schema: { type: 'object', properties: {} } }],
      tool_choice: { type: 'none' },
    });
    expect(out.report.warnings).toEqual([
      'thinking off for this request: a tool loop is in progress and its last assistant message does not start with a thinking block from this model (A-K2)',
    ]);
  });

  it('provider-items → claude-sonnet-4-5: its own server tool blocks and citations replay in place, a foreign item becomes text', () => {
    const out = convertToAnthropicMessages(loadNeutralTranscript('provider-items'), target('claude-sonnet-4-5', false));
    const a1 = loadNeutralTranscript('provider-items').turns[1]!.blocks;
    expect(out.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: "What's new in Node 24?" }] },
      {
        role: 'assistant',
        content: [
          (a1[0] as { item: unknown }).item,
          (a1[1] as { item: unknown }).item,
          { type: 'text', text: 'Node 24 ships V8 13.6.', citations: (a1[2] as { citations: unknown }).citations },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Draw it.' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'text',
            text: '[openai-responses item from openai/gpt-5.5 (openai-responses), as text]\n```\n[generated image]\n```',
          },
          { type: 'text', text: 'Here is a drawing.' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Thanks. Summarise both.' }] },
    ]);
    expect(out.report.blocks[5]).toEqual({
      turn: 'a2',
      index: 0,
      fates: [
        {
          fate: 'converted',
          detail: 'openai-responses item from openai/gpt-5.5 (openai-responses) sent as labelled text',
        },
      ],
    });
  });
});

if (!hasShared) console.warn('skipping: ../shared/fixtures not found');

describe.skipIf(!hasShared)('same-origin replay of recorded Anthropic traffic (../shared/fixtures)', () => {
  it('a recorded thinking tool loop request reads and converts back to the same messages and tools', () => {
    const request = loadCassette('llm-cassette-thinking-tool-chain.yaml')[1]!.request as {
      model: string;
      max_tokens: number;
      messages: unknown;
      tools: unknown;
    };
    const out = convertToAnthropicMessages(readAnthropicMessagesHistory(request), {
      api: 'anthropic-messages',
      model: request.model,
      maxOutputTokens: request.max_tokens,
      thinking: true,
    });
    expect(out.body.messages).toEqual(request.messages);
    expect(out.body.tools).toEqual(request.tools);
    // A-B3: same-origin thinking is replayed with the drop_block binding control (default policy).
    expect(out.body.thinking).toEqual({
      type: 'enabled',
      budget_tokens: request.max_tokens / 2,
      block_binding: { prefix_mismatch_behavior: 'drop_block' },
    });
    const native = { fate: 'replayed-native', detail: 'same-origin content replayed verbatim (A-K1)' };
    expect(out.report).toEqual({
      input: { format: 'baton', turns: 3, blocks: 4 },
      blocks: [
        kept('t1'),
        { turn: 't2', index: 0, fates: [native] },
        { turn: 't2', index: 1, fates: [native] },
        kept('t3'),
      ],
      synthesized: [],
      warnings: [],
    });
    expectValid(out.body);
  });

  const recorded: [string, () => Turn][] = [
    [
      'web-search-citations.response.json',
      () =>
        readAnthropicMessagesResponse(loadJson('web-search-citations.response.json'), {
          provider: 'anthropic',
          turnId: 'a1',
        }),
    ],
    [
      'thinking-signature.response.json',
      () =>
        readAnthropicMessagesResponse(loadJson('thinking-signature.response.json'), {
          provider: 'anthropic',
          turnId: 'a1',
        }),
    ],
    [
      'compaction.response.json',
      () =>
        readAnthropicMessagesResponse(loadJson('compaction.response.json'), { provider: 'anthropic', turnId: 'a1' }),
    ],
    [
      'programmatic-tool-calling.chunks.jsonl',
      () =>
        readAnthropicMessagesStreamEvents(loadChunks('programmatic-tool-calling.chunks.jsonl'), {
          provider: 'anthropic',
          turnId: 'a1',
        })[0]!,
    ],
  ];
  for (const [file, read] of recorded)
    it(`${file}: the assistant content replays verbatim to its own model`, () => {
      const turn = read();
      const results = turn.blocks.flatMap((b) =>
        b.type === 'tool_call' ? [{ type: 'tool_result', callId: b.id, content: 'ok' }] : [],
      );
      const t = transcript(
        [
          { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Q' }] },
          turn,
          ...(results.length ? [{ id: 't1', role: 'tool', blocks: results }] : []),
        ],
        { id: file },
      );
      const out = convertToAnthropicMessages(t, {
        api: 'anthropic-messages',
        model: turn.origin!.model,
        maxOutputTokens: 4000,
      });
      // A-P1: a compaction block opens the history (the turns before it are dropped, no synthetic user turn).
      const at = file.startsWith('compaction') ? 0 : 1;
      expect(out.body.messages[at]).toEqual({ role: 'assistant', content: turn.native!.payload });
      expect(out.report.blocks.filter((b) => b.turn === turn.id).map((b) => b.fates)).toEqual(
        turn.blocks.map(() => [{ fate: 'replayed-native', detail: 'same-origin content replayed verbatim (A-K1)' }]),
      );
      // The compaction block goes with the beta header that produced it (A-P2), which the output lists.
      const betas = out.headers?.['anthropic-beta']?.split(',').map((b) => b.trim());
      expect(validateRequest('anthropic-messages', out.body, betas ? { anthropicBetas: betas } : {})).toEqual([]);
    });
});
