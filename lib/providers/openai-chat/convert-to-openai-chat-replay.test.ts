import { describe, expect, it } from 'vitest';
import type { Origin, ToolDefinition, Turn } from '../../transcript/schema';
import { convertToOpenAIChat } from './convert-to-openai-chat';
import {
  assistant,
  call,
  convert,
  expectValid,
  fates,
  GPT4O,
  result,
  text,
  tool,
  transcript,
  user,
} from './convert-to-openai-chat.test-helper';
import { HAS_SHARED, loadCassette, loadResponse, loadStreamEvents } from './fixtures.test-helper';
import { readOpenAIChatResponse, readOpenAIChatStreamEvents } from './read-openai-chat';

const native = (payload: unknown) => ({ native: { api: 'openai-chat', payload } });
const REPLAYED = { fate: 'replayed-native', detail: 'Chat Completions message replayed as received' } as const;

describe('same-origin replay', () => {
  it('replays the native message and leaves out output-only fields (annotations, audio)', () => {
    const payload = {
      role: 'assistant',
      content: 'See the docs.',
      refusal: null,
      annotations: [
        {
          type: 'url_citation',
          url_citation: { url: 'https://example.com', title: 'Ex', start_index: 0, end_index: 3 },
        },
      ],
      audio: { id: 'audio_1', data: 'AAAA', expires_at: 1, transcript: 'See the docs.' },
    };
    const t = transcript([
      user('u1', text('Where?')),
      assistant('a1', GPT4O, [text('See the docs.', { citations: payload.annotations })], native(payload)),
      user('u2', text('Thanks')),
    ]);
    const r = convert(t);
    expect(r.body.messages).toEqual([
      { role: 'user', content: 'Where?' },
      { role: 'assistant', content: 'See the docs.' },
      { role: 'user', content: 'Thanks' },
    ]);
    expect(r.report.blocks).toEqual([
      fates('u1', 0),
      fates('a1', 0, {
        fate: 'replayed-native',
        detail:
          'Chat Completions message replayed as received; not sent: annotations, audio (output-only or not accepted by openai)',
      }),
      fates('u2', 0),
    ]);
    expectValid(r.body);
  });

  it('keeps tool-call arguments byte for byte, where a rebuild would re-serialise them', () => {
    const payload = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{ "a" : 1 }' } }],
    };
    const turns = [
      user('u1', text('Go')),
      assistant('a1', GPT4O, [call('call_1', 'f', { a: 1 })], native(payload)),
      tool('t1', result('call_1', 'ok')),
    ];
    const replayed = convert(transcript(turns));
    expect(replayed.body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [payload.tool_calls[0]],
    });
    expect(replayed.report.blocks[1]).toEqual(fates('a1', 0, REPLAYED));
    // Another model: no native replay, the call is rebuilt from the block.
    const rebuilt = convert(transcript(turns), { model: 'gpt-4.1' });
    expect(rebuilt.body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
    });
    expect(rebuilt.report.blocks[1]).toEqual(fates('a1', 0));
  });

  it('rebuilds from blocks, with a warning, when the native message says other things than the blocks', () => {
    const t = transcript([
      user('u1', text('Go')),
      assistant(
        'a1',
        GPT4O,
        [text('Calling.'), call('call_1', 'f')],
        native({
          role: 'assistant',
          content: 'Something else.',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        }),
      ),
      tool('t1', result('call_1', 'ok')),
    ]);
    const r = convert(t);
    expect(r.body.messages[1]).toEqual({
      role: 'assistant',
      content: 'Calling.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
    expect(r.report.blocks.slice(1, 3)).toEqual([fates('a1', 0), fates('a1', 1)]);
    expect(r.report.warnings).toEqual([
      'turn a1: its native message says other things than its blocks; rebuilt from its blocks',
    ]);
    expectValid(r.body);
  });

  it('rebuilds from blocks when the id map changed a call id (X2), or the turn is not complete', () => {
    const long = 'call_' + 'x'.repeat(40);
    const payload = {
      role: 'assistant',
      content: 'Running.',
      tool_calls: [{ id: long, type: 'function', function: { name: 'f', arguments: '{}' } }],
    };
    const r = convert(
      transcript([
        user('u1', text('Go')),
        assistant('a1', GPT4O, [text('Running.'), call(long, 'f')], native(payload)),
        tool('t1', result(long, 'ok')),
      ]),
    );
    const id = r.body.messages[2]?.role === 'tool' ? r.body.messages[2].tool_call_id : '';
    expect(id).toMatch(/^call_x+_[a-zA-Z0-9]{8}$/);
    expect(id).toHaveLength(40);
    expect(r.body.messages[1]).toEqual({
      role: 'assistant',
      content: 'Running.',
      tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{}' } }],
    });
    expect(r.report.blocks.slice(1, 3)).toEqual([
      fates('a1', 0),
      fates('a1', 1, { fate: 'id-mapped', detail: `${long} → ${id}` }),
    ]);

    const cut = convert(
      transcript([
        user('u1', text('Go')),
        assistant('a1', GPT4O, [text('Partial ans')], {
          status: 'interrupted',
          ...native({ role: 'assistant', content: 'Partial ans' }),
        }),
        user('u2', text('Go on')),
      ]),
    );
    expect(cut.body.messages[1]).toEqual({ role: 'assistant', content: 'Partial ans' });
    expect(cut.report.blocks[1]).toEqual(fates('a1', 0));
  });

  it('rebuilds an audio-only message from its transcript (no content to replay)', () => {
    const audio = { id: 'audio_1', data: 'AAAA', expires_at: 1, transcript: 'Hello there.' };
    const t = transcript([
      user('u1', text('Say hi')),
      assistant(
        'a1',
        GPT4O,
        [{ type: 'provider_item', api: 'openai-chat', item: audio, text: 'Hello there.' }],
        native({ role: 'assistant', content: null, audio }),
      ),
      user('u2', text('Again')),
    ]);
    const r = convert(t);
    expect(r.body.messages[1]).toEqual({ role: 'assistant', content: 'Hello there.' });
    expect(r.report.blocks[1]).toEqual(
      fates('a1', 0, {
        fate: 'converted',
        detail: 'openai-chat item sent as text: Chat Completions has no input field for it',
      }),
    );
  });

  describe.skipIf(!HAS_SHARED)('recorded traffic (../shared/fixtures)', () => {
    if (!HAS_SHARED) console.warn('skipping: ../shared/fixtures not found');

    it('continues a real gpt-4o-mini tool chain the way the recorded follow-up request did (llm-cassette-tool-chain)', () => {
      const [first, second, third] = loadCassette('openai-chat', 'llm-cassette-tool-chain.yaml') as {
        request: { messages: unknown[]; tools: unknown[] };
        response: unknown;
      }[];
      const ctx = { provider: 'openai', requestedModel: 'gpt-4o-mini' };
      const a1 = { ...readOpenAIChatResponse(first!.response, ctx), id: 'a1' };
      const a2 = { ...readOpenAIChatResponse(second!.response, ctx), id: 'a2' };
      const tools: ToolDefinition[] = (
        first!.request.tools as {
          function: { name: string; description: string; parameters: Record<string, unknown> };
        }[]
      ).map((t) => ({
        name: t.function.name,
        description: t.function.description,
        inputSchema: t.function.parameters,
      }));
      const t = transcript(
        [
          user('u1', text('Can the country of Crumpet have dragons? Answer with only YES or NO')),
          a1,
          tool('t1', result('call_TTY8UFNo7rNCaOBUNtlRSvMG', '123124')),
          a2,
          tool('t2', result('call_aq9UyiSFkzX6W8Ydc33DoI9Y', 'true')),
        ],
        { tools },
      );
      const r = convertToOpenAIChat(t, { api: 'openai-chat', model: 'gpt-4o-mini', maxOutputTokens: 500 });
      expect(r.body).toEqual({
        model: 'gpt-4o-mini',
        stream: true,
        stream_options: { include_usage: true },
        max_completion_tokens: 500,
        tools: first!.request.tools,
        messages: [
          { role: 'user', content: 'Can the country of Crumpet have dragons? Answer with only YES or NO' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_TTY8UFNo7rNCaOBUNtlRSvMG',
                type: 'function',
                function: { name: 'lookup_population', arguments: '{"country":"Crumpet"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_TTY8UFNo7rNCaOBUNtlRSvMG', content: '123124' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_aq9UyiSFkzX6W8Ydc33DoI9Y',
                type: 'function',
                function: { name: 'can_have_dragons', arguments: '{"population":123124}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_aq9UyiSFkzX6W8Ydc33DoI9Y', content: 'true' },
        ],
      });
      // The same conversation as the request OpenAI accepted, up to argument whitespace and `content: null`.
      const normalise = (ms: unknown[]) =>
        JSON.parse(JSON.stringify(ms), (k, v: unknown) =>
          k === 'arguments' && typeof v === 'string' ? JSON.parse(v) : k === 'content' && v === null ? undefined : v,
        ) as unknown;
      expect(normalise(r.body.messages)).toEqual(normalise(third!.request.messages));
      expect(r.report.blocks).toEqual([
        fates('u1', 0),
        fates('a1', 0, REPLAYED),
        fates('t1', 0),
        fates('a2', 0, REPLAYED),
        fates('t2', 0),
      ]);
      expectValid(r.body);
    });

    it('replays a recorded gpt-4.1-nano response to its own model (text.response.json)', () => {
      const a1 = {
        ...readOpenAIChatResponse(loadResponse('openai-chat', 'text.response.json'), {
          provider: 'openai',
          requestedModel: 'gpt-4.1-nano',
        }),
        id: 'a1',
      };
      const r = convert(transcript([user('u1', text('Invent a holiday.')), a1, user('u2', text('Shorter.'))]), {
        model: 'gpt-4.1-nano',
      });
      const message = (
        loadResponse('openai-chat', 'text.response.json') as { choices: { message: { content: string } }[] }
      ).choices[0]!.message;
      expect(r.body.messages[1]).toEqual({ role: 'assistant', content: message.content });
      expect(r.report.blocks[1]).toEqual(fates('a1', 0, REPLAYED));
    });

    it('replays DeepSeek reasoning_content on a recorded deepseek-reasoner tool call (D-1)', () => {
      const [turn] = readOpenAIChatStreamEvents(
        loadStreamEvents('openai-chat', 'deepseek-reasoning-tool-calls.chunks.jsonl'),
        {
          provider: 'deepseek',
          requestedModel: 'deepseek-reasoner',
        },
      ) as [Turn];
      const payload = turn.native!.payload as { reasoning_content: string; tool_calls: unknown[] };
      const t = transcript([
        user('u1', text('Weather in San Francisco?')),
        { ...turn, id: 'a1' },
        tool('t1', result('call_00_ioIn7yN9p1ZOMNpDLwd4MgAF', '18°C')),
      ]);
      const r = convert(t, { model: 'deepseek-reasoner', provider: 'deepseek' });
      expect(r.body.messages[1]).toEqual({
        role: 'assistant',
        content: null,
        tool_calls: payload.tool_calls,
        reasoning_content: payload.reasoning_content,
      });
      expect(r.report.blocks.slice(1, 3)).toEqual([fates('a1', 0, REPLAYED), fates('a1', 1, REPLAYED)]);
      expectValid(r.body, 'deepseek');
      // To another provider the reasoning stays behind (D-3).
      const other = convert(t, { model: 'gpt-4o' });
      expect(other.body.messages[1]).toEqual({
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF',
            type: 'function',
            function: { name: 'weather', arguments: '{"location":"San Francisco"}' },
          },
        ],
      });
      expectValid(other.body);
    });
  });
});

describe('same-origin replay: provider extras (§5)', () => {
  const origin = (provider: string, model: string): Origin => ({ provider, api: 'openai-chat', model });

  it('OpenRouter: reasoning_details go back unchanged (OR-2); the plain reasoning string does not', () => {
    const details = [
      { type: 'reasoning.text', text: 'Think', signature: 'sig-1', format: 'anthropic-claude-v1', index: 0 },
    ];
    const payload = {
      role: 'assistant',
      content: null,
      reasoning: 'Think',
      reasoning_details: details,
      tool_calls: [{ id: 'toolu_1', type: 'function', index: 0, function: { name: 'f', arguments: '{}' } }],
    };
    const model = 'anthropic/claude-sonnet-4.5';
    const t = transcript([
      user('u1', text('Go')),
      assistant(
        'a1',
        origin('openrouter', model),
        [{ type: 'thinking', text: 'Think', meta: { field: 'reasoning' } }, call('toolu_1', 'f')],
        native(payload),
      ),
      tool('t1', result('toolu_1', 'ok')),
    ]);
    const r = convert(t, { model, provider: 'openrouter' });
    expect(r.body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      reasoning_details: details,
    });
    const detail =
      'Chat Completions message replayed as received; not sent: reasoning (output-only or not accepted by openrouter)';
    expect(r.report.blocks.slice(1, 3)).toEqual([
      fates('a1', 0, { fate: 'replayed-native', detail }),
      fates('a1', 1, { fate: 'replayed-native', detail }),
    ]);
    expectValid(r.body, 'openrouter');
  });

  it('Groq: `reasoning` goes back, `reasoning_content` never does (D-G1, D-G2)', () => {
    const model = 'openai/gpt-oss-120b';
    const payload = { role: 'assistant', content: 'Done.', reasoning: 'Because.', reasoning_content: 'stray' };
    const t = transcript([
      user('u1', text('Go')),
      assistant('a1', origin('groq', model), [{ type: 'thinking', text: 'Because.' }, text('Done.')], native(payload)),
      user('u2', text('Next')),
    ]);
    const r = convert(t, { model, provider: 'groq' });
    expect(r.body.messages[1]).toEqual({ role: 'assistant', content: 'Done.', reasoning: 'Because.' });
    expectValid(r.body, 'groq');
  });

  it("Gemini's endpoint: tool_calls keep extra_content.google.thought_signature (G-K7)", () => {
    const model = 'gemini-3-pro-preview';
    const tc = {
      id: 'fc_1',
      type: 'function',
      function: { name: 'f', arguments: '{}' },
      extra_content: { google: { thought_signature: 'c2lnLTE=' } },
    };
    const t = transcript([
      user('u1', text('Go')),
      assistant(
        'a1',
        origin('google', model),
        [call('fc_1', 'f', {}, { signature: 'c2lnLTE=' })],
        native({ role: 'assistant', content: null, tool_calls: [tc] }),
      ),
      tool('t1', result('fc_1', 'ok')),
    ]);
    const r = convert(t, { model, provider: 'google' });
    expect(r.body.messages[1]).toEqual({ role: 'assistant', content: null, tool_calls: [tc] });
    expect(r.report.synthesized.filter((s) => s.kind === 'dummy-signature')).toEqual([]);
    expectValid(r.body, 'google');
  });
});
