import { describe, it, expect } from 'vitest';
import { TranscriptError, decodeTranscript } from '../../transcript/codec';
import { readAnthropicMessagesHistory } from './read-anthropic-messages';
import { hasShared, loadCassette } from './fixtures.test-helper';

if (!hasShared) console.warn('skipping: ../shared/fixtures not found');

const API = 'anthropic-messages';
type Obj = Record<string, unknown>;
const base = { format: 'baton.transcript', version: 1, id: 'imported', source: { kind: API } };

/** Runs `fn` and returns the TranscriptError it throws as `{path, problem}`. */
function errorOf(fn: () => unknown): { path: string; problem: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TranscriptError);
    return { path: (e as TranscriptError).path, problem: (e as TranscriptError).problem };
  }
  throw new Error('expected a TranscriptError');
}

describe.skipIf(!hasShared)('readAnthropicMessagesHistory on recorded request bodies', () => {
  it('llm-cassette-thinking-tool-chain.yaml: thinking + tool_use replay and the tool_result', () => {
    const [, second] = loadCassette('llm-cassette-thinking-tool-chain.yaml');
    const body = second!.request as { messages: { content: Obj[] }[] };
    const assistant = body.messages[1]!.content;
    const transcript = readAnthropicMessagesHistory(body);
    expect(transcript).toEqual({
      ...base,
      tools: [
        {
          name: 'fixed_version',
          description: 'Return a fixed test version string',
          inputSchema: { properties: {}, type: 'object' },
        },
      ],
      turns: [
        {
          id: 't1',
          role: 'user',
          blocks: [
            {
              type: 'text',
              text: 'Use the fixed_version tool. Then tell me the version and make one short joke about it. Think about it first.',
            },
          ],
        },
        {
          id: 't2',
          role: 'assistant',
          origin: { provider: 'anthropic', api: API, model: 'claude-haiku-4-5-20251001' },
          blocks: [
            { type: 'thinking', text: assistant[0]!.thinking, signature: assistant[0]!.signature },
            { type: 'tool_call', id: 'toolu_01825dXWLSoJwCst1qTsiWdb', name: 'fixed_version', input: {} },
          ],
          native: { api: API, payload: assistant },
        },
        {
          id: 't3',
          role: 'tool',
          blocks: [{ type: 'tool_result', callId: 'toolu_01825dXWLSoJwCst1qTsiWdb', content: '0.32a0' }],
        },
      ],
    });
    expect((transcript.turns[1]!.blocks[0] as { signature: string }).signature).toMatch(/^EoQDCm0IDhgCKkCDzGs2/);
  });

  it('llm-cassette-image-input.yaml: a base64 image and text in one user turn', () => {
    const [i] = loadCassette('llm-cassette-image-input.yaml');
    const body = i!.request as { messages: { content: { source?: { data: string } }[] }[] };
    expect(readAnthropicMessagesHistory(body)).toEqual({
      ...base,
      turns: [
        {
          id: 't1',
          role: 'user',
          blocks: [
            { type: 'image', mediaType: 'image/png', data: body.messages[0]!.content[0]!.source!.data },
            { type: 'text', text: 'Describe image in three words' },
          ],
        },
      ],
    });
  });

  it('llm-cassette-web-search-citations.yaml: a server tool goes to meta.serverTools, not tools', () => {
    const [i] = loadCassette('llm-cassette-web-search-citations.yaml');
    const t = readAnthropicMessagesHistory(i!.request);
    expect(t.tools).toBeUndefined();
    expect(t.meta).toEqual({ serverTools: { api: API, tools: [{ type: 'web_search_20250305', name: 'web_search' }] } });
  });
});

describe('readAnthropicMessagesHistory on hand-written histories', () => {
  it('splits parallel tool results from the text that follows them, keeps errors, images in results and ids exactly', () => {
    const assistant = [
      { type: 'thinking', thinking: 'Two lookups.', signature: 'sig==' },
      { type: 'text', text: 'Checking both.' },
      { type: 'tool_use', id: 'toolu_A', name: 'get_weather', input: { city: 'Oslo' } },
      { type: 'tool_use', id: 'toolu_B', name: 'get_weather', input: { city: 'Bergen' } },
    ];
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: 'Answer briefly.',
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          input_schema: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
      messages: [
        { role: 'user', content: 'Weather in Oslo and Bergen?' },
        { role: 'assistant', content: assistant },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_A', content: '4°C, rain' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_B',
              is_error: true,
              content: [
                { type: 'text', text: 'radar:' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
              ],
            },
            { type: 'text', text: 'Also, thanks!', cache_control: { type: 'ephemeral' } },
          ],
        },
        { role: 'assistant', content: 'Oslo 4°C; Bergen unknown.' },
      ],
    };
    const origin = { provider: 'anthropic', api: API, model: 'claude-sonnet-4-5' };
    expect(readAnthropicMessagesHistory(body, { id: 'conv-7' })).toEqual({
      ...base,
      id: 'conv-7',
      system: 'Answer briefly.',
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
      turns: [
        { id: 't1', role: 'user', blocks: [{ type: 'text', text: 'Weather in Oslo and Bergen?' }] },
        {
          id: 't2',
          role: 'assistant',
          origin,
          blocks: [
            { type: 'thinking', text: 'Two lookups.', signature: 'sig==' },
            { type: 'text', text: 'Checking both.' },
            { type: 'tool_call', id: 'toolu_A', name: 'get_weather', input: { city: 'Oslo' } },
            { type: 'tool_call', id: 'toolu_B', name: 'get_weather', input: { city: 'Bergen' } },
          ],
          native: { api: API, payload: assistant },
        },
        {
          id: 't3',
          role: 'tool',
          blocks: [
            { type: 'tool_result', callId: 'toolu_A', content: '4°C, rain' },
            {
              type: 'tool_result',
              callId: 'toolu_B',
              isError: true,
              content: [
                { type: 'text', text: 'radar:' },
                { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
              ],
            },
          ],
        },
        {
          id: 't4',
          role: 'user',
          blocks: [{ type: 'text', text: 'Also, thanks!', meta: { cacheControl: { type: 'ephemeral' } } }],
        },
        {
          id: 't5',
          role: 'assistant',
          origin,
          blocks: [{ type: 'text', text: 'Oslo 4°C; Bergen unknown.' }],
          native: { api: API, payload: 'Oslo 4°C; Bergen unknown.' },
        },
      ],
    });
  });

  it('keeps redacted thinking, server tools and compaction (provider_item), documents, URL images and the system array', () => {
    const system = [
      { type: 'text', text: 'You are terse.' },
      { type: 'text', text: 'Cite sources.', cache_control: { type: 'ephemeral' } },
    ];
    const serverUse = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'oslo' } };
    const serverResult = {
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_1',
      content: [{ type: 'web_search_result', title: 'Yr', url: 'https://yr.no', encrypted_content: 'E1' }],
    };
    const compaction = { type: 'compaction', content: 'Earlier: the user asked about Oslo.', encrypted_content: 'enc' };
    const cited = {
      type: 'text',
      text: 'Rain.',
      citations: [{ type: 'web_search_result_location', url: 'https://yr.no', encrypted_index: 'Eo8' }],
    };
    const assistant = [compaction, { type: 'redacted_thinking', data: 'EmwKAhgB' }, serverUse, serverResult, cited];
    const body = {
      system,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
              title: 'Report',
            },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'héllo' } },
            { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.JPG?x=1' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/render' } },
          ],
        },
        { role: 'assistant', content: assistant },
      ],
    };
    const t = readAnthropicMessagesHistory(body, { model: 'claude-opus-4-6', provider: 'bedrock' });
    expect(t.system).toBe('You are terse.\n\nCite sources.');
    expect(t.meta).toEqual({ nativeSystem: { api: API, payload: system } });
    expect(t.turns).toEqual([
      {
        id: 't1',
        role: 'user',
        blocks: [
          { type: 'document', mediaType: 'application/pdf', data: 'JVBERi0=', title: 'Report' },
          { type: 'document', mediaType: 'text/plain', data: 'aMOpbGxv', meta: { sourceType: 'text' } },
          { type: 'document', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' },
          { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/cat.JPG?x=1' },
          { type: 'image', mediaType: 'image/*', url: 'https://example.com/render', meta: { mediaTypeGuessed: true } },
        ],
      },
      {
        id: 't2',
        role: 'assistant',
        origin: { provider: 'bedrock', api: API, model: 'claude-opus-4-6' },
        blocks: [
          {
            type: 'provider_item',
            api: API,
            item: compaction,
            text: 'Earlier: the user asked about Oslo.',
            meta: { anthropicBeta: 'compact-2026-09-04' },
          }, // A-P2
          { type: 'redacted_thinking', data: 'EmwKAhgB' },
          { type: 'provider_item', api: API, item: serverUse, text: '[web_search] {"query":"oslo"}' },
          { type: 'provider_item', api: API, item: serverResult, text: 'Yr https://yr.no' },
          { type: 'text', text: 'Rain.', citations: cited.citations },
        ],
        native: { api: API, payload: assistant },
      },
    ]);
    expect(decodeTranscript(t)).toEqual(t);
  });

  it('an empty history is a valid transcript with no turns and needs no model', () => {
    expect(readAnthropicMessagesHistory({ messages: [] })).toEqual({ ...base, turns: [] });
  });

  it.each([
    ['not an object', [], '', 'expected an Anthropic Messages request body object, got array'],
    ['no messages', { model: 'm' }, 'messages', 'required array missing'],
    [
      'an unknown role inside messages',
      { messages: [{ role: 'developer', content: 'x' }] },
      'messages[0].role',
      'expected "user" | "assistant" | "system", got "developer"',
    ],
    [
      'a system message holding an image (A-M1)',
      { messages: [{ role: 'system', content: [{ type: 'image' }] }] },
      'messages[0].content[0].type',
      'a system message holds only text blocks (A-M1)',
    ],
    [
      'an unknown role',
      { messages: [{ role: 'tool', content: 'x' }] },
      'messages[0].role',
      'expected "user" | "assistant" | "system", got "tool"',
    ],
    ['missing content', { messages: [{ role: 'user' }] }, 'messages[0].content', 'required field missing'],
    [
      'no model for an assistant turn',
      {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'yo' },
        ],
      },
      'model',
      'no model known for the assistant turns: pass a model or include "model" in the body',
    ],
    [
      'an unknown user block type',
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'video', url: 'x' },
            ],
          },
        ],
      },
      'messages[0].content[1].type',
      'content block type "video" cannot be kept in a user message',
    ],
    [
      'an unknown assistant block type',
      {
        model: 'm',
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: [{ type: 'txt', text: 'b' }] },
        ],
      },
      'messages[1].content[0].type',
      'unknown content block type "txt"',
    ],
    [
      'text that is not a string',
      { messages: [{ role: 'user', content: [{ type: 'text', text: 5 }] }] },
      'messages[0].content[0].text',
      'expected string, got 5',
    ],
    [
      'a tool_result without tool_use_id',
      { messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] },
      'messages[0].content[0].tool_use_id',
      'required field missing (expected string)',
    ],
    [
      'a document inside a tool_result',
      {
        messages: [
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'document', source: {} }] }],
          },
        ],
      },
      'messages[0].content[0].content[0].type',
      'tool_result content type "document" cannot be kept (expected "text" or "image")',
    ],
    [
      'a file-id image',
      { messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'f' } }] }] },
      'messages[0].content[0].source.type',
      'image source type "file" cannot be kept (expected "base64" or "url")',
    ],
    [
      'a tool without input_schema',
      { tools: [{ name: 'f' }], messages: [] },
      'tools[0].input_schema',
      'required object missing',
    ],
    [
      'a system block that is not text',
      { system: [{ type: 'image' }], messages: [] },
      'system[0].type',
      'expected a text block',
    ],
    [
      'a prototype key (I2)',
      JSON.parse('{"messages":[{"role":"user","content":[{"type":"text","text":"a","__proto__":{"x":1}}]}]}'),
      'messages[0].content[0].__proto__',
      'forbidden key',
    ],
  ])('rejects %s', (_what, body, path, problem) => {
    expect(errorOf(() => readAnthropicMessagesHistory(body))).toEqual({ path, problem });
  });
});
