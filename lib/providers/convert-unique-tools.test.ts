import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../test/contract';
import { decodeTranscript } from '../transcript/codec';
import { ReportBuilder } from '../transcript/report';
import { convertToAnthropicMessages } from './anthropic-messages/convert-to-anthropic-messages';
import { uniqueTools } from './convert-unique-tools';
import { convertToGeminiGenerateContent } from './gemini-generate-content/convert-to-gemini-generate-content';
import { convertToOpenAIChat } from './openai-chat/convert-to-openai-chat';
import { convertToOpenAIResponses } from './openai-responses/convert-to-openai-responses';

const obj = { type: 'object' };
const t = decodeTranscript({
  format: 'baton.transcript',
  version: 1,
  id: 'dup',
  tools: [
    { name: 'f', description: 'first', inputSchema: obj },
    { name: 'g', inputSchema: obj },
    { name: 'f', description: 'second', inputSchema: obj },
  ],
  turns: [{ id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'hi' }] }],
});
const report = {
  input: { format: 'baton', turns: 1, blocks: 1 },
  blocks: [{ turn: 'u1', index: 0, fates: [{ fate: 'kept', detail: 'sent as is' }] }],
  synthesized: [],
  warnings: ['tool f is defined more than once: definition 3 left out, the first one is sent'],
};

describe('each tool name is sent once: the first definition wins, a warning names the dropped one', () => {
  it('uniqueTools', () => {
    const r = new ReportBuilder(t);
    expect(uniqueTools(t.tools!, r)).toEqual([t.tools![0], t.tools![1]]);
    expect(r.finish().warnings).toEqual(report.warnings);
  });

  it('Anthropic Messages', () => {
    const out = convertToAnthropicMessages(t, { api: 'anthropic-messages', model: 'claude-sonnet-4-5', maxOutputTokens: 1000 });
    expect(out).toEqual({
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
    expect(validateRequest('anthropic-messages', out.body)).toEqual([]);
  });

  it('OpenAI Chat Completions', () => {
    const out = convertToOpenAIChat(t, { api: 'openai-chat', model: 'gpt-4o', maxOutputTokens: 1000 });
    expect(out).toEqual({
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
    expect(validateRequest('openai-chat', out.body)).toEqual([]);
  });

  it('OpenAI Responses', () => {
    const out = convertToOpenAIResponses(t, { api: 'openai-responses', model: 'gpt-4.1', maxOutputTokens: 1000 });
    expect(out).toEqual({
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
    expect(validateRequest('openai-responses', out.body)).toEqual([]);
  });

  it('Gemini generateContent', () => {
    const out = convertToGeminiGenerateContent(t, { api: 'gemini-generate-content', model: 'gemini-2.5-flash', maxOutputTokens: 1000 });
    expect(out).toEqual({
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
    expect(validateRequest('gemini-generate-content', out.body, { model: 'gemini-2.5-flash' })).toEqual([]);
  });
});
