import { describe, expect, it } from 'vitest';
import { lookupModel } from '../../models/registry';
import { TranscriptError } from '../../transcript/codec';
import { SYNTHETIC } from '../../transcript/prepare';
import {
  assistant,
  CLAUDE,
  convert,
  expectValid,
  kept,
  MODEL,
  reportOf,
  text,
  tool,
  transcript,
  user,
} from './convert-anthropic-messages.test-helper';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjQKJSVFT0YK';

describe('request', () => {
  it('builds the streaming body: model, max_tokens, stream, system, messages', () => {
    const t = transcript([user('u1', text('Hi'))], { system: 'Be brief.' });
    const out = convert(t);
    expect(out).toEqual({
      api: 'anthropic-messages',
      model: MODEL,
      body: {
        model: MODEL,
        max_tokens: 1000,
        stream: true,
        system: 'Be brief.',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      },
      report: { ...reportOf(1, 1), blocks: [kept('u1')] },
    });
    expectValid(out.body);
  });

  it('leaves out a blank system prompt', () => {
    const out = convert(transcript([user('u1', text('Hi'))], { system: '  \n' }));
    expect(out.body).toEqual({
      model: MODEL,
      max_tokens: 1000,
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
  });

  it('takes max_tokens from the registry when the caller gives none', () => {
    const out = convert(transcript([user('u1', text('Hi'))]), { maxOutputTokens: undefined });
    expect(out.body.max_tokens).toBe(lookupModel(MODEL, 'anthropic').defaultOutputTokens);
  });

  it("lowers max_tokens to a known model's maximum, with a warning", () => {
    const info = lookupModel(MODEL, 'anthropic');
    const out = convert(transcript([user('u1', text('Hi'))]), { maxOutputTokens: info.maxOutputTokens + 1 });
    expect(out.body.max_tokens).toBe(info.maxOutputTokens);
    expect(out.report.warnings).toEqual([
      `max_tokens lowered from ${info.maxOutputTokens + 1} to ${info.maxOutputTokens}, the most ${info.id} accepts`,
    ]);
  });

  it('rejects a bad output limit and a target of another API with a TranscriptError', () => {
    const t = transcript([user('u1', text('Hi'))]);
    expect(() => convert(t, { maxOutputTokens: 0 })).toThrow(
      new TranscriptError('target.maxOutputTokens', 'expected a positive integer (tokens), got 0'),
    );
    expect(() => convert(t, { maxOutputTokens: 1.5 })).toThrow(TranscriptError);
    expect(() => convertToAnthropicMessages(t, { api: 'openai-chat', model: 'gpt-4o' })).toThrow(
      new TranscriptError('target.api', 'expected "anthropic-messages", got "openai-chat"'),
    );
  });

  it('sends tool definitions as {name, description, input_schema}, fixing schemas that are not objects', () => {
    const t = transcript([user('u1', text('Hi'))], {
      tools: [
        {
          name: 'get_weather',
          description: 'Weather.',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
        },
        { name: 'untyped', inputSchema: { properties: { a: { type: 'number' } } } },
        { name: 'stringy', inputSchema: { type: 'string' } },
      ],
    });
    const out = convert(t);
    expect(out.body.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Weather.',
        input_schema: { type: 'object', properties: { city: { type: 'string' } } },
      },
      { name: 'untyped', input_schema: { type: 'object', properties: { a: { type: 'number' } } } },
      { name: 'stringy', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(out.body.tool_choice).toBeUndefined();
    expect(out.report.warnings).toEqual([
      'tool untyped: input_schema has no type; sent with type "object"',
      'tool stringy: input_schema type "string" is not "object"; sent as an empty object schema',
    ]);
    expectValid(out.body);
  });
});

describe('user turns', () => {
  it('sends text, images (base64 and url) and documents (PDF and plain text)', () => {
    const t = transcript([
      user(
        'u1',
        text('Look:'),
        { type: 'image', mediaType: 'image/png', data: PNG },
        { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/cat.jpg' },
        { type: 'document', mediaType: 'application/pdf', data: PDF, title: 'spec.pdf' },
        { type: 'document', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' },
        { type: 'document', mediaType: 'text/plain', data: btoa('plain words'), title: 'notes.txt' },
      ),
    ]);
    const out = convert(t);
    expect(out.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'spec.pdf' },
          { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
          {
            type: 'document',
            source: { type: 'text', media_type: 'text/plain', data: 'plain words' },
            title: 'notes.txt',
          },
        ],
      },
    ]);
    expect(out.report).toEqual({ ...reportOf(1, 6), blocks: [0, 1, 2, 3, 4, 5].map((i) => kept('u1', i)) });
    expectValid(out.body);
  });

  it('replaces what the API cannot take with labelled placeholders, reported (A-I1, PlainTextSource)', () => {
    const t = transcript([
      user(
        'u1',
        { type: 'image', mediaType: 'image/bmp', data: 'Qk0=' },
        { type: 'document', mediaType: 'text/plain', url: 'https://example.com/a.txt', title: 'a' },
        { type: 'document', mediaType: 'text/plain', data: '//79' },
      ),
    ]);
    const out = convert(t);
    expect(out.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: '[image omitted: image/bmp is not an accepted image type (A-I1, C-I1, G-I1)]' },
          {
            type: 'text',
            text: '[document "a" (text/plain) at https://example.com/a.txt (the API fetches only PDFs by URL)]',
          },
          { type: 'text', text: '[document (text/plain) omitted: its data is empty or not UTF-8 text]' },
        ],
      },
    ]);
    expect(out.report.blocks).toEqual([
      {
        turn: 'u1',
        index: 0,
        fates: [
          {
            fate: 'converted',
            detail: 'image replaced by a placeholder: image/bmp is not an accepted image type (A-I1, C-I1, G-I1)',
          },
        ],
      },
      {
        turn: 'u1',
        index: 1,
        fates: [
          {
            fate: 'converted',
            detail:
              'text/plain document replaced by a placeholder: at https://example.com/a.txt (the API fetches only PDFs by URL)',
          },
        ],
      },
      {
        turn: 'u1',
        index: 2,
        fates: [
          {
            fate: 'converted',
            detail: 'text/plain document replaced by a placeholder: omitted: its data is empty or not UTF-8 text',
          },
        ],
      },
    ]);
    expectValid(out.body);
  });

  it('sends only base64 images on Bedrock and Vertex (A-I3)', () => {
    const t = transcript([
      user('u1', text('Look:'), { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/cat.jpg' }),
    ]);
    const out = convert(t, { provider: 'bedrock' });
    expect(out.body.messages[0]!.content[1]).toEqual({
      type: 'text',
      text: '[image omitted: the API takes only inline image data, not URLs]',
    });
    expect(out.report.blocks[1]!.fates[0]!.fate).toBe('converted');
  });

  it('opens with a synthetic user turn when the history starts on an assistant turn (A-R3)', () => {
    const t = transcript([assistant('a1', CLAUDE, [text('Hello.')]), user('u1', text('Hi'))]);
    const out = convert(t);
    expect(out.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: SYNTHETIC.firstUserTurn }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ]);
    expect(out.report.synthesized).toEqual([
      { kind: 'user-turn', detail: 'the history starts on an assistant turn: a short user turn opens it (A-R3, G-R5)' },
    ]);
    expectValid(out.body);
  });
});

describe('assistant turns', () => {
  it('ends on a user turn: a history that ends on the assistant gets "Continue." (A-R4)', () => {
    const t = transcript([user('u1', text('Hi')), assistant('a1', CLAUDE, [text('Hello.  ')])]);
    const out = convert(t);
    expect(out.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello.  ' }] },
      { role: 'user', content: [{ type: 'text', text: SYNTHETIC.lastUserTurn }] },
    ]);
    expectValid(out.body);
  });

  it('rebuilds a same-origin turn keeping signed thinking, redacted thinking, citations, caller and provider items in place', () => {
    const citation = {
      type: 'web_search_result_location',
      url: 'https://x.test',
      title: 'X',
      encrypted_index: 'Eo8B',
      cited_text: 'v13',
    };
    const serverUse = { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'v' } };
    const caller = { type: 'code_execution_20250825', tool_id: 'srvtoolu_02' };
    const t = transcript(
      [
        user('u1', text('Version?')),
        assistant('a1', CLAUDE, [
          { type: 'thinking', text: 'Search first.', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'opaque==' },
          { type: 'provider_item', api: 'anthropic-messages', item: serverUse, text: 'web_search {"query":"v"}' },
          { type: 'text', text: 'It is v13.', citations: [citation] },
          { type: 'tool_call', id: 'toolu_01', name: 'lookup', input: { q: 'v13' }, meta: { caller } },
        ]),
        tool('t1', { type: 'tool_result', callId: 'toolu_01', content: 'ok' }),
      ],
      { tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] },
    );
    const out = convert(t);
    expect(out.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Version?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Search first.', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'opaque==' },
          serverUse,
          { type: 'text', text: 'It is v13.', citations: [citation] },
          { type: 'tool_use', id: 'toolu_01', name: 'lookup', input: { q: 'v13' }, caller },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'ok' }] },
    ]);
    expect(out.report).toEqual({
      ...reportOf(3, 7),
      blocks: [kept('u1'), ...[0, 1, 2, 3, 4].map((i) => kept('a1', i)), kept('t1')],
    });
    expectValid(out.body);
  });

  it('drops same-origin thinking that has no signature, and a signature on text (A-K1, A-E2)', () => {
    const t = transcript([
      user('u1', text('Hi')),
      assistant('a1', CLAUDE, [
        { type: 'thinking', text: 'cut short' },
        { type: 'text', text: 'Hello.', signature: 'not-anthropic' },
        { type: 'text', text: '', signature: 'empty-signed' },
      ]),
      user('u2', text('Bye')),
    ]);
    const out = convert(t);
    expect(out.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Bye' }] },
    ]);
    expect(out.report.blocks).toEqual([
      kept('u1'),
      {
        turn: 'a1',
        index: 0,
        fates: [
          { fate: 'dropped', detail: 'thinking without a signature cannot be replayed as thinking (A-K1, A-K6, A-E2)' },
        ],
      },
      {
        turn: 'a1',
        index: 1,
        fates: [{ fate: 'converted', detail: 'signature dropped: Anthropic text blocks carry none' }],
      },
      { turn: 'a1', index: 2, fates: [{ fate: 'dropped', detail: 'empty or whitespace-only text (X4, A-E1)' }] },
      kept('u2'),
    ]);
    expectValid(out.body);
  });

  it('removes an assistant message left empty and merges the user turns around it (X4)', () => {
    const t = transcript([
      user('u1', text('Hi')),
      assistant('a1', CLAUDE, [{ type: 'thinking', text: 'no signature' }]),
      user('u2', text('Hello?')),
    ]);
    const out = convert(t);
    expect(out.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Hi' },
          { type: 'text', text: 'Hello?' },
        ],
      },
    ]);
    expectValid(out.body);
  });

  it('wraps a tool call input that is not an object (A-T9)', () => {
    const t = transcript([
      user('u1', text('Go')),
      assistant('a1', CLAUDE, [{ type: 'tool_call', id: 'toolu_1', name: 'run', input: 'ls -la' }]),
      tool('t1', { type: 'tool_result', callId: 'toolu_1', content: 'a b' }),
    ]);
    const out = convert(t);
    expect(out.body.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'run', input: { value: 'ls -la' } }],
    });
    expect(out.report.blocks[1]).toEqual({
      turn: 'a1',
      index: 0,
      fates: [
        { fate: 'converted', detail: 'tool call input is not a JSON object: sent wrapped as {"value": …} (A-T9)' },
      ],
    });
    expectValid(out.body);
  });
});

describe('tool turns', () => {
  const loop = (results: Parameters<typeof tool>[1][], after: Parameters<typeof transcript>[0] = []) =>
    transcript(
      [
        user('u1', text('Weather in Oslo and Bergen?')),
        assistant('a1', CLAUDE, [
          { type: 'tool_call', id: 'toolu_A', name: 'get_weather', input: { city: 'Oslo' } },
          { type: 'tool_call', id: 'toolu_B', name: 'get_weather', input: { city: 'Bergen' } },
        ]),
        tool('t1', ...results),
        ...after,
      ],
      { tools: [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }] },
    );

  it('puts the results first in the next user message, in call order, with is_error, then the user text (A-T2, A-T5, A-T7)', () => {
    const t = loop(
      [
        { type: 'tool_result', callId: 'toolu_B', content: 'service unavailable', isError: true },
        {
          type: 'tool_result',
          callId: 'toolu_A',
          content: [
            { type: 'text', text: '4°C' },
            { type: 'image', mediaType: 'image/png', data: PNG },
          ],
        },
      ],
      [user('u2', text('And tomorrow?'))],
    );
    const out = convert(t);
    expect(out.body.messages.slice(2)).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_A',
            content: [
              { type: 'text', text: '4°C' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            ],
          },
          { type: 'tool_result', tool_use_id: 'toolu_B', content: 'service unavailable', is_error: true },
          { type: 'text', text: 'And tomorrow?' },
        ],
      },
    ]);
    expect(out.report).toEqual({
      ...reportOf(4, 6),
      blocks: [kept('u1'), kept('a1', 0), kept('a1', 1), kept('t1', 0), kept('t1', 1), kept('u2')],
    });
    expectValid(out.body);
  });

  it('says "(empty result)" for a result with no content and leaves out blank text parts (X4, A-E1)', () => {
    const t = loop([
      { type: 'tool_result', callId: 'toolu_A', content: ' ' },
      {
        type: 'tool_result',
        callId: 'toolu_B',
        content: [
          { type: 'text', text: '' },
          { type: 'text', text: 'rain' },
        ],
      },
    ]);
    const out = convert(t);
    expect(out.body.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_A', content: '(empty result)' },
        { type: 'tool_result', tool_use_id: 'toolu_B', content: [{ type: 'text', text: 'rain' }] },
      ],
    });
    expect(out.report.blocks.slice(3)).toEqual([
      {
        turn: 't1',
        index: 0,
        fates: [{ fate: 'converted', detail: 'empty tool result sent as "(empty result)" (X4, A-E1)' }],
      },
      {
        turn: 't1',
        index: 1,
        fates: [{ fate: 'converted', detail: 'empty text part left out of the tool result (X4, A-E1)' }],
      },
    ]);
    expectValid(out.body);
  });

  it('answers a call that has no result with a synthetic error result (X1, A-T3)', () => {
    const t = loop([{ type: 'tool_result', callId: 'toolu_A', content: '4°C' }]);
    const out = convert(t);
    expect(out.body.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_A', content: '4°C' },
        { type: 'tool_result', tool_use_id: 'toolu_B', content: SYNTHETIC.errorResult, is_error: true },
      ],
    });
    expect(out.report.synthesized).toEqual([
      { kind: 'error-result', detail: 'call toolu_B (get_weather) in turn a1 had no result (X1)' },
    ]);
    expectValid(out.body);
  });

  it('defines stub tools and sets tool_choice none when the history uses tools but none are offered (X8, A-T6)', () => {
    const t = transcript([
      user('u1', text('Go')),
      assistant('a1', CLAUDE, [{ type: 'tool_call', id: 'toolu_1', name: 'bash', input: { cmd: 'ls' } }]),
      tool('t1', { type: 'tool_result', callId: 'toolu_1', content: 'a b' }),
    ]);
    const out = convert(t);
    expect(out.body).toEqual({
      model: MODEL,
      max_tokens: 1000,
      stream: true,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Go' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { cmd: 'ls' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a b' }] },
      ],
      tools: [
        { name: 'bash', description: SYNTHETIC.stubDescription, input_schema: { type: 'object', properties: {} } },
      ],
      tool_choice: { type: 'none' },
    });
    expect(out.report.synthesized).toEqual([
      { kind: 'stub-tool', detail: 'bash: used in the history but not defined by the request (X8, A-T6)' },
    ]);
    expectValid(out.body);
  });
});
