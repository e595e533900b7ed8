import { describe, expect, it } from 'vitest';
import type { Turn } from '../transcript/schema';
import { finishState, type FinishKind } from './finish';

const answer = (over: Partial<Turn>, text = 'some text'): Turn => ({
  id: 'a1',
  role: 'assistant',
  origin: { provider: 'google', api: 'gemini-generate-content', model: 'gemini-2.5-pro' },
  status: 'complete',
  blocks: text ? [{ type: 'text', text }] : [],
  ...over,
});
const raw = (stopReason: Turn['stopReason'], rawStopReason: string, over: Partial<Turn> = {}) =>
  answer({ stopReason, meta: { rawStopReason }, ...over });

describe('finishState (P4): distinct, labelled states', () => {
  it('gives each provider stop its own state', () => {
    const cases: [string, Turn, FinishKind, string][] = [
      [
        'Gemini promptFeedback.blockReason',
        answer(
          {
            status: 'error',
            stopReason: 'content_filter',
            meta: { rawStopReason: 'SAFETY' },
            error: { type: 'blocked', message: 'prompt blocked: SAFETY' },
          },
          '',
        ),
        'prompt_blocked',
        'prompt blocked: SAFETY',
      ],
      [
        'Gemini promptFeedback OTHER',
        answer(
          {
            status: 'error',
            stopReason: 'content_filter',
            error: { type: 'blocked', message: 'prompt blocked: OTHER: extra words' },
          },
          '',
        ),
        'prompt_blocked',
        'prompt blocked: OTHER',
      ],
      ['Gemini SAFETY', raw('content_filter', 'SAFETY'), 'safety', 'Stopped by a safety filter'],
      ['Gemini RECITATION', raw('content_filter', 'RECITATION'), 'recitation', 'Stopped: recitation'],
      ['Gemini BLOCKLIST', raw('content_filter', 'BLOCKLIST'), 'blocklist', 'Stopped: blocked term'],
      [
        'Gemini PROHIBITED_CONTENT',
        raw('content_filter', 'PROHIBITED_CONTENT'),
        'prohibited',
        'Stopped: prohibited content',
      ],
      ['Gemini SPII', raw('content_filter', 'SPII'), 'spii', 'Stopped: personal information'],
      ['Gemini IMAGE_SAFETY', raw('content_filter', 'IMAGE_SAFETY'), 'safety', 'Stopped by a safety filter'],
      ['Gemini OTHER', raw('other', 'OTHER'), 'other', 'Ended early'],
      ['Gemini MAX_TOKENS', raw('max_tokens', 'MAX_TOKENS'), 'max_tokens', 'Cut off'],
      [
        'OpenAI content_filter',
        raw('content_filter', 'content_filter'),
        'content_filter',
        'Stopped by a content filter',
      ],
      ['OpenAI length', raw('max_tokens', 'length'), 'max_tokens', 'Cut off'],
      ['Responses incomplete max_output_tokens', raw('max_tokens', 'max_output_tokens'), 'max_tokens', 'Cut off'],
      [
        'Responses incomplete content_filter',
        raw('content_filter', 'content_filter'),
        'content_filter',
        'Stopped by a content filter',
      ],
      ['Anthropic refusal', raw('refusal', 'refusal'), 'refusal', 'Declined'],
      ['Anthropic max_tokens', raw('max_tokens', 'max_tokens'), 'max_tokens', 'Cut off'],
      [
        'Anthropic context window',
        raw('max_tokens', 'model_context_window_exceeded'),
        'context_window',
        'Context window full',
      ],
      ['Anthropic pause_turn', raw('pause_turn', 'pause_turn'), 'paused', 'Paused'],
      ['an empty complete answer', answer({}, ''), 'empty', 'Empty answer'],
      ['an answer of blanks', answer({}, '  \n '), 'empty', 'Empty answer'],
    ];
    expect(cases.map(([, t]) => [finishState(t)?.kind, finishState(t)?.label])).toEqual(
      cases.map(([, , kind, label]) => [kind, label]),
    );
  });

  it('names the raw value and what to do', () => {
    expect(finishState(raw('content_filter', 'SAFETY'))!.sentence).toBe(
      "The provider's content filter stopped this answer (SAFETY). Rephrase the request, or try another model.",
    );
    expect(finishState(raw('max_tokens', 'length'))).toEqual({
      kind: 'max_tokens',
      label: 'Cut off',
      sentence: 'The answer was cut off: the model reached its output limit (length). Ask it to continue.',
      raw: 'length',
    });
    expect(
      finishState(
        answer({ status: 'error', error: { type: 'blocked', message: 'prompt blocked: PROHIBITED_CONTENT' } }, ''),
      ),
    ).toMatchObject({ raw: 'PROHIBITED_CONTENT' });
  });

  it('says nothing for a normal end, a tool-use stop, an unknown other, a user turn or a failed answer', () => {
    expect(finishState(raw('end_turn', 'STOP'))).toBeUndefined();
    expect(
      finishState(
        answer({ stopReason: 'tool_use', blocks: [{ type: 'tool_call', id: 'c', name: 'f', input: {} }] }, ''),
      ),
    ).toBeUndefined();
    expect(finishState(answer({ stopReason: 'other' }))).toBeUndefined();
    expect(finishState({ id: 'u', role: 'user', blocks: [] })).toBeUndefined();
    expect(finishState(answer({ status: 'error', error: { type: 'overloaded', message: '529' } }, ''))).toBeUndefined();
    expect(finishState(answer({ status: 'streaming' }, ''))).toBeUndefined();
  });
});
