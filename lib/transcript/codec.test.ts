import { describe, expect, it } from 'vitest';
import {
  decodeTranscript,
  encodeTranscript,
  formatPath,
  MAX_JSON_DEPTH,
  parseTranscriptJson,
  TranscriptError,
} from './codec';

const base = (turns: unknown[], extra: Record<string, unknown> = {}) => ({
  format: 'baton.transcript',
  version: 1,
  id: 'c',
  turns,
  ...extra,
});
const user = (blocks: unknown[], extra: Record<string, unknown> = {}) => ({ id: 'u1', role: 'user', blocks, ...extra });
const origin = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' };

function errorOf(value: unknown): string {
  try {
    decodeTranscript(value);
  } catch (e) {
    expect(e).toBeInstanceOf(TranscriptError);
    return (e as Error).message;
  }
  throw new Error('expected a TranscriptError');
}

describe('decodeTranscript', () => {
  it('accepts the example of transcript-v1.md and returns it unchanged', () => {
    const example = base(
      [
        user([{ type: 'text', text: 'Weather in Oslo?' }]),
        {
          id: 't2',
          role: 'assistant',
          origin,
          stopReason: 'tool_use',
          blocks: [
            { type: 'thinking', text: 'Need the tool.', signature: 'EqQBCkYIBxgCKkB...' },
            { type: 'tool_call', id: 'toolu_01A', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        { id: 't3', role: 'tool', blocks: [{ type: 'tool_result', callId: 'toolu_01A', content: '4°C, rain' }] },
        { id: 't4', role: 'assistant', origin, blocks: [{ type: 'text', text: '4°C and rain.' }] },
      ],
      {
        system: 'Answer briefly.',
        tools: [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
      },
    );
    expect(decodeTranscript(structuredClone(example))).toEqual(example);
  });

  it('allows any fields under meta, at every level that has one', () => {
    const t = base(
      [user([{ type: 'text', text: 'x', meta: { anything: [1, { deep: true }] } }], { meta: { pinned: true } })],
      { meta: { custom: 1 } },
    );
    expect(decodeTranscript(t)).toEqual(t);
  });

  it.each([
    [
      'a misspelt block field',
      base([user([{ type: 'text', text: 'hi', sigature: 'x' }])]),
      'turns[0].blocks[0].sigature: unknown field',
    ],
    ['an unknown top-level field', base([], { extra: 1 }), 'extra: unknown field'],
    [
      'an unknown origin field',
      base([{ id: 'a', role: 'assistant', origin: { ...origin, modle: 'x' }, blocks: [] }]),
      'turns[0].origin.modle: unknown field',
    ],
    [
      'an unknown block type',
      base([user([{ type: 'video', url: 'x' }])]),
      'turns[0].blocks[0].type: unknown block type "video"',
    ],
    [
      'a block in a role that cannot hold it',
      base([user([{ type: 'tool_call', id: 'a', name: 'b', input: {} }])]),
      'turns[0].blocks[0].type: block type "tool_call" is not allowed in a user turn (allowed: text, image, document)',
    ],
    [
      'a text block in a tool turn',
      base([{ id: 't', role: 'tool', blocks: [{ type: 'text', text: 'x' }] }]),
      'turns[0].blocks[0].type: block type "text" is not allowed in a tool turn (allowed: tool_result, provider_item)',
    ],
    [
      'an assistant turn without origin',
      base([{ id: 'a', role: 'assistant', blocks: [] }]),
      'turns[0].origin: required on assistant turns',
    ],
    ['a wrong version', base([], { version: 2 }), 'version: unsupported version 2 (expected 1)'],
    ['a wrong format', { ...base([]), format: 'other' }, 'format: expected "baton.transcript", got "other"'],
    [
      'a missing required field',
      base([user([{ type: 'text' }])]),
      'turns[0].blocks[0].text: required field missing (expected string)',
    ],
    [
      'a wrong role',
      base([{ id: 'x', role: 'system', blocks: [] }]),
      'turns[0].role: expected "user" | "assistant" | "tool", got "system"',
    ],
    [
      'an image with both data and url',
      base([user([{ type: 'image', mediaType: 'image/png', data: 'AA==', url: 'https://x' }])]),
      'turns[0].blocks[0].data: exactly one of data and url is required',
    ],
    ['duplicate turn ids', base([user([]), user([])]), 'turns[1].id: duplicate turn id "u1" (also turns[0])'],
    [
      'a non-integer token count',
      base([{ id: 'a', role: 'assistant', origin, usage: { inputTokens: 1.5 }, blocks: [] }]),
      'turns[0].usage.inputTokens: expected int, got 1.5',
    ],
    [
      'a __proto__ key in meta (I2)',
      base([user([], { meta: JSON.parse('{"__proto__": {"polluted": 1}}') })]),
      'turns[0].meta.__proto__: forbidden key',
    ],
    ['not an object', [1, 2], 'expected a Baton transcript object, got array'],
  ])('rejects %s, naming the path', (_name, value, message) => {
    expect(errorOf(value)).toBe(message);
  });

  it('never pollutes Object.prototype (I2)', () => {
    try {
      parseTranscriptJson(
        '{"format":"baton.transcript","version":1,"id":"x","turns":[],"meta":{"__proto__":{"polluted":true}}}',
      );
    } catch {
      // rejected: fine
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('parseTranscriptJson', () => {
  it('reports invalid JSON as a TranscriptError', () => {
    expect(() => parseTranscriptJson('{"format": ')).toThrow(/^invalid JSON: /);
  });
});

describe('encodeTranscript', () => {
  it('round-trips through parseTranscriptJson', () => {
    const t = decodeTranscript(base([user([{ type: 'text', text: 'hé \u{1F600}' }])], { title: 'T' }));
    expect(parseTranscriptJson(encodeTranscript(t))).toEqual(t);
    expect(encodeTranscript(t, 2)).toContain('\n  "format"');
  });

  it('refuses to encode an invalid transcript', () => {
    expect(() => encodeTranscript({ ...decodeTranscript(base([])), id: '' })).toThrow(TranscriptError);
  });
});

describe('formatPath', () => {
  it('formats segments as JavaScript would address them', () => {
    expect(formatPath(['turns', 3, 'blocks', 0, 'sigature'])).toBe('turns[3].blocks[0].sigature');
    expect(formatPath(['meta', 'a-b'])).toBe('meta["a-b"]');
  });
});

describe('deep input', () => {
  it('rejects JSON nested deeper than MAX_JSON_DEPTH with a shortened path, reading no level past the limit', () => {
    /** A transcript whose tool input nests `levels` deep, each level counting how often its keys are read. */
    const deep = (levels: number) => {
      const reads = { count: 0 };
      let input: unknown = 'leaf';
      for (let i = 0; i < levels; i++)
        input = new Proxy(
          { a: input },
          {
            ownKeys: (o) => (reads.count++, Reflect.ownKeys(o)),
            get: (o, k, r) => (reads.count++, Reflect.get(o, k, r) as unknown),
          },
        );
      const t = {
        format: 'baton.transcript',
        version: 1,
        id: 'deep',
        turns: [
          { id: 'u', role: 'user', blocks: [{ type: 'text', text: 'x' }] },
          {
            id: 'a',
            role: 'assistant',
            origin: { provider: 'openai', api: 'openai-chat', model: 'gpt-4o' },
            blocks: [{ type: 'tool_call', id: 'c', name: 'f', input }],
          },
        ],
      };
      return { t, reads };
    };
    const small = deep(2_000);
    const large = deep(50_000);
    const message = 'turns[1].blocks[0].input.a.a.a.a.a.a.a…(988 more levels): nested deeper than 1000 levels';
    expect(errorOf(small.t)).toBe(message);
    expect(errorOf(large.t)).toBe(message);
    // The work is bounded by the limit, not by the input: 25× the levels, the same reads, a few per level kept.
    expect(large.reads.count).toBe(small.reads.count);
    expect(small.reads.count).toBeGreaterThan(0);
    expect(small.reads.count).toBeLessThanOrEqual(4 * MAX_JSON_DEPTH);
  });

  it('accepts nesting up to the limit', () => {
    let input: unknown = 1;
    for (let i = 0; i < 990; i++) input = [input];
    const t = decodeTranscript({
      format: 'baton.transcript',
      version: 1,
      id: 'ok',
      turns: [
        {
          id: 'a',
          role: 'assistant',
          origin: { provider: 'openai', api: 'openai-chat', model: 'gpt-4o' },
          blocks: [{ type: 'tool_call', id: 'c', name: 'f', input }],
        },
      ],
    });
    expect(t.turns).toHaveLength(1);
  });
});

describe('media sources', () => {
  const withImage = (image: Record<string, unknown>) =>
    base([user([{ type: 'image', mediaType: 'image/png', ...image }])]);
  it.each([
    [{ data: 'data:image/png;base64,AAAA' }, 'turns[0].blocks[0].data: base64 without a "data:" prefix expected'],
    [{ data: '' }, 'turns[0].blocks[0].data: empty data'],
    [{ data: 'not base64!' }, 'turns[0].blocks[0].data: not standard base64'],
    [{ url: '' }, 'turns[0].blocks[0].url: expected an http(s) or gs:// URL'],
    [{ url: 'file:///etc/passwd' }, 'turns[0].blocks[0].url: expected an http(s) or gs:// URL'],
  ])('rejects an image source %j', (image, message) => {
    expect(errorOf(withImage(image))).toBe(message);
  });
  it('accepts base64 data and http(s) URLs', () => {
    expect(() => decodeTranscript(withImage({ data: 'iVBORw0KGgo=' }))).not.toThrow();
    expect(() => decodeTranscript(withImage({ url: 'https://example.com/a.png?x=1' }))).not.toThrow();
  });
});
