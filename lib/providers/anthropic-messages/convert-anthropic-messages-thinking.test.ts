import { describe, expect, it } from 'vitest';
import { ReportBuilder } from '../../transcript/report';
import type { Transcript } from '../../transcript/schema';
import {
  compactMessages,
  stripFinalThinking,
  thinkingBudget,
  toolLoopStartsWithThinking,
  trimFinalAssistant,
} from './convert-anthropic-messages-thinking';
import type { DraftMessage } from './convert-anthropic-messages-types';

// The pre-pass always ends a history on a user turn, so the final-assistant guards (A-K4, A-R4)
// cannot be reached through convertToAnthropicMessages; they are tested here directly.
const source: Transcript = {
  format: 'baton.transcript',
  version: 1,
  id: 't',
  turns: [
    {
      id: 'a1',
      role: 'assistant',
      origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'm' },
      blocks: [
        { type: 'text', text: 'x' },
        { type: 'text', text: 'y' },
      ],
    },
  ],
};
const ref = (index: number) => ({ turn: 'a1', index });
const userMsg: DraftMessage = { role: 'user', blocks: [{ block: { type: 'text', text: 'Hi' } }] };

describe('thinkingBudget', () => {
  it('is half of max_tokens, at least 1024 and below max_tokens; none when max_tokens ≤ 1024', () => {
    expect([1024, 1025, 2048, 3000, 64000].map(thinkingBudget)).toEqual([undefined, 1024, 1024, 1500, 32000]);
  });
});

describe('final assistant message', () => {
  it('loses its thinking when thinking is off (A-K4), reported', () => {
    const report = new ReportBuilder(source);
    const prefill: DraftMessage = {
      role: 'assistant',
      blocks: [
        { block: { type: 'thinking', thinking: 't', signature: 's' }, ref: ref(0) },
        { block: { type: 'text', text: 'So' }, ref: ref(1) },
      ],
    };
    expect(stripFinalThinking([userMsg, prefill], report)).toEqual([
      userMsg,
      { role: 'assistant', blocks: [{ block: { type: 'text', text: 'So' }, ref: ref(1) }] },
    ]);
    expect(report.finish().blocks[0]).toEqual({
      turn: 'a1',
      index: 0,
      fates: [
        {
          fate: 'dropped',
          detail: 'thinking dropped: thinking is off and the message is in the final position (A-K4)',
        },
      ],
    });
    expect(stripFinalThinking([userMsg], report)).toEqual([userMsg]);
  });

  it('has trailing whitespace trimmed from its last text block (A-R4)', () => {
    const report = new ReportBuilder(source);
    const prefill: DraftMessage = {
      role: 'assistant',
      blocks: [{ block: { type: 'text', text: 'Sure:  \n' }, ref: ref(1) }],
    };
    expect(trimFinalAssistant([userMsg, prefill], report)).toEqual([
      userMsg,
      { role: 'assistant', blocks: [{ block: { type: 'text', text: 'Sure:' }, ref: ref(1) }] },
    ]);
    expect(report.finish().blocks[1]!.fates).toEqual([
      { fate: 'converted', detail: 'trailing whitespace removed from the final assistant message (A-R4)' },
    ]);
    const untouched = [userMsg, { role: 'assistant' as const, blocks: [{ block: { type: 'text', text: 'Sure:' } }] }];
    expect(trimFinalAssistant(untouched, new ReportBuilder(source))).toBe(untouched);
  });
});

describe('toolLoopStartsWithThinking (A-K2)', () => {
  const call: DraftMessage = {
    role: 'assistant',
    blocks: [{ block: { type: 'tool_use', id: 'x', name: 'n', input: {} } }],
  };
  const result: DraftMessage = {
    role: 'user',
    blocks: [{ block: { type: 'tool_result', tool_use_id: 'x', content: 'ok' } }],
  };
  const thinkingCall: DraftMessage = {
    role: 'assistant',
    blocks: [{ block: { type: 'redacted_thinking', data: 'd' } }, ...call.blocks],
  };

  it('is false only while a tool loop is in progress and the last assistant message does not start with thinking', () => {
    expect(toolLoopStartsWithThinking([userMsg, call, result])).toBe(false);
    expect(toolLoopStartsWithThinking([userMsg, thinkingCall, result])).toBe(true);
    expect(toolLoopStartsWithThinking([userMsg, call, result, call, userMsg])).toBe(true);
    expect(toolLoopStartsWithThinking([userMsg])).toBe(true);
  });
});

describe('compactMessages', () => {
  it('drops empty messages, merges same-role neighbours and puts tool results first (X4, A-R2, A-T2)', () => {
    const result = { block: { type: 'tool_result' as const, tool_use_id: 'x', content: 'ok' } };
    const note = { block: { type: 'text' as const, text: 'note' } };
    const merged = compactMessages([
      { role: 'user', blocks: [note] },
      { role: 'assistant', blocks: [] },
      { role: 'user', blocks: [result] },
    ]);
    expect(merged).toEqual([{ role: 'user', blocks: [result, note] }]);
  });
});
