import { describe, expect, it } from 'vitest';
import {
  checkLoneSurrogates,
  fmt,
  hasLoneSurrogate,
  parseDataUrl,
  PORTABLE_TOOL_CALL_ID,
  PORTABLE_TOOL_NAME,
  Sink,
} from './common';
import { CONVERTER_CONTRACT_RULES, validateRequest } from './index';

describe('fmt', () => {
  it('writes paths the way JavaScript addresses them', () => {
    expect([fmt([]), fmt(['messages', 3, 'content', 0, 'tool_use_id']), fmt(['a', 'city-name', 0])]).toEqual([
      '',
      'messages[3].content[0].tool_use_id',
      'a["city-name"][0]',
    ]);
  });
});

describe('X6 lone surrogates', () => {
  it('tells pairs from lone halves', () => {
    expect(['ok 😀', 'high \uD83D', '\uDE00 low', '\uDE00\uD83D', '\uD83D\uDE00'].map(hasLoneSurrogate)).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
  });
  it('walks values and keys at any depth', () => {
    const sink = new Sink();
    checkLoneSurrogates({ a: [{ b: 'fine' }, { ['k\uD800']: 'x', c: ['\uDFFF'] }] }, sink);
    expect(sink.list.map((v) => `${v.rule} ${v.path}`)).toEqual(['X6 a[1]["k\\ud800"]', 'X6 a[1].c[0]']);
  });
});

describe('portable patterns', () => {
  it('X2 ids and X5 names', () => {
    expect(['call_abc-1', 'x'.repeat(40), 'x'.repeat(41), 'a.b', ''].map((s) => PORTABLE_TOOL_CALL_ID.test(s))).toEqual(
      [true, true, false, false, false],
    );
    expect(
      ['get_weather', 'a'.repeat(64), 'a'.repeat(65), '_x', '1x', 'a:b'].map((s) => PORTABLE_TOOL_NAME.test(s)),
    ).toEqual([true, true, false, false, false, false]);
  });
  it('lists the converter-only rules', () => {
    expect([...CONVERTER_CONTRACT_RULES].sort()).toEqual(['A-R2', 'X2', 'X5']);
  });
});

describe('parseDataUrl', () => {
  it('reads base64 data URLs only', () => {
    expect(parseDataUrl('data:image/PNG;base64,AAAA')).toEqual({ mime: 'image/png', data: 'AAAA' });
    expect(parseDataUrl('data:image/png;name=a.png;base64,AA==')).toEqual({ mime: 'image/png', data: 'AA==' });
    expect(parseDataUrl('data:text/plain,hello')).toBeUndefined();
    expect(parseDataUrl('https://example.com/a.png')).toBeUndefined();
  });
});

describe('validateRequest', () => {
  const user = { role: 'user', content: 'hi' };
  it('dispatches to each API', () => {
    expect(
      validateRequest('anthropic-messages', { model: 'm', max_tokens: 5, stream: true, messages: [user] }),
    ).toEqual([]);
    expect(validateRequest('openai-chat', { model: 'm', stream: true, messages: [user] })).toEqual([]);
    expect(validateRequest('openai-responses', { model: 'm', stream: true, input: [user] })).toEqual([]);
    expect(
      validateRequest(
        'gemini-generate-content',
        { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
        { model: 'gemini-3-pro' },
      ),
    ).toEqual([]);
  });
  it('passes the options through', () => {
    const chat = { model: 'mistral-small', stream: true, messages: [user, { role: 'assistant', content: 'yo' }] };
    expect(validateRequest('openai-chat', chat, { provider: 'mistral' }).map((v) => v.rule)).toEqual(['M-3']);
    expect(validateRequest('openai-chat', { ...chat, stream: false }, { stream: false })).toEqual([]);
    const gem = {
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ functionCall: { id: 'a', name: 'f', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'a', name: 'f', response: {} } }] },
      ],
    };
    expect(
      validateRequest('gemini-generate-content', gem, { model: 'gemini-3-pro', vertex: true }).map((v) => v.rule),
    ).toEqual(['G-T3', 'G-T3', 'G-K1']);
    expect(validateRequest('gemini-generate-content', { ...gem, model: 'gemini-2.5-pro' })).toEqual([]);
  });
  it('throws when the Gemini model is unknown', () => {
    expect(() => validateRequest('gemini-generate-content', { contents: [] })).toThrow(TypeError);
  });
});
