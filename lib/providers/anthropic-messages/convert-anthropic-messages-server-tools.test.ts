import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../../test/contract';
import { decodeTranscript } from '../../transcript/codec';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages';

const origin = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' } as const;
const serverUse = { type: 'server_tool_use', id: 'srvtoolu_01', name: 'code_execution', input: { code: 'x' } };
const transcript = (after: unknown[]) =>
  decodeTranscript({
    format: 'baton.transcript', version: 1, id: 'st',
    turns: [
      { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'go' }] },
      { id: 'a1', role: 'assistant', origin, blocks: [
        { type: 'provider_item', api: 'anthropic-messages', item: serverUse },
        { type: 'tool_call', id: 'toolu_01', name: 'f', input: {} }] },
      { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'toolu_01', content: 'ok' }] },
      ...after,
    ],
  });

describe('server tool calls without a result in their own turn (A-T2)', () => {
  it('stay when the next user message holds only tool results (programmatic tool calling)', () => {
    const { body, report } = convertToAnthropicMessages(transcript([]), { api: 'anthropic-messages', model: 'claude-sonnet-4-5', maxOutputTokens: 1000 });
    expect(body.messages.slice(1)).toEqual([
      { role: 'assistant', content: [serverUse, { type: 'tool_use', id: 'toolu_01', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'ok' }] },
    ]);
    expect(report.blocks.find((b) => b.turn === 'a1' && b.index === 0)!.fates).toEqual([{ fate: 'kept', detail: 'sent as is' }]);
    expect(validateRequest('anthropic-messages', body)).toEqual([]);
  });

  it('are dropped, and reported, when user text follows the results', () => {
    const { body, report } = convertToAnthropicMessages(
      transcript([{ id: 'u2', role: 'user', blocks: [{ type: 'text', text: 'and?' }] }]),
      { api: 'anthropic-messages', model: 'claude-sonnet-4-5', maxOutputTokens: 1000 },
    );
    expect(body.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'f', input: {} }] });
    expect(report.blocks.find((b) => b.turn === 'a1' && b.index === 0)!.fates).toEqual([
      { fate: 'dropped', detail: 'server_tool_use srvtoolu_01 has no result, and the next user message is not only tool results (A-T2)' },
    ]);
    expect(validateRequest('anthropic-messages', body)).toEqual([]);
  });
});
