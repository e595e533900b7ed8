import { describe, expect, it } from 'vitest';
import { ReportBuilder } from '../transcript/report';
import { convertChecked, kept, transcript } from './convert.test-helper';
import { uniqueTools } from './convert-unique-tools';

const obj = { type: 'object' };
const t = transcript([{ id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'hi' }] }], {
  id: 'dup',
  tools: [
    { name: 'f', description: 'first', inputSchema: obj },
    { name: 'g', inputSchema: obj },
    { name: 'f', description: 'second', inputSchema: obj },
  ],
});
const report = {
  input: { format: 'baton', turns: 1, blocks: 1 },
  blocks: [kept('u1')],
  synthesized: [],
  warnings: ['tool f is defined more than once: definition 3 left out, the first one is sent'],
};

// convertChecked also asserts that the contract validator finds nothing wrong with each body.
describe('each tool name is sent once: the first definition wins, a warning names the dropped one', () => {
  it('uniqueTools', () => {
    const r = new ReportBuilder(t);
    expect(uniqueTools(t.tools!, r)).toEqual([t.tools![0], t.tools![1]]);
    expect(r.finish().warnings).toEqual(report.warnings);
  });

  it('Anthropic Messages', () => {
    expect(convertChecked('anthropic-messages', t, 'claude-sonnet-4-5')).toEqual({
      api: 'anthropic-messages',
      model: 'claude-sonnet-4-5',
      body: {
        model: 'claude-sonnet-4-5',
        max_tokens: 1000,
        stream: true,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
        tools: [
          { name: 'f', description: 'first', input_schema: obj },
          { name: 'g', input_schema: obj },
        ],
      },
      report,
    });
  });

  it('OpenAI Chat Completions', () => {
    expect(convertChecked('openai-chat', t, 'gpt-4o')).toEqual({
      api: 'openai-chat',
      model: 'gpt-4o',
      body: {
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
        stream_options: { include_usage: true },
        max_completion_tokens: 1000,
        tools: [
          { type: 'function', function: { name: 'f', description: 'first', parameters: obj } },
          { type: 'function', function: { name: 'g', parameters: obj } },
        ],
      },
      report,
    });
  });

  it('OpenAI Responses', () => {
    expect(convertChecked('openai-responses', t, 'gpt-4.1')).toEqual({
      api: 'openai-responses',
      model: 'gpt-4.1',
      body: {
        model: 'gpt-4.1',
        input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
        stream: true,
        store: false,
        max_output_tokens: 1000,
        tools: [
          { type: 'function', name: 'f', description: 'first', parameters: obj, strict: false },
          { type: 'function', name: 'g', parameters: obj, strict: false },
        ],
      },
      report,
    });
  });

  it('Gemini generateContent', () => {
    expect(convertChecked('gemini-generate-content', t, 'gemini-2.5-flash')).toEqual({
      api: 'gemini-generate-content',
      model: 'gemini-2.5-flash',
      body: {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        tools: [
          {
            functionDeclarations: [
              { name: 'f', description: 'first', parametersJsonSchema: obj },
              { name: 'g', parametersJsonSchema: obj },
            ],
          },
        ],
        generationConfig: { maxOutputTokens: 1000, thinkingConfig: { thinkingBudget: 0 } },
      },
      report,
    });
  });
});
