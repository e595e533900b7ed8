/**
 * Transcript → Interactions request body (provider-rules-2026-gemini.md §9): every GI- rule the
 * converter enforces, each test named with its id. Bodies also pass the independent contract
 * validator (`convertChecked`).
 */
import { describe, expect, it } from 'vitest';
import { validateRequest } from '../../../test/contract';
import { lookupModel } from '../../models/registry';
import type { Origin } from '../../transcript/schema';
import { convertChecked, fatesOf, transcript } from '../convert.test-helper';
import { convertToGeminiInteractions } from './convert-to-gemini-interactions';

const API = 'gemini-interactions';
const FLASH = 'gemini-2.5-flash';
const PRO3 = 'gemini-3-pro-preview';
const SAME: Origin = { provider: 'google', api: API, model: FLASH };
const GENERATE: Origin = { provider: 'google', api: 'gemini-generate-content', model: FLASH };
const CLAUDE: Origin = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' };
const TOOLS = [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }];
type Obj = Record<string, unknown>;

const user = (id: string, text: string) => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
const convert = (t: ReturnType<typeof transcript>, model = FLASH, extra = {}) => convertChecked(API, t, model, extra);
const input = (body: { input: unknown }) => body.input as Obj[];

/** user → assistant (origin) thinking + call → tool result → assistant text → user. */
const toolLoop = (
  origin: Origin,
  thinking: Obj = { type: 'thinking', text: 'Need the tool.', signature: 'c2lnLXRvb2w=' },
) =>
  transcript(
    [
      user('u1', 'Weather in Oslo?'),
      {
        id: 'a1',
        role: 'assistant',
        origin,
        blocks: [thinking, { type: 'tool_call', id: 'fc_1', name: 'get_weather', input: { city: 'Oslo' } }],
      },
      { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'fc_1', content: '4°C, rain' }] },
      { id: 'a2', role: 'assistant', origin, blocks: [{ type: 'text', text: '4°C and rain.' }] },
      user('u2', 'Thanks!'),
    ],
    { tools: TOOLS, system: 'Be brief.' },
  );

describe('GI-R: request shape', () => {
  it('GI-R1: snake_case body {model, input, system_instruction, tools, generation_config, store, stream} and the Api-Revision header', () => {
    const out = convert(toolLoop(SAME));
    expect(Object.keys(out.body)).toEqual([
      'model',
      'input',
      'system_instruction',
      'tools',
      'generation_config',
      'store',
      'stream',
    ]);
    expect(out.headers).toEqual({ 'Api-Revision': '2026-05-20' });
    expect(out.api).toBe(API);
    const json = JSON.stringify(out.body);
    for (const key of ['contents', 'parts', 'systemInstruction', '"role"']) expect(json).not.toContain(key);
  });

  it('GI-R2: stateless by default: store false and the whole history as an array of steps, in order', () => {
    const { body } = convert(toolLoop(CLAUDE));
    expect(body.store).toBe(false);
    expect(body).not.toHaveProperty('previous_interaction_id');
    expect(input(body).map((s) => s.type)).toEqual([
      'user_input',
      'function_call',
      'function_result',
      'model_output',
      'user_input',
    ]);
  });

  it('GI-R3: steps carry no role; each block type becomes its step type', () => {
    const { body } = convert(toolLoop(CLAUDE));
    expect(input(body)).toEqual([
      { type: 'user_input', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
      { type: 'function_call', id: 'fc_1', name: 'get_weather', arguments: { city: 'Oslo' } },
      { type: 'function_result', call_id: 'fc_1', name: 'get_weather', result: '4°C, rain' },
      { type: 'model_output', content: [{ type: 'text', text: '4°C and rain.' }] },
      { type: 'user_input', content: [{ type: 'text', text: 'Thanks!' }] },
    ]);
  });

  it('GI-R3: a same-origin built-in tool step is replayed as received; another origin’s item is its text', () => {
    const search = { type: 'google_search_call', id: 'gs1', arguments: { queries: ['oslo'] } };
    const t = (origin: Origin, api: 'gemini-interactions' | 'openai-responses') =>
      transcript([
        user('u1', 'Search.'),
        {
          id: 'a1',
          role: 'assistant',
          origin,
          blocks: [
            { type: 'provider_item', api, item: search, text: 'searched oslo' },
            { type: 'text', text: 'Found it.' },
          ],
        },
        user('u2', 'Ok.'),
      ]);
    expect(input(convert(t(SAME, API)).body)[1]).toEqual(search);
    const foreign = input(
      convert(t({ provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' }, 'openai-responses')).body,
    );
    expect(foreign[1]!.type).toBe('model_output');
    expect(JSON.stringify(foreign[1])).toContain('searched oslo');
  });

  it('GI-R4: media as {type, data, mime_type} without a data: prefix; empty text never sent; an emptied user turn dropped (X4)', () => {
    const t = transcript([
      {
        id: 'u1',
        role: 'user',
        blocks: [
          { type: 'text', text: 'See:' },
          { type: 'image', mediaType: 'image/gif', data: 'R0lGODlh' },
          { type: 'document', mediaType: 'application/pdf', data: 'JVBERi0=' },
        ],
      },
      { id: 'a1', role: 'assistant', origin: CLAUDE, blocks: [{ type: 'text', text: 'Seen.' }] },
      { id: 'u2', role: 'user', blocks: [{ type: 'text', text: '   ' }] },
      user('u3', 'Next.'),
    ]);
    const { body, report } = convert(t);
    expect(input(body)[0]).toEqual({
      type: 'user_input',
      content: [
        { type: 'text', text: 'See:' },
        { type: 'image', data: 'R0lGODlh', mime_type: 'image/gif' },
        { type: 'document', data: 'JVBERi0=', mime_type: 'application/pdf' },
      ],
    });
    expect(input(body)).toHaveLength(3);
    expect(fatesOf(report, 'u2', 0)[0]!.fate).toBe('dropped');
  });

  it('GI-R4: an image type Interactions does not take becomes a placeholder', () => {
    const t = transcript([
      { id: 'u1', role: 'user', blocks: [{ type: 'image', mediaType: 'image/svg+xml', data: 'PHN2Zz4=' }] },
    ]);
    const { body, report } = convert(t);
    expect(input(body)[0]!.content).toEqual([
      { type: 'text', text: expect.stringContaining('image omitted') as string },
    ]);
    expect(fatesOf(report, 'u1', 0)[0]!.fate).toBe('converted');
  });

  it('GI-R5: system_instruction is a plain string', () => {
    expect(convert(toolLoop(SAME)).body.system_instruction).toBe('Be brief.');
    expect(convert(transcript([user('u1', 'Hi')])).body).not.toHaveProperty('system_instruction');
  });

  it('GI-R6: tools are a flat list of {type: function, name, description?, parameters}', () => {
    const t = transcript([user('u1', 'Hi')], {
      tools: [
        { name: 'search docs', description: 'Search.', inputSchema: { type: 'object', properties: {} } },
        ...TOOLS,
      ],
    });
    const { body } = convert(t);
    expect(body.tools).toEqual([
      {
        type: 'function',
        name: expect.stringMatching(/^search_docs/) as string,
        description: 'Search.',
        parameters: { type: 'object', properties: {} },
      },
      { type: 'function', name: 'get_weather', parameters: TOOLS[0]!.inputSchema },
    ]);
  });

  it('GI-R7: tool_choice lives inside generation_config ("none" for stub tools, X8); no temperature or top_p', () => {
    const t = transcript([
      user('u1', 'Hi'),
      {
        id: 'a1',
        role: 'assistant',
        origin: CLAUDE,
        blocks: [{ type: 'tool_call', id: 'toolu_1', name: 'lookup', input: {} }],
      },
      { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'toolu_1', content: 'x' }] },
    ]);
    const { body } = convert(t);
    expect(body.generation_config).toEqual({ max_output_tokens: 1000, tool_choice: 'none' });
    expect(body).not.toHaveProperty('tool_choice');
    expect(body.tools![0]!.name).toBe('lookup');
  });

  it('GI-R7: thinking level per model: Gemini 3 on → high with summaries, off → low (reported); 2.5 off → no field', () => {
    const t = transcript([user('u1', 'Hi')]);
    expect(convert(t, PRO3, { thinking: true }).body.generation_config).toEqual({
      max_output_tokens: 1000,
      thinking_level: 'high',
      thinking_summaries: 'auto',
    });
    const off = convert(t, PRO3);
    expect(off.body.generation_config).toEqual({ max_output_tokens: 1000, thinking_level: 'low' });
    expect(off.report.warnings.join(' ')).toContain('cannot switch thinking off');
    expect(convert(t, FLASH).body.generation_config).toEqual({ max_output_tokens: 1000 });
    // Gemini 3.5+: the registry's levels (G-G1), lowest first.
    const levels = lookupModel('gemini-3.7-flash').thinkingLevels!;
    expect(convert(t, 'gemini-3.7-flash').body.generation_config.thinking_level).toBe(levels[0]!.toLowerCase());
  });

  it('GI-R8: stream: true in the body', () => {
    expect(convert(transcript([user('u1', 'Hi')])).body.stream).toBe(true);
  });
});

describe('GI-P: server state', () => {
  it('GI-P1: the default request never carries previous_interaction_id, and store is false', () => {
    const { body } = convert(toolLoop(SAME));
    expect(body.store).toBe(false);
    expect('previous_interaction_id' in body).toBe(false);
    // The validator refuses the combination the API disables.
    expect(validateRequest(API, { ...body, previous_interaction_id: 'v1_abc' }).map((v) => v.rule)).toContain('GI-P1');
  });

  it('GI-P2: an empty interaction id is never chained from (the validator refuses it)', () => {
    const { body } = convert(toolLoop(SAME));
    const chained = { ...body, store: true, previous_interaction_id: '' };
    expect(validateRequest(API, chained).map((v) => v.rule)).toContain('GI-P2');
  });
});

describe('GI-T: tools', () => {
  it('GI-T1: each call has exactly one result step after it; an orphan call gets the synthetic error result (X1)', () => {
    const t = transcript(
      [
        user('u1', 'Go'),
        {
          id: 'a1',
          role: 'assistant',
          origin: CLAUDE,
          blocks: [
            { type: 'tool_call', id: 'c1', name: 'get_weather', input: { city: 'A' } },
            { type: 'tool_call', id: 'c2', name: 'get_weather', input: { city: 'B' } },
          ],
        },
        { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'c2', content: 'B ok' }] },
        { id: 't2', role: 'tool', blocks: [{ type: 'tool_result', callId: 'zz', content: 'stray' }] },
      ],
      { tools: TOOLS },
    );
    const { body, report } = convert(t);
    const steps = input(body);
    const results = steps.filter((s) => s.type === 'function_result');
    expect(results.map((r) => [r.call_id, r.is_error ?? false])).toEqual([
      ['c1', true],
      ['c2', false],
    ]);
    expect(report.synthesized.map((s) => s.kind)).toContain('error-result');
    // The orphan result became labelled user text.
    expect(JSON.stringify(steps.at(-1))).toContain('stray');
  });

  it('GI-T2: every function_result carries its call’s name (mapped through X5)', () => {
    const t = transcript([
      user('u1', 'Go'),
      {
        id: 'a1',
        role: 'assistant',
        origin: CLAUDE,
        blocks: [{ type: 'tool_call', id: 'c1', name: 'read file', input: {} }],
      },
      { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'c1', content: 'x' }] },
    ]);
    const steps = input(convert(t).body);
    const name = steps.find((s) => s.type === 'function_call')!.name as string;
    expect(name).toMatch(/^read_file/);
    expect(steps.find((s) => s.type === 'function_result')).toMatchObject({ name, call_id: 'c1' });
  });

  it('GI-T3: array results keep text and images; a failure sets is_error natively', () => {
    const t = transcript(
      [
        user('u1', 'Go'),
        {
          id: 'a1',
          role: 'assistant',
          origin: CLAUDE,
          blocks: [
            { type: 'tool_call', id: 'c1', name: 'get_weather', input: {} },
            { type: 'tool_call', id: 'c2', name: 'get_weather', input: {} },
          ],
        },
        {
          id: 't1',
          role: 'tool',
          blocks: [
            {
              type: 'tool_result',
              callId: 'c1',
              content: [
                { type: 'text', text: 'chart:' },
                { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
              ],
            },
            { type: 'tool_result', callId: 'c2', content: 'boom', isError: true },
          ],
        },
      ],
      { tools: TOOLS },
    );
    const results = input(convert(t).body).filter((s) => s.type === 'function_result');
    expect(results).toEqual([
      {
        type: 'function_result',
        call_id: 'c1',
        name: 'get_weather',
        result: [
          { type: 'text', text: 'chart:' },
          { type: 'image', data: 'iVBORw0KGgo=', mime_type: 'image/png' },
        ],
      },
      { type: 'function_result', call_id: 'c2', name: 'get_weather', result: 'boom', is_error: true },
    ]);
  });

  it('GI-T4: arguments are always an object (non-objects wrapped), ids unique and the same on call and result', () => {
    const t = transcript(
      [
        user('u1', 'Go'),
        {
          id: 'a1',
          role: 'assistant',
          origin: CLAUDE,
          blocks: [
            { type: 'tool_call', id: 'toolu.01/x', name: 'get_weather', input: 'Oslo' },
            { type: 'tool_call', id: 'toolu.01/x', name: 'get_weather', input: [1] },
          ],
        },
        {
          id: 't1',
          role: 'tool',
          blocks: [{ type: 'tool_result', callId: 'toolu.01/x', content: 'a' }],
        },
      ],
      { tools: TOOLS },
    );
    const { body, report } = convert(t);
    const calls = input(body).filter((s) => s.type === 'function_call');
    expect(calls.map((c) => c.arguments)).toEqual([{ value: 'Oslo' }, { value: [1] }]);
    const ids = calls.map((c) => c.id as string);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    const results = input(body).filter((s) => s.type === 'function_result');
    expect(results.map((r) => r.call_id).sort()).toEqual([...ids].sort());
    expect(fatesOf(report, 'a1', 0).map((f) => f.fate)).toContain('converted');
  });
});

describe('GI-K: thinking', () => {
  it('GI-K1: a same-origin thought is replayed with its signature, before the call it led to', () => {
    const steps = input(convert(toolLoop(SAME)).body);
    expect(steps.slice(1, 3)).toEqual([
      { type: 'thought', signature: 'c2lnLXRvb2w=', summary: [{ type: 'text', text: 'Need the tool.' }] },
      { type: 'function_call', id: 'fc_1', name: 'get_weather', arguments: { city: 'Oslo' } },
    ]);
  });

  it('GI-K1: a same-origin thought without a signature is never sent (dropped, reported)', () => {
    const { body, report } = convert(toolLoop(SAME, { type: 'thinking', text: 'Unsigned.' }));
    expect(input(body).some((s) => s.type === 'thought')).toBe(false);
    expect(fatesOf(report, 'a1', 0)).toEqual([{ fate: 'dropped', detail: expect.stringContaining('GI-K1') as string }]);
  });

  it('GI-K2: a thought without a summary is sent without one; none is made up', () => {
    const steps = input(convert(toolLoop(SAME, { type: 'thinking', text: '', signature: 'c2ln' })).body);
    expect(steps[1]).toEqual({ type: 'thought', signature: 'c2ln' });
  });

  it('GI-K2: foreign reasoning is never a thought step: dropped by default, labelled text by option', () => {
    const dropped = convert(toolLoop(CLAUDE));
    expect(input(dropped.body).some((s) => s.type === 'thought')).toBe(false);
    expect(fatesOf(dropped.report, 'a1', 0)[0]!.fate).toBe('dropped');
    const asText = convert(toolLoop(CLAUDE), FLASH, { foreignReasoning: 'text' });
    const steps = input(asText.body);
    expect(steps.some((s) => s.type === 'thought')).toBe(false);
    expect(JSON.stringify(steps[1])).toContain('Need the tool.');
    expect(steps[1]!.type).toBe('model_output');
  });

  it('GI-K3: a generateContent signature is not an Interactions signature: the call goes bare, with no thought', () => {
    const t = transcript(
      [
        user('u1', 'Weather?'),
        {
          id: 'a1',
          role: 'assistant',
          origin: GENERATE,
          blocks: [
            { type: 'thinking', text: 'Plan.', signature: 'Z2MtdGhvdWdodA==' },
            { type: 'tool_call', id: 'call_1', name: 'get_weather', input: {}, signature: 'Z2Mtc2ln' },
          ],
        },
        { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'call_1', content: 'ok' }] },
      ],
      { tools: TOOLS },
    );
    const { body, report } = convert(t);
    expect(JSON.stringify(body)).not.toContain('Z2M');
    expect(input(body)[1]).toEqual({ type: 'function_call', id: 'call_1', name: 'get_weather', arguments: {} });
    expect(fatesOf(report, 'a1', 1)[0]!.detail).toContain('signature dropped');
  });

  it('GI-K3: a turn of another Gemini model on Interactions is another origin: its thoughts are not replayed', () => {
    const { body } = convert(toolLoop({ ...SAME, model: 'gemini-3-pro-preview' }), FLASH);
    expect(input(body).some((s) => s.type === 'thought')).toBe(false);
  });

  it('GI-K4: an empty signature is never sent: a thought with "" is dropped', () => {
    const t = transcript([
      user('u1', 'Hi'),
      {
        id: 'a1',
        role: 'assistant',
        origin: SAME,
        blocks: [
          { type: 'thinking', text: 'x', signature: '' },
          { type: 'text', text: 'Hello.' },
        ],
      },
      user('u2', 'Bye'),
    ]);
    const { body } = convert(t);
    expect(JSON.stringify(body)).not.toContain('"signature":""');
    expect(input(body)[1]).toEqual({ type: 'model_output', content: [{ type: 'text', text: 'Hello.' }] });
  });
});

describe('native replay', () => {
  it('a same-origin turn whose native steps do not match its blocks is rebuilt from its blocks, with a warning', () => {
    const t = transcript([
      user('u1', 'Hi'),
      {
        id: 'a1',
        role: 'assistant',
        origin: SAME,
        blocks: [{ type: 'text', text: 'Edited answer.' }],
        native: { api: API, payload: [{ type: 'model_output', content: [{ type: 'text', text: 'Original.' }] }] },
      },
      user('u2', 'More'),
    ]);
    const { body, report } = convert(t);
    expect(input(body)[1]).toEqual({ type: 'model_output', content: [{ type: 'text', text: 'Edited answer.' }] });
    expect(report.warnings.join(' ')).toContain('not replayed');
  });

  it('max output tokens: the caller’s, capped at the model’s limit; an invalid one is an error', () => {
    expect(
      convertToGeminiInteractions(transcript([user('u1', 'Hi')]), { api: API, model: FLASH }).body.generation_config
        .max_output_tokens,
    ).toBeGreaterThan(0);
    expect(() =>
      convertToGeminiInteractions(transcript([user('u1', 'Hi')]), { api: API, model: FLASH, maxOutputTokens: 0 }),
    ).toThrow(/maxOutputTokens/);
  });
});
