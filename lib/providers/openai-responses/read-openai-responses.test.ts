import { describe, it, expect } from 'vitest';
import { decodeTranscript, decodeTurn } from '../../transcript/codec';
import type { Turn } from '../../transcript/schema';
import {
  HAS_SHARED,
  allResponseStreams,
  clone,
  responsesBody,
  responsesCassette,
  responsesEvents,
  responsesFixtures,
  splitResponses,
  terminalResponse,
} from './fixtures.test-helper';
import {
  createOpenAIResponsesStreamAssembler,
  readOpenAIResponsesHistory,
  readOpenAIResponsesResponse,
  readOpenAIResponsesStreamEvents,
} from './read-openai-responses';

if (!HAS_SHARED) console.warn('skipping: ../shared/fixtures not found');

const ctx = { provider: 'openai' };
type Ev = { type: string; delta?: string; item?: Record<string, unknown>; output_index?: number };

function assemble(events: unknown[], c = ctx): Turn {
  const a = createOpenAIResponsesStreamAssembler(c);
  for (const e of events) a.push(e);
  return a.finish();
}

const isTerminal = (e: unknown) => /^response\.(completed|incomplete|failed)$/.test((e as Ev).type);

describe.skipIf(!HAS_SHARED)('openai-responses recorded streams and responses', () => {
  it('covers every fixture file of the API', () => {
    expect(responsesFixtures()).toEqual([
      'custom-tool-call.chunks.jsonl',
      'image-generation-call.response.json',
      'llm-cassette-function-call-streaming.yaml',
      'llm-cassette-interleaved-reasoning-tool-calls.yaml',
      'reasoning-encrypted-function-calls.chunks.jsonl',
      'reasoning-encrypted-function-calls.response.json',
      'web-search-url-citations.response.json',
    ]);
  });

  it.each(allResponseStreams().map((s) => [s.name, s.events] as const))(
    '%s: complete turn that decodes and equals the terminal response read as a whole; cut before the end → interrupted',
    (_name, events) => {
      const [turn] = readOpenAIResponsesStreamEvents(events, ctx);
      expect(decodeTurn(turn)).toEqual(turn);
      expect(turn!.status).toBe('complete');
      expect(turn!.blocks.length).toBeGreaterThan(0);

      // Same turn as the complete response, with the items taken from output_item.done (R-K3).
      const done = events.filter((e) => (e as Ev).type === 'response.output_item.done').map((e) => (e as Ev).item);
      const response = { ...terminalResponse(events), output: done };
      expect(readOpenAIResponsesResponse(response, ctx)).toEqual(turn);

      const cut = decodeTurn(assemble(events.filter((e) => !isTerminal(e))));
      expect(cut.status).toBe('interrupted');
      expect(cut.stopReason).toBeUndefined();
      expect(cut.usage).toBeUndefined();
      expect(cut.blocks).toEqual(turn!.blocks);
    },
  );

  it('custom-tool-call.chunks.jsonl: the custom call is a provider_item, whole turn', () => {
    const item = {
      type: 'custom_tool_call',
      id: 'ct_abc123def456',
      call_id: 'call_custom_sql_001',
      name: 'write_sql',
      input: 'SELECT * FROM users WHERE age > 25',
      status: 'completed',
    };
    expect(
      assemble(responsesEvents('custom-tool-call.chunks.jsonl'), {
        provider: 'openai',
        requestedModel: 'gpt-5.2-codex',
      } as typeof ctx),
    ).toEqual({
      id: 'resp_custom_tool_test_001',
      role: 'assistant',
      origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.2-codex' },
      status: 'complete',
      stopReason: 'tool_use',
      usage: { inputTokens: 50, outputTokens: 20, cacheReadTokens: 0, reasoningTokens: 0 },
      blocks: [{ type: 'provider_item', api: 'openai-responses', item, text: 'SELECT * FROM users WHERE age > 25' }],
      native: { api: 'openai-responses', payload: [item] },
      meta: { responseId: 'resp_custom_tool_test_001', rawStopReason: 'completed' },
    });
  });

  it('custom-tool-call.chunks.jsonl cut before output_item.done: the input so far is kept in the item', () => {
    const events = responsesEvents('custom-tool-call.chunks.jsonl').slice(0, 5);
    const turn = decodeTurn(assemble(events));
    expect(turn.status).toBe('interrupted');
    expect(turn.blocks).toEqual([
      {
        type: 'provider_item',
        api: 'openai-responses',
        item: {
          type: 'custom_tool_call',
          id: 'ct_abc123def456',
          call_id: 'call_custom_sql_001',
          name: 'write_sql',
          input: 'SELECT * FROM users ',
        },
        text: 'SELECT * FROM users ',
      },
    ]);
  });

  it('reasoning-encrypted-function-calls.chunks.jsonl: four responses; encrypted_content taken from output_item.done (R-K3)', () => {
    const all = responsesEvents('reasoning-encrypted-function-calls.chunks.jsonl');
    const turns = readOpenAIResponsesStreamEvents(all, ctx);
    expect(turns.map((t) => [t.stopReason, t.blocks.map((b) => b.type)])).toEqual([
      ['tool_use', ['thinking', 'tool_call']],
      ['tool_use', ['tool_call']],
      ['tool_use', ['tool_call']],
      ['end_turn', ['text']],
    ]);
    const first = splitResponses(all)[0]!;
    const added = first.find(
      (e) => (e as Ev).type === 'response.output_item.added' && (e as Ev).item!.type === 'reasoning',
    ) as Ev;
    const done = first.find(
      (e) => (e as Ev).type === 'response.output_item.done' && (e as Ev).item!.type === 'reasoning',
    ) as Ev;
    const completedItem = (terminalResponse(first).output as Record<string, unknown>[])[0]!;
    // The three copies of encrypted_content differ; the one from the completed item is used.
    expect(
      new Set([added.item!.encrypted_content, done.item!.encrypted_content, completedItem.encrypted_content]).size,
    ).toBe(3);
    const summary =
      "I'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.";
    const callItem = (terminalResponse(first).output as Record<string, unknown>[])[1]!;
    expect(turns[0]).toEqual({
      id: 'resp_01830d662ab3856501693c321345c88190b0de00f3b9975691',
      role: 'assistant',
      origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.1-codex-max' },
      status: 'complete',
      stopReason: 'tool_use',
      usage: { inputTokens: 134, outputTokens: 28, cacheReadTokens: 0, reasoningTokens: 0 },
      blocks: [
        {
          type: 'thinking',
          text: `**Calculating step-by-step using calculator**\n\n${summary}`,
          signature: done.item!.encrypted_content as string,
          meta: { itemId: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9' },
        },
        {
          type: 'tool_call',
          id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
          name: 'calculator',
          input: { a: 12, b: 7, op: 'add' },
          meta: { itemId: 'fc_01830d662ab3856501693c32151234819091cfca267e98cc5f' },
        },
      ],
      native: { api: 'openai-responses', payload: [done.item, callItem] },
      meta: { responseId: 'resp_01830d662ab3856501693c321345c88190b0de00f3b9975691', rawStopReason: 'completed' },
    });
    // For responses 2-4 the completed response's output is identical to the done items.
    for (const [i, events] of splitResponses(all).entries())
      if (i > 0) expect(readOpenAIResponsesResponse(terminalResponse(events), ctx)).toEqual(turns[i]);
  });

  it('reasoning stream cut inside the summary and inside the arguments: partial thinking without signature, partial call', () => {
    const first = splitResponses(responsesEvents('reasoning-encrypted-function-calls.chunks.jsonl'))[0]!;
    const a = createOpenAIResponsesStreamAssembler(ctx);
    first.slice(0, 10).forEach((e) => a.push(e)); // 6 summary deltas
    const snap = decodeTurn(a.snapshot());
    expect(snap.status).toBe('streaming');
    expect(snap.blocks).toEqual([
      {
        type: 'thinking',
        text: '**Calculating step-by-step using',
        meta: { itemId: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9', partial: true },
      },
    ]);
    expect((snap.native!.payload as Record<string, unknown>[])[0]).not.toHaveProperty('encrypted_content');
    first.slice(10, 45).forEach((e) => a.push(e)); // reasoning done, call started, arguments '{"a":12,"'
    const turn = decodeTurn(a.finish());
    expect(turn.status).toBe('interrupted');
    expect(turn.blocks[0]).toMatchObject({ type: 'thinking', signature: expect.stringMatching(/^gAAAAA/) });
    expect(turn.blocks[1]).toEqual({
      type: 'tool_call',
      id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
      name: 'calculator',
      input: {},
      meta: {
        itemId: 'fc_01830d662ab3856501693c32151234819091cfca267e98cc5f',
        rawArguments: '{"a":12,"',
        partial: true,
      },
    });
  });

  it('function-call cassette stream with an error event injected after 3 text deltas: error, partial text kept (P3)', () => {
    const events = responsesCassette('llm-cassette-function-call-streaming.yaml')[1]!.events!;
    const firstDeltas = events.filter((e) => (e as Ev).type === 'response.output_text.delta').slice(0, 3);
    const at = events.indexOf(firstDeltas[2]!) + 1;
    const injected = [
      ...events.slice(0, at),
      { type: 'error', code: 'server_error', message: 'The server had an error', param: null, sequence_number: 99 },
      ...events.slice(at),
    ];
    const turn = decodeTurn(assemble(injected));
    expect(turn.status).toBe('error');
    expect(turn.error).toEqual({ type: 'server_error', message: 'The server had an error' });
    expect(turn.blocks).toEqual([
      {
        type: 'text',
        text: '1231 ×',
        meta: { itemId: 'msg_0dacb603de1c9e6b0169fab1c2e40081a3857ad788023cb7ea', phase: 'final_answer' },
      },
    ]);
    expect(JSON.stringify(turn.blocks)).not.toContain('server_error');
  });

  it('the same stream ending in response.failed or response.incomplete', () => {
    const events = responsesCassette('llm-cassette-function-call-streaming.yaml')[1]!.events!;
    const body = events.filter((e) => !isTerminal(e));
    const resp = terminalResponse(events);
    const failed = decodeTurn(
      assemble([
        ...body,
        {
          type: 'response.failed',
          response: { ...resp, status: 'failed', error: { code: 'server_error', message: 'boom' } },
        },
      ]),
    );
    expect(failed).toMatchObject({
      status: 'error',
      error: { type: 'server_error', message: 'boom' },
      meta: { rawStopReason: 'failed' },
    });
    expect(failed.blocks).toHaveLength(1);
    for (const [reason, mapped] of [
      ['max_output_tokens', 'max_tokens'],
      ['content_filter', 'content_filter'],
    ] as const) {
      const t = decodeTurn(
        assemble([
          ...body,
          { type: 'response.incomplete', response: { ...resp, status: 'incomplete', incomplete_details: { reason } } },
        ]),
      );
      expect([t.status, t.stopReason, t.meta!.rawStopReason]).toEqual(['complete', mapped, reason]);
    }
  });

  it('image-generation-call.response.json: reasoning, image generation as provider_item, whole turn', () => {
    const body = responsesBody('image-generation-call.response.json') as { output: Record<string, unknown>[] };
    expect(readOpenAIResponsesResponse(body, { provider: 'openai', requestedModel: 'gpt-5-nano' })).toEqual({
      id: 'resp_0a33d15155cb126d0068c96c54970481958484dea31f07926d',
      role: 'assistant',
      origin: {
        provider: 'openai',
        api: 'openai-responses',
        model: 'gpt-5-nano-2025-08-07',
        requestedModel: 'gpt-5-nano',
      },
      status: 'complete',
      stopReason: 'end_turn',
      usage: { inputTokens: 3151, outputTokens: 1970, cacheReadTokens: 0, reasoningTokens: 1920 },
      blocks: [
        { type: 'thinking', text: '', meta: { itemId: 'rs_0a33d15155cb126d0068c96c5527808195a933b468ccb5dfd9' } },
        {
          type: 'provider_item',
          api: 'openai-responses',
          item: body.output[1],
          text: 'A cute fluffy cat sitting on a sunlit windowsill, warm sunlight, soft fur, expressive eyes, photorealistic style.',
        },
        { type: 'thinking', text: '', meta: { itemId: 'rs_0a33d15155cb126d0068c96c6c0ef48195bc73e30faf832ba3' } },
      ],
      native: { api: 'openai-responses', payload: body.output },
      meta: { responseId: 'resp_0a33d15155cb126d0068c96c54970481958484dea31f07926d', rawStopReason: 'completed' },
    });
  });

  it('reasoning-encrypted-function-calls.response.json: summary as thinking text, encrypted_content as signature', () => {
    const body = responsesBody('reasoning-encrypted-function-calls.response.json') as {
      output: { encrypted_content?: string; summary?: { text: string }[] }[];
    };
    const turn = readOpenAIResponsesResponse(body, ctx);
    expect(turn.blocks).toEqual([
      {
        type: 'thinking',
        text: body.output[0]!.summary![0]!.text,
        signature: body.output[0]!.encrypted_content,
        meta: { itemId: 'rs_0f35ed53160b395301693cc95817ac8190b978637daea4987e' },
      },
      {
        type: 'text',
        text: '12 + 7 = 19\n19 × 3 = 57\n57 × 10 = 570\n\nFinal result: 570',
        meta: { itemId: 'msg_0f35ed53160b395301693cc95c1d288190997018450969162b' },
      },
    ]);
    expect(turn).toMatchObject({
      status: 'complete',
      stopReason: 'end_turn',
      usage: { inputTokens: 865, outputTokens: 163, cacheReadTokens: 0, reasoningTokens: 128 },
    });
    expect(turn.native!.payload).toBe(body.output);
  });

  it('web-search-url-citations.response.json: searches as provider items, url_citation annotations as citations', () => {
    const body = responsesBody('web-search-url-citations.response.json') as {
      output: { type: string; content?: { text: string; annotations: unknown[] }[] }[];
    };
    const turn = decodeTurn(readOpenAIResponsesResponse(body, ctx));
    expect(turn.blocks.map((b) => b.type)).toEqual([
      'thinking',
      'provider_item',
      'thinking',
      'provider_item',
      'thinking',
      'provider_item',
      'thinking',
      'text',
    ]);
    expect(turn.blocks.filter((b) => b.type === 'provider_item').map((b) => b.text)).toEqual([
      'Web search: tech news today December 5 2025',
      'Opened page: https://www.theverge.com/podcast/838932/openai-chatgpt-code-red-vergecast',
      'Searched for "Vercel" in https://www.theverge.com/podcast/838932/openai-chatgpt-code-red-vergecast',
    ]);
    const part = body.output[7]!.content![0]!;
    expect(part.annotations.length).toBeGreaterThan(5);
    expect(turn.blocks[7]).toEqual({
      type: 'text',
      text: part.text,
      citations: part.annotations,
      meta: { itemId: 'msg_0953eda47ee17412006933308e32f08195bdfb73a410a2abfc' },
    });
    expect(turn.usage).toEqual({
      inputTokens: 19681,
      outputTokens: 3773,
      cacheReadTokens: 3712,
      reasoningTokens: 3136,
    });
  });

  it('interleaved cassette: each response, read as a whole, reappears exactly in the next request read as history', () => {
    const its = responsesCassette('llm-cassette-interleaved-reasoning-tool-calls.yaml');
    const turns = its.map((it) => decodeTurn(readOpenAIResponsesResponse(it.response, ctx)));
    expect(turns.map((t) => t.blocks.map((b) => b.type).join(','))).toEqual([
      'thinking,tool_call',
      'thinking,tool_call',
      'thinking,tool_call',
      'thinking,tool_call,tool_call,tool_call,tool_call,tool_call',
    ]);
    const history = readOpenAIResponsesHistory(its[3]!.request);
    expect(decodeTranscript(clone(history))).toEqual(history);
    expect(history.turns.map((t) => t.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
    for (const k of [0, 1, 2]) {
      const fromHistory = history.turns[1 + 2 * k]!;
      const [thinking, call] = turns[k]!.blocks;
      expect(fromHistory.origin).toEqual({ provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' });
      // Same signature and item id; the client replayed the call without its item id and with re-spaced arguments.
      expect(fromHistory.blocks[0]).toEqual(thinking);
      expect(fromHistory.blocks[1]).toEqual({ ...call, meta: undefined });
    }
    expect(history.turns[6]!.blocks).toEqual([
      { type: 'tool_result', callId: 'call_Vik9mkNli8KsnSbHOShapdmG', content: 'unknown key' },
    ]);
  });

  it('function-call cassette: the second request reads into the exact history', () => {
    const [, second] = responsesCassette('llm-cassette-function-call-streaming.yaml');
    const req = second!.request as { input: unknown[] };
    expect(readOpenAIResponsesHistory(req, { model: 'gpt-5.5-2026-04-23', id: 'c1' })).toEqual({
      format: 'baton.transcript',
      version: 1,
      id: 'c1',
      source: { kind: 'openai-responses' },
      tools: [
        {
          name: 'multiply',
          description: 'Multiply two numbers.',
          inputSchema: {
            properties: { a: { type: 'integer' }, b: { type: 'integer' } },
            required: ['a', 'b'],
            type: 'object',
          },
        },
      ],
      turns: [
        { id: 't1', role: 'user', blocks: [{ type: 'text', text: 'What is 1231 * 2331? Use the multiply tool.' }] },
        {
          id: 't2',
          role: 'assistant',
          origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5-2026-04-23' },
          blocks: [
            { type: 'tool_call', id: 'call_sVidsfFJ6zlzRpelrPkTPlpd', name: 'multiply', input: { a: 1231, b: 2331 } },
          ],
          native: { api: 'openai-responses', payload: [req.input[1]] },
        },
        {
          id: 't3',
          role: 'tool',
          blocks: [{ type: 'tool_result', callId: 'call_sVidsfFJ6zlzRpelrPkTPlpd', content: '2869461' }],
        },
      ],
    });
  });
});
