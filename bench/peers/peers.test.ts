import { describe, expect, it } from 'vitest';
import type { Transcript } from '../../lib/transcript/schema';
import { toAiSdkPrompt } from './ai-sdk';
import { toPiContext } from './pi-ai';

const RESPONSES = {
  provider: 'openai',
  api: 'openai-responses',
  model: 'gpt-5.1-2025-11-13',
  requestedModel: 'gpt-5.1',
} as const;
const CLAUDE = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' } as const;

const transcript: Transcript = {
  format: 'baton.transcript',
  version: 1,
  id: 't',
  system: 'Be brief.',
  tools: [
    {
      name: 'read',
      description: 'Read a file.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    },
  ],
  turns: [
    {
      id: 'u1',
      role: 'user',
      createdAt: '2026-01-05T09:00:00.000Z',
      blocks: [
        { type: 'text', text: 'Look' },
        { type: 'image', mediaType: 'image/png', data: 'iVBOR' },
      ],
    },
    {
      id: 'a1',
      role: 'assistant',
      origin: RESPONSES,
      createdAt: '2026-01-05T09:00:01.000Z',
      stopReason: 'tool_use',
      blocks: [
        { type: 'thinking', text: 'Plan', signature: 'gAAAAAx', meta: { itemId: 'rs_1' } },
        { type: 'text', text: 'Reading.', meta: { itemId: 'msg_1' } },
        { type: 'tool_call', id: 'call_A', name: 'read', input: { path: 'a.ts' }, meta: { itemId: 'fc_1' } },
        { type: 'tool_call', id: 'call_B', name: 'read', input: { path: 'b.ts' }, meta: { itemId: 'fc_2' } },
      ],
    },
    {
      id: 't1',
      role: 'tool',
      createdAt: '2026-01-05T09:00:02.000Z',
      blocks: [{ type: 'tool_result', callId: 'call_A', content: 'x = 1', isError: false }],
    },
    {
      id: 'a2',
      role: 'assistant',
      origin: CLAUDE,
      createdAt: '2026-01-05T09:00:03.000Z',
      status: 'stopped',
      blocks: [
        { type: 'thinking', text: 'Hmm', signature: 'EqQB' },
        { type: 'redacted_thinking', data: 'EmwK' },
      ],
    },
  ],
};

describe('toPiContext', () => {
  it('maps turns into pi-ai messages with its own forms of opaque state', () => {
    const ctx = toPiContext(transcript);
    expect(ctx.systemPrompt).toBe('Be brief.');
    expect(ctx.tools).toEqual([
      { name: 'read', description: 'Read a file.', parameters: transcript.tools![0]!.inputSchema },
    ]);
    const usage = {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    };
    expect(ctx.messages).toEqual([
      {
        role: 'user',
        timestamp: Date.parse('2026-01-05T09:00:00.000Z'),
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image', data: 'iVBOR', mimeType: 'image/png' },
        ],
      },
      {
        role: 'assistant',
        api: 'openai-responses',
        provider: 'openai',
        model: 'gpt-5.1',
        usage,
        stopReason: 'toolUse',
        timestamp: Date.parse('2026-01-05T09:00:01.000Z'),
        content: [
          {
            type: 'thinking',
            thinking: 'Plan',
            thinkingSignature: JSON.stringify({
              type: 'reasoning',
              id: 'rs_1',
              summary: [{ type: 'summary_text', text: 'Plan' }],
              encrypted_content: 'gAAAAAx',
            }),
          },
          { type: 'text', text: 'Reading.', textSignature: 'msg_1' },
          { type: 'toolCall', id: 'call_A|fc_1', name: 'read', arguments: { path: 'a.ts' } },
          { type: 'toolCall', id: 'call_B|fc_2', name: 'read', arguments: { path: 'b.ts' } },
        ],
      },
      {
        role: 'toolResult',
        toolCallId: 'call_A|fc_1',
        toolName: 'read',
        content: [{ type: 'text', text: 'x = 1' }],
        isError: false,
        timestamp: Date.parse('2026-01-05T09:00:02.000Z'),
      },
      {
        role: 'assistant',
        api: 'anthropic-messages',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        usage,
        stopReason: 'aborted',
        timestamp: Date.parse('2026-01-05T09:00:03.000Z'),
        content: [
          { type: 'thinking', thinking: 'Hmm', thinkingSignature: 'EqQB' },
          { type: 'thinking', thinking: '', thinkingSignature: 'EmwK', redacted: true },
        ],
      },
    ]);
  });
});

describe('toAiSdkPrompt', () => {
  it('maps turns into ModelMessages, state in provider options, and answers unanswered calls as Baton does', () => {
    const { tools, ...prompt } = toAiSdkPrompt(transcript);
    expect(Object.keys(tools)).toEqual(['read']);
    expect(prompt).toEqual({
      system: 'Be brief.',
      repairedCalls: 1,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'file', data: 'iVBOR', mediaType: 'image/png' },
          ],
        },
        {
          role: 'assistant',
          content: [
            {
              type: 'reasoning',
              text: 'Plan',
              providerOptions: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'gAAAAAx' } },
            },
            { type: 'text', text: 'Reading.', providerOptions: { openai: { itemId: 'msg_1' } } },
            {
              type: 'tool-call',
              toolCallId: 'call_A',
              toolName: 'read',
              input: { path: 'a.ts' },
              providerOptions: { openai: { itemId: 'fc_1' } },
            },
            {
              type: 'tool-call',
              toolCallId: 'call_B',
              toolName: 'read',
              input: { path: 'b.ts' },
              providerOptions: { openai: { itemId: 'fc_2' } },
            },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'call_B',
              toolName: 'read',
              output: { type: 'error-text', value: 'no result: the call was interrupted' },
            },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'call_A', toolName: 'read', output: { type: 'text', value: 'x = 1' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Hmm', providerOptions: { anthropic: { signature: 'EqQB' } } },
            { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'EmwK' } } },
          ],
        },
      ],
    });
  });
});
