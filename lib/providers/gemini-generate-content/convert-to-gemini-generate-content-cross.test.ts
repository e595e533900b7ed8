import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadNeutralTranscript, loadNeutralTranscripts } from '../../../test/fixtures/transcripts';
import { lookupModel } from '../../models/registry';
import { TranscriptError } from '../../transcript/codec';
import { resolveTarget } from '../../transcript/target';
import { convertToGeminiGenerateContent, encodeGeminiGenerateContent } from './convert-to-gemini-generate-content';
import {
  readGeminiGenerateContentHistory,
  readGeminiGenerateContentStreamEvents,
} from './read-gemini-generate-content';
import {
  convert,
  DUMMY_FATE,
  GEMINI_25_FLASH,
  GEMINI_25_PRO,
  GEMINI_3_PRO,
  GEMMA,
  kept,
  OFF_25,
  OFF_3,
  transcript,
} from './convert-gemini-generate-content.test-helper';

const STUB = 'This tool was used earlier in the conversation and is not available now. Do not call it.';
const DUMMY = 'skip_thought_signature_validator';
const X3 = (what: string) => `reasoning from ${what} cannot be replayed to another model (X3, A-K6, R-K6)`;

describe('cross-origin', () => {
  it('mixed-origins: foreign reasoning dropped, calls kept with their ids, same-origin signed empty text kept (G-E2)', () => {
    const { body, report } = convert(loadNeutralTranscript('mixed-origins'), GEMINI_3_PRO);
    expect(body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Find how retries work.' }] },
        {
          role: 'model',
          parts: [
            {
              functionCall: { id: 'call_Ab12', name: 'search_docs', args: { q: 'retry policy' } },
              thoughtSignature: DUMMY,
            },
          ],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'call_Ab12',
                name: 'search_docs',
                response: { output: 'retry.md: bounded retries with retry-after' },
              },
            },
          ],
        },
        {
          role: 'model',
          parts: [
            {
              functionCall: { id: 'toolu_01XyZ', name: 'read_file', args: { path: 'retry.md' } },
              thoughtSignature: DUMMY,
            },
          ],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: { id: 'toolu_01XyZ', name: 'read_file', response: { output: '# Retries\nAt most 3.' } },
            },
          ],
        },
        {
          role: 'model',
          parts: [
            { text: 'Retries are bounded: at most 3, honouring retry-after.' },
            { text: '', thoughtSignature: 'CiQBjz1rX8signature' },
          ],
        },
        { role: 'user', parts: [{ text: 'And quota errors?' }] },
        { role: 'model', parts: [{ text: 'Quota errors are never retried.' }] },
        { role: 'user', parts: [{ text: 'Show me the code.' }] },
      ],
      systemInstruction: { parts: [{ text: 'You are a careful assistant.' }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'search_docs',
              description: 'Search the docs.',
              parametersJsonSchema: { type: 'object', properties: { q: { type: 'string' } } },
            },
            { name: 'read_file', parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } } } },
          ],
        },
      ],
      generationConfig: OFF_3,
    });
    expect(report).toEqual({
      input: { format: 'baton', turns: 9, blocks: 14 },
      blocks: [
        kept('u1', 0),
        {
          turn: 'r1',
          index: 0,
          fates: [{ fate: 'dropped', detail: X3('openai/gpt-5.5-2026-04-23 (openai-responses)') }],
        },
        { turn: 'r1', index: 1, fates: [DUMMY_FATE] },
        kept('r2', 0),
        {
          turn: 'c1',
          index: 0,
          fates: [{ fate: 'dropped', detail: X3('anthropic/claude-opus-4-5 (anthropic-messages)') }],
        },
        {
          turn: 'c1',
          index: 1,
          fates: [
            {
              fate: 'dropped',
              detail: 'redacted thinking is opaque state of anthropic/claude-opus-4-5 (anthropic-messages) (X3)',
            },
          ],
        },
        { turn: 'c1', index: 2, fates: [DUMMY_FATE] },
        kept('c2', 0),
        {
          turn: 'g1',
          index: 0,
          fates: [{ fate: 'dropped', detail: 'thought summary without a signature is not replayed (G-K6)' }],
        },
        kept('g1', 1),
        kept('g1', 2),
        kept('u2', 0),
        kept('w1', 0),
        kept('u3', 0),
      ],
      synthesized: [
        { kind: 'dummy-signature', detail: `${DUMMY} on the unsigned call search_docs (turn r1) (G-K4, X9)` },
        { kind: 'dummy-signature', detail: `${DUMMY} on the unsigned call read_file (turn c1) (G-K4, X9)` },
      ],
      warnings: [],
    });
  });

  it('mixed-origins to another Gemini model: the signed empty part is foreign there and is dropped (X3)', () => {
    const { body, report } = convert(loadNeutralTranscript('mixed-origins'), GEMINI_25_FLASH);
    expect(body.contents[5]).toEqual({
      role: 'model',
      parts: [{ text: 'Retries are bounded: at most 3, honouring retry-after.' }],
    });
    expect(report.blocks.slice(8, 11)).toEqual([
      {
        turn: 'g1',
        index: 0,
        fates: [{ fate: 'dropped', detail: X3('google/gemini-3-pro-preview (gemini-generate-content)') }],
      },
      kept('g1', 1),
      { turn: 'g1', index: 2, fates: [{ fate: 'dropped', detail: 'empty or whitespace-only text (X4, A-E1)' }] },
    ]);
  });

  it('odd-ids-and-names: ids and names mapped on calls and responses alike (X2, X5), stubs with mode NONE (X8), dummies (G-K4)', () => {
    const { body, report } = convert(loadNeutralTranscript('odd-ids-and-names'), GEMINI_3_PRO, { thinking: true });
    const id1 = 'call_5fK2_fc_68a1b2c3d4e5f60718293a4b5c6d7e8f90_PnKNvHXr';
    const id2 = 'toolu_01_this_id_is_quite_a_bit_longer_than_forty_chara_2K5ydhM8';
    const search = 'mcp_github_search_issues_pSephy44';
    const lives = 't_9lives_4EcdTRSI';
    const long = 'a_tool_name_that_is_much_longer_than_sixty_four_charact_9ssw971w';
    expect(body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Run the tools. \uFFFD' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { id: id1, name: search, args: { q: 'bug \uFFFD' } }, thoughtSignature: DUMMY },
            { functionCall: { id: id2, name: lives, args: { n: 1.2345678901234567e19 } } },
            { functionCall: { id: 'dup', name: long, args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: id1, name: search, response: { output: 'ok 1' } } },
            { functionResponse: { id: id2, name: lives, response: { output: 'ok 2' } } },
            { functionResponse: { id: 'dup', name: long, response: { output: 'ok 3' } } },
          ],
        },
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'dup_Bf5VDm3c', name: search, args: { q: 'again' } }, thoughtSignature: DUMMY },
          ],
        },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'dup_Bf5VDm3c', name: search, response: { output: 'ok 4' } } }],
        },
      ],
      systemInstruction: { parts: [{ text: 'Broken \uFFFD surrogate in the system prompt.' }] },
      tools: [
        {
          functionDeclarations: [search, lives, long].map((name) => ({
            name,
            description: STUB,
            parametersJsonSchema: { type: 'object', properties: {} },
          })),
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'NONE' } },
      generationConfig: { maxOutputTokens: 1000, thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' } },
    });
    const mapped = (from: string, to: string) => ({ fate: 'id-mapped', detail: `${from} → ${to}` });
    const named = (from: string, to: string) => ({ fate: 'name-mapped', detail: `${from} → ${to}` });
    const X6 = { fate: 'converted', detail: 'lone surrogates replaced with U+FFFD (X6)' };
    const rawId1 = 'call_5fK2|fc_68a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const rawId2 = 'toolu_01_this_id_is_quite_a_bit_longer_than_forty_characters_and_more';
    expect(report).toEqual({
      input: { format: 'baton', turns: 5, blocks: 9 },
      blocks: [
        { turn: 'u1', index: 0, fates: [X6] },
        {
          turn: 'a1',
          index: 0,
          fates: [X6, mapped(rawId1, id1), named('mcp.github.search_issues', search), DUMMY_FATE],
        },
        { turn: 'a1', index: 1, fates: [mapped(rawId2, id2), named('9lives', lives)] },
        {
          turn: 'a1',
          index: 2,
          fates: [named('a_tool_name_that_is_much_longer_than_sixty_four_characters_which_breaks_openai', long)],
        },
        { turn: 't1', index: 0, fates: [mapped(rawId2, id2)] },
        { turn: 't1', index: 1, fates: [mapped(rawId1, id1)] },
        kept('t1', 2),
        {
          turn: 'a2',
          index: 0,
          fates: [
            {
              fate: 'converted',
              detail: 'signature dropped: opaque state of google/gemini-2.5-flash (gemini-generate-content) (X3, G-K5)',
            },
            mapped('dup', 'dup_Bf5VDm3c'),
            named('mcp.github.search_issues', search),
            DUMMY_FATE,
          ],
        },
        { turn: 't2', index: 0, fates: [mapped('dup', 'dup_Bf5VDm3c')] },
      ],
      synthesized: [
        { kind: 'stub-tool', detail: `${search}: used in the history but not defined by the request (X8, A-T6)` },
        { kind: 'stub-tool', detail: `${lives}: used in the history but not defined by the request (X8, A-T6)` },
        { kind: 'stub-tool', detail: `${long}: used in the history but not defined by the request (X8, A-T6)` },
        { kind: 'dummy-signature', detail: `${DUMMY} on the unsigned call ${search} (turn a1) (G-K4, X9)` },
        { kind: 'dummy-signature', detail: `${DUMMY} on the unsigned call ${search} (turn a2) (G-K4, X9)` },
      ],
      warnings: [],
    });
  });

  it('orphans: a synthetic first user turn, an error response for the unanswered call, orphan results as user text (X1)', () => {
    const { body, report } = convert(loadNeutralTranscript('orphans'), GEMINI_25_FLASH);
    expect(body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: '(The conversation so far, which begins with a reply from the assistant.)' }] },
        { role: 'model', parts: [{ text: 'Hi! How can I help?' }] },
        { role: 'user', parts: [{ text: 'List the files.' }] },
        { role: 'model', parts: [{ functionCall: { id: 'call_list', name: 'ls', args: {} } }] },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'call_list',
                name: 'ls',
                response: { error: 'no result: the call was interrupted' },
              },
            },
            { text: 'Never mind, stop.' },
            { text: '[Result of tool call call_ghost, whose call is not in this conversation]\na.txt b.txt' },
            { text: 'What did you find?' },
          ],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            { name: 'ls', description: STUB, parametersJsonSchema: { type: 'object', properties: {} } },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'NONE' } },
      generationConfig: OFF_25,
    });
    expect(report).toEqual({
      input: { format: 'baton', turns: 6, blocks: 7 },
      blocks: [
        kept('a0', 0),
        kept('u1', 0),
        kept('a1', 0),
        kept('u2', 0),
        {
          turn: 'x1',
          index: 0,
          fates: [{ fate: 'converted', detail: 'tool result without a matching call sent as labelled user text (X1)' }],
        },
        { turn: 'u3', index: 0, fates: [{ fate: 'dropped', detail: 'empty or whitespace-only text (X4, A-E1)' }] },
        kept('u3', 1),
      ],
      synthesized: [
        { kind: 'error-result', detail: 'call call_list (ls) in turn a1 had no result (X1)' },
        {
          kind: 'user-turn',
          detail: 'the history starts on an assistant turn: a short user turn opens it (A-R3, G-R5)',
        },
        { kind: 'stub-tool', detail: 'ls: used in the history but not defined by the request (X8, A-T6)' },
      ],
      warnings: [],
    });
  });

  it('provider-items: foreign items as labelled text or dropped, citations dropped (G-C1)', () => {
    const { body, report } = convert(loadNeutralTranscript('provider-items'), GEMINI_25_FLASH);
    expect(body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: "What's new in Node 24?" }] },
        {
          role: 'model',
          parts: [
            {
              text: '[anthropic-messages item from anthropic/claude-sonnet-4-5 (anthropic-messages), as text]\n```\nweb_search: Node 24 release\n```',
            },
            { text: 'Node 24 ships V8 13.6.' },
          ],
        },
        { role: 'user', parts: [{ text: 'Draw it.' }] },
        {
          role: 'model',
          parts: [
            {
              text: '[openai-responses item from openai/gpt-5.5 (openai-responses), as text]\n```\n[generated image]\n```',
            },
            { text: 'Here is a drawing.' },
          ],
        },
        { role: 'user', parts: [{ text: 'Thanks. Summarise both.' }] },
      ],
      generationConfig: OFF_25,
    });
    expect(report.blocks).toEqual([
      kept('u1', 0),
      {
        turn: 'a1',
        index: 0,
        fates: [
          {
            fate: 'converted',
            detail:
              'anthropic-messages item from anthropic/claude-sonnet-4-5 (anthropic-messages) sent as labelled text',
          },
        ],
      },
      {
        turn: 'a1',
        index: 1,
        fates: [
          {
            fate: 'dropped',
            detail: 'anthropic-messages item has no meaning outside anthropic/claude-sonnet-4-5 (anthropic-messages)',
          },
        ],
      },
      { turn: 'a1', index: 2, fates: [{ fate: 'converted', detail: 'citations dropped, text kept (A-C1, G-C1)' }] },
      kept('u2', 0),
      {
        turn: 'a2',
        index: 0,
        fates: [
          {
            fate: 'converted',
            detail: 'openai-responses item from openai/gpt-5.5 (openai-responses) sent as labelled text',
          },
        ],
      },
      kept('a2', 1),
      kept('u3', 0),
    ]);
  });

  it('every neutral transcript converts for every kind of Gemini model, each block reported once', () => {
    for (const [name, t] of Object.entries(loadNeutralTranscripts()))
      for (const info of [GEMINI_3_PRO, GEMINI_25_FLASH, GEMINI_25_PRO, GEMMA])
        for (const thinking of [false, true]) {
          const { report } = convert(t, info, { thinking });
          const blocks = t.turns.reduce((n, turn) => n + turn.blocks.length, 0);
          expect(
            report.blocks.map((b) => `${b.turn}#${b.index}`),
            `${name} → ${info.id}`,
          ).toEqual(t.turns.flatMap((turn) => turn.blocks.map((_, i) => `${turn.id}#${i}`)));
          expect(report.input).toEqual({ format: 'baton', turns: t.turns.length, blocks });
        }
  });
});

describe('request fields', () => {
  const hi = transcript([{ id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Hi' }] }]);

  it.each([
    ['gemini-3-pro-preview', true, { includeThoughts: true, thinkingLevel: 'HIGH' }, GEMINI_3_PRO],
    ['gemini-3-pro-preview', false, { thinkingLevel: 'LOW' }, GEMINI_3_PRO],
    ['gemini-2.5-flash', true, { includeThoughts: true, thinkingBudget: -1 }, GEMINI_25_FLASH],
    ['gemini-2.5-flash', false, { thinkingBudget: 0 }, GEMINI_25_FLASH],
    ['gemini-2.5-pro', true, { includeThoughts: true, thinkingBudget: -1 }, GEMINI_25_PRO],
    ['gemini-2.5-pro', false, undefined, GEMINI_25_PRO],
    ['gemma-3-27b-it', false, undefined, GEMMA],
  ] as const)('%s, thinking %s → thinkingConfig %j', (_name, thinking, thinkingConfig, info) => {
    const { body, report } = convert(hi, info, { thinking });
    expect(body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      generationConfig: thinkingConfig ? { maxOutputTokens: 1000, thinkingConfig } : { maxOutputTokens: 1000 },
    });
    expect(report.warnings).toEqual([]);
  });

  it('takes the output limit from the registry by default, and looks the model up itself', () => {
    const target = { api: 'gemini-generate-content', model: 'gemini-2.5-flash' } as const;
    const result = convertToGeminiGenerateContent(hi, target);
    expect(result.body.generationConfig.maxOutputTokens).toBe(
      lookupModel('gemini-2.5-flash', 'google').defaultOutputTokens,
    );
    expect(result).toEqual(
      encodeGeminiGenerateContent(hi, resolveTarget(target), lookupModel('gemini-2.5-flash', 'google')),
    );
  });

  it("caps a limit above a known model's ceiling, with a warning", () => {
    const { body, report } = convert(hi, GEMINI_25_FLASH, { maxOutputTokens: 100_000 });
    expect(body.generationConfig.maxOutputTokens).toBe(65_536);
    expect(report.warnings).toEqual(["maxOutputTokens 100000 exceeds gemini-2.5-flash's limit: sent 65536"]);
  });

  it.each([0, -5, 1.5])('rejects maxOutputTokens %s with a TranscriptError naming the field', (maxOutputTokens) => {
    const target = resolveTarget({ api: 'gemini-generate-content', model: 'gemini-2.5-flash', maxOutputTokens });
    expect(() => encodeGeminiGenerateContent(hi, target, GEMINI_25_FLASH)).toThrow(
      new TranscriptError('maxOutputTokens', `must be a positive integer, got ${maxOutputTokens}`),
    );
  });
});

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SHARED = path.resolve(ROOT, '../shared/fixtures');
const has = fs.existsSync(SHARED);
if (!has) console.warn('skipping: ../shared/fixtures not found');

/** The recorded requests of a Gemini cassette, with the REST snake_case part names made camelCase. */
function cassetteRequests(file: string): { contents: unknown[] }[] {
  const cassette = JSON.parse(fs.readFileSync(path.join(SHARED, 'recorded-streams/gemini', file), 'utf8')) as {
    interactions: { request: { body: string } }[];
  };
  const camel = (s: string) =>
    s.replace(/"function_(call|response)"/g, (_, k: string) => `"function${k[0]!.toUpperCase()}${k.slice(1)}"`);
  return cassette.interactions.map((i) => JSON.parse(camel(i.request.body)) as { contents: unknown[] });
}

type Part = Record<string, unknown> & {
  functionCall?: Record<string, unknown>;
  functionResponse?: Record<string, unknown>;
};
/**
 * G-T8: the recorded (2025) requests sent id-less Gemini calls back id-less; under the 2026 rule
 * Baton sends its own id on each such call and its response. `ids` gives them in order.
 */
function withMintedIds<T extends { parts: Part[] }>(contents: T[], calls: string[], results: string[] = calls): T[] {
  const c = [...calls];
  const r = [...results];
  return contents.map((content) => ({
    ...content,
    parts: content.parts.map((p) =>
      p.functionCall && p.functionCall.id === undefined
        ? { ...p, functionCall: { id: c.shift(), ...p.functionCall } }
        : p.functionResponse && p.functionResponse.id === undefined
          ? { ...p, functionResponse: { id: r.shift(), ...p.functionResponse } }
          : p,
    ),
  }));
}
const MINTED = (id: string) => ({
  fate: 'converted',
  detail: `call id ${id} minted by Baton, sent on the call and its response (G-T8)`,
});
const NATIVE_FATE = { fate: 'replayed-native', detail: 'same-origin Gemini parts sent as received' };

describe.skipIf(!has)('recorded Gemini requests (../shared/fixtures)', () => {
  it('rebuilds the contents simonw/llm sent to gemini-2.5-flash in a sequential tool chain (signed, then unsigned step)', () => {
    const recorded = cassetteRequests('llm-cassette-gemini25-tool-chain.json')[2]!.contents as {
      parts: { functionCall?: { id: string }; thoughtSignature?: string }[];
    }[];
    const first = recorded[1]!.parts[0]!;
    const second = recorded[3]!.parts[0]!;
    const origin = { provider: 'google', api: 'gemini-generate-content', model: 'gemini-2.5-flash' };
    const t = transcript(
      [
        { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Two names for a pet pelican' }] },
        {
          id: 'a1',
          role: 'assistant',
          origin,
          blocks: [
            { type: 'thinking', text: '**Generating Pelican Names**' },
            {
              type: 'tool_call',
              id: first.functionCall!.id,
              name: 'pelican_name_generator',
              input: {},
              signature: first.thoughtSignature,
            },
          ],
        },
        {
          id: 't1',
          role: 'tool',
          blocks: [{ type: 'tool_result', callId: first.functionCall!.id, content: 'Charles' }],
        },
        {
          id: 'a2',
          role: 'assistant',
          origin,
          blocks: [{ type: 'tool_call', id: second.functionCall!.id, name: 'pelican_name_generator', input: {} }],
        },
        {
          id: 't2',
          role: 'tool',
          blocks: [{ type: 'tool_result', callId: second.functionCall!.id, content: 'Sammy' }],
        },
      ],
      { tools: [{ name: 'pelican_name_generator', inputSchema: { properties: {}, type: 'object' } }] },
    );
    const { body } = convert(t, GEMINI_25_FLASH, { thinking: true });
    expect(body.contents).toEqual(recorded);
  });

  it("G-T8: answers a Gemini 3 call that had no id with Baton's id on the call and its response (the recorded 2025 request had none)", () => {
    const recorded = cassetteRequests('llm-cassette-gemini3-function-call-thought-signature.json')[1]!.contents as {
      parts: { text?: string }[];
    }[];
    const call = recorded[1]!.parts[1] as { functionCall: { name: string; args: object }; thoughtSignature: string };
    const origin = { provider: 'google', api: 'gemini-generate-content', model: 'gemini-3-flash-preview' };
    const t = transcript([
      { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'What is 5 times 3?' }] },
      {
        id: 'a1',
        role: 'assistant',
        origin,
        blocks: [
          {
            type: 'tool_call',
            id: 'multiply_0',
            name: 'multiply',
            input: call.functionCall.args,
            signature: call.thoughtSignature,
            meta: { generatedId: true },
          },
        ],
      },
      { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'multiply_0', content: '15' }] },
    ]);
    const { body } = convert(t, { ...GEMINI_3_PRO, id: 'gemini-3-flash-preview' });
    // simonw/llm also sent an unsigned empty text part before the call; Baton drops blank text (X4).
    expect(body.contents).toEqual(
      withMintedIds([recorded[0], { role: 'model', parts: [call] }, recorded[2]] as { parts: Part[] }[], [
        'multiply_0',
      ]),
    );
  });

  it("G-T8: replays a recorded Gemini 3 response's parts verbatim as native (G-K1), plus Baton's id on the id-less call", () => {
    const response = JSON.parse(
      fs.readFileSync(
        path.join(SHARED, 'recorded-streams/gemini/function-call-thought-signature.response.json'),
        'utf8',
      ),
    ) as {
      candidates: {
        content: { parts: { functionCall: { name: string; args: object }; thoughtSignature: string }[] };
      }[];
    };
    const parts = response.candidates[0]!.content.parts;
    const t = transcript([
      { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Weather in San Francisco?' }] },
      {
        id: 'a1',
        role: 'assistant',
        origin: { provider: 'google', api: 'gemini-generate-content', model: 'gemini-3-pro-preview' },
        native: { api: 'gemini-generate-content', payload: parts },
        blocks: [
          {
            type: 'tool_call',
            id: 'weather_0',
            name: 'weather',
            input: parts[0]!.functionCall.args,
            signature: parts[0]!.thoughtSignature,
            meta: { generatedId: true },
          },
        ],
      },
      { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'weather_0', content: '18°C' }] },
    ]);
    const { body, report } = convert(t, GEMINI_3_PRO);
    expect(body.contents.slice(1)).toEqual([
      { role: 'model', parts: parts.map((p) => ({ ...p, functionCall: { id: 'weather_0', ...p.functionCall } })) },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'weather_0', name: 'weather', response: { output: '18°C' } } }],
      },
    ]);
    expect(report.blocks[1]).toEqual({ turn: 'a1', index: 0, fates: [MINTED('weather_0'), NATIVE_FATE] });
  });

  it("G-T8: round-trips every recorded request through the history reader to the same model, losslessly but for Baton's ids on id-less calls", () => {
    for (const [file, model] of [
      ['llm-cassette-gemini25-tool-chain.json', 'gemini-2.5-flash'],
      ['llm-cassette-gemini3-function-call-thought-signature.json', 'gemini-3-flash-preview'],
    ] as const)
      for (const recorded of cassetteRequests(file)) {
        const t = readGeminiGenerateContentHistory(recorded, { model });
        const { body } = convertToGeminiGenerateContent(t, {
          api: 'gemini-generate-content',
          model,
          maxOutputTokens: 1000,
        });
        // The one difference: simonw/llm's unsigned empty text part before a call, which Baton drops (X4).
        const expected = recorded.contents.map((c) => {
          const content = c as { role: string; parts: (Part & { text?: string; thoughtSignature?: string })[] };
          return { ...content, parts: content.parts.filter((p) => p.text !== '' || p.thoughtSignature !== undefined) };
        });
        const blocks = t.turns.flatMap((turn) => turn.blocks);
        const minted = blocks.flatMap((b) => (b.type === 'tool_call' && b.meta?.generatedId === true ? [b.id] : []));
        expect(body.contents, file).toEqual(withMintedIds(expected, minted));
      }
  });

  it('replays a streamed Gemini 3 turn with parallel calls exactly as assembled by the stream reader', () => {
    const events = fs
      .readFileSync(
        path.join(SHARED, 'recorded-streams/gemini/parallel-function-calls-with-thought.chunks.jsonl'),
        'utf8',
      )
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    const turn = readGeminiGenerateContentStreamEvents(events, {
      provider: 'google',
      requestedModel: 'gemini-3-flash-preview',
      turnId: 'a1',
    })[0]!;
    const calls = turn.blocks.filter((b) => b.type === 'tool_call');
    const t = transcript([
      { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Read the theme, then screens A, B and C.' }] },
      turn,
      {
        id: 't1',
        role: 'tool',
        blocks: calls.map((c) => ({ type: 'tool_result', callId: c.id, content: `done ${c.name}` })),
      },
    ]);
    const { body, report } = convert(t, { ...GEMINI_3_PRO, id: 'gemini-3-flash-preview' });
    // G-S1: every parallel call is its own part; G-T8: each gets its own Baton id, paired by id.
    const ids = calls.map((c) => (c.type === 'tool_call' ? c.id : ''));
    expect(new Set(ids).size).toBe(ids.length);
    expect(body.contents[1]).toEqual({
      role: 'model',
      parts: withMintedIds([{ parts: turn.native!.payload as Part[] }], ids)[0]!.parts,
    });
    expect(body.contents[2]!.parts).toEqual(
      calls.map((c) => ({
        functionResponse: { id: (c as { id: string }).id, name: c.name, response: { output: `done ${c.name}` } },
      })),
    );
    expect(report.blocks.filter((b) => b.turn === 'a1').map((b) => b.fates)).toEqual(
      turn.blocks.map((b) => (b.type === 'tool_call' ? [MINTED(b.id), NATIVE_FATE] : [NATIVE_FATE])),
    );
    expect(report.synthesized.filter((s) => s.kind === 'dummy-signature')).toEqual([]);
  });
});
