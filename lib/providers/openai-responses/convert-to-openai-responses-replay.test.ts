import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { IdMap, PORTABLE_ID_POLICY } from '../../transcript/ids';
import { fenced } from '../../transcript/text';
import type { Origin } from '../../transcript/schema';
import { loadNeutralTranscripts } from '../../../test/fixtures/transcripts';
import {
  NATIVE,
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
  thinking,
  tool,
  transcript,
  user,
  userMsg,
} from './convert-to-openai-responses.test-helper';
import { parse as parseYaml } from 'yaml';
import { readOpenAIResponsesHistory, readOpenAIResponsesResponse } from './read-openai-responses';

const WEATHER = { name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } };
const WEATHER_TOOL = { type: 'function', name: 'get_weather', parameters: WEATHER.inputSchema, strict: false };
const R_K3 = 'reasoning without encrypted_content cannot be replayed with store: false (R-K3)';
const R_K1_ID = (id: string) => `item id ${id} left out: its reasoning item could not be sent (R-K1)`;
const ANNOTATION = {
  type: 'url_citation',
  url: 'https://example.com/oslo',
  title: 'Oslo',
  start_index: 0,
  end_index: 4,
};

/** A same-origin tool exchange: `a1` with `blocks` and `native`, its result, a final user turn. */
function loop(blocks: unknown[], native?: unknown[], extra: Record<string, unknown> = {}, origin: Origin = SAME) {
  return transcript(
    [
      user('u1', text('Weather in Oslo?')),
      assistant('a1', origin, blocks, {
        ...(native ? { native: { api: 'openai-responses', payload: native } } : {}),
        ...extra,
      }),
      tool('t1', result('call_1', '4°C')),
      user('u2', text('Thanks')),
    ],
    { tools: [WEATHER] },
  );
}
const rsBlock = (extra: Record<string, unknown> = {}) =>
  thinking('Plan', { signature: 'gAAAA1', meta: { itemId: 'rs_1' }, ...extra });
const fcBlock = call('call_1', 'get_weather', { city: 'Oslo' }, { meta: { itemId: 'fc_1' } });
const rsItem = {
  id: 'rs_1',
  type: 'reasoning',
  summary: [{ type: 'summary_text', text: 'Plan' }],
  encrypted_content: 'gAAAA1',
};
const fcItem = {
  id: 'fc_1',
  type: 'function_call',
  call_id: 'call_1',
  name: 'get_weather',
  arguments: '{"city": "Oslo"}',
};

describe('same-origin replay', () => {
  it('replays native output items verbatim, without output-only fields and raw reasoning content (R-K4)', () => {
    const t = transcript(
      [
        user('u1', text('Weather in Oslo?')),
        assistant('a1', SAME, [rsBlock(), fcBlock], {
          native: {
            api: 'openai-responses',
            payload: [
              { ...rsItem, content: [{ type: 'reasoning_text', text: 'raw' }], status: 'completed' },
              { ...fcItem, status: 'completed' },
            ],
          },
        }),
        tool('t1', result('call_1', '4°C')),
        assistant(
          'a2',
          SAME,
          [text('Oslo: 4°C.', { citations: [ANNOTATION], meta: { itemId: 'msg_2', phase: 'final_answer' } })],
          {
            native: {
              api: 'openai-responses',
              payload: [
                {
                  id: 'msg_2',
                  type: 'message',
                  status: 'completed',
                  role: 'assistant',
                  phase: 'final_answer',
                  content: [{ type: 'output_text', text: 'Oslo: 4°C.', annotations: [ANNOTATION], logprobs: [] }],
                },
              ],
            },
          },
        ),
        user('u2', text('Thanks')),
      ],
      { tools: [WEATHER] },
    );
    const out = convert(t);
    expect(out.body).toEqual(
      body(
        [
          userMsg('Weather in Oslo?'),
          rsItem,
          fcItem,
          fnOut('call_1', '4°C'),
          {
            id: 'msg_2',
            type: 'message',
            role: 'assistant',
            phase: 'final_answer',
            content: [{ type: 'output_text', text: 'Oslo: 4°C.', annotations: [ANNOTATION], logprobs: [] }],
          },
          userMsg('Thanks'),
        ],
        { tools: [WEATHER_TOOL] },
      ),
    );
    expect(out.report).toEqual(
      report(t, [at('u1', 0), at('a1', 0, NATIVE), at('a1', 1, NATIVE), at('t1', 0), at('a2', 0, NATIVE), at('u2', 0)]),
    );
  });

  it('drops native reasoning without encrypted_content (R-K3) and takes the fc id off the call it produced (R-K1)', () => {
    const { encrypted_content: _, ...plain } = rsItem;
    const t = loop([thinking('Plan', { meta: { itemId: 'rs_1' } }), fcBlock], [plain, fcItem]);
    const out = convert(t);
    expect(out.body).toEqual(
      body(
        [
          userMsg('Weather in Oslo?'),
          fnCall('call_1', 'get_weather', '{"city": "Oslo"}'),
          fnOut('call_1', '4°C'),
          userMsg('Thanks'),
        ],
        { tools: [WEATHER_TOOL] },
      ),
    );
    expect(out.report).toEqual(
      report(t, [
        at('u1', 0),
        at('a1', 0, NATIVE, fate('dropped', R_K3)),
        at('a1', 1, NATIVE, fate('converted', R_K1_ID('fc_1'))),
        at('t1', 0),
        at('u2', 0),
      ]),
    );
  });

  it('never sends a native function_call id that does not begin with fc (R-T2)', () => {
    const t = loop([rsBlock(), call('call_1', 'get_weather', { city: 'Oslo' })], [rsItem, { ...fcItem, id: 'call_1' }]);
    const out = convert(t);
    expect(out.body.input.slice(1, 3)).toEqual([rsItem, fnCall('call_1', 'get_weather', '{"city": "Oslo"}')]);
    expect(out.report.blocks[2]).toEqual(
      at('a1', 1, NATIVE, fate('converted', 'item id call_1 left out: a function_call id must begin with "fc" (R-T2)')),
    );
  });

  it('leaves reasoning ids out for Azure, which rejects them when store is false (R-K2)', () => {
    const azure: Origin = { ...SAME, endpoint: 'https://acme.openai.azure.com' };
    const t = loop([rsBlock(), fcBlock], [rsItem, fcItem], {}, azure);
    const out = convert(t, { endpoint: 'https://acme.openai.azure.com/openai/v1' });
    const { id: _, ...withoutId } = rsItem;
    expect(out.body.input.slice(1, 3)).toEqual([withoutId, fcItem]);
    expect(out.report.blocks.slice(1, 3)).toEqual([at('a1', 0, NATIVE), at('a1', 1, NATIVE)]);
  });

  const patch = {
    id: 'ctc_1',
    type: 'custom_tool_call',
    status: 'completed',
    call_id: 'call_c',
    name: 'apply_patch',
    input: '*** Begin Patch',
  };
  const patchTurn = () =>
    assistant(
      'a1',
      SAME,
      [
        thinking('', { signature: 'gAAAA1', meta: { itemId: 'rs_1' } }),
        { type: 'provider_item', api: 'openai-responses', item: patch, text: '*** Begin Patch' },
      ],
      {
        native: {
          api: 'openai-responses',
          payload: [{ id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAA1' }, patch],
        },
      },
    );
  const { status: _status, ...patchInput } = patch;

  it("replays a custom tool call together with its output, both the target's own provider items", () => {
    const output = { type: 'custom_tool_call_output', call_id: 'call_c', output: 'applied' };
    const t = transcript([
      user('u1', text('Patch it.')),
      patchTurn(),
      tool('t1', { type: 'provider_item', api: 'openai-responses', item: output, text: 'applied' }),
      user('u2', text('Next')),
    ]);
    const out = convert(t);
    expect(out.body).toEqual(
      body([
        userMsg('Patch it.'),
        { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAA1' },
        patchInput,
        output,
        userMsg('Next'),
      ]),
    );
    expect(out.report).toEqual(
      report(t, [at('u1', 0), at('a1', 0, NATIVE), at('a1', 1, NATIVE), at('t1', 0), at('u2', 0)]),
    );
  });

  it("keeps a custom tool call's output next to the function results of the same turn", () => {
    const output = { type: 'custom_tool_call_output', call_id: 'call_c', output: 'applied' };
    const t = transcript(
      [
        user('u1', text('Patch and check.')),
        assistant('a1', SAME, [
          { type: 'provider_item', api: 'openai-responses', item: patch, text: '*** Begin Patch' },
          fcBlock,
        ]),
        tool('t1', result('call_1', '4°C'), { type: 'provider_item', api: 'openai-responses', item: output }),
        user('u2', text('Next')),
      ],
      { tools: [WEATHER] },
    );
    const out = convert(t);
    expect(out.body).toEqual(
      body(
        [
          userMsg('Patch and check.'),
          patchInput,
          fnCall('call_1', 'get_weather', '{"city":"Oslo"}', { id: 'fc_1' }),
          fnOut('call_1', '4°C'),
          output,
          userMsg('Next'),
        ],
        { tools: [WEATHER_TOOL] },
      ),
    );
    expect(out.report).toEqual(
      report(t, [at('u1', 0), at('a1', 0), at('a1', 1), at('t1', 0), at('t1', 1), at('u2', 0)]),
    );
  });

  it('sends a client tool call whose output is not in the request as its text (R-T3)', () => {
    const t = transcript([user('u1', text('Patch it.')), patchTurn(), user('u2', text('Next'))]);
    const out = convert(t);
    expect(out.body).toEqual(
      body([
        userMsg('Patch it.'),
        { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAA1' },
        asstMsg('[openai-responses custom_tool_call item, as text]\n```\n*** Begin Patch\n```'),
        userMsg('Next'),
      ]),
    );
    expect(out.report).toEqual(
      report(t, [
        at('u1', 0),
        at('a1', 0, NATIVE),
        at(
          'a1',
          1,
          NATIVE,
          fate(
            'converted',
            'custom_tool_call item cannot be replayed (no custom_tool_call_output with its call_id in this request, R-T3): its text was sent instead',
          ),
        ),
        at('u2', 0),
      ]),
    );
  });

  it('rebuilds merged same-origin turns keeping msg/rs ids, summaries, annotations and refusals from native', () => {
    const a1Native = [
      {
        id: 'rs_1',
        type: 'reasoning',
        summary: [
          { type: 'summary_text', text: 'Step 1' },
          { type: 'summary_text', text: 'Step 2' },
        ],
        encrypted_content: 'gAAAA1',
      },
      {
        id: 'msg_1',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'Part one.', annotations: [ANNOTATION] },
          { type: 'output_text', text: 'Part two.', annotations: [] },
        ],
      },
    ];
    const a2Native = [
      {
        id: 'msg_2',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'refusal', refusal: 'I cannot help with that.' }],
      },
    ];
    const blocks1 = [
      thinking('Step 1\n\nStep 2', { signature: 'gAAAA1', meta: { itemId: 'rs_1' } }),
      text('Part one.', { citations: [ANNOTATION], meta: { itemId: 'msg_1' } }),
      text('Part two.', { meta: { itemId: 'msg_1' } }),
    ];
    const blocks2 = [text('I cannot help with that.', { meta: { itemId: 'msg_2', refusal: true } })];
    const make = (withNative: boolean) =>
      transcript([
        user('u1', text('Q')),
        assistant('a1', SAME, blocks1, withNative ? { native: { api: 'openai-responses', payload: a1Native } } : {}),
        assistant('a2', SAME, blocks2, withNative ? { native: { api: 'openai-responses', payload: a2Native } } : {}),
        user('u2', text('Why?')),
      ]);
    const refusal = {
      type: 'message',
      role: 'assistant',
      id: 'msg_2',
      content: [{ type: 'refusal', refusal: 'I cannot help with that.' }],
    };
    const fromNative = convert(make(true));
    expect(fromNative.body).toEqual(
      body([
        userMsg('Q'),
        a1Native[0],
        {
          type: 'message',
          role: 'assistant',
          id: 'msg_1',
          content: [
            { type: 'output_text', text: 'Part one.', annotations: [ANNOTATION] },
            { type: 'output_text', text: 'Part two.', annotations: [] },
          ],
        },
        refusal,
        userMsg('Why?'),
      ]),
    );
    const t = make(false);
    const fromMeta = convert(t);
    expect(fromMeta.body).toEqual(
      body([
        userMsg('Q'),
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: 'Step 1\n\nStep 2' }],
          encrypted_content: 'gAAAA1',
        },
        {
          type: 'message',
          role: 'assistant',
          id: 'msg_1',
          content: [
            { type: 'output_text', text: 'Part one.', annotations: [ANNOTATION] },
            { type: 'output_text', text: 'Part two.' },
          ],
        },
        refusal,
        userMsg('Why?'),
      ]),
    );
    expect(fromMeta.report).toEqual(
      report(t, [at('u1', 0), at('a1', 0), at('a1', 1), at('a1', 2), at('a2', 0), at('u2', 0)]),
    );
    expect(fromNative.report).toEqual(fromMeta.report);
  });

  it('drops unsigned reasoning of an interrupted turn (R-K3) and the fc id of its call (R-K1)', () => {
    const t = loop([thinking('Partial plan', { meta: { itemId: 'rs_1', partial: true } }), fcBlock], [rsItem, fcItem], {
      status: 'interrupted',
    });
    const out = convert(t);
    // Rebuilt from blocks, the call keeps the model's own argument text from native.
    expect(out.body).toEqual(
      body(
        [
          userMsg('Weather in Oslo?'),
          fnCall('call_1', 'get_weather', '{"city": "Oslo"}'),
          fnOut('call_1', '4°C'),
          userMsg('Thanks'),
        ],
        { tools: [WEATHER_TOOL] },
      ),
    );
    expect(out.report).toEqual(
      report(t, [
        at('u1', 0),
        at('a1', 0, fate('dropped', R_K3)),
        at('a1', 1, fate('converted', R_K1_ID('fc_1'))),
        at('t1', 0),
        at('u2', 0),
      ]),
    );
  });

  it('re-serialises arguments when the native text does not say what the block says', () => {
    const t = loop(
      [
        thinking('', { meta: { itemId: 'rs_1' } }),
        call('call_1', 'get_weather', { city: 'Bergen' }, { meta: { itemId: 'fc_1' } }),
      ],
      [{ id: 'rs_1', type: 'reasoning', summary: [] }, fcItem],
    );
    expect(convert(t).body.input[1]).toEqual(fnCall('call_1', 'get_weather', '{"city":"Bergen"}'));
  });

  it('takes the fc id off a call whose empty reasoning the pre-pass removed (R-K1)', () => {
    const t = loop(
      [thinking('', { meta: { itemId: 'rs_1' } }), fcBlock],
      [{ id: 'rs_1', type: 'reasoning', summary: [] }, fcItem],
    );
    const out = convert(t);
    expect(out.body.input.slice(1, 3)).toEqual([
      fnCall('call_1', 'get_weather', '{"city": "Oslo"}'),
      fnOut('call_1', '4°C'),
    ]);
    expect(out.report.blocks.slice(1, 3)).toEqual([
      at('a1', 0, fate('dropped', 'empty thinking without signature (A-E2, X4)')),
      at('a1', 1, fate('converted', R_K1_ID('fc_1'))),
    ]);
  });

  it('drops reasoning whose call was cut off (A-T9): a reasoning item needs the item after it (R-K1)', () => {
    const t = transcript(
      [
        user('u1', text('Weather?')),
        assistant('a1', SAME, [rsBlock(), fcBlock], { stopReason: 'max_tokens' }),
        user('u2', text('Again')),
      ],
      { tools: [WEATHER] },
    );
    const out = convert(t);
    // The assistant turn vanished, so the two user messages merge into one.
    expect(out.body).toEqual(body([userMsg('Weather?', 'Again')], { tools: [WEATHER_TOOL] }));
    expect(out.report).toEqual(
      report(t, [
        at('u1', 0),
        at('a1', 0, fate('dropped', 'reasoning item without the item it produced after it (R-K1)')),
        at('a1', 1, fate('dropped', 'unfinished tool call: its arguments were cut off (A-T9)')),
        at('u2', 0),
      ]),
    );
  });

  it('keeps the fc id when the call id is mapped (X2), which rules out native replay', () => {
    const odd = 'call|1';
    const mapped = new IdMap(PORTABLE_ID_POLICY).assign(odd);
    const t = transcript(
      [
        user('u1', text('Weather?')),
        assistant('a1', SAME, [rsBlock(), call(odd, 'get_weather', {}, { meta: { itemId: 'fc_1' } })], {
          native: { api: 'openai-responses', payload: [rsItem, { ...fcItem, call_id: odd }] },
        }),
        tool('t1', result(odd, '4°C')),
        user('u2', text('Thanks')),
      ],
      { tools: [WEATHER] },
    );
    const out = convert(t);
    expect(out.body.input.slice(1, 4)).toEqual([
      rsItem,
      fnCall(mapped, 'get_weather', '{}', { id: 'fc_1' }),
      fnOut(mapped, '4°C'),
    ]);
    expect(out.report.blocks.slice(1, 4)).toEqual([
      at('a1', 0),
      at('a1', 1, fate('id-mapped', `${odd} → ${mapped}`)),
      at('t1', 0, fate('id-mapped', `${odd} → ${mapped}`)),
    ]);
  });

  it('replays a same-origin provider item the API takes as input, and sends the text of one it does not', () => {
    const t = transcript([
      user('u1', text('Draw.')),
      assistant('a1', SAME, [
        {
          type: 'provider_item',
          api: 'openai-responses',
          item: { id: 'ig_1', type: 'image_generation_call', status: 'completed', result: 'UklGRg==' },
          text: 'a cat',
        },
        { type: 'provider_item', api: 'openai-responses', item: { id: 'x_1', type: 'mystery_call' }, text: 'mystery' },
        { type: 'provider_item', api: 'openai-responses', item: { type: 'input_audio' } },
        text('Done.'),
      ]),
      user('u2', text('Nice')),
    ]);
    const out = convert(t);
    expect(out.body).toEqual(
      body([
        userMsg('Draw.'),
        { id: 'ig_1', type: 'image_generation_call', result: 'UklGRg==' },
        asstMsg('[openai-responses mystery_call item, as text]\n```\nmystery\n```'),
        asstMsg('Done.'),
        userMsg('Nice'),
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
            'mystery_call item cannot be replayed (not an input item of the Responses API): its text was sent instead',
          ),
        ),
        at(
          'a1',
          2,
          fate(
            'dropped',
            'input_audio item cannot be replayed (not an input item of the Responses API) and has no text',
          ),
        ),
        at('a1', 3),
        at('u2', 0),
      ]),
    );
  });

  it("provider-items: replays its own image generation call, labels another provider's items (neutral transcript)", () => {
    const t = loadNeutralTranscripts()['provider-items']!;
    const out = convert(t);
    expect(out.body).toEqual(
      body([
        userMsg("What's new in Node 24?"),
        {
          type: 'message',
          role: 'assistant',
          content: [
            {
              type: 'output_text',
              text: '[anthropic-messages item from anthropic/claude-sonnet-4-5 (anthropic-messages), as text]\n```\nweb_search: Node 24 release\n```',
            },
            { type: 'output_text', text: 'Node 24 ships V8 13.6.' },
          ],
        },
        userMsg('Draw it.'),
        { type: 'image_generation_call', id: 'ig_01', result: 'iVBORw0KGgo=' },
        asstMsg('Here is a drawing.'),
        userMsg('Thanks. Summarise both.'),
      ]),
    );
    expect(out.report).toEqual(
      report(t, [
        at('u1', 0),
        at(
          'a1',
          0,
          fate(
            'converted',
            'anthropic-messages item from anthropic/claude-sonnet-4-5 (anthropic-messages) sent as labelled text',
          ),
        ),
        at(
          'a1',
          1,
          fate(
            'dropped',
            'anthropic-messages item has no meaning outside anthropic/claude-sonnet-4-5 (anthropic-messages)',
          ),
        ),
        at('a1', 2, fate('converted', 'citations dropped, text kept (A-C1, G-C1)')),
        at('u2', 0),
        at('a2', 0),
        at('a2', 1),
        at('u3', 0),
      ]),
    );
  });
});

// Real responses recorded by vercel/ai (../shared/fixtures/SOURCES.md), read by this folder's reader.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SHARED = path.resolve(ROOT, '../shared/fixtures');
const has = fs.existsSync(SHARED);
if (!has) console.warn('skipping: ../shared/fixtures not found');

describe.skipIf(!has)('same-origin replay of recorded responses (shared fixtures)', () => {
  const load = (name: string) =>
    JSON.parse(fs.readFileSync(path.join(SHARED, 'recorded-streams/openai-responses', name), 'utf8')) as {
      model: string;
      output: Record<string, unknown>[];
    };
  const replay = (name: string, requested: string) => {
    const response = load(name);
    const turn = readOpenAIResponsesResponse(response, { provider: 'openai', requestedModel: requested, turnId: 'a1' });
    const t = transcript([user('u1', text('Go')), turn, user('u2', text('Thanks'))]);
    return { response, t, out: convert(t, { model: requested }) };
  };
  const without = (item: Record<string, unknown>, ...keys: string[]) =>
    Object.fromEntries(Object.entries(item).filter(([k]) => !keys.includes(k)));
  const mini = { model: 'gpt-5-mini', include: ['reasoning.encrypted_content'] };

  it('gpt-5.5 interleaved reasoning and calls (simonw/llm cassette): the recorded stateless request replays item for item', () => {
    const cassette = parseYaml(
      fs.readFileSync(
        path.join(SHARED, 'recorded-streams/openai-responses/llm-cassette-interleaved-reasoning-tool-calls.yaml'),
        'utf8',
      ),
    ) as {
      interactions: { request: { body: string } }[];
    };
    const sent = JSON.parse(cassette.interactions.at(-1)!.request.body) as {
      model: string;
      input: Record<string, unknown>[];
    };
    const t = readOpenAIResponsesHistory(sent);
    const out = convert(t, { model: sent.model });
    expect(sent.input.filter((i) => i.type === 'reasoning').length).toBeGreaterThan(1);
    // The one difference: the user's string content is sent as an input_text part.
    const expected = sent.input.map((i) => (i.role === 'user' ? userMsg(i.content as string) : i));
    expect(out.body.input).toEqual(expected);
    const assistantTurns = new Set(t.turns.filter((x) => x.role === 'assistant').map((x) => x.id));
    for (const b of out.report.blocks)
      expect(b.fates).toEqual(assistantTurns.has(b.turn) ? [NATIVE] : [{ fate: 'kept', detail: 'sent as is' }]);
  });

  it('gpt-5-mini reasoning + message (store: false): replayed verbatim minus status', () => {
    const { response, t, out } = replay('reasoning-encrypted-function-calls.response.json', 'gpt-5-mini');
    const [rs, msg] = response.output;
    expect(out.body).toEqual(
      body([userMsg('Go'), rs, without(msg!, 'status'), userMsg('Thanks')], { ...mini, reasoning: out.body.reasoning }),
    );
    expect(out.report).toEqual(report(t, [at('u1', 0), at('a1', 0, NATIVE), at('a1', 1, NATIVE), at('u2', 0)]));
  });

  it('gpt-5-mini web search (store: true): no reasoning can be sent, so the searches that need it go as text and the message loses its id (R-K3, R-K1)', () => {
    const { response, t, out } = replay('web-search-url-citations.response.json', 'gpt-5-mini');
    const msg = response.output.find((i) => i.type === 'message') as {
      id: string;
      content: { text: string; annotations: unknown[] }[];
    };
    const blocks = t.turns[1]!.blocks;
    expect(blocks.map((b) => b.type)).toEqual([
      'thinking',
      'provider_item',
      'thinking',
      'provider_item',
      'thinking',
      'provider_item',
      'thinking',
      'text',
    ]);
    // The reader's readable rendering of each search, if it gives one, is what stands in for it.
    const searches = blocks.flatMap((b) =>
      b.type === 'provider_item' && b.text
        ? [asstMsg(fenced('[openai-responses web_search_call item, as text]', b.text))]
        : [],
    );
    expect(out.body).toEqual(
      body(
        [
          userMsg('Go'),
          ...searches,
          {
            type: 'message',
            role: 'assistant',
            content: [{ type: 'output_text', text: msg.content[0]!.text, annotations: msg.content[0]!.annotations }],
          },
          userMsg('Thanks'),
        ],
        {
          ...mini,
          reasoning: out.body.reasoning,
        },
      ),
    );
    const why = 'web_search_call item cannot be replayed (the reasoning item before it could not be sent, R-K1)';
    expect(out.report.blocks.filter((b) => b.turn === 'a1')).toEqual(
      blocks.map((b, i) =>
        b.type === 'thinking'
          ? at('a1', i, fate('dropped', 'empty thinking without signature (A-E2, X4)'))
          : b.type === 'provider_item'
            ? at(
                'a1',
                i,
                b.text
                  ? fate('converted', `${why}: its text was sent instead`)
                  : fate('dropped', `${why} and has no text`),
              )
            : at('a1', i, fate('converted', R_K1_ID(msg.id))),
      ),
    );
  });

  it('gpt-5-nano image generation (store: true): the call needs its unsent reasoning item, so its revised prompt is sent as text (R-K1)', () => {
    const { response, t, out } = replay('image-generation-call.response.json', 'gpt-5-nano');
    const ig = response.output.find((i) => i.type === 'image_generation_call') as { revised_prompt: string };
    expect(out.body).toEqual(
      body(
        [
          userMsg('Go'),
          asstMsg(`[openai-responses image_generation_call item, as text]\n\`\`\`\n${ig.revised_prompt}\n\`\`\``),
          userMsg('Thanks'),
        ],
        {
          ...mini,
          model: 'gpt-5-nano',
          reasoning: out.body.reasoning,
        },
      ),
    );
    expect(out.report).toEqual(
      report(t, [
        at('u1', 0),
        at('a1', 0, fate('dropped', 'empty thinking without signature (A-E2, X4)')),
        at(
          'a1',
          1,
          fate(
            'converted',
            'image_generation_call item cannot be replayed (the reasoning item before it could not be sent, R-K1): its text was sent instead',
          ),
        ),
        at('a1', 2, fate('dropped', 'empty thinking without signature (A-E2, X4)')),
        at('u2', 0),
      ]),
    );
  });
});

describe('adjacent user messages', () => {
  it('merge when the assistant turn between them had nothing Responses can carry', () => {
    const t = transcript([
      user('u1', text('first')),
      assistant('a1', { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' }, [
        { type: 'redacted_thinking', data: 'EmwK' },
      ]),
      user('u2', text('second')),
    ]);
    expect(convert(t).body.input).toEqual([userMsg('first', 'second')]);
  });
});
