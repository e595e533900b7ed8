import { describe, expect, it } from 'vitest';
import { itemPartProblem } from './convert-gemini-generate-content-part-checks';
import {
  convert,
  GEMINI_25_FLASH,
  GEMINI_25_ORIGIN,
  kept,
  OFF_25,
  transcript,
} from './convert-gemini-generate-content.test-helper';

const user = (id: string, text: string) => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
const item = (i: unknown, text?: string) => ({
  type: 'provider_item',
  api: 'gemini-generate-content',
  item: i,
  ...(text !== undefined ? { text } : {}),
});
const notReplayed = (problem: string) =>
  `gemini-generate-content item is not a Gemini part that can be replayed (${problem})`;
const CODE = { executableCode: { language: 'PYTHON', code: 'print(1)' } };

describe('same-origin provider items that are not parts Gemini takes there', () => {
  it('replays well-formed parts, sends the text of others or drops them, in model and tool turns alike (G-E1, G-R3, G-T2)', () => {
    const t = transcript([
      user('u1', 'go'),
      {
        id: 'a1',
        role: 'assistant',
        origin: GEMINI_25_ORIGIN,
        blocks: [
          item(CODE),
          item({ text: 5 }),
          item({ inlineData: {} }, 'a picture'),
          item({ functionCall: { name: 'f', args: {} } }),
          { type: 'tool_call', id: 'c1', name: 'f', input: {} },
        ],
      },
      {
        id: 't1',
        role: 'tool',
        blocks: [
          { type: 'tool_result', callId: 'c1', content: 'ok' },
          item(CODE, 'print(1)'),
          item({ text: 'note', thoughtSignature: 'c2ln' }),
        ],
      },
    ]);
    expect(convert(t, GEMINI_25_FLASH)).toEqual({
      api: 'gemini-generate-content',
      model: 'gemini-2.5-flash',
      body: {
        contents: [
          { role: 'user', parts: [{ text: 'go' }] },
          { role: 'model', parts: [CODE, { text: 'a picture' }, { functionCall: { id: 'c1', name: 'f', args: {} } }] },
          {
            role: 'user',
            parts: [{ functionResponse: { id: 'c1', name: 'f', response: { output: 'ok' } } }, { text: 'print(1)' }],
          },
        ],
        tools: [
          {
            functionDeclarations: [
              {
                name: 'f',
                description: 'This tool was used earlier in the conversation and is not available now. Do not call it.',
                parametersJsonSchema: { type: 'object', properties: {} },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'NONE' } },
        generationConfig: OFF_25,
      },
      report: {
        input: { format: 'baton', turns: 3, blocks: 9 },
        blocks: [
          kept('u1', 0),
          kept('a1', 0),
          { turn: 'a1', index: 1, fates: [{ fate: 'dropped', detail: notReplayed('text is not a string') }] },
          {
            turn: 'a1',
            index: 2,
            fates: [
              { fate: 'converted', detail: `${notReplayed('inlineData without a mimeType (G-I1)')}: sent as its text` },
            ],
          },
          {
            turn: 'a1',
            index: 3,
            fates: [
              {
                fate: 'dropped',
                detail: notReplayed(
                  'a function call or response pairs only through its tool_call or tool_result block (G-T2)',
                ),
              },
            ],
          },
          kept('a1', 4),
          kept('t1', 0),
          {
            turn: 't1',
            index: 1,
            fates: [
              {
                fate: 'converted',
                detail: `${notReplayed('only text and media go in a user content (G-R3)')}: sent as its text`,
              },
            ],
          },
          {
            turn: 't1',
            index: 2,
            fates: [{ fate: 'dropped', detail: notReplayed('thought fields go in a model content only (G-K1)') }],
          },
        ],
        synthesized: [
          { kind: 'stub-tool', detail: 'f: used in the history but not defined by the request (X8, A-T6)' },
        ],
        warnings: [],
      },
    });
  });

  it.each([
    [{ text: 'hi' }, 'user', undefined],
    [{ text: ' ' }, 'model', 'empty text (X4)'],
    [{ text: '', thoughtSignature: 'c2ln' }, 'model', undefined],
    [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }, 'user', undefined],
    [CODE, 'model', undefined],
    [
      { functionResponse: { name: 'f', response: {} } },
      'user',
      'a function call or response pairs only through its tool_call or tool_result block (G-T2)',
    ],
  ] as const)('itemPartProblem(%j, %s) → %s', (part, role, problem) => {
    expect(itemPartProblem(part, role)).toBe(problem);
  });
});
