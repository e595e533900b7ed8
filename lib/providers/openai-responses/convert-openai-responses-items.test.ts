import { describe, expect, it } from 'vitest';
import { nativeItemProblem, providerItemProblem } from './convert-openai-responses-native';
import {
  SAME,
  asstMsg,
  assistant,
  at,
  body,
  call,
  convert,
  fate,
  fnCall,
  fnOut,
  report,
  result,
  text,
  tool,
  transcript,
  user,
  userMsg,
} from './convert-to-openai-responses.test-helper';

const F = { name: 'f', inputSchema: { type: 'object' } };
const F_TOOL = { type: 'function', name: 'f', parameters: { type: 'object' }, strict: false };
const item = (i: Record<string, unknown>, t?: string) => ({
  type: 'provider_item',
  api: 'openai-responses',
  item: i,
  ...(t !== undefined ? { text: t } : {}),
});

/** A same-origin call turn whose native items are `payload`, then its result. */
const loop = (payload: unknown[]) =>
  transcript(
    [
      user('u1', text('go')),
      assistant('a1', SAME, [text('calling'), call('c1', 'f')], { native: { api: 'openai-responses', payload } }),
      tool('t1', result('c1', 'ok')),
    ],
    { tools: [F] },
  );
const rebuiltInput = [userMsg('go'), asstMsg('calling'), fnCall('c1', 'f', '{}'), fnOut('c1', 'ok')];
const warning = (problem: string) =>
  `turn a1: its native output items were not replayed (${problem}); rebuilt from its blocks`;

describe('same-origin native output items are checked before they are replayed', () => {
  it('rebuilds from the blocks when the items leave out the turn’s call, so the report never claims it was replayed', () => {
    const t = loop([{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'calling' }] }]);
    expect(convert(t)).toEqual({
      api: 'openai-responses',
      model: 'gpt-5.5',
      body: body(rebuiltInput, { tools: [F_TOOL] }),
      report: report(
        t,
        [at('u1', 0), at('a1', 0), at('a1', 1), at('t1', 0)],
        [],
        [warning('its items stand for 1 blocks, the turn has 2')],
      ),
    });
  });

  it('rebuilds from the blocks when an item is malformed', () => {
    const t = loop([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 5 }] },
      { type: 'function_call' },
    ]);
    const out = convert(t);
    expect(out.body).toEqual(body(rebuiltInput, { tools: [F_TOOL] }));
    expect(out.report.warnings).toEqual([warning('item 0: a message part that is not output_text or refusal')]);
  });

  it('rebuilds when an item names another call than the turn’s', () => {
    const t = loop([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'calling' }] },
      { type: 'function_call', call_id: 'c9', name: 'f', arguments: '{}' },
    ]);
    const out = convert(t);
    expect(out.body).toEqual(body(rebuiltInput, { tools: [F_TOOL] }));
    expect(out.report.warnings).toEqual([warning('its items do not match block 1 (tool_call)')]);
  });
});

describe('same-origin provider items the API would not take as input (R-1, X1, R-T3)', () => {
  it('never replays items that have a block form, nor ones missing the id or call_id the API needs', () => {
    const t = transcript([
      user('u1', text('go')),
      assistant('a1', SAME, [
        text('a'),
        item({ type: 'function_call', call_id: 'zz', name: 'f', arguments: '{}' }, 'f()'),
        item({ type: 'reasoning', summary: [] }),
        item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '' }] }),
        item({ type: 'web_search_call', action: { type: 'search', query: 'x' } }, 'Web search: x'),
        item({ type: 'custom_tool_call', name: 'patch', input: 'x' }),
      ]),
      user('u2', text('next')),
    ]);
    const out = convert(t);
    expect(out.body).toEqual(
      body([
        userMsg('go'),
        asstMsg('a'),
        asstMsg('[openai-responses function_call item, as text]\n```\nf()\n```'),
        asstMsg('[openai-responses web_search_call item, as text]\n```\nWeb search: x\n```'),
        userMsg('next'),
      ]),
    );
    expect(out.report).toEqual(
      report(t, [
        at('u1', 0),
        at('a1', 0),
        at(
          'a1',
          1,
          fate(
            'converted',
            'function_call item cannot be replayed (a function_call item replays only as its transcript block): its text was sent instead',
          ),
        ),
        at(
          'a1',
          2,
          fate(
            'dropped',
            'reasoning item cannot be replayed (a reasoning item replays only as its transcript block) and has no text',
          ),
        ),
        at(
          'a1',
          3,
          fate(
            'dropped',
            'message item cannot be replayed (a message item replays only as its transcript block) and has no text',
          ),
        ),
        at(
          'a1',
          4,
          fate(
            'converted',
            'web_search_call item cannot be replayed (web_search_call without its id): its text was sent instead',
          ),
        ),
        at(
          'a1',
          5,
          fate(
            'dropped',
            'custom_tool_call item cannot be replayed (custom_tool_call without a call_id (R-T3)) and has no text',
          ),
        ),
        at('u2', 0),
      ]),
    );
  });

  it('drops a tool turn’s second output for a call and its block-form items', () => {
    const patch = { type: 'custom_tool_call', call_id: 'call_c', name: 'patch', input: 'x' };
    const output = { type: 'custom_tool_call_output', call_id: 'call_c', output: 'applied' };
    const t = transcript([
      user('u1', text('go')),
      assistant('a1', SAME, [item(patch)]),
      tool(
        't1',
        item(output),
        item({ ...output, output: 'again' }),
        item({ type: 'function_call_output', call_id: 'call_c', output: 'x' }),
        item({ type: 'message', role: 'user', content: 'hi' }),
      ),
      user('u2', text('next')),
    ]);
    const out = convert(t);
    expect(out.body).toEqual(body([userMsg('go'), patch, output, userMsg('next')]));
    expect(out.report).toEqual(
      report(t, [
        at('u1', 0),
        at('a1', 0),
        at('t1', 0),
        at(
          't1',
          1,
          fate(
            'dropped',
            'custom_tool_call_output item cannot be replayed (a second custom_tool_call_output with call_id call_c, X1) and has no text',
          ),
        ),
        at(
          't1',
          2,
          fate(
            'dropped',
            'function_call_output item cannot be replayed (a function_call_output item replays only as its transcript block) and has no text',
          ),
        ),
        at(
          't1',
          3,
          fate(
            'dropped',
            'message item cannot be replayed (a message item replays only as its transcript block) and has no text',
          ),
        ),
        at('u2', 0),
      ]),
    );
  });
});

describe('item checks', () => {
  it.each([
    [{ type: 'image_generation_call', id: 'ig_1', result: 'UklGRg==' }, undefined],
    [{ type: 'mystery' }, 'not an input item of the Responses API'],
    [{ type: 'item_reference', id: 'rs_1' }, 'not an input item of the Responses API'],
    [
      { type: 'function_call_output', call_id: 'c', output: 'x' },
      'a function_call_output item replays only as its transcript block',
    ],
    [{ type: 'mcp_call', name: 'x' }, 'mcp_call without its id'],
    [{ type: 'tool_search_call', execution: 'server', id: 'ts_1' }, undefined],
    [{ type: 'shell_call_output', output: [] }, 'shell_call_output without a call_id (R-T3)'],
  ])('providerItemProblem(%j) → %s', (i, problem) => {
    expect(providerItemProblem(i)).toBe(problem);
  });

  it.each([
    [
      {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'a', annotations: [] },
          { type: 'refusal', refusal: 'no' },
        ],
      },
      undefined,
    ],
    [{ role: 'assistant', content: 'hi' }, undefined],
    [{ role: 'assistant', content: ' ' }, 'empty message content (X4)'],
    [{ type: 'message', role: 'user', content: 'hi' }, 'a "user" message in an assistant turn'],
    [
      { type: 'message', role: 'assistant', content: [{ type: 'output_audio' }] },
      'a message part that is not output_text or refusal',
    ],
    [{ type: 'reasoning', summary: [{ type: 'summary_text', text: 'p' }], encrypted_content: 'gAAAA' }, undefined],
    [{ type: 'reasoning', summary: 'p' }, 'reasoning summary is not a list of summary_text entries (R-1)'],
    [{ type: 'reasoning', summary: [], encrypted_content: 5 }, 'encrypted_content is not a string'],
    [
      { type: 'function_call', call_id: 'c', name: 'f', arguments: {} },
      'function_call arguments are not a JSON string (R-1)',
    ],
    [{ type: 'function_call', name: 'f', arguments: '{}' }, 'function_call without call_id or name (R-1)'],
    [
      { type: 'custom_tool_call_output', call_id: 'c', output: 'x' },
      'custom_tool_call_output is an output item, not part of an assistant turn (X1)',
    ],
    [{ type: 'web_search_call', id: 'ws_1' }, undefined],
    [7, 'not an object'],
    [{ id: 'x' }, 'no item type'],
  ])('nativeItemProblem(%j) → %s', (i, problem) => {
    expect(nativeItemProblem(i)).toBe(problem);
  });
});
