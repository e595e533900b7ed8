import { describe, expect, it } from 'vitest';
import { modelPartProblem } from './convert-gemini-generate-content-part-checks';
import {
  convert,
  GEMINI_25_FLASH,
  GEMINI_25_ORIGIN,
  kept,
  native,
  OFF_25,
  transcript,
} from './convert-gemini-generate-content.test-helper';

const user = (id: string, text: string) => ({ id, role: 'user', blocks: [{ type: 'text', text }] });

/** user → a same-origin model turn of `blocks` carrying `payload` → user. */
const withNative = (payload: unknown, blocks: unknown[] = [{ type: 'text', text: 'done' }]) =>
  transcript([
    user('u1', 'go'),
    {
      id: 'a1',
      role: 'assistant',
      origin: GEMINI_25_ORIGIN,
      blocks,
      native: { api: 'gemini-generate-content', payload },
    },
    user('u2', 'next'),
  ]);

const warning = (problem: string) =>
  `turn a1: its native Gemini parts were not replayed (${problem}); rebuilt from its blocks`;

describe('same-origin native parts are checked before they are replayed', () => {
  it('rebuilds from the blocks when a part is malformed', () => {
    expect(convert(withNative([{ text: 5 }, { inlineData: {} }]), GEMINI_25_FLASH)).toEqual({
      api: 'gemini-generate-content',
      model: 'gemini-2.5-flash',
      body: {
        contents: [
          { role: 'user', parts: [{ text: 'go' }] },
          { role: 'model', parts: [{ text: 'done' }] },
          { role: 'user', parts: [{ text: 'next' }] },
        ],
        generationConfig: OFF_25,
      },
      report: {
        input: { format: 'baton', turns: 3, blocks: 3 },
        blocks: [kept('u1', 0), kept('a1', 0), kept('u2', 0)],
        synthesized: [],
        warnings: [warning('part 0: text is not a string')],
      },
    });
  });

  it('rebuilds when the parts are nothing but empty text (X4)', () => {
    const { body, report } = convert(withNative([{ text: '' }, { text: ' ' }]), GEMINI_25_FLASH);
    expect(body.contents[1]).toEqual({ role: 'model', parts: [{ text: 'done' }] });
    expect(report.warnings).toEqual([warning('it holds only empty text (X4, G-E1)')]);
  });

  it('rebuilds when the parts do not stand for the blocks, so the report never claims a missing block was replayed', () => {
    const blocks = [
      { type: 'text', text: 'done' },
      { type: 'text', text: 'more' },
    ];
    const short = convert(withNative([{ text: 'done' }], blocks), GEMINI_25_FLASH);
    expect(short.body.contents[1]).toEqual({ role: 'model', parts: [{ text: 'done' }, { text: 'more' }] });
    expect(short.report.blocks.slice(1, 3)).toEqual([kept('a1', 0), kept('a1', 1)]);
    expect(short.report.warnings).toEqual([warning('it has 1 parts for 2 blocks')]);
    const other = convert(withNative([{ text: 'something else' }]), GEMINI_25_FLASH);
    expect(other.report.warnings).toEqual([warning('part 0 does not match block 0 (text)')]);
  });

  it('rebuilds when a part has an empty thoughtSignature or holds a function response', () => {
    expect(convert(withNative([{ text: 'done', thoughtSignature: '' }]), GEMINI_25_FLASH).report.warnings).toEqual([
      warning('part 0: thoughtSignature is not a non-empty string (G-K1)'),
    ]);
    const fr = [{ functionResponse: { name: 'f', response: {} } }];
    expect(
      convert(withNative(fr, [{ type: 'provider_item', api: 'gemini-generate-content', item: fr[0] }]), GEMINI_25_FLASH)
        .report.warnings,
    ).toEqual([warning('part 0: a functionResponse belongs in a user content (G-R2)')]);
  });

  it('still replays well-formed parts that match the blocks', () => {
    const parts = [{ text: 'done', thoughtSignature: 'c2ln' }];
    const { body, report } = convert(
      withNative(parts, [{ type: 'text', text: 'done', signature: 'c2ln' }]),
      GEMINI_25_FLASH,
    );
    expect(body.contents[1]).toEqual({ role: 'model', parts });
    expect(report.blocks[1]).toEqual(native('a1', 0));
    expect(report.warnings).toEqual([]);
  });
});

describe('modelPartProblem', () => {
  it.each([
    [{ text: 'hi' }, undefined],
    [{ text: 'hi', thought: 'yes' }, 'thought is not a boolean'],
    [{}, 'it does not set exactly one data field (G-E1)'],
    [
      { text: 'a', inlineData: { mimeType: 'image/png', data: 'AA==' } },
      'it does not set exactly one data field (G-E1)',
    ],
    [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }, undefined],
    [{ inlineData: { data: 'AA==' } }, 'inlineData without a mimeType (G-I1)'],
    [
      { inlineData: { mimeType: 'image/png', data: 'data:image/png;base64,AA==' } },
      'inlineData without raw base64 data (G-I1)',
    ],
    [{ fileData: { fileUri: 'gs://b/x.pdf' } }, undefined],
    [{ fileData: {} }, 'fileData without a fileUri'],
    [{ functionCall: { name: 'f', args: {} }, thoughtSignature: 'c2ln' }, undefined],
    [{ functionCall: { name: 'f' } }, undefined],
    [{ functionCall: { args: {} } }, 'functionCall without a name (G-T3)'],
    [{ functionCall: { name: 'f', args: [1] } }, 'functionCall args is not a JSON object'],
    [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, undefined],
    [{ executableCode: 'print(1)' }, 'executableCode is not an object'],
    ['text', 'not an object'],
  ])('%j → %s', (part, problem) => {
    expect(modelPartProblem(part)).toBe(problem);
  });
});
