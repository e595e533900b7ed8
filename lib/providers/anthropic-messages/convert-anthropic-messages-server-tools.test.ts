import { describe, expect, it } from 'vitest';
import { fatesOf } from '../convert.test-helper';
import { CLAUDE, convert, expectValid, transcript } from './convert-anthropic-messages.test-helper';

const serverUse = { type: 'server_tool_use', id: 'srvtoolu_01', name: 'code_execution', input: { code: 'x' } };
/** A same-origin call turn with a server tool call (no result) and a client tool call, its result, then `after`. */
const withServerCall = (after: unknown[]) =>
  transcript(
    [
      { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'go' }] },
      {
        id: 'a1',
        role: 'assistant',
        origin: CLAUDE,
        blocks: [
          { type: 'provider_item', api: 'anthropic-messages', item: serverUse },
          { type: 'tool_call', id: 'toolu_01', name: 'f', input: {} },
        ],
      },
      { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'toolu_01', content: 'ok' }] },
      ...after,
    ],
    { id: 'st' },
  );

describe('server tool calls without a result in their own turn (A-T2)', () => {
  it('stay when the next user message holds only tool results (programmatic tool calling)', () => {
    const { body, report } = convert(withServerCall([]));
    expect(body.messages.slice(1)).toEqual([
      { role: 'assistant', content: [serverUse, { type: 'tool_use', id: 'toolu_01', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'ok' }] },
    ]);
    expect(fatesOf(report, 'a1', 0)).toEqual([{ fate: 'kept', detail: 'sent as is' }]);
    expectValid(body);
  });

  it('are dropped, and reported, when user text follows the results', () => {
    const { body, report } = convert(
      withServerCall([{ id: 'u2', role: 'user', blocks: [{ type: 'text', text: 'and?' }] }]),
    );
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_01', name: 'f', input: {} }],
    });
    expect(fatesOf(report, 'a1', 0)).toEqual([
      {
        fate: 'dropped',
        detail: 'server_tool_use srvtoolu_01 has no result, and the next user message is not only tool results (A-T2)',
      },
    ]);
    expectValid(body);
  });
});
