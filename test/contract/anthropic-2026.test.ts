import { describe, expect, it } from 'vitest';
import { validateAnthropicMessagesRequest } from './anthropic-messages';

const base = (model: string, messages: unknown[], extra: Record<string, unknown> = {}) => ({
  model,
  max_tokens: 1024,
  stream: true,
  messages,
  ...extra,
});
const hi = { role: 'user', content: 'Hi' };
const rules = (body: unknown, betas?: string[]) =>
  validateAnthropicMessagesRequest(body, betas ? { betas } : {}).map((v) => `${v.rule} ${v.path}: ${v.message}`);

describe('Anthropic contract, API version 2026-10-21', () => {
  it('A-V1: temperature, top_p and top_k are refused on every model, even at their defaults', () => {
    expect(rules(base('claude-sonnet-4-5', [hi], { temperature: 1, top_k: 5 }))).toEqual([
      'A-V1 temperature: `temperature` is deprecated for this model.',
      'A-V1 top_k: `top_k` is deprecated for this model.',
    ]);
  });

  it('A-V2: no document block in an assistant message (user messages keep theirs)', () => {
    const doc = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' } };
    expect(
      rules(
        base('claude-opus-4-8', [
          { role: 'user', content: [doc, { type: 'text', text: 'Read' }] },
          { role: 'assistant', content: [doc] },
          hi,
        ]),
      ),
    ).toEqual([
      'A-V2 messages[1].content[0]: document blocks are not supported in assistant messages; place the document in a user message or a tool_result.',
    ]);
  });

  it('A-V3: no citations on user text, directly or inside a search_result', () => {
    const cite = [
      { type: 'char_location', cited_text: 'x', document_index: 0, start_char_index: 0, end_char_index: 1 },
    ];
    const doc = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' } };
    const search = {
      type: 'search_result',
      source: 's',
      title: 't',
      content: [{ type: 'text', text: 'r', citations: cite }],
    };
    expect(
      rules(
        base('claude-opus-4-8', [
          { role: 'user', content: [doc, { type: 'text', text: 'Q', citations: cite }, search] },
        ]),
      ).filter((r) => r.startsWith('A-V3')),
    ).toEqual([
      'A-V3 messages[0].content[1].citations: citations are not supported on text blocks in user messages.',
      'A-V3 messages[0].content[2].content[0].citations: citations are not supported on text blocks in user messages.',
    ]);
  });

  it('A-V4: a prefill is refused by Opus 5, the 5.5 family and Fable; accepted by Opus 4.8', () => {
    const prefill = [hi, { role: 'assistant', content: 'Sure' }];
    for (const model of ['claude-opus-5', 'claude-sonnet-5-5', 'claude-haiku-5-5', 'claude-fable-5-2'])
      expect(rules(base(model, prefill)), model).toEqual([
        'A-V4 messages[1]: This model does not support assistant message prefill. The conversation must end with a user message.',
      ]);
    expect(rules(base('claude-opus-4-8', prefill))).toEqual([]);
  });

  it('A-V5: budget thinking on an adaptive-only model and forced tool use on Sonnet 5.5 are refused', () => {
    expect(
      rules(base('claude-opus-4-7', [hi], { max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } })),
    ).toEqual([
      'A-V5 thinking.type: `thinking.type: "enabled"` with `budget_tokens` is not supported for this model. Use `thinking.type: "adaptive"` and `output_config.effort` to control thinking.',
    ]);
    expect(
      rules(base('claude-sonnet-4-5', [hi], { max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } })),
    ).toEqual([]);
    const tools = [{ name: 'get', input_schema: { type: 'object' } }];
    expect(rules(base('claude-sonnet-5-5', [hi], { tools, tool_choice: { type: 'any' } }))).toEqual([
      'A-V5 tool_choice.type: Forced tool use is not supported on this model: tool_choice must be "auto" or "none".',
    ]);
    expect(rules(base('claude-sonnet-5', [hi], { tools, tool_choice: { type: 'any' } }))).toEqual([]);
  });

  it('A-B3: block_binding needs the beta header and an adaptive or enabled thinking type', () => {
    const body = base('claude-opus-5', [hi], {
      thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } },
    });
    expect(rules(body, [])).toEqual([
      'A-B3 thinking.block_binding: thinking.block_binding: this field requires the `anthropic-beta: thinking-binding-controls-2026-08-01` header',
    ]);
    expect(rules(body, ['thinking-binding-controls-2026-08-01'])).toEqual([]);
    expect(
      rules(base('claude-opus-5', [hi], { thinking: { type: 'disabled', block_binding: {} } }), [
        'thinking-binding-controls-2026-08-01',
      ]),
    ).toEqual(['A-B3 thinking.block_binding: thinking.block_binding: Extra inputs are not permitted']);
  });

  it('A-B6: a signed thinking block with empty text is valid', () => {
    const body = base(
      'claude-opus-5',
      [
        hi,
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: '', signature: 'sig' },
            { type: 'text', text: 'A' },
          ],
        },
        hi,
      ],
      { thinking: { type: 'adaptive' } },
    );
    expect(rules(body)).toEqual([]);
  });

  it('A-M1: a system message comes right after user content, before an assistant message or at the end, on Opus 4.8+', () => {
    const sys = { role: 'system', content: 'Answer in French.' };
    expect(rules(base('claude-opus-4-8', [hi, sys, { role: 'assistant', content: 'Oui.' }, hi]))).toEqual([]);
    expect(rules(base('claude-opus-4-8', [hi, sys]))).toEqual([]);
    expect(rules(base('claude-opus-4-8', [hi, sys, hi]))).toEqual([
      "A-M1 messages[1].role: role 'system' must precede an 'assistant' message or end the array",
    ]);
    expect(rules(base('claude-opus-4-7', [hi, sys]))).toEqual([
      "A-M1 messages[1].role: role 'system' is not supported on this model",
    ]);
  });

  it('A-P1: a compaction block opens the conversation (no user message before it), and only there', () => {
    const compaction = { type: 'compaction', content: 'Summary.', encrypted_content: 'e', signature: 's' };
    const betas = ['compact-2026-09-04'];
    expect(rules(base('claude-opus-5', [{ role: 'assistant', content: [compaction] }, hi]), betas)).toEqual([]);
    expect(rules(base('claude-opus-5', [hi, { role: 'assistant', content: [compaction] }, hi]), betas)).toEqual([
      'A-P1 messages[1].content[0]: compaction_block_misplaced: the compaction block is not the first block of the conversation, or is in a `system` message',
    ]);
  });

  it('A-P2: a compaction block needs a compact beta header', () => {
    const compaction = { type: 'compaction', content: 'Summary.', encrypted_content: 'e', signature: 's' };
    expect(rules(base('claude-opus-5', [{ role: 'assistant', content: [compaction] }, hi]), [])).toEqual([
      'A-P2 messages[0].content[0]: compaction blocks are only accepted with the `anthropic-beta: compact-2026-09-04` or `compact-2026-01-12` header on the beta Messages endpoint',
    ]);
  });

  it('A-S1: a server tool result needs its server_tool_use before it', () => {
    const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] };
    const use = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } };
    expect(
      rules(
        base('claude-opus-5', [hi, { role: 'assistant', content: [result, use, { type: 'text', text: 'A' }] }, hi]),
      ),
    ).toContain(
      'A-S1 messages[1].content[0]: Each `web_search_tool_result` block must have a corresponding `server_tool_use` block before it',
    );
    expect(
      rules(
        base('claude-opus-5', [hi, { role: 'assistant', content: [use, result, { type: 'text', text: 'A' }] }, hi]),
      ),
    ).toEqual([]);
  });

  it('A-S2: at most 4 cache breakpoints, and no 1h entry after a 5m one', () => {
    const t = (ttl?: string) => ({
      type: 'text',
      text: 'x',
      cache_control: ttl ? { type: 'ephemeral', ttl } : { type: 'ephemeral' },
    });
    expect(rules(base('claude-opus-5', [{ role: 'user', content: [t(), t('1h')] }]))).toEqual([
      "A-S2 messages[0].content[1].cache_control: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block",
    ]);
    expect(rules(base('claude-opus-5', [{ role: 'user', content: [t('1h'), t(), t(), t(), t()] }]))).toEqual([
      'A-S2 messages[0].content[4].cache_control: A maximum of 4 blocks with cache_control may be provided.',
    ]);
  });
});
