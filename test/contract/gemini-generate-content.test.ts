import { describe, expect, it } from 'vitest';
import { isGemini3, validateGeminiGenerateContentRequest as validate } from './gemini-generate-content';
import type { Violation } from './types';

const ids = (v: Violation[]) => v.map((x) => `${x.rule} ${x.path}`);
const clone = <T>(v: T): T => structuredClone(v);
type Part = Record<string, unknown>;
type Content = { role?: string; parts: Part[] };

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const SIG_A = 'Et0BCtoBAXLI2nwMB4momyXTj+K3OPELPDi5Mq6bA5ZHuiKVF9m94gyxd+zdlC+s73nWxHx1ImnA9w==';
const SIG_B = 'ClgBEU0yD8z3tYzbgjZ1jc6lL1fwUvm9/8OzTwh5uyHd3oc/nSNCBpsRWAFcF+8PscRgXvhCesOj==';
const G3 = { model: 'gemini-3-flash-preview' };
const G25 = { model: 'gemini-2.5-flash' };

/**
 * Gemini 3 agent loop: system instruction, an image, parallel calls (only the first signed),
 * responses with ids, a second sequential step (signed), and a response carrying an image part.
 */
const g3Body = {
  systemInstruction: { parts: [{ text: 'You are terse.' }] },
  tools: [
    {
      functionDeclarations: [
        {
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
        {
          name: 'get_map',
          description: null,
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
    },
  ],
  toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
  generationConfig: { thinkingConfig: { includeThoughts: true } },
  contents: [
    {
      role: 'user',
      parts: [
        { text: 'Weather and a map for where this was taken?' },
        { inlineData: { mimeType: 'image/png', data: PNG } },
      ],
    },
    {
      role: 'model',
      parts: [
        { text: 'Thinking about the photo.', thought: true },
        { functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: SIG_A },
        { functionCall: { id: 'c2', name: 'get_map', args: { city: 'Oslo' } } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { id: 'c2', name: 'get_map', response: { output: 'attached' } } },
        { functionResponse: { id: 'c1', name: 'get_weather', response: { output: '4°C, snow' } } },
      ],
    },
    {
      role: 'model',
      parts: [{ text: '' }, { functionCall: { name: 'get_map', args: { city: 'Bergen' } }, thoughtSignature: SIG_B }],
    },
    {
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'get_map',
            response: { output: 'see image' },
            parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }],
          },
        },
      ],
    },
  ] as Content[],
};

/** Gemini 2.5 chain (snake_case field names as recorded requests use them), unsigned second step. */
const g25Body = {
  contents: [
    { role: 'user', parts: [{ text: 'Two names for a pet pelican' }] },
    {
      role: 'model',
      parts: [{ function_call: { name: 'pelican_name_generator', args: {} }, thoughtSignature: SIG_B }],
    },
    {
      role: 'user',
      parts: [{ function_response: { name: 'pelican_name_generator', response: { output: 'Charles' } } }],
    },
    { role: 'model', parts: [{ function_call: { name: 'pelican_name_generator', args: {} } }] },
    {
      role: 'user',
      parts: [
        { function_response: { name: 'pelican_name_generator', response: { output: 'Sammy' } } },
        { inline_data: { mime_type: 'image/jpeg', data: PNG } },
      ],
    },
    { role: 'model', parts: [{ text: 'Charles and Sammy.' }] },
    { role: 'user', parts: [{ text: 'More?' }] },
  ] as Content[],
  tools: [
    { function_declarations: [{ name: 'pelican_name_generator', parameters: { type: 'object', properties: {} } }] },
  ],
};

describe('isGemini3', () => {
  it('matches gemini-3 ids with or without a models/ prefix', () => {
    expect([
      isGemini3('gemini-3-pro-preview'),
      isGemini3('models/gemini-3.1-flash'),
      isGemini3('gemini-2.5-pro'),
      isGemini3('gemma-3-27b'),
    ]).toEqual([true, true, false, false]);
  });
});

describe('validateGeminiGenerateContentRequest: valid bodies', () => {
  it('accepts a Gemini 3 loop with parallel and sequential signed calls and an image in a response', () => {
    expect(validate(g3Body, G3)).toEqual([]);
  });
  it('accepts a Gemini 2.5 chain with snake_case names and an unsigned step', () => {
    expect(validate(g25Body, G25)).toEqual([]);
  });
  it('accepts dummy signatures on injected calls (G-K4) and Vertex without ids', () => {
    const b = clone(g3Body);
    b.contents[1]!.parts[1]!.thoughtSignature = 'skip_thought_signature_validator';
    for (const c of b.contents)
      for (const p of c.parts)
        for (const k of ['functionCall', 'functionResponse']) delete (p[k] as { id?: string } | undefined)?.id;
    expect(validate(b, { ...G3, vertex: true })).toEqual([]);
  });
  it('does not check signatures before the current turn (G-K3)', () => {
    const b = clone(g3Body);
    delete b.contents[1]!.parts[1]!.thoughtSignature;
    delete b.contents[3]!.parts[1]!.thoughtSignature;
    b.contents.push(
      { role: 'model', parts: [{ text: 'Done.' }] },
      { role: 'user', parts: [{ text: 'Next question' }] },
    );
    expect(validate(b, G3)).toEqual([]);
  });
});

describe('validateGeminiGenerateContentRequest: shape and roles', () => {
  it('G-E1: contents must be given, parts non-empty, one data field per part', () => {
    expect(ids(validate({ contents: [] }, G3))).toEqual(['G-E1 contents']);
    const b = clone(g25Body);
    b.contents[5]!.parts = [];
    b.contents[6]!.parts = [{}, { text: 'a', inlineData: { mimeType: 'image/png', data: PNG } }];
    expect(ids(validate(b, G25))).toEqual([
      'G-E1 contents[5].parts',
      'G-E1 contents[6].parts[0]',
      'G-E1 contents[6].parts[1]',
    ]);
  });
  it('X6: lone surrogates', () => {
    const b = clone(g25Body);
    b.contents[6]!.parts[0]!.text = 'More\uDBFF';
    expect(ids(validate(b, G25))).toEqual(['X6 contents[6].parts[0].text']);
  });
  it('G-R1: roles are user or model; systemInstruction is a Content', () => {
    const b = clone(g25Body) as typeof g25Body & { systemInstruction?: unknown };
    b.contents[5]!.role = 'assistant';
    b.systemInstruction = 'be terse';
    expect(ids(validate(b, G25))).toEqual(['G-R1 systemInstruction', 'G-R1 contents[5].role']);
  });
  it('G-R2: function responses go in a user turn', () => {
    const b = clone(g25Body);
    b.contents[2]!.role = 'function';
    expect(ids(validate(b, G25))).toContainEqual('G-R2 contents[2].parts[0].function_response');
  });
  it('G-R5: the first content is user; a call turn follows a user turn; a response turn follows a call turn', () => {
    const b = clone(g25Body);
    b.contents.splice(0, 1);
    expect(ids(validate(b, G25))).toEqual(['G-R5 contents[0].role', 'G-R5 contents[0]']);
    const c = clone(g25Body);
    c.contents.splice(5, 0, {
      role: 'user',
      parts: [{ function_response: { name: 'pelican_name_generator', response: {} } }],
    });
    expect(ids(validate(c, G25))).toEqual(['G-R5 contents[5]']);
    const d = clone(g25Body);
    d.contents.splice(3, 0, { role: 'model', parts: [{ text: 'Calling again.' }] });
    expect(ids(validate(d, G25))).toEqual(['G-R5 contents[4]']);
  });
  it('X4: no blank user or system text; no model turn of blank text only', () => {
    const b = clone(g3Body);
    b.systemInstruction.parts[0]!.text = ' ';
    b.contents[0]!.parts[0]!.text = '';
    b.contents.push({ role: 'model', parts: [{ text: '' }] }, { role: 'user', parts: [{ text: 'ok' }] });
    expect(ids(validate(b, G3))).toEqual([
      'X4 systemInstruction.parts[0].text',
      'X4 contents[0].parts[0].text',
      'X4 contents[5].parts',
    ]);
  });
  it('checks toolConfig', () => {
    expect(
      ids(
        validate(
          {
            ...clone(g3Body),
            toolConfig: { functionCallingConfig: { mode: 'SOMETIMES', allowedFunctionNames: 'get_map' } },
          },
          G3,
        ),
      ),
    ).toEqual([
      'G-SHAPE toolConfig.functionCallingConfig.mode',
      'G-SHAPE toolConfig.functionCallingConfig.allowedFunctionNames',
    ]);
  });
});

describe('validateGeminiGenerateContentRequest: function calls', () => {
  it('G-T1: response is a JSON object', () => {
    const b = clone(g25Body);
    (b.contents[2]!.parts[0]!.function_response as { response: unknown }).response = ['Charles'];
    expect(ids(validate(b, G25))).toEqual(['G-T1 contents[2].parts[0].function_response.response']);
  });
  it('G-T2: response count equals the call count of the previous turn', () => {
    const b = clone(g3Body);
    b.contents[2]!.parts.pop();
    expect(ids(validate(b, G3))).toEqual(['G-T2 contents[2].parts']);
    const c = clone(g25Body);
    c.contents[4]!.parts.splice(0, 1);
    expect(ids(validate(c, G25))).toEqual(['G-T2 contents[4].parts']);
  });
  it("G-T3 G-T7: names pair calls with responses, ids match when present (the API's own text); Vertex takes no ids", () => {
    const b = clone(g3Body);
    (b.contents[2]!.parts[0]!.functionResponse as { name: string }).name = 'get_time';
    (b.contents[2]!.parts[1]!.functionResponse as { id: string }).id = 'c9';
    const v = validate(b, G3);
    expect(ids(v)).toEqual(['G-T3 contents[2].parts[0]', 'G-T7 contents[2].parts[0]', 'G-T7 contents[2].parts[1]']);
    expect(v[2]!.apiMessage).toBe('functionResponse.id does not match functionCall.id');
    expect(ids(validate(g3Body, { ...G3, vertex: true }))).toEqual([
      'G-T3 contents[1].parts[1].functionCall.id',
      'G-T3 contents[1].parts[2].functionCall.id',
      'G-T3 contents[2].parts[0].functionResponse.id',
      'G-T3 contents[2].parts[1].functionResponse.id',
    ]);
  });
  it('G-T7: parallel calls to one function pair by id, not by name or position', () => {
    const b = clone(g3Body);
    const step = b.contents[1]!.parts as { functionCall?: { id: string; name: string } }[];
    step[2]!.functionCall!.name = 'get_weather';
    const res = b.contents[2]!.parts as { functionResponse: { id: string; name: string } }[];
    res[0]!.functionResponse.name = 'get_weather';
    expect(ids(validate(b, G3))).toEqual([]);
    res[0]!.functionResponse.id = 'c1';
    res[1]!.functionResponse.id = 'c1';
    expect(ids(validate(b, G3))).toEqual(['G-T8 contents[2].parts[1]']);
  });
  it('G-T8: both sides carry an id or neither does; ids unique in the request', () => {
    const b = clone(g3Body);
    delete (b.contents[2]!.parts[0]!.functionResponse as { id?: string }).id;
    expect(ids(validate(b, G3))).toEqual(['G-T8 contents[2]']);
    const c = clone(g3Body);
    (c.contents[3]!.parts[1]!.functionCall as { id?: string }).id = 'c1';
    (c.contents[4]!.parts[0]!.functionResponse as { id?: string }).id = 'c1';
    expect(ids(validate(c, G3))).toEqual(['G-T8 contents[3].parts[1]', 'G-T8 contents[4].parts[0]']);
    expect(ids(validate(c, { ...G3, vertex: true })).filter((x) => x.startsWith('G-T8'))).toEqual([]);
  });
  it('X1: a call turn needs a response turn', () => {
    const b = clone(g3Body);
    b.contents.pop();
    expect(ids(validate(b, G3))).toEqual(['X1 contents[3]']);
  });
  it('G-T4 and X5: declaration and parameter names', () => {
    const b = clone(g3Body);
    const decls = b.tools[0]!.functionDeclarations;
    decls[0]!.name = '1weather';
    decls[1]!.name = 'maps.get';
    (decls[1]!.parameters.properties as Record<string, unknown>)['city-name'] = { type: 'string' };
    b.contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
    expect(ids(validate(b, G3))).toEqual([
      'G-T4 tools[0].functionDeclarations[0].name',
      'X5 tools[0].functionDeclarations[1].name',
      'G-T4 tools[0].functionDeclarations[1].parameters.properties["city-name"]',
    ]);
  });
  it('G-T5: function-call history with Google Search enabled', () => {
    const b = clone(g25Body) as typeof g25Body & { tools: unknown[] };
    b.tools.push({ googleSearch: {} });
    expect(ids(validate(b, G25))).toEqual(['G-T5 tools[1]']);
  });
});

describe('validateGeminiGenerateContentRequest: thought signatures and images', () => {
  it("G-K1 G-K12: on Gemini 3 the first call of each step in the current turn carries a signature; the API's exact text", () => {
    const b = clone(g3Body);
    delete b.contents[3]!.parts[1]!.thoughtSignature;
    const v = validate(b, G3);
    expect(ids(v)).toEqual(['G-K1 contents[3].parts[1]']);
    expect(v[0]!.apiMessage).toBe(
      'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:get_map` , position 4. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
    );
    for (const dummy of ['skip_thought_signature_validator', 'c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I=']) {
      b.contents[3]!.parts[1]!.thoughtSignature = dummy;
      expect(ids(validate(b, G3))).toEqual([]);
    }
    delete b.contents[3]!.parts[1]!.thoughtSignature;
    expect(ids(validate(b, G25))).toEqual(['G-I3 contents[4].parts[0].functionResponse.parts']);
  });
  it('G-K2: in a parallel step only the first call counts', () => {
    const b = clone(g3Body);
    const step = b.contents[1]!.parts;
    step[2]!.thoughtSignature = step[1]!.thoughtSignature;
    delete step[1]!.thoughtSignature;
    expect(ids(validate(b, G3))).toEqual(['G-K1 contents[1].parts[1]']);
  });
  it('G-K1: the signature is a sibling of functionCall, not inside it', () => {
    const b = clone(g25Body);
    (b.contents[3]!.parts[0]!.function_call as Part).thoughtSignature = SIG_A;
    expect(ids(validate(b, G25))).toEqual(['G-K1 contents[3].parts[0].function_call.thoughtSignature']);
  });
  it('G-I1: raw base64 without data: prefix, allowed image MIME types', () => {
    const b = clone(g3Body);
    b.contents[0]!.parts.push(
      { inlineData: { mimeType: 'image/gif', data: PNG } },
      { inlineData: { mimeType: 'image/png', data: `data:image/png;base64,${PNG}` } },
      { inlineData: { mimeType: 'application/pdf', data: PNG } },
    );
    expect(ids(validate(b, G3))).toEqual([
      'G-I1 contents[0].parts[2].inlineData.mimeType',
      'G-I1 contents[0].parts[3].inlineData.data',
    ]);
  });
  it('G-I3: functionResponse.parts only on Gemini 3', () => {
    const b = clone(g3Body);
    for (const c of b.contents) for (const p of c.parts) delete p.thoughtSignature;
    expect(ids(validate(b, { model: 'gemini-2.5-pro' }))).toEqual(['G-I3 contents[4].parts[0].functionResponse.parts']);
  });
});

describe('validateGeminiGenerateContentRequest: generation config on Gemini 3.5+ (G-G1)', () => {
  const body = (generationConfig: Record<string, unknown>) => ({
    contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    generationConfig,
  });
  it('G-G1: thinkingLevel, never thinkingBudget, no temperature/topP/topK', () => {
    expect(ids(validate(body({ thinkingConfig: { thinkingLevel: 'LOW' } }), { model: 'gemini-3.7-flash' }))).toEqual(
      [],
    );
    expect(
      ids(
        validate(body({ temperature: 0.2, topP: 0.9, topK: 3, thinkingConfig: { thinkingBudget: 1024 } }), {
          model: 'gemini-3.7-flash',
        }),
      ),
    ).toEqual([
      'G-G1 generationConfig.temperature',
      'G-G1 generationConfig.topP',
      'G-G1 generationConfig.topK',
      'G-G1 generationConfig.thinkingConfig.thinkingBudget',
    ]);
    // Older models keep their rules.
    expect(ids(validate(body({ temperature: 0.2, thinkingConfig: { thinkingBudget: 0 } }), G25))).toEqual([]);
  });
  it("G-G1: MINIMAL is refused on Vertex and on Pro models, with the API's text", () => {
    const minimal = body({ thinkingConfig: { thinkingLevel: 'MINIMAL' } });
    expect(ids(validate(minimal, { model: 'gemini-3.8-flash' }))).toEqual([]);
    const v = validate(minimal, { model: 'gemini-3.8-flash', vertex: true });
    expect(v.map((x) => x.apiMessage)).toEqual(['Thinking level is unsupported: THINKING_LEVEL_MINIMAL']);
    expect(ids(validate(minimal, { model: 'gemini-3.6-pro' }))).toEqual([
      'G-G1 generationConfig.thinkingConfig.thinkingLevel',
    ]);
  });
});
