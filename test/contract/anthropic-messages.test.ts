import { describe, expect, it } from 'vitest';
import { validateAnthropicMessagesRequest as validate } from './anthropic-messages';
import type { Violation } from './types';

/** `rule path` of each violation, for whole-output assertions. */
const ids = (v: Violation[]) => v.map((x) => `${x.rule} ${x.path}`);
const clone = <T>(v: T): T => structuredClone(v);

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const SIG1 = 'EqQBCkYIBxgCKkDm1xVbZ0pQ3Jk5w9Ym3f+Yb5x1Vtq7bWzF0TgE1n2n3Gm0D3yYq0v6nM7W8g==';
const SIG2 = 'ErcBCkYIBxgCKkBsY2ZpbmFsLXNpZ25hdHVyZS1zZWNvbmQtc3RlcA8lMSo2b1dJd0x1dz09';
const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Current weather for a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const TIME_TOOL = { name: 'get_time', input_schema: { type: 'object', properties: { tz: { type: 'string' } } } };

/** Text, system blocks, an image, and a prefill-free history. */
const textBody = {
  model: 'claude-sonnet-4-5',
  max_tokens: 4096,
  stream: true,
  system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        { type: 'text', text: 'What is this?' },
      ],
    },
    { role: 'assistant', content: 'A single transparent pixel.' },
    { role: 'user', content: 'Thanks. And this one?' },
  ],
};

/** Thinking + parallel tool calls, results in one message (any order), a second step, ending in a tool loop. */
const toolLoopBody = {
  model: 'claude-opus-4-6',
  max_tokens: 16000,
  stream: true,
  thinking: { type: 'enabled', budget_tokens: 4000 },
  tools: [WEATHER_TOOL, TIME_TOOL],
  tool_choice: { type: 'auto' },
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Weather and time in Paris and Oslo?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should call both tools in parallel.', signature: SIG1 },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
        { type: 'text', text: 'Checking both.' },
        { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { city: 'Paris' } },
        { type: 'tool_use', id: 'toolu_01B1x2y3z4', name: 'get_weather', input: { city: 'Oslo' } },
        { type: 'tool_use', id: 'toolu_01C5', name: 'get_time', input: { tz: 'Europe/Paris' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_01B1x2y3z4', content: '4°C, snow' },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01A09q90qw90lq917835lq9',
          content: [{ type: 'text', text: '15°C, clear' }],
        },
        { type: 'tool_result', tool_use_id: 'toolu_01C5', is_error: true, content: 'timezone service unavailable' },
        { type: 'text', text: 'Also show me the map.' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Retry the time and fetch a map.', signature: SIG2 },
        { type: 'tool_use', id: 'toolu_01D6', name: 'get_time', input: { tz: 'Europe/Paris' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01D6',
          content: [
            { type: 'text', text: '14:05' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
        },
      ],
    },
  ],
};

/** Server tool with its result and citations, a cited document, thinking disabled with older thinking kept. */
const serverToolBody = {
  model: 'claude-opus-4-1-20250805',
  max_tokens: 8192,
  stream: true,
  tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'The sky is blue.' } },
        { type: 'text', text: 'Summarise the document, then search the weather.' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Earlier reasoning.', signature: SIG1 },
        {
          type: 'text',
          text: 'The sky is blue.',
          citations: [
            {
              type: 'char_location',
              cited_text: 'The sky is blue.',
              document_index: 0,
              start_char_index: 0,
              end_char_index: 16,
            },
          ],
        },
        {
          type: 'server_tool_use',
          id: 'srvtoolu_01Qxbje4duKBes3Nj42MkZug',
          name: 'web_search',
          input: { query: 'weather SF' },
        },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01Qxbje4duKBes3Nj42MkZug', content: [] },
        { type: 'text', text: 'It is sunny.' },
      ],
    },
    { role: 'user', content: 'And tomorrow?' },
    { role: 'assistant', content: [{ type: 'text', text: 'Tomorrow it will' }] },
  ],
};

describe('validateAnthropicMessagesRequest: valid bodies', () => {
  it('accepts text, system blocks and an image', () => {
    expect(validate(textBody)).toEqual([]);
  });
  it('accepts thinking + parallel tool calls + results in any order + image in a tool result', () => {
    expect(validate(toolLoopBody)).toEqual([]);
  });
  it('accepts server tools, citations, earlier thinking with thinking off and a prefill', () => {
    expect(validate(serverToolBody)).toEqual([]);
  });
  it('accepts a non-streaming body when told so', () => {
    const b = { ...clone(textBody), stream: false };
    expect(validate(b, { stream: false })).toEqual([]);
  });
});

describe('validateAnthropicMessagesRequest: body shape', () => {
  it('rejects a non-object body', () => {
    expect(ids(validate([]))).toEqual(['A-SHAPE ']);
  });
  it('requires model, a positive integer max_tokens, stream: true and messages', () => {
    expect(ids(validate({ max_tokens: 1.5 }))).toEqual([
      'A-SHAPE model',
      'A-SHAPE max_tokens',
      'A-SHAPE stream',
      'A-SHAPE messages',
    ]);
    expect(ids(validate({ ...clone(textBody), messages: [] }))).toEqual(['A-SHAPE messages']);
  });
  it('checks custom tools, tool_choice and thinking config', () => {
    const b = clone(toolLoopBody) as Record<string, unknown>;
    b.tools = [{ name: 'get_weather' }, TIME_TOOL, TIME_TOOL];
    b.tool_choice = { type: 'tool', name: 'nope' };
    b.thinking = { type: 'enabled' };
    expect(ids(validate(b))).toEqual([
      'A-SHAPE thinking.budget_tokens',
      'A-SHAPE tools[0].input_schema',
      'A-SHAPE tools[2].name',
      'A-SHAPE tool_choice.name',
    ]);
    expect(ids(validate({ ...clone(textBody), tool_choice: { type: 'sometimes' } }))).toEqual(['A-SHAPE tool_choice']);
  });
  it('X6: flags lone surrogates anywhere', () => {
    const b = clone(textBody);
    b.messages[2]!.content = 'broken \uD83D here';
    expect(ids(validate(b))).toEqual(['X6 messages[2].content']);
  });
  it('A-R5: more than 100,000 messages, or more than 32 MB', () => {
    const many = Array.from({ length: 100_001 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: 'hi' }));
    expect(ids(validate({ ...clone(textBody), messages: many }))).toEqual(['A-R5 messages']);
    const big = clone(textBody);
    (big.messages[0]!.content[0] as { source: { data: string } }).source.data = 'A'.repeat(33 * 1024 * 1024);
    expect(ids(validate(big))).toEqual(['A-R5 ']);
  });
});

describe('validateAnthropicMessagesRequest: roles and empty content', () => {
  it('A-R1, A-M1: system is a string or text blocks; a system message is refused by a model before Opus 4.8; tool results belong to user', () => {
    const b = clone(textBody) as Record<string, unknown> & typeof textBody;
    b.messages[1] = { role: 'system', content: 'be nice' } as never;
    b.system = [{ type: 'image', source: {} }] as never;
    expect(ids(validate(b))).toEqual(['A-R1 system[0]', 'A-M1 messages[1].role']);
    const c = clone(toolLoopBody);
    c.messages[3]!.content.push({ type: 'tool_result', tool_use_id: 'toolu_01C5', content: 'x' } as never);
    expect(validate(c)).toContainEqual(expect.objectContaining({ rule: 'A-R1', path: 'messages[3].content[2]' }));
  });
  it('A-R2: consecutive same-role messages', () => {
    const b = clone(textBody);
    b.messages.push({ role: 'user', content: 'again' });
    expect(ids(validate(b))).toEqual(['A-R2 messages[3]']);
  });
  it('A-R3: the first message must be user', () => {
    const b = clone(textBody);
    b.messages.shift();
    expect(ids(validate(b))).toEqual(['A-R3 messages[0].role']);
  });
  it('A-R4: a final assistant prefill cannot end in whitespace', () => {
    const b = clone(serverToolBody);
    (b.messages[3]!.content as { text: string }[])[0]!.text = 'Tomorrow it will ';
    expect(ids(validate(b))).toEqual(['A-R4 messages[3].content[0].text']);
    const s = clone(textBody);
    s.messages.push({ role: 'assistant', content: 'Sure\n' });
    expect(ids(validate(s))).toEqual(['A-R4 messages[3].content']);
  });
  it('A-E1: text blocks are non-empty and not whitespace-only (messages, system, tool results)', () => {
    const b = clone(toolLoopBody);
    (b.messages[0]!.content[0] as { text: string }).text = '';
    (b.messages[2]!.content[1] as { content: { text: string }[] }).content[0]!.text = ' \n';
    expect(ids(validate({ ...b, system: [{ type: 'text', text: '   ' }] }))).toEqual([
      'A-E1 system[0].text',
      'A-E1 messages[0].content[0].text',
      'A-E1 messages[2].content[1].content[0].text',
    ]);
  });
  it('X4: no message without content', () => {
    const b = clone(textBody);
    b.messages[1]!.content = '';
    b.messages[2]!.content = [] as never;
    expect(ids(validate(b))).toEqual(['X4 messages[1].content', 'X4 messages[2].content']);
  });
  it('A-E2: an empty unsigned thinking block is dropped, not sent', () => {
    const b = clone(toolLoopBody);
    (b.messages[1]!.content[0] as { thinking: string }).thinking = '';
    delete (b.messages[1]!.content[0] as { signature?: string }).signature;
    expect(ids(validate(b))).toEqual(['A-E2 messages[1].content[0].thinking']);
  });
  it('accepts empty signed thinking (display: "omitted" redacts the text but keeps the signature)', () => {
    const b = clone(toolLoopBody);
    (b.messages[1]!.content[0] as { thinking: string }).thinking = '';
    expect(validate({ ...b, thinking: { type: 'adaptive', display: 'omitted' } })).toEqual([]);
  });
  it('rejects unknown block types and thinking in user messages', () => {
    const b = clone(textBody);
    b.messages[2]!.content = [{ type: 'thinking', thinking: 'x', signature: SIG1 }, { type: 'video' }] as never;
    expect(ids(validate(b))).toEqual(['A-R1 messages[2].content[0]', 'A-SHAPE messages[2].content[1].type']);
  });
});

describe('validateAnthropicMessagesRequest: tool calls and results', () => {
  it('A-T1: id pattern and uniqueness', () => {
    const b = clone(toolLoopBody);
    (b.messages[1]!.content[4] as { id: string }).id = 'call.1';
    (b.messages[3]!.content[1] as { id: string }).id = 'toolu_01C5';
    (b.messages[4]!.content[0] as { tool_use_id: string }).tool_use_id = 'toolu_01C5';
    const v = validate(b);
    expect(v).toContainEqual(expect.objectContaining({ rule: 'A-T1', path: 'messages[1].content[4].id' }));
    expect(v).toContainEqual(expect.objectContaining({ rule: 'A-T1', path: 'messages[3].content[1].id' }));
  });
  it('X2: ids beyond the portable set are flagged even when Anthropic would take them', () => {
    const b = clone(toolLoopBody);
    const long = `toolu_${'x'.repeat(40)}`;
    (b.messages[3]!.content[1] as { id: string }).id = long;
    (b.messages[4]!.content[0] as { tool_use_id: string }).tool_use_id = long;
    expect(ids(validate(b))).toEqual(['X2 messages[3].content[1].id', 'X2 messages[4].content[0].tool_use_id']);
  });
  it('A-T2: tool_result blocks come first in the next user message', () => {
    const b = clone(toolLoopBody);
    const c = b.messages[2]!.content as unknown[];
    c.unshift(c.pop()!);
    expect(ids(validate(b))).toEqual(['A-T2 messages[2].content[0]']);
  });
  it('A-T2: with a server tool still pending, the user message holds only tool_result blocks', () => {
    const b = clone(toolLoopBody);
    b.tools.push({ type: 'web_search_20250305', name: 'web_search' } as never);
    b.messages[1]!.content.push({
      type: 'server_tool_use',
      id: 'srvtoolu_01',
      name: 'web_search',
      input: { query: 'x' },
    } as never);
    expect(ids(validate(b))).toEqual(['A-T2 messages[2].content[3]']);
  });
  it('A-T3: every tool_use has a tool_result in the very next message', () => {
    const b = clone(toolLoopBody);
    b.messages[2]!.content.splice(2, 1);
    expect(ids(validate(b))).toEqual(['A-T3 messages[1].content[5].id']);
    const c = clone(toolLoopBody);
    c.messages.splice(2, 0, { role: 'user', content: [{ type: 'text', text: 'wait' }] });
    expect(validate(c)).toContainEqual(expect.objectContaining({ rule: 'A-T3', path: 'messages[1].content[3].id' }));
  });
  it('A-T4 and X1: results need a call in the previous message, once', () => {
    const b = clone(toolLoopBody);
    b.messages[4]!.content.push({ type: 'tool_result', tool_use_id: 'toolu_01C5', content: 'late' } as never);
    b.messages[4]!.content.push({ type: 'tool_result', tool_use_id: 'toolu_01D6', content: 'twice' } as never);
    expect(ids(validate(b))).toEqual([
      'A-T4 messages[4].content[1].tool_use_id',
      'X1 messages[4].content[2].tool_use_id',
    ]);
  });
  it('A-T6: tool history needs tools', () => {
    const b = clone(toolLoopBody) as Partial<typeof toolLoopBody>;
    delete b.tools;
    delete b.tool_choice;
    expect(ids(validate(b))).toEqual(['A-T6 tools']);
    expect(ids(validate({ ...b, tools: [] }))).toEqual(['A-T6 tools']);
  });
  it('A-T7: is_error is boolean, result content is text/image/document/search_result', () => {
    const b = clone(toolLoopBody);
    (b.messages[2]!.content[2] as { is_error: unknown }).is_error = 'yes';
    (b.messages[2]!.content[1] as { content: unknown[] }).content.push({
      type: 'tool_use',
      id: 'x',
      name: 'y',
      input: {},
    });
    expect(ids(validate(b))).toEqual([
      'A-T7 messages[2].content[1].content[1]',
      'A-T7 messages[2].content[2].is_error',
    ]);
  });
  it('A-T8 and X5: tool names', () => {
    const b = clone(toolLoopBody);
    b.tools = [
      { ...WEATHER_TOOL, name: 'weather.get' },
      { ...TIME_TOOL, name: '1time' },
    ];
    expect(ids(validate(b))).toEqual(['A-T8 tools[0].name', 'X5 tools[1].name']);
    const c = clone(toolLoopBody);
    (c.messages[3]!.content[1] as { name: string }).name = 'x'.repeat(65);
    expect(ids(validate(c))).toEqual(['X5 messages[3].content[1].name']);
  });
  it('A-T9: tool_use input must be an object', () => {
    const b = clone(toolLoopBody);
    (b.messages[3]!.content[1] as { input: unknown }).input = '{"tz": "Eur';
    expect(ids(validate(b))).toEqual(['A-T9 messages[3].content[1].input']);
  });
});

describe('validateAnthropicMessagesRequest: thinking', () => {
  it('A-K1: thinking keeps its signature, redacted_thinking its data', () => {
    const b = clone(toolLoopBody);
    delete (b.messages[1]!.content[0] as { signature?: string }).signature;
    (b.messages[1]!.content[1] as { data: string }).data = '';
    expect(ids(validate(b))).toEqual(['A-K1 messages[1].content[0].signature', 'A-K1 messages[1].content[1].data']);
  });
  it('A-K2: in a tool loop with thinking on, the last assistant message starts with thinking', () => {
    const b = clone(toolLoopBody);
    b.messages[3]!.content.shift();
    expect(ids(validate(b))).toEqual(['A-K2 messages[3].content[0]']);
  });
  it('A-K2: thinking comes from opts when the body has no thinking field, and the field wins', () => {
    const b = clone(toolLoopBody) as Partial<typeof toolLoopBody>;
    b.messages![3]!.content.shift();
    delete b.thinking;
    expect(ids(validate(b))).toEqual([]);
    expect(ids(validate(b, { thinking: true }))).toEqual(['A-K2 messages[3].content[0]']);
    expect(ids(validate({ ...b, thinking: { type: 'disabled' } }, { thinking: true }))).toEqual([]);
  });
  it('A-K3: thinking blocks stand first in their message', () => {
    const b = clone(toolLoopBody);
    const c = b.messages[1]!.content as unknown[];
    c.unshift(c.splice(2, 1)[0]!);
    expect(ids(validate(b))).toEqual(['A-K3 messages[1].content[0]']);
  });
  it('A-K4: with thinking disabled, a final assistant message holds no thinking', () => {
    const b = clone(serverToolBody);
    b.messages[3]!.content = [
      { type: 'thinking', thinking: 'hm', signature: SIG2 },
      { type: 'text', text: 'Tomorrow it will' },
    ] as never;
    expect(ids(validate(b))).toEqual(['A-K4 messages[3].content[0]']);
    expect(ids(validate({ ...b, thinking: { type: 'adaptive' } }))).toEqual([]);
  });
  it('A-K5: a Gemini sentinel is not a Claude signature', () => {
    const b = clone(toolLoopBody);
    (b.messages[3]!.content[0] as { signature: string }).signature = 'skip_thought_signature_validator';
    (b.messages[1]!.content[0] as { signature: string }).signature = 'context_engineering_is_the_way_to_go';
    expect(ids(validate(b))).toEqual([
      'A-K5 messages[1].content[0].signature',
      'A-K5 messages[3].content[0].signature',
    ]);
  });
});

describe('validateAnthropicMessagesRequest: images and citations', () => {
  it('A-I1: media types, raw base64 and source types', () => {
    const b = clone(textBody);
    b.messages[0]!.content = [
      { type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: PNG } },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: `data:image/png;base64,${PNG}` } },
      { type: 'image', source: { type: 'path', path: '/tmp/x.png' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
      { type: 'text', text: 'Compare.' },
    ] as never;
    expect(ids(validate(b))).toEqual([
      'A-I1 messages[0].content[0].source.media_type',
      'A-I1 messages[0].content[1].source.data',
      'A-I1 messages[0].content[2].source.type',
    ]);
  });
  it('A-I2: at most 600 images per request', () => {
    const b = clone(textBody);
    const img = b.messages[0]!.content[0]!;
    b.messages[0]!.content = [
      ...Array.from({ length: 601 }, () => img),
      { type: 'text', text: 'all of them' },
    ] as never;
    expect(ids(validate(b))).toEqual(['A-I2 messages']);
  });
  it('A-C1: document_index points at a document of this request', () => {
    const b = clone(serverToolBody);
    (b.messages[1]!.content[1] as { citations: { document_index: number }[] }).citations[0]!.document_index = 1;
    expect(ids(validate(b))).toEqual(['A-C1 messages[1].content[1].citations[0].document_index']);
  });
});
