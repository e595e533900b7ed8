/**
 * C-T9 in the plan: a Chat Completions request to one of OpenAI's 2026 models never carries function
 * tools with a reasoning effort other than `none`, and the plan says which change was made
 * (`stats.toolsWithReasoning`), for the preview (docs/provider-rules.md).
 */
import { describe, expect, it } from 'vitest';
import type { Transcript } from '../transcript/schema';
import type { ConvertTarget } from '../transcript/target';
import { toolsWithReasoningOf } from './plan-report';
import { plan } from './plan';

const TOOLS = [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }];
const withTools: Transcript = {
  format: 'baton.transcript',
  version: 1,
  id: 'c',
  tools: TOOLS,
  turns: [{ id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Weather in Oslo?' }] }],
};
/** A call in the history and no definitions: the converter would add stub tools (X8). */
const stubHistory: Transcript = {
  format: 'baton.transcript',
  version: 1,
  id: 'c',
  turns: [
    { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Weather?' }] },
    {
      id: 'a1',
      role: 'assistant',
      origin: { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-6' },
      blocks: [{ type: 'tool_call', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }],
    },
    {
      id: 't1',
      role: 'tool',
      blocks: [{ type: 'tool_result', callId: 'toolu_1', content: [{ type: 'text', text: '4°C' }] }],
    },
    { id: 'u2', role: 'user', blocks: [{ type: 'text', text: 'And Bergen?' }] },
  ],
};
const chat = (model: string, thinking = true): ConvertTarget => ({
  api: 'openai-chat',
  provider: 'openai',
  model,
  thinking,
  maxOutputTokens: 1000,
});
type Body = { tools?: unknown[]; reasoning_effort?: string };

describe('C-T9 in the plan: tools with reasoning effort on Chat Completions', () => {
  it('C-T9 a model that takes tools only without reasoning: effort none, tools kept, and the plan says so', () => {
    const p = plan(withTools, chat('gpt-5.6-sol'));
    const body = p.body as Body;
    expect([body.reasoning_effort, body.tools?.length]).toEqual(['none', 1]);
    expect(p.stats.toolsWithReasoning).toEqual({ outcome: 'effort-none', model: 'gpt-5.6-sol' });
  });

  it('C-T9 a model that calls tools only on Responses: tools left out, reasoning kept, and the plan says so', () => {
    const p = plan(withTools, chat('gpt-6.2-sol'));
    const body = p.body as Body;
    expect(body.tools).toBeUndefined();
    expect(body.reasoning_effort).toBe('medium');
    expect(p.stats.toolsWithReasoning).toMatchObject({ outcome: 'tools-left-out' });
    expect(p.stats.toolsWithReasoning?.model).toMatch(/^gpt-6\.2/);
  });

  it('C-T9 C-T8 only stub tools for the history: left out, reasoning kept, and the plan says so', () => {
    const p = plan(stubHistory, chat('gpt-5.5'));
    const body = p.body as Body;
    expect([body.tools, body.reasoning_effort]).toEqual([undefined, 'medium']);
    expect(p.stats.toolsWithReasoning).toMatchObject({ outcome: 'stub-tools-left-out' });
  });

  it('C-T9 nothing to say without tools, with thinking off, on Responses or on an older model', () => {
    expect(plan(withTools, chat('gpt-5.6-sol', false)).stats.toolsWithReasoning).toBeUndefined();
    expect(plan(withTools, chat('gpt-5.2')).stats.toolsWithReasoning).toBeUndefined();
    expect(plan({ ...withTools, tools: [] }, chat('gpt-6.2-sol')).stats.toolsWithReasoning).toBeUndefined();
    expect(
      plan(withTools, { ...chat('gpt-6.2-sol'), api: 'openai-responses' }).stats.toolsWithReasoning,
    ).toBeUndefined();
  });

  it('C-T9 reads only the converter’s C-T9 warnings', () => {
    expect(toolsWithReasoningOf(['reasoning_effort set to none: m takes nothing (C-T8)'])).toBeUndefined();
    expect(
      toolsWithReasoningOf(['x', 'function tools left out: gpt-6-astra needs openai-responses (C-T9); y']),
    ).toEqual({
      outcome: 'tools-left-out',
      model: 'gpt-6-astra',
    });
  });
});
