/**
 * Native Interactions request body → transcript (`baton convert --from gemini-interactions`,
 * the `gemini-interactions` import kind), and back to the same body.
 */
import { describe, expect, it } from 'vitest';
import { TranscriptError } from '../../transcript/codec';
import { convertTranscript } from '../index';
import { readGeminiInteractionsHistory } from './read-gemini-interactions';

const API = 'gemini-interactions';
const BODY = {
  model: 'gemini-3-pro-preview',
  system_instruction: 'Be brief.',
  tools: [
    { type: 'function', name: 'get_weather', description: 'Weather.', parameters: { type: 'object', properties: {} } },
    { type: 'google_search' },
  ],
  input: [
    {
      type: 'user_input',
      content: [
        { type: 'text', text: 'Weather in Oslo?' },
        { type: 'image', data: 'iVBORw0KGgo=', mime_type: 'image/png' },
      ],
    },
    { type: 'thought', signature: 'c2lnMQ==', summary: [{ type: 'text', text: 'Use the tool.' }] },
    { type: 'function_call', id: 'fc1', name: 'get_weather', arguments: { city: 'Oslo' } },
    { type: 'function_result', call_id: 'fc1', name: 'get_weather', result: '4°C' },
    { type: 'thought', signature: 'c2lnMg==' },
    { type: 'model_output', content: [{ type: 'text', text: 'It is 4°C.' }] },
    { type: 'user_input', content: [{ type: 'text', text: 'Thanks' }] },
  ],
};

describe('readGeminiInteractionsHistory', () => {
  it('reads steps into turns: user_input → user, model steps → one assistant turn with native steps, function_result → tool (GI-R3, GI-T1)', () => {
    const t = readGeminiInteractionsHistory(BODY);
    expect(t.system).toBe('Be brief.');
    expect(t.tools).toEqual([
      { name: 'get_weather', description: 'Weather.', inputSchema: { type: 'object', properties: {} } },
    ]);
    expect(t.meta).toEqual({ serverTools: { api: API, tools: [{ type: 'google_search' }] } });
    expect(t.turns.map((x) => x.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(t.turns[1]).toEqual({
      id: 't2',
      role: 'assistant',
      origin: { provider: 'google', api: API, model: 'gemini-3-pro-preview' },
      blocks: [
        { type: 'thinking', text: 'Use the tool.', signature: 'c2lnMQ==' },
        { type: 'tool_call', id: 'fc1', name: 'get_weather', input: { city: 'Oslo' } },
      ],
      native: { api: API, payload: BODY.input.slice(1, 3) },
    });
    expect(t.turns[2]!.blocks).toEqual([{ type: 'tool_result', callId: 'fc1', content: '4°C' }]);
  });

  it('round trip: the body read and converted to the same origin gives the same input, system and tools', () => {
    const { body } = convertTranscript(readGeminiInteractionsHistory(BODY), {
      api: API,
      model: 'gemini-3-pro-preview',
    });
    expect(body.input).toEqual(BODY.input);
    expect(body.system_instruction).toBe(BODY.system_instruction);
    expect(body.tools).toEqual([BODY.tools[0]]);
  });

  it('accepts input as a string or as a content array (GI-R2); keeps previous_interaction_id in meta (GI-P1)', () => {
    expect(readGeminiInteractionsHistory({ model: 'm', input: 'Hi' }).turns).toEqual([
      { id: 't1', role: 'user', blocks: [{ type: 'text', text: 'Hi' }] },
    ]);
    const t = readGeminiInteractionsHistory({
      model: 'm',
      input: [{ type: 'text', text: 'A' }],
      previous_interaction_id: 'v1_abc',
    });
    expect(t.turns[0]!.blocks).toEqual([{ type: 'text', text: 'A' }]);
    expect(t.meta).toEqual({ previousInteractionId: 'v1_abc' });
  });

  it('errors name the JSON path: a result without call_id, a model step without a model, a Content system', () => {
    expect(() =>
      readGeminiInteractionsHistory({ model: 'm', input: [{ type: 'function_result', result: 'x' }] }),
    ).toThrow(/input\[0\]\.call_id/);
    expect(() => readGeminiInteractionsHistory({ input: [{ type: 'thought', signature: 's' }] })).toThrow(
      TranscriptError,
    );
    expect(() => readGeminiInteractionsHistory({ model: 'm', input: 'x', system_instruction: { parts: [] } })).toThrow(
      /system_instruction/,
    );
    expect(() => readGeminiInteractionsHistory([])).toThrow(TranscriptError);
  });
});
