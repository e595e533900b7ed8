import { describe, it, expect } from 'vitest';
import { decodeTurn } from '../../transcript/codec';
import type { Turn } from '../../transcript/schema';
import { readAnthropicMessagesResponse, readAnthropicMessagesStreamEvents } from './read-anthropic-messages';
import { hasShared, listFixtures, loadCassette, loadChunks, loadJson, responseToEvents } from './fixtures.test-helper';

if (!hasShared) console.warn('skipping: ../shared/fixtures not found');

const API = 'anthropic-messages';
const ctx = { provider: 'anthropic' };
type Obj = Record<string, unknown>;

const STREAM_FILES = [
  'edgecase-spliced-message-start.chunks.jsonl',
  'programmatic-tool-calling.chunks.jsonl',
  'refusal.chunks.jsonl',
  'text.chunks.jsonl',
  'thinking-signature.chunks.jsonl',
  'tool-use-json-delta.chunks.jsonl',
  'tool-use-no-args.chunks.jsonl',
  'web-search-citations.chunks.jsonl',
];
const CASSETTES = [
  'llm-cassette-adaptive-thinking.yaml',
  'llm-cassette-image-input.yaml',
  'llm-cassette-thinking-tool-chain.yaml',
  'llm-cassette-web-search-citations.yaml',
];
const RESPONSES = [
  'compaction.response.json',
  'opus-reasoning-high.response.json',
  'thinking-signature.response.json',
  'web-search-citations.response.json',
];

/** Every recorded stream, one entry per message (split at message_start). */
function allMessages(): { name: string; events: unknown[] }[] {
  const out: { name: string; events: unknown[] }[] = [];
  const split = (name: string, events: unknown[]) => {
    let cur: unknown[] | undefined;
    let n = 0;
    for (const e of events) {
      if ((e as Obj).type === 'message_start' || !cur) {
        cur = [];
        out.push({ name: `${name}#${++n}`, events: cur });
      }
      cur.push(e);
    }
  };
  for (const f of STREAM_FILES) split(f, loadChunks(f));
  for (const f of CASSETTES) loadCassette(f).forEach((i, k) => split(`${f}[${k}]`, i.events!));
  return out;
}

const textOf = (turn: Turn) => turn.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
const origin = (model: string) => ({ provider: 'anthropic', api: API, model });

describe.skipIf(!hasShared)('Anthropic recorded fixtures', () => {
  it('covers every file in recorded-streams/anthropic', () => {
    expect(listFixtures()).toEqual([...STREAM_FILES, ...CASSETTES, ...RESPONSES].sort());
  });

  it('every recorded stream and response reads into turns that pass decodeTurn', () => {
    const turns: Turn[] = [];
    for (const f of STREAM_FILES) turns.push(...readAnthropicMessagesStreamEvents(loadChunks(f), ctx));
    for (const f of CASSETTES)
      for (const i of loadCassette(f)) turns.push(...readAnthropicMessagesStreamEvents(i.events!, ctx));
    for (const f of RESPONSES) turns.push(readAnthropicMessagesResponse(loadJson(f), ctx));
    for (const t of turns) expect(decodeTurn(t)).toEqual(t);
    const count = turns.length;
    // 1+2+15+1+1+1+1+1 stream messages, 1+1+2+1 cassette messages, 4 responses
    expect(count).toBe(23 + 5 + 4);
  });

  it('text.chunks.jsonl → one complete text turn', () => {
    const text =
      "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?";
    expect(readAnthropicMessagesStreamEvents(loadChunks('text.chunks.jsonl'), ctx)).toEqual([
      {
        id: 'msg_01QC4g3HwBThD4BaNtBckFDJ',
        role: 'assistant',
        origin: origin('claude-sonnet-4-5-20250929'),
        status: 'complete',
        stopReason: 'end_turn',
        usage: { inputTokens: 12, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0 },
        blocks: [{ type: 'text', text }],
        native: { api: API, payload: [{ type: 'text', text }] },
        meta: { responseId: 'msg_01QC4g3HwBThD4BaNtBckFDJ', rawStopReason: 'end_turn' },
      },
    ]);
  });

  it('refusal.chunks.jsonl → refusal with no blocks and the stop details kept', () => {
    const [turn] = readAnthropicMessagesStreamEvents(loadChunks('refusal.chunks.jsonl'), ctx);
    expect(turn).toEqual({
      id: 'msg_01RefusalStreamAbcdefghijk',
      role: 'assistant',
      origin: origin('claude-fable-5'),
      status: 'complete',
      stopReason: 'refusal',
      usage: { inputTokens: 18, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
      blocks: [],
      native: { api: API, payload: [] },
      meta: {
        responseId: 'msg_01RefusalStreamAbcdefghijk',
        rawStopReason: 'refusal',
        stopDetails: {
          type: 'refusal',
          category: 'cyber',
          explanation:
            "This request triggered restrictions on violative cyber content and was blocked under Anthropic's Usage Policy.",
          recommended_model: 'claude-fable-5',
        },
      },
    });
  });

  it('thinking-signature.chunks.jsonl → thinking with its signature_delta, then text', () => {
    const events = loadChunks('thinking-signature.chunks.jsonl');
    const signature = (
      events.find((e) => ((e as Obj).delta as Obj | undefined)?.type === 'signature_delta') as {
        delta: { signature: string };
      }
    ).delta.signature;
    expect(signature).toMatch(/^EvQBCkYICxgCKkAxhD4N/);
    const thinking = 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185';
    expect(readAnthropicMessagesStreamEvents(events, ctx)).toEqual([
      {
        id: 'msg_01Y6V41gqPaKWEw7iPouH7iW',
        role: 'assistant',
        origin: origin('claude-sonnet-4-5-20250929'),
        status: 'complete',
        stopReason: 'end_turn',
        usage: { inputTokens: 69, outputTokens: 53, cacheReadTokens: 0, cacheWriteTokens: 0 },
        blocks: [
          { type: 'thinking', text: thinking, signature },
          { type: 'text', text: '925 ÷ 5 = 185' },
        ],
        native: {
          api: API,
          payload: [
            { type: 'thinking', thinking, signature },
            { type: 'text', text: '925 ÷ 5 = 185' },
          ],
        },
        meta: {
          responseId: 'msg_01Y6V41gqPaKWEw7iPouH7iW',
          rawStopReason: 'end_turn',
          contextManagement: { applied_edits: [] },
        },
      },
    ]);
  });

  it('thinking-signature.response.json → the same shape as its streamed sibling', () => {
    const response = loadJson('thinking-signature.response.json') as Obj;
    const turn = readAnthropicMessagesResponse(response, {
      provider: 'anthropic',
      requestedModel: 'claude-sonnet-4-5',
      endpoint: 'https://proxy.example',
    });
    expect(turn).toEqual({
      id: 'msg_01XrsJCi8CQoLcnnWdY8RsJz',
      role: 'assistant',
      origin: {
        provider: 'anthropic',
        api: API,
        model: 'claude-sonnet-4-5-20250929',
        requestedModel: 'claude-sonnet-4-5',
        endpoint: 'https://proxy.example',
      },
      status: 'complete',
      stopReason: 'end_turn',
      usage: { inputTokens: 69, outputTokens: 33, cacheReadTokens: 0, cacheWriteTokens: 0 },
      blocks: [
        { type: 'thinking', text: '925 divided by 5 = 185', signature: (response.content as Obj[])[0]!.signature },
        { type: 'text', text: '925 ÷ 5 = 185' },
      ],
      native: { api: API, payload: response.content },
      meta: {
        responseId: 'msg_01XrsJCi8CQoLcnnWdY8RsJz',
        rawStopReason: 'end_turn',
        contextManagement: { applied_edits: [] },
      },
    });
    const [streamed] = readAnthropicMessagesStreamEvents(loadChunks('thinking-signature.chunks.jsonl'), ctx);
    expect(streamed!.blocks.map((b) => b.type)).toEqual(turn.blocks.map((b) => b.type));
    expect(Object.keys(streamed!).sort()).toEqual(Object.keys(turn).sort());
  });

  it('tool-use-json-delta.chunks.jsonl → tool call assembled from input_json_delta pieces', () => {
    const input = { elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] };
    const [turn] = readAnthropicMessagesStreamEvents(loadChunks('tool-use-json-delta.chunks.jsonl'), ctx);
    expect(turn!.blocks).toEqual([{ type: 'tool_call', id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA', name: 'json', input }]);
    expect(turn!.native).toEqual({
      api: API,
      payload: [{ type: 'tool_use', id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA', name: 'json', input }],
    });
    expect(turn!.stopReason).toBe('tool_use');
    expect(turn!.status).toBe('complete');
  });

  it('tool-use-no-args.chunks.jsonl → text then a tool call with input {}', () => {
    const [turn] = readAnthropicMessagesStreamEvents(loadChunks('tool-use-no-args.chunks.jsonl'), ctx);
    expect(turn!.blocks).toEqual([
      { type: 'text', text: "I'll update the issue list for you." },
      { type: 'tool_call', id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', input: {} },
    ]);
    expect(turn!.usage).toEqual({ inputTokens: 565, outputTokens: 48, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('edgecase-spliced-message-start.chunks.jsonl → the cut first message is interrupted with a partial call', () => {
    const turns = readAnthropicMessagesStreamEvents(loadChunks('edgecase-spliced-message-start.chunks.jsonl'), ctx);
    expect(turns).toEqual([
      {
        id: 'msg_first',
        role: 'assistant',
        origin: origin('claude-3-haiku-20240307'),
        status: 'interrupted',
        usage: { inputTokens: 17, outputTokens: 1 },
        blocks: [
          { type: 'thinking', text: 'I will call the tool.', signature: 'sig-first' },
          {
            type: 'tool_call',
            id: 'toolu_first',
            name: 'test-tool',
            input: {},
            meta: { partial: true, rawArguments: '{"value":"Spark' },
          },
        ],
        native: {
          api: API,
          payload: [
            { type: 'thinking', thinking: 'I will call the tool.', signature: 'sig-first' },
            { type: 'tool_use', id: 'toolu_first', name: 'test-tool', input: {} },
          ],
        },
        meta: { responseId: 'msg_first' },
      },
      {
        id: 'msg_second',
        role: 'assistant',
        origin: origin('claude-3-haiku-20240307'),
        status: 'complete',
        stopReason: 'tool_use',
        usage: { inputTokens: 17, outputTokens: 65 },
        blocks: [
          { type: 'thinking', text: 'Let me call the tool.', signature: 'sig-second' },
          { type: 'tool_call', id: 'toolu_second', name: 'test-tool', input: { value: 'Sparkle Day' } },
        ],
        native: {
          api: API,
          payload: [
            { type: 'thinking', thinking: 'Let me call the tool.', signature: 'sig-second' },
            { type: 'tool_use', id: 'toolu_second', name: 'test-tool', input: { value: 'Sparkle Day' } },
          ],
        },
        meta: { responseId: 'msg_second', rawStopReason: 'tool_use' },
      },
    ]);
  });

  it('web-search-citations.chunks.jsonl → server tool items, then text blocks carrying their citations', () => {
    const events = loadChunks('web-search-citations.chunks.jsonl');
    const [turn] = readAnthropicMessagesStreamEvents(events, ctx);
    expect(turn!.blocks.map((b) => b.type)).toEqual([
      'provider_item',
      'provider_item',
      ...Array<string>(19).fill('text'),
    ]);
    const [use, result] = turn!.blocks as unknown as [Obj, Obj];
    expect(use).toEqual({
      type: 'provider_item',
      api: API,
      item: {
        type: 'server_tool_use',
        id: 'srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k',
        name: 'web_search',
        input: { query: 'tech news today September 26 2025' },
      },
      text: '[web_search] {"query":"tech news today September 26 2025"}',
    });
    const resultStart = events.find((e) => (e as Obj).type === 'content_block_start' && (e as Obj).index === 1) as Obj;
    expect(result.item).toEqual(resultStart.content_block);
    expect((result.text as string).split('\n')).toHaveLength(10);
    // Every citations_delta lands, in order, on its own text block.
    const citations = events
      .filter((e) => ((e as Obj).delta as Obj | undefined)?.type === 'citations_delta')
      .map((e) => ((e as Obj).delta as Obj).citation);
    expect(citations).toHaveLength(14);
    expect(turn!.blocks.flatMap((b) => (b.type === 'text' ? (b.citations ?? []) : []))).toEqual(citations);
    const deltas = events
      .filter((e) => ((e as Obj).delta as Obj | undefined)?.type === 'text_delta')
      .map((e) => ((e as Obj).delta as Obj).text);
    expect(textOf(turn!)).toBe(deltas.join(''));
    expect(turn!.usage).toEqual({ inputTokens: 15665, outputTokens: 795, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('programmatic-tool-calling.chunks.jsonl → 15 turns; code-invoked calls keep their caller', () => {
    const events = loadChunks('programmatic-tool-calling.chunks.jsonl');
    const turns = readAnthropicMessagesStreamEvents(events, ctx);
    expect(turns).toHaveLength(15);
    expect(turns.every((t) => t.status === 'complete')).toBe(true);
    expect(turns[0]!.blocks.map((b) => b.type)).toEqual(['text', 'provider_item', 'tool_call']);
    const code = (turns[0]!.blocks[1] as { item: Obj }).item;
    expect(code.name).toBe('code_execution');
    expect(typeof (code.input as Obj).code).toBe('string');
    expect(turns[0]!.blocks[2]).toEqual({
      type: 'tool_call',
      id: 'toolu_019jKkXz4jAdwHweHBw92CVY',
      name: 'rollDie',
      input: { player: 'player1' },
      meta: { caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_01MzSrFWsmzBdcoQkGWLyRjK' } },
    });
    expect(turns[0]!.meta).toEqual({
      responseId: 'msg_01ERcBqAvLTHWQDk9c9qJLWC',
      rawStopReason: 'tool_use',
      container: { id: 'container_011CWHPPTDTn1XufeRB9uHeH', expires_at: '2025-12-20T05:33:35.789626Z' },
    });
    // Messages 2–14 arrive whole in message_start (content already filled, stop_reason set).
    expect(turns[1]).toMatchObject({
      id: 'msg_01KSVw3xmXbMNJPNMt46BC5W',
      stopReason: 'tool_use',
      blocks: [
        { type: 'tool_call', id: 'toolu_015dGLMbwBKv1ZRQr6KdJzeH', name: 'rollDie', input: { player: 'player2' } },
      ],
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    const last = turns[14]!;
    expect(last.blocks.map((b) => b.type)).toEqual(['provider_item', 'text']);
    const result = last.blocks[0] as { item: Obj; text: string };
    expect(result.item.type).toBe('code_execution_tool_result');
    expect(result.text).toBe((result.item.content as Obj).stdout as string);
  });

  it('llm-cassette-adaptive-thinking.yaml → text, signed thinking, text', () => {
    const [i] = loadCassette('llm-cassette-adaptive-thinking.yaml');
    const [turn] = readAnthropicMessagesStreamEvents(i!.events!, ctx);
    expect(turn!.blocks.map((b) => [b.type, b.type === 'text' || b.type === 'thinking' ? b.text : ''])).toEqual([
      ['text', '\n\n'],
      ['thinking', 'Brief answer with two pet pelican names.'],
      ['text', '1. **Captain Scoop**\n2. **Gullet**'],
    ]);
    expect((turn!.blocks[1] as { signature: string }).signature).toMatch(/^EtABCkYICxgCKkCVRmhl/);
  });

  it('llm-cassette-image-input.yaml → a plain text answer', () => {
    const [i] = loadCassette('llm-cassette-image-input.yaml');
    const [turn] = readAnthropicMessagesStreamEvents(i!.events!, ctx);
    expect(turn).toMatchObject({
      status: 'complete',
      stopReason: 'end_turn',
      blocks: [{ type: 'text', text: 'Red square, green square.' }],
    });
  });

  it('llm-cassette-thinking-tool-chain.yaml → the thinking the second request replays is exactly what the first stream gave', () => {
    const [first, second] = loadCassette('llm-cassette-thinking-tool-chain.yaml');
    const [turn] = readAnthropicMessagesStreamEvents(first!.events!, ctx);
    const replayed = (second!.request as { messages: { content: Obj[] }[] }).messages[1]!.content;
    // The client replayed thinking + tool_use; our native payload must hold the same blocks (A-K1).
    expect((turn!.native!.payload as Obj[]).map(({ caller: _c, ...b }) => b)).toEqual(replayed);
    expect(turn!.usage).toEqual({
      inputTokens: 598,
      outputTokens: 92,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 53,
    });
    const [answer] = readAnthropicMessagesStreamEvents(second!.events!, ctx);
    expect(answer).toMatchObject({ status: 'complete', stopReason: 'end_turn' });
    expect(textOf(answer!)).toMatch(/^The version is \*\*0\.32a0\*\*/);
  });

  it('llm-cassette-web-search-citations.yaml → server tool use with streamed input, cited text', () => {
    const [i] = loadCassette('llm-cassette-web-search-citations.yaml');
    const [turn] = readAnthropicMessagesStreamEvents(i!.events!, ctx);
    expect((turn!.blocks[0] as { item: Obj }).item.input).toEqual({ query: 'San Francisco weather today' });
    expect(turn!.blocks.some((b) => b.type === 'text' && (b.citations?.length ?? 0) > 0)).toBe(true);
  });

  it('compaction.response.json → compaction as provider_item (summary as its text), then the answer', () => {
    const response = loadJson('compaction.response.json') as { content: Obj[] };
    const turn = readAnthropicMessagesResponse(response, ctx);
    expect(turn.blocks).toEqual([
      // A-P2: the beta header that produced the block is kept with it.
      {
        type: 'provider_item',
        api: API,
        item: response.content[0],
        text: response.content[0]!.content,
        meta: { anthropicBeta: 'compact-2026-01-12' },
      },
      { type: 'text', text: response.content[1]!.text },
    ]);
    expect(turn.usage).toEqual({ inputTokens: 682, outputTokens: 1320, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('opus-reasoning-high.response.json → thinking tokens reported as reasoningTokens', () => {
    const turn = readAnthropicMessagesResponse(loadJson('opus-reasoning-high.response.json'), ctx);
    expect(turn.usage).toEqual({
      inputTokens: 51,
      outputTokens: 1699,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 139,
    });
    expect(turn.blocks.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect(turn.meta).toEqual({ responseId: 'msg_011CdMNhurHSJCxCC2NB7WYc', rawStopReason: 'end_turn' });
  });

  it('web-search-citations.response.json → 13 blocks in order, native content verbatim', () => {
    const response = loadJson('web-search-citations.response.json') as { content: Obj[] };
    const turn = readAnthropicMessagesResponse(response, ctx);
    expect(turn.blocks.map((b) => b.type)).toEqual(
      response.content.map((c) => (c.type === 'text' ? 'text' : 'provider_item')),
    );
    expect(turn.native).toEqual({ api: API, payload: response.content });
    response.content.forEach((c, k) => {
      if (c.type === 'text')
        expect(turn.blocks[k]).toEqual({
          type: 'text',
          text: c.text,
          ...(c.citations ? { citations: c.citations } : {}),
        });
    });
  });

  it.each(RESPONSES)('%s streamed equals the response read whole', (name) => {
    const response = loadJson(name) as Obj;
    expect(readAnthropicMessagesStreamEvents(responseToEvents(response), ctx)).toEqual([
      readAnthropicMessagesResponse(response, ctx),
    ]);
  });

  it('every recorded message cut before message_stop ends interrupted with its content kept', () => {
    for (const { name, events } of allMessages()) {
      const stop = events.findIndex((e) => (e as Obj).type === 'message_stop');
      if (stop < 0) continue; // already cut (spliced edge case)
      const [full] = readAnthropicMessagesStreamEvents(events, ctx);
      const [cut] = readAnthropicMessagesStreamEvents(events.slice(0, stop), ctx);
      expect(cut!.status, name).toBe('interrupted');
      expect(cut!.blocks, name).toEqual(full!.blocks);
      expect(decodeTurn(cut)).toEqual(cut);
    }
  });

  it('every recorded message cut after its first text delta keeps exactly that text', () => {
    let checked = 0;
    for (const { name, events } of allMessages()) {
      const k = events.findIndex((e) => ((e as Obj).delta as Obj | undefined)?.type === 'text_delta');
      if (k < 0) continue;
      const delta = events[k] as { index: number; delta: { text: string } };
      const [cut] = readAnthropicMessagesStreamEvents(events.slice(0, k + 1), ctx);
      expect(cut!.status, name).toBe('interrupted');
      expect(cut!.blocks.filter((b) => b.type === 'text').at(-1), name).toEqual({
        type: 'text',
        text: delta.delta.text,
      });
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('an error event injected after the first text delta gives status error with the partial text kept (P3)', () => {
    const error = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    let checked = 0;
    for (const { name, events } of allMessages()) {
      const k = events.findIndex((e) => ((e as Obj).delta as Obj | undefined)?.type === 'text_delta');
      if (k < 0) continue;
      const text = (events[k] as { delta: { text: string } }).delta.text;
      const [turn] = readAnthropicMessagesStreamEvents([...events.slice(0, k + 1), error, ...events.slice(k + 1)], ctx);
      expect(turn!.status, name).toBe('error');
      expect(turn!.error, name).toEqual({ type: 'overloaded_error', message: 'Overloaded' });
      expect(turn!.blocks.filter((b) => b.type === 'text').at(-1), name).toEqual({ type: 'text', text });
      expect(JSON.stringify(turn!.blocks), name).not.toContain('overloaded');
      expect(decodeTurn(turn)).toEqual(turn);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('a tool call cut inside its JSON is kept partial with its raw text', () => {
    const events = loadChunks('tool-use-json-delta.chunks.jsonl');
    const [turn] = readAnthropicMessagesStreamEvents(events.slice(0, 5), ctx); // up to the first non-empty fragment
    expect(turn!.status).toBe('interrupted');
    expect(turn!.blocks).toEqual([
      {
        type: 'tool_call',
        id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA',
        name: 'json',
        input: {},
        meta: {
          partial: true,
          rawArguments: '{"elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]',
        },
      },
    ]);
  });
});
