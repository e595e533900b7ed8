import { describe, expect, it } from 'vitest';
import { validateOpenAIChatRequest as validate } from './openai-chat';
import type { Violation } from './types';

const ids = (v: Violation[]) => v.map((x) => `${x.rule} ${x.path}`);
const clone = <T>(v: T): T => structuredClone(v);
type Msg = Record<string, unknown>;

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const tool = (name: string) => ({
  type: 'function',
  function: {
    name,
    description: `The ${name} tool`,
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  },
});
const call = (id: string, name: string, args: string) => ({
  type: 'function',
  id,
  function: { name, arguments: args },
});

/** System + developer, an image, parallel calls answered in another order, a second step, final text. */
const chatBody = {
  model: 'gpt-4.1-mini',
  stream: true,
  stream_options: { include_usage: true },
  tools: [tool('get_weather'), tool('get_time')],
  tool_choice: 'auto',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'developer', content: [{ type: 'text', text: 'Prefer metric units.' }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Weather where this photo was taken, and the time?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'low' } },
        { type: 'image_url', image_url: { url: 'https://example.com/oslo.jpg' } },
      ],
    },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        call('call_TTY8UFNo7rNCaOBUNtlRSvMG', 'get_weather', '{"q":"Oslo"}'),
        call('call_aq9UyiSFkz', 'get_time', '{"q":"Oslo"}'),
      ],
    },
    { role: 'tool', tool_call_id: 'call_aq9UyiSFkz', content: '14:05' },
    { role: 'tool', tool_call_id: 'call_TTY8UFNo7rNCaOBUNtlRSvMG', content: [{ type: 'text', text: '4°C, snow' }] },
    {
      role: 'assistant',
      content: 'Checking tomorrow too.',
      tool_calls: [call('call_3', 'get_weather', '{"q":"Oslo tomorrow"}')],
    },
    { role: 'tool', tool_call_id: 'call_3', content: 'Error: forecast unavailable' },
    { role: 'assistant', content: [{ type: 'text', text: 'Oslo: 4°C, snow, 14:05.' }] },
    { role: 'user', content: 'Thanks!' },
  ] as Msg[],
};

/** Mistral-shaped: 9-char ids, assistant between tool and user, ends on user. */
const mistralBody = {
  model: 'mistral-large-latest',
  stream: true,
  tools: [tool('get_weather')],
  messages: [
    { role: 'user', content: 'Weather in Oslo?' },
    { role: 'assistant', content: '', tool_calls: [call('a1B2c3D4e', 'get_weather', '{"q":"Oslo"}')] },
    { role: 'tool', tool_call_id: 'a1B2c3D4e', name: 'get_weather', content: '4°C' },
    { role: 'assistant', content: '4°C in Oslo.' },
    { role: 'user', content: 'And Paris?' },
  ] as Msg[],
};

describe('validateOpenAIChatRequest: valid bodies', () => {
  it('accepts system/developer, images, parallel calls, results in any order, error text', () => {
    expect(validate(chatBody)).toEqual([]);
  });
  it('accepts an empty assistant content string (as recorded requests send it)', () => {
    const b = clone(chatBody);
    b.messages.splice(3, 0, { role: 'assistant', content: '' });
    expect(validate(b)).toEqual([]);
  });
  it('accepts a Mistral body under the mistral rules, and under OpenRouter and Ollama', () => {
    expect(validate(mistralBody, { provider: 'mistral' })).toEqual([]);
    expect(validate({ ...mistralBody, model: 'mistralai/mistral-large' }, { provider: 'openrouter' })).toEqual([]);
    expect(validate({ ...mistralBody, model: 'mistral-nemo:12b' }, { provider: 'ollama' })).toEqual([]);
  });
  it('accepts a DeepSeek thinking body with reasoning_content on tool-call turns', () => {
    const b = clone(mistralBody);
    b.model = 'deepseek-reasoner';
    b.messages[1]!.reasoning_content = 'Need the weather tool.';
    expect(validate(b, { provider: 'deepseek' })).toEqual([]);
  });
  it('accepts `reasoning` on Groq assistant messages (D-G2)', () => {
    const b = clone(mistralBody);
    b.model = 'openai/gpt-oss-120b';
    b.messages[1]!.reasoning = 'Call the tool.';
    expect(validate(b, { provider: 'groq' })).toEqual([]);
  });
  it('accepts a non-streaming body when told so', () => {
    expect(validate({ ...chatBody, stream: false }, { stream: false })).toEqual([]);
  });
});

describe('validateOpenAIChatRequest: body and roles', () => {
  it('requires model, messages and stream: true', () => {
    expect(ids(validate('x'))).toEqual(['C-SHAPE ']);
    expect(ids(validate({ messages: [] }))).toEqual(['C-SHAPE model', 'C-SHAPE stream', 'C-SHAPE messages']);
  });
  it('X6: lone surrogates', () => {
    const b = clone(chatBody);
    b.messages[9]!.content = 'Thanks \uDC00';
    expect(ids(validate(b))).toEqual(['X6 messages[9].content']);
  });
  it('C-R1: known roles only', () => {
    const b = clone(chatBody);
    b.messages[9]!.role = 'model';
    expect(ids(validate(b))).toEqual(['C-R1 messages[9].role']);
  });
  it('C-R2: assistant content is required without tool_calls, and holds only text and refusal', () => {
    const b = clone(chatBody);
    b.messages[8] = { role: 'assistant', content: null };
    expect(ids(validate(b))).toEqual(['C-R2 messages[8].content']);
    const c = clone(chatBody);
    c.messages[8]!.content = [
      { type: 'refusal', refusal: 'no' },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
    ];
    expect(ids(validate(c))).toEqual(['C-R2 messages[8].content[1]']);
  });
  it('C-R4: OpenAI assistant messages carry no reasoning fields', () => {
    const b = clone(chatBody);
    b.messages[8]!.reasoning_content = 'thought';
    expect(ids(validate(b))).toEqual(['C-R4 messages[8].reasoning_content']);
    expect(ids(validate(b, { provider: 'deepseek' }))).toEqual([]);
  });
  it('X4: no blank user/system/tool text, no blank text parts', () => {
    const b = clone(chatBody);
    b.messages[0]!.content = ' ';
    (b.messages[2]!.content as { text: string }[])[0]!.text = '';
    b.messages[7]!.content = '';
    expect(ids(validate(b))).toEqual([
      'X4 messages[0].content',
      'X4 messages[2].content[0].text',
      'X4 messages[7].content',
    ]);
  });
});

describe('validateOpenAIChatRequest: tools', () => {
  it('C-T1 and X2: tool call ids are at most 40 characters from the portable set', () => {
    const b = clone(chatBody);
    const long = `call_${'x'.repeat(38)}`;
    (b.messages[6]!.tool_calls as { id: string }[])[0]!.id = long;
    b.messages[7]!.tool_call_id = long;
    expect(ids(validate(b))).toEqual(['C-T1 messages[6].tool_calls[0].id']);
    const c = clone(chatBody);
    (c.messages[6]!.tool_calls as { id: string }[])[0]!.id = 'call|fc_1';
    c.messages[7]!.tool_call_id = 'call|fc_1';
    expect(ids(validate(c))).toEqual(['X2 messages[6].tool_calls[0].id']);
  });
  it('C-T2: tool messages need tool_call_id', () => {
    const b = clone(chatBody);
    delete b.messages[7]!.tool_call_id;
    expect(ids(validate(b))).toEqual(['C-T2 messages[7].tool_call_id', 'C-T3 messages[6].tool_calls[0].id']);
  });
  it('C-T3: every tool call answered by the tool messages that follow', () => {
    const b = clone(chatBody);
    b.messages.splice(4, 1);
    expect(ids(validate(b))).toEqual(['C-T3 messages[3].tool_calls[1].id']);
    const c = clone(chatBody);
    c.messages.splice(5, 0, { role: 'user', content: 'hurry' });
    expect(ids(validate(c))).toEqual(['C-T3 messages[3].tool_calls[0].id', 'C-T4 messages[6].tool_call_id']);
  });
  it('C-T4 and X1: tool messages answer a preceding call, once', () => {
    const b = clone(chatBody);
    b.messages.splice(8, 0, { role: 'tool', tool_call_id: 'call_3', content: 'again' });
    b.messages.splice(1, 0, { role: 'tool', tool_call_id: 'call_0', content: 'orphan' });
    expect(ids(validate(b))).toEqual(['C-T4 messages[1].tool_call_id', 'X1 messages[9].tool_call_id']);
  });
  it('X1: duplicate ids in one assistant message', () => {
    const b = clone(chatBody);
    (b.messages[3]!.tool_calls as { id: string }[])[1]!.id = 'call_TTY8UFNo7rNCaOBUNtlRSvMG';
    expect(ids(validate(b))).toContainEqual('X1 messages[3].tool_calls[1].id');
  });
  it('C-T5 and X5: function names and tool count', () => {
    const b = clone(chatBody);
    b.tools = [tool('get.weather'), tool('_time')];
    expect(ids(validate(b))).toEqual(['C-T5 tools[0].function.name', 'X5 tools[1].function.name']);
    expect(ids(validate({ ...chatBody, tools: Array.from({ length: 129 }, (_, i) => tool(`t${i}`)) }))).toEqual([
      'C-T5 tools',
    ]);
  });
  it('C-T6: tool content is text only', () => {
    const b = clone(chatBody);
    b.messages[5]!.content = [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }];
    expect(ids(validate(b))).toEqual(['C-T6 messages[5].content[0]']);
  });
  it('C-T7: tool messages have no error flag', () => {
    const b = clone(chatBody);
    b.messages[7]!.is_error = true;
    expect(ids(validate(b))).toEqual(['C-T7 messages[7].is_error']);
  });
  it('C-T8 is not enforced: tool history without tools passes', () => {
    const b = clone(chatBody) as Partial<typeof chatBody>;
    delete b.tools;
    delete (b as Record<string, unknown>).tool_choice;
    expect(validate(b)).toEqual([]);
  });
  it('checks arguments are a JSON string', () => {
    const b = clone(chatBody);
    (b.messages[6]!.tool_calls as { function: { arguments: unknown } }[])[0]!.function.arguments = { q: 'x' };
    expect(ids(validate(b))).toEqual(['C-SHAPE messages[6].tool_calls[0].function.arguments']);
  });
});

describe('validateOpenAIChatRequest: images (C-I1)', () => {
  it('images only in user messages, PNG/JPEG/WEBP/GIF, http(s) or data URL, at most 20 MB', () => {
    const b = clone(chatBody);
    const parts = b.messages[2]!.content as Msg[];
    parts.push({ type: 'image_url', image_url: { url: `data:image/tiff;base64,${PNG}` } });
    parts.push({ type: 'image_url', image_url: { url: 'file:///etc/passwd' } });
    parts.push({ type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(28 * 1024 * 1024)}` } });
    b.messages[0]!.content = [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }];
    expect(ids(validate(b))).toEqual([
      'C-I1 messages[0].content[0]',
      'C-I1 messages[2].content[3].image_url.url',
      'C-I1 messages[2].content[4].image_url.url',
      'C-I1 messages[2].content[5].image_url.url',
    ]);
  });
  it('at most 500 images per request', () => {
    const b = clone(chatBody);
    b.messages[2]!.content = [
      { type: 'text', text: 'many' },
      ...Array.from({ length: 501 }, () => ({ type: 'image_url', image_url: { url: 'https://example.com/a.png' } })),
    ];
    expect(ids(validate(b))).toEqual(['C-I1 messages']);
  });
});

describe('validateOpenAIChatRequest: OpenAI-compatible providers (§5)', () => {
  it('M-1: Mistral ids are exactly 9 alphanumerics, on calls and results', () => {
    const b = clone(mistralBody);
    (b.messages[1]!.tool_calls as { id: string }[])[0]!.id = 'call_abc12';
    b.messages[2]!.tool_call_id = 'call_abc12';
    expect(ids(validate(b, { provider: 'mistral' }))).toEqual([
      'M-1 messages[1].tool_calls[0].id',
      'M-1 messages[2].tool_call_id',
    ]);
  });
  it('OR-1: OpenRouter with a mistralai/ model applies M-1; other models do not', () => {
    const b = { ...clone(chatBody), model: 'mistralai/mistral-medium-3' };
    expect(ids(validate(b, { provider: 'openrouter' }))).toContain('M-1 messages[3].tool_calls[0].id');
    expect(validate({ ...b, model: 'anthropic/claude-sonnet-4.5' }, { provider: 'openrouter' })).toEqual([]);
  });
  it('O-3: Ollama with a Mistral-family model applies M-1', () => {
    const b = { ...clone(chatBody), model: 'mistral-small3.2:24b' };
    expect(ids(validate(b, { provider: 'ollama' }))).toContain('M-1 messages[4].tool_call_id');
    expect(validate({ ...b, model: 'qwen3:8b' }, { provider: 'ollama' })).toEqual([]);
  });
  it('M-2: no user right after tool, no tool right after user', () => {
    const b = clone(mistralBody);
    b.messages.splice(3, 1);
    expect(ids(validate(b, { provider: 'mistral' }))).toEqual(['M-2 messages[3].role']);
  });
  it('M-3: the last message is user or tool, or a prefix assistant', () => {
    const b = clone(mistralBody);
    b.messages.pop();
    expect(ids(validate(b, { provider: 'mistral' }))).toEqual(['M-3 messages[3].role']);
    b.messages[3]!.prefix = true;
    expect(validate(b, { provider: 'mistral' })).toEqual([]);
  });
  it('D-G1: Groq rejects reasoning_content', () => {
    const b = clone(mistralBody);
    b.messages[1]!.reasoning_content = 'thinking';
    expect(ids(validate(b, { provider: 'groq' }))).toEqual(['D-G1 messages[1].reasoning_content']);
  });
  it('D-1 and D-3: deepseek-reasoner tool-call turns carry reasoning_content as a string', () => {
    const b = { ...clone(mistralBody), model: 'deepseek-reasoner' };
    expect(ids(validate(b, { provider: 'deepseek' }))).toEqual(['D-1 messages[1].reasoning_content']);
    b.messages[1]!.reasoning_content = '';
    expect(validate(b, { provider: 'deepseek' })).toEqual([]);
    b.messages[3]!.reasoning_content = 42;
    expect(ids(validate(b, { provider: 'deepseek' }))).toEqual(['D-3 messages[3].reasoning_content']);
    expect(validate({ ...clone(mistralBody), model: 'deepseek-chat' }, { provider: 'deepseek' })).toEqual([]);
  });
});
