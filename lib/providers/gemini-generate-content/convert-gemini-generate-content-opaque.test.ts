import { describe, expect, it } from 'vitest';
import {
  convert,
  DUMMY_FATE,
  GEMINI_25_FLASH,
  GEMINI_25_ORIGIN,
  GEMINI_3_ORIGIN,
  GEMINI_3_PRO,
  kept,
  OFF_25,
  transcript,
} from './convert-gemini-generate-content.test-helper';

const user = (id: string, text: string) => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
const EMPTY_SIG = 'empty thoughtSignature left out: an empty signature is no signature (G-K1)';

describe('an empty same-origin thoughtSignature is no signature (G-K1)', () => {
  it('drops a thought with an empty signature and sends text without it', () => {
    const t = transcript([
      user('u1', 'go'),
      {
        id: 'a1',
        role: 'assistant',
        origin: GEMINI_25_ORIGIN,
        blocks: [
          { type: 'thinking', text: 'hmm', signature: '' },
          { type: 'text', text: 'answer', signature: '' },
        ],
      },
      { id: 'a2', role: 'assistant', origin: GEMINI_25_ORIGIN, blocks: [{ type: 'text', text: '', signature: '' }] },
      user('u2', 'q'),
    ]);
    expect(convert(t, GEMINI_25_FLASH)).toEqual({
      api: 'gemini-generate-content',
      model: 'gemini-2.5-flash',
      body: {
        contents: [
          { role: 'user', parts: [{ text: 'go' }] },
          { role: 'model', parts: [{ text: 'answer' }] },
          { role: 'user', parts: [{ text: 'q' }] },
        ],
        generationConfig: OFF_25,
      },
      report: {
        input: { format: 'baton', turns: 4, blocks: 5 },
        blocks: [
          kept('u1', 0),
          {
            turn: 'a1',
            index: 0,
            fates: [
              {
                fate: 'dropped',
                detail:
                  'thought summary with an empty signature is not replayed: an empty signature is no signature (G-K1, G-K6)',
              },
            ],
          },
          { turn: 'a1', index: 1, fates: [{ fate: 'converted', detail: EMPTY_SIG }] },
          {
            turn: 'a2',
            index: 0,
            fates: [
              {
                fate: 'dropped',
                detail: 'empty text whose thoughtSignature is empty too: nothing to replay (G-E2, X4)',
              },
            ],
          },
          kept('u2', 0),
        ],
        synthesized: [],
        warnings: [],
      },
    });
  });

  it('sends a call with an empty signature unsigned, so Gemini 3 gives it the documented dummy (G-K4)', () => {
    const t = transcript([
      user('u1', 'go'),
      {
        id: 'a1',
        role: 'assistant',
        origin: GEMINI_3_ORIGIN,
        blocks: [{ type: 'tool_call', id: 'c1', name: 'f', input: {}, signature: '' }],
      },
      { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'c1', content: 'ok' }] },
    ]);
    const { body, report } = convert(t, GEMINI_3_PRO);
    expect(body.contents[1]).toEqual({
      role: 'model',
      parts: [
        { functionCall: { id: 'c1', name: 'f', args: {} }, thoughtSignature: 'skip_thought_signature_validator' },
      ],
    });
    expect(report.blocks[1]).toEqual({
      turn: 'a1',
      index: 0,
      fates: [{ fate: 'converted', detail: EMPTY_SIG }, DUMMY_FATE],
    });
  });

  it('leaves an empty image signature out', () => {
    const img = { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=', meta: { thoughtSignature: '' } };
    const t = transcript([
      user('u1', 'Draw.'),
      { id: 'a1', role: 'assistant', origin: GEMINI_3_ORIGIN, blocks: [img] },
      user('u2', 'Nice.'),
    ]);
    expect(convert(t, GEMINI_3_PRO).body.contents[1]).toEqual({
      role: 'model',
      parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }],
    });
  });
});
