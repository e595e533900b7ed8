/**
 * The Interactions contract validator (written from provider-rules-2026-gemini.md §9): a valid
 * stateless body and a recorded-shape tool loop pass; each broken rule is found with its id.
 */
import { describe, expect, it } from 'vitest';
import {
  GI_P1_API_MESSAGE,
  GI_T2_API_MESSAGE,
  validateGeminiInteractionsRequest as validate,
} from './gemini-interactions';
import type { Violation } from './types';

const ids = (v: Violation[]) => v.map((x) => `${x.rule} ${x.path}`);
type Obj = Record<string, unknown>;

const VALID = {
  model: 'gemini-3-pro-preview',
  input: [
    { type: 'user_input', content: [{ type: 'text', text: 'Weather in SF?' }] },
    { type: 'thought', signature: 'CtkBAQw5' },
    { type: 'function_call', id: 'zggxzq8r', name: 'getWeather', arguments: { location: 'San Francisco' } },
    { type: 'function_result', call_id: 'zggxzq8r', name: 'getWeather', result: 'sunny' },
    { type: 'model_output', content: [{ type: 'text', text: 'Sunny.' }] },
    { type: 'user_input', content: [{ type: 'text', text: 'Thanks' }] },
  ],
  system_instruction: 'Be brief.',
  tools: [{ type: 'function', name: 'getWeather', parameters: { type: 'object', properties: {} } }],
  generation_config: { max_output_tokens: 1000, thinking_level: 'low', tool_choice: 'auto' },
  store: false,
  stream: true,
};
const edit = (f: (b: Obj & { input: Obj[] }) => void) => {
  const b = structuredClone(VALID) as unknown as Obj & { input: Obj[] };
  f(b);
  return validate(b);
};

describe('validateGeminiInteractionsRequest', () => {
  it('accepts a valid stateless body', () => {
    expect(validate(VALID)).toEqual([]);
  });

  it('GI-R1: generateContent fields and unknown fields are refused', () => {
    expect(ids(edit((b) => (b.contents = [])))).toEqual(['GI-R1 contents']);
    expect(ids(edit((b) => (b.extra = 1)))).toEqual(['GI-R1 extra']);
  });

  it('GI-R2: input is an array of steps', () => {
    expect(ids(edit((b) => (b.input = 'hi' as never)))).toEqual(['GI-R2 input']);
  });

  it('GI-R3: steps have no role and a known type', () => {
    expect(ids(edit((b) => (b.input[0]!.role = 'user')))).toEqual(['GI-R3 input[0].role']);
    expect(ids(edit((b) => (b.input[4]!.type = 'assistant')))).toEqual(['GI-R3 input[4].type']);
  });

  it('GI-R4: no empty text; base64 without a data: prefix; accepted image types', () => {
    expect(ids(edit((b) => (b.input[0]!.content = [{ type: 'text', text: ' ' }])))).toEqual([
      'GI-R4 input[0].content[0].text',
    ]);
    expect(
      ids(
        edit(
          (b) =>
            (b.input[0]!.content = [{ type: 'image', data: 'data:image/png;base64,AAAA', mime_type: 'image/png' }]),
        ),
      ),
    ).toEqual(['GI-R4 input[0].content[0].data']);
    expect(
      ids(edit((b) => (b.input[0]!.content = [{ type: 'image', data: 'AAAA', mime_type: 'image/svg+xml' }]))),
    ).toEqual(['GI-R4 input[0].content[0].mime_type']);
  });

  it('GI-R5: system_instruction is a string', () => {
    expect(ids(edit((b) => (b.system_instruction = { parts: [{ text: 'x' }] } as never)))).toEqual([
      'GI-R5 system_instruction',
    ]);
  });

  it('GI-R6: tools are flat function tools with portable names (X5)', () => {
    expect(ids(edit((b) => (b.tools = [{ functionDeclarations: [] }] as never)))).toEqual(['GI-R6 tools[0]']);
    expect(ids(edit((b) => ((b.tools as Obj[])[0]!.name = 'get weather')))).toEqual(['X5 tools[0].name']);
  });

  it('GI-R7: tool_choice inside generation_config; no temperature; known thinking levels', () => {
    expect(ids(edit((b) => (b.tool_choice = 'none')))).toEqual(['GI-R1 tool_choice', 'GI-R7 tool_choice']);
    expect(ids(edit((b) => ((b.generation_config as Obj).temperature = 0.2)))).toEqual([
      'GI-R7 generation_config.temperature',
    ]);
    expect(ids(edit((b) => ((b.generation_config as Obj).thinking_level = 'HIGH')))).toEqual([
      'GI-R7 generation_config.thinking_level',
    ]);
  });

  it('GI-R8: stream: true', () => {
    expect(ids(edit((b) => delete b.stream))).toEqual(['GI-R8 stream']);
  });

  it('GI-P1: previous_interaction_id never with store: false, with the API text', () => {
    const v = edit((b) => (b.previous_interaction_id = 'v1_abc'));
    expect(ids(v)).toEqual(['GI-P1 previous_interaction_id']);
    expect(v[0]!.apiMessage).toBe(GI_P1_API_MESSAGE);
    // Chained: only the new steps (results answering the stored interaction) are fine.
    expect(
      validate({
        ...VALID,
        store: true,
        previous_interaction_id: 'v1_abc',
        input: [{ type: 'function_result', call_id: 'zz', name: 'getWeather', result: 'x' }],
      }),
    ).toEqual([]);
  });

  it('GI-P2: chaining needs a non-empty v1_ id', () => {
    expect(ids(edit((b) => Object.assign(b, { store: true, previous_interaction_id: '' })))).toEqual([
      'GI-P2 previous_interaction_id',
    ]);
  });

  it('GI-T1: every call answered exactly once before the next user_input; no result without its call', () => {
    expect(ids(edit((b) => b.input.splice(3, 1)))).toEqual(['GI-T1 input[2]']);
    expect(ids(edit((b) => b.input.splice(4, 0, { ...b.input[3]! })))).toEqual(['GI-T1 input[4].call_id']);
    expect(ids(edit((b) => (b.input[3]!.call_id = 'other')))).toEqual(['GI-T1 input[3].call_id', 'GI-T1 input[2]']);
  });

  it('GI-T2: a result without name is refused with the API text', () => {
    const v = edit((b) => delete b.input[3]!.name);
    expect(ids(v)).toEqual(['GI-T2 input[3].name']);
    expect(v[0]!.apiMessage).toBe(GI_T2_API_MESSAGE);
  });

  it('GI-T3: result is a string, a content array or an object; is_error a boolean', () => {
    expect(ids(edit((b) => (b.input[3]!.result = 3)))).toEqual(['GI-T3 input[3].result']);
    expect(ids(edit((b) => (b.input[3]!.is_error = 'yes')))).toEqual(['GI-T3 input[3].is_error']);
  });

  it('GI-T4: arguments an object, ids present and unique', () => {
    expect(ids(edit((b) => (b.input[2]!.arguments = '{"a":1}')))).toEqual(['GI-T4 input[2].arguments']);
    expect(ids(edit((b) => delete b.input[2]!.id))).toEqual(['GI-T4 input[2].id', 'GI-T1 input[3].call_id']);
  });

  it('GI-K1: never an unsigned thought step', () => {
    expect(ids(edit((b) => delete b.input[1]!.signature))).toEqual(['GI-K1 input[1].signature']);
  });

  it('GI-K2: a summary holds text or image content', () => {
    expect(ids(edit((b) => (b.input[1]!.summary = [{ type: 'audio', data: 'AAAA', mime_type: 'audio/wav' }])))).toEqual(
      ['GI-K2 input[1].summary[0]'],
    );
  });

  it('GI-K4: an empty signature is never sent', () => {
    expect(ids(edit((b) => (b.input[2]!.signature = '')))).toEqual(['GI-K4 input[2].signature']);
  });
});
