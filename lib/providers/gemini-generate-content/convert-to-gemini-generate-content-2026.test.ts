/**
 * Gemini generateContent, 2026 additions (provider-rules-2026-gemini.md §4b): call ids echoed and
 * paired by id (G-T7), Baton's ids for foreign and id-less calls (G-T8), Vertex id-less (G-T9),
 * the stream reader's parallel calls (G-S1), whole signatures (G-K9), signatures only for their
 * own model (G-K10), whole turns (G-K11) and the 3.5+ generation config (G-G1).
 */
import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../../test/contract';
import { lookupModel } from '../../models/registry';
import type { Origin } from '../../transcript/schema';
import {
  ANTHROPIC,
  convert,
  GEMINI_3_ORIGIN,
  GEMINI_3_PRO,
  transcript,
  VERTEX_ENDPOINT,
} from './convert-gemini-generate-content.test-helper';
import { convertToGeminiGenerateContent } from './convert-to-gemini-generate-content';
import { readGeminiGenerateContentStreamEvents } from './read-gemini-generate-content';

const FLASH37: Origin = { provider: 'google', api: 'gemini-generate-content', model: 'gemini-3.7-flash' };
const user = (id: string, text: string) => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
const TOOLS = [{ name: 'Read', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }];

/** Two parallel calls to one function, each with Gemini's own id, answered in the opposite order. */
const parallelRead = (origin: Origin) =>
  transcript(
    [
      user('u1', 'Read both files.'),
      {
        id: 'a1',
        role: 'assistant',
        origin,
        blocks: [
          { type: 'tool_call', id: 'call_4162774', name: 'Read', input: { path: 'a.ts' }, signature: 'c2lnLWE=' },
          { type: 'tool_call', id: 'call_4162775', name: 'Read', input: { path: 'b.ts' } },
        ],
      },
      {
        id: 't1',
        role: 'tool',
        blocks: [
          { type: 'tool_result', callId: 'call_4162775', content: 'B' },
          { type: 'tool_result', callId: 'call_4162774', content: 'A' },
        ],
      },
    ],
    { tools: TOOLS },
  );

describe('G-T7 G-T8 G-T9: function call ids', () => {
  it("G-T7: echoes each parallel call's own id to one function, on the call and its response, paired by id", () => {
    const { body } = convert(parallelRead(GEMINI_3_ORIGIN), GEMINI_3_PRO);
    const calls = body.contents[1]!.parts.map((p) => p.functionCall);
    expect(calls).toEqual([
      { id: 'call_4162774', name: 'Read', args: { path: 'a.ts' } },
      { id: 'call_4162775', name: 'Read', args: { path: 'b.ts' } },
    ]);
    const responses = body.contents[2]!.parts.map((p) => p.functionResponse);
    // Responses pair with calls by id, whatever their order (the pre-pass puts them in call order).
    const byId = new Map(responses.map((r) => [r!.id, (r!.response as { output: string }).output]));
    expect([byId.get('call_4162774'), byId.get('call_4162775')]).toEqual(['A', 'B']);
  });

  it('G-T8: a foreign call gets one unique id on both sides, also when two calls had the same id', () => {
    const t = transcript(
      [
        user('u1', 'Twice.'),
        {
          id: 'a1',
          role: 'assistant',
          origin: ANTHROPIC,
          blocks: [{ type: 'tool_call', id: 'dup', name: 'Read', input: { path: 'a' } }],
        },
        { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'dup', content: 'A' }] },
        {
          id: 'a2',
          role: 'assistant',
          origin: ANTHROPIC,
          blocks: [{ type: 'tool_call', id: 'dup', name: 'Read', input: { path: 'b' } }],
        },
        { id: 't2', role: 'tool', blocks: [{ type: 'tool_result', callId: 'dup', content: 'B' }] },
      ],
      { tools: TOOLS },
    );
    const { body } = convert(t, GEMINI_3_PRO);
    const callIds = body.contents.flatMap((c) => c.parts.flatMap((p) => (p.functionCall ? [p.functionCall.id] : [])));
    const responseIds = body.contents.flatMap((c) =>
      c.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse.id] : [])),
    );
    expect(callIds.every((id) => typeof id === 'string' && id !== '')).toBe(true);
    expect(new Set(callIds).size).toBe(2);
    expect(responseIds).toEqual(callIds);
  });

  it('G-T9: Vertex stays id-less on both sides, the ids stay in the transcript', () => {
    const t = parallelRead(GEMINI_3_ORIGIN);
    const { body } = convert(t, GEMINI_3_PRO, { endpoint: VERTEX_ENDPOINT });
    expect(JSON.stringify(body)).not.toContain('call_41627');
    expect(t.turns[1]!.blocks.map((b) => (b.type === 'tool_call' ? b.id : ''))).toEqual([
      'call_4162774',
      'call_4162775',
    ]);
  });
});

describe('G-S1: the stream reader keeps parallel calls apart', () => {
  it('G-S1: each functionCall chunk (no index) is its own call with its own id and signature, never merged by name', () => {
    const chunk = (part: object, extra: object = {}) => ({
      candidates: [{ content: { role: 'model', parts: [part] }, index: 0, ...extra }],
      responseId: 'r1',
      modelVersion: 'gemini-3.7-flash',
    });
    const events = [
      chunk({ functionCall: { id: 'call_1', name: 'Read', args: { path: 'a.ts' } }, thoughtSignature: 'c2ln' }),
      chunk({ functionCall: { id: 'call_2', name: 'Read', args: { path: 'b.ts' } } }),
      chunk({ functionCall: { name: 'Read', args: { path: 'c.ts' } } }, { finishReason: 'STOP' }),
    ];
    const [turn] = readGeminiGenerateContentStreamEvents(events, {
      provider: 'google',
      requestedModel: 'gemini-3.7-flash',
    });
    expect(turn!.blocks).toEqual([
      { type: 'tool_call', id: 'call_1', name: 'Read', input: { path: 'a.ts' }, signature: 'c2ln' },
      { type: 'tool_call', id: 'call_2', name: 'Read', input: { path: 'b.ts' } },
      { type: 'tool_call', id: 'Read_2', name: 'Read', input: { path: 'c.ts' }, meta: { generatedId: true } },
    ]);
  });
});

describe('G-K9 G-K10 G-K11: signatures and whole turns', () => {
  it('G-K9: a long signature goes back byte for byte, never cut or re-encoded', () => {
    const long = `${'QUJD+/='.repeat(20_000)}x`;
    const t = transcript([
      user('u1', 'Go.'),
      {
        id: 'a1',
        role: 'assistant',
        origin: GEMINI_3_ORIGIN,
        blocks: [{ type: 'text', text: 'Done.', signature: long }],
      },
      user('u2', 'Next.'),
    ]);
    expect(convert(t, GEMINI_3_PRO).body.contents[1]!.parts[0]!.thoughtSignature).toBe(long);
  });

  it('G-K10: a signature from another Gemini model (Flash-Lite vs Flash) is dropped and reported, never left to the server', () => {
    const lite: Origin = { provider: 'google', api: 'gemini-generate-content', model: 'gemini-3.1-flash-lite' };
    const t = transcript([
      user('u1', 'Go.'),
      {
        id: 'a1',
        role: 'assistant',
        origin: lite,
        blocks: [
          { type: 'thinking', text: 'plan', signature: 'bGl0ZQ==' },
          { type: 'text', text: 'Done.', signature: 'bGl0ZTI=' },
        ],
      },
      user('u2', 'Next.'),
    ]);
    const { body, report } = convertToGeminiGenerateContent(t, {
      api: 'gemini-generate-content',
      model: 'gemini-3.7-flash',
    });
    expect(JSON.stringify(body)).not.toContain('bGl0ZQ');
    expect(report.blocks.filter((b) => b.turn === 'a1').flatMap((b) => b.fates.map((f) => f.fate))).toEqual([
      'dropped',
      'converted',
    ]);
  });

  it('G-K11: on 3.5+ a kept same-origin turn goes whole: its unsigned thought part stays with the call and the response', () => {
    const t = transcript(
      [
        user('u1', 'Read it.'),
        {
          id: 'a1',
          role: 'assistant',
          origin: FLASH37,
          blocks: [
            { type: 'thinking', text: 'I should read a.ts.' },
            { type: 'tool_call', id: 'call_1', name: 'Read', input: { path: 'a.ts' }, signature: 'c2ln' },
          ],
        },
        { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'call_1', content: 'A' }] },
      ],
      { tools: TOOLS },
    );
    const { body } = convertToGeminiGenerateContent(t, { api: 'gemini-generate-content', model: 'gemini-3.7-flash' });
    expect(body.contents[1]!.parts).toEqual([
      { text: 'I should read a.ts.', thought: true },
      { functionCall: { id: 'call_1', name: 'Read', args: { path: 'a.ts' } }, thoughtSignature: 'c2ln' },
    ]);
    expect(body.contents[2]!.parts[0]!.functionResponse!.id).toBe('call_1');
    expect(validateRequest('gemini-generate-content', body, { model: 'gemini-3.7-flash' })).toEqual([]);
  });
});

describe('G-G1: generation config on Gemini 3.5+', () => {
  const t = transcript([user('u1', 'Hi')]);
  it.each(['gemini-3.5-flash', 'gemini-3.7-flash', 'gemini-3.8-flash'])(
    'G-G1: %s gets thinkingLevel, never thinkingBudget or sampling parameters',
    (model) => {
      for (const thinking of [false, true]) {
        const { body, report } = convertToGeminiGenerateContent(t, { api: 'gemini-generate-content', model, thinking });
        const cfg = body.generationConfig as unknown as Record<string, unknown> & {
          thinkingConfig?: Record<string, unknown>;
        };
        expect(cfg.thinkingConfig?.thinkingBudget).toBeUndefined();
        expect(cfg.thinkingConfig?.thinkingLevel).toBe(thinking ? 'HIGH' : lookupModel(model).thinkingLevels![0]);
        for (const key of ['temperature', 'topP', 'topK']) expect(cfg).not.toHaveProperty(key);
        if (!thinking)
          expect(report.warnings).toContain(
            `${model} cannot switch thinking off: sent at its lowest thinking level MINIMAL (G-G1)`,
          );
        expect(validateRequest('gemini-generate-content', body, { model })).toEqual([]);
      }
    },
  );

  it('G-G1: off on Vertex is LOW, since Vertex Flash refuses MINIMAL', () => {
    const { body } = convertToGeminiGenerateContent(t, {
      api: 'gemini-generate-content',
      model: 'gemini-3.8-flash',
      endpoint: VERTEX_ENDPOINT,
    });
    expect(body.generationConfig.thinkingConfig).toEqual({ thinkingLevel: 'LOW' });
    expect(validateRequest('gemini-generate-content', body, { model: 'gemini-3.8-flash', vertex: true })).toEqual([]);
  });
});
