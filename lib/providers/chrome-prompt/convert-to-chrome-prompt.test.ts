import { describe, expect, it } from 'vitest';
import type { Transcript, Turn } from '../../transcript/schema';
import { convertToChromePrompt } from './convert-to-chrome-prompt';

const transcript = (turns: Turn[], extra: Partial<Transcript> = {}): Transcript => ({
  format: 'baton.transcript',
  version: 1,
  id: 't',
  turns,
  ...extra,
});
const user = (id: string, ...blocks: Turn['blocks']): Turn => ({ id, role: 'user', blocks });
const text = (t: string) => ({ type: 'text' as const, text: t });
const GPT = { provider: 'openai', api: 'openai-responses' as const, model: 'gpt-5' };

describe('convertToChromePrompt', () => {
  it('puts the system prompt first, the history in initialPrompts and the last user message in prompt', () => {
    const r = convertToChromePrompt(
      transcript(
        [
          user('u1', text('Hi')),
          { id: 'a1', role: 'assistant', origin: GPT, blocks: [text('Hello!')] },
          user('u2', text('What is 2+2?')),
        ],
        { system: 'Be brief.' },
      ),
    );
    expect(r).toEqual({
      api: 'chrome-prompt',
      model: 'gemini-nano',
      body: {
        initialPrompts: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello!' },
        ],
        prompt: 'What is 2+2?',
      },
      report: {
        input: { format: 'baton', turns: 3, blocks: 3 },
        blocks: [
          { turn: 'u1', index: 0, fates: [{ fate: 'kept', detail: 'sent as is' }] },
          { turn: 'a1', index: 0, fates: [{ fate: 'kept', detail: 'sent as is' }] },
          { turn: 'u2', index: 0, fates: [{ fate: 'kept', detail: 'sent as is' }] },
        ],
        synthesized: [],
        warnings: [],
      },
    });
  });

  it('renders tool history as labelled text, with fates and a warning about the tools', () => {
    const r = convertToChromePrompt(
      transcript(
        [
          user('u1', text('Weather in Paris?')),
          {
            id: 'a1',
            role: 'assistant',
            origin: GPT,
            blocks: [
              text('Let me check.'),
              { type: 'tool_call', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
            ],
          },
          { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'call_1', content: '18 °C, cloudy' }] },
          { id: 'a2', role: 'assistant', origin: GPT, blocks: [text('It is 18 °C.')] },
          user('u2', text('Thanks')),
        ],
        { tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }] },
      ),
    );
    expect(r.body).toEqual({
      initialPrompts: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content:
            'Let me check.\n\n[Tool call get_weather by openai/gpt-5 (openai-responses), id call_1, with this input]\n```json\n{\n  "city": "Paris"\n}\n```',
        },
        { role: 'user', content: '[Result of tool call get_weather, id call_1]\n```\n18 °C, cloudy\n```' },
        { role: 'assistant', content: 'It is 18 °C.' },
      ],
      prompt: 'Thanks',
    });
    expect(r.report.blocks.filter((b) => b.fates[0]!.fate !== 'kept')).toEqual([
      {
        turn: 'a1',
        index: 1,
        fates: [
          { fate: 'converted', detail: 'tool call sent as labelled text: the on-device model cannot call tools' },
        ],
      },
      {
        turn: 't1',
        index: 0,
        fates: [
          {
            fate: 'converted',
            detail: 'tool result sent as labelled user text: the on-device model cannot call tools',
          },
        ],
      },
    ]);
    expect(r.report.warnings).toEqual(['1 tool definition(s) not sent: the on-device model cannot call tools']);
  });

  it('ends on pending tool results: they are the prompt; a call without a result gets the synthetic error result (X1)', () => {
    const r = convertToChromePrompt(
      transcript([
        user('u1', text('Look up two things')),
        {
          id: 'a1',
          role: 'assistant',
          origin: GPT,
          blocks: [
            { type: 'tool_call', id: 'c1', name: 'lookup', input: { q: 'a' } },
            { type: 'tool_call', id: 'c2', name: 'lookup', input: { q: 'b' } },
          ],
        },
        { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'c1', content: 'A', isError: true }] },
      ]),
    );
    expect(r.body.prompt).toBe(
      '[Result of tool call lookup, id c1 (error)]\n```\nA\n```\n\n[Result of tool call lookup, id c2 (error)]\n```\nno result: the call was interrupted\n```',
    );
    expect(r.body.initialPrompts.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(r.report.synthesized).toEqual([
      { kind: 'error-result', detail: 'call c2 (lookup) in turn a1 had no result (X1)' },
    ]);
  });

  it('text only: images and documents become placeholders, reported', () => {
    const r = convertToChromePrompt(
      transcript([
        user(
          'u1',
          { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
          { type: 'document', mediaType: 'application/pdf', data: 'JVBERi0=', title: 'spec.pdf' },
          text('Describe these'),
        ),
      ]),
    );
    expect(r.body).toEqual({
      initialPrompts: [],
      prompt:
        '[image omitted: the model does not accept images]\n\n[document "spec.pdf" omitted: application/pdf is not accepted by this model]\n\nDescribe these',
    });
    expect(r.report.blocks.map((b) => b.fates[0]!.fate)).toEqual(['converted', 'converted', 'kept']);
  });

  it('drops reasoning from other models, or shares it as labelled text on request (X3)', () => {
    const turns: Turn[] = [
      user('u1', text('Q')),
      {
        id: 'a1',
        role: 'assistant',
        origin: GPT,
        blocks: [{ type: 'thinking', text: 'secret steps', signature: 'enc' }, text('A')],
      },
      user('u2', text('More')),
    ];
    const dropped = convertToChromePrompt(transcript(turns));
    expect(dropped.body.initialPrompts[1]).toEqual({ role: 'assistant', content: 'A' });
    expect(dropped.report.blocks[1]!.fates[0]!.fate).toBe('dropped');
    const shared = convertToChromePrompt(transcript(turns), { foreignReasoning: 'text' });
    expect(shared.body.initialPrompts[1]).toEqual({
      role: 'assistant',
      content: '[Reasoning by openai/gpt-5 (openai-responses), shared as plain text]\n```\nsecret steps\n```\n\nA',
    });
  });

  it('repairs the history shape: opens with a user turn, never ends on the assistant (prompt "Continue.")', () => {
    const r = convertToChromePrompt(
      transcript([{ id: 'a1', role: 'assistant', origin: GPT, blocks: [text('I start.')] }]),
    );
    expect(r.body).toEqual({
      initialPrompts: [
        { role: 'user', content: '(The conversation so far, which begins with a reply from the assistant.)' },
        { role: 'assistant', content: 'I start.' },
      ],
      prompt: 'Continue.',
    });
    expect(r.report.synthesized.map((s) => s.kind)).toEqual(['user-turn', 'user-turn']);
  });
});
