import { describe, expect, it } from 'vitest';
import { lookupModel } from '../../models/registry';
import { TranscriptError } from '../../transcript/codec';
import { IdMap, PORTABLE_ID_POLICY } from '../../transcript/ids';
import { loadNeutralTranscripts } from '../../../test/fixtures/transcripts';
import { convertToOpenAIResponses } from './convert-to-openai-responses';
import {
  CLAUDE,
  CONTINUE,
  MINI,
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

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjQK';
const WEATHER = {
  name: 'get_weather',
  description: 'Weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
};
const WEATHER_TOOL = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather for a city.',
  parameters: WEATHER.inputSchema,
  strict: false,
};

describe('request', () => {
  it('uses a reasoning model from the registry (precondition of these tests)', () => {
    const info = lookupModel('gpt-5.5', 'openai');
    expect([info.reasoning, typeof info.minReasoningEffort]).toEqual([true, 'string']);
    expect(lookupModel('gpt-4.1', 'openai').reasoning).toBe(false);
  });

  it('sends the system prompt as instructions, statelessly, with encrypted reasoning included', () => {
    const t = transcript([user('u1', text('Hi')), assistant('a1', CLAUDE, [text('Hello!')]), user('u2', text('Bye'))], {
      system: 'Be brief.',
    });
    const out = convert(t);
    expect(out.api).toBe('openai-responses');
    expect(out.model).toBe('gpt-5.5');
    expect(out.body).toEqual(body([userMsg('Hi'), asstMsg('Hello!'), userMsg('Bye')], { instructions: 'Be brief.' }));
    expect(out.report).toEqual(report(t, [at('u1', 0), at('a1', 0), at('u2', 0)]));
  });

  it('leaves out a blank system prompt', () => {
    const out = convert(transcript([user('u1', text('Hi'))], { system: '  ' }));
    expect(out.body).toEqual(body([userMsg('Hi')]));
  });

  it('takes max_output_tokens from the registry when the target gives none', () => {
    const out = convertToOpenAIResponses(transcript([user('u1', text('Hi'))]), {
      api: 'openai-responses',
      model: 'gpt-5.5',
    });
    expect(out.body.max_output_tokens).toBe(lookupModel('gpt-5.5', 'openai').defaultOutputTokens);
  });

  it("caps max_output_tokens at the model's limit, with a warning, and rejects a limit that is not a positive integer", () => {
    const t = transcript([user('u1', text('Hi'))]);
    const max = lookupModel('gpt-5.5', 'openai').maxOutputTokens;
    const out = convert(t, { maxOutputTokens: 999_999_999 });
    expect(out.body).toEqual(body([userMsg('Hi')], { max_output_tokens: max }));
    expect(out.report).toEqual(
      report(t, [at('u1', 0)], [], [`max_output_tokens 999999999 exceeds the limit of gpt-5.5 (${max}): sent ${max}`]),
    );
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() =>
        convertToOpenAIResponses(t, { api: 'openai-responses', model: 'gpt-5.5', maxOutputTokens: bad }),
      ).toThrow(TranscriptError);
  });

  it('asks for medium effort with summaries when thinking is on', () => {
    const t = transcript([user('u1', text('Think.'))]);
    expect(convert(t, { thinking: true }).body).toEqual(
      body([userMsg('Think.')], { reasoning: { effort: 'medium', summary: 'auto' } }),
    );
  });

  it('sends no reasoning fields to a model that does not reason, and warns when thinking was asked for', () => {
    const t = transcript([user('u1', text('Hi'))]);
    const out = convert(t, { model: 'gpt-4.1', thinking: true });
    expect(out.body).toEqual({
      model: 'gpt-4.1',
      input: [userMsg('Hi')],
      stream: true,
      store: false,
      max_output_tokens: 1000,
    });
    expect(out.report).toEqual(
      report(
        t,
        [at('u1', 0)],
        [],
        ['thinking was requested, but gpt-4.1 is not a reasoning model: no reasoning parameter sent'],
      ),
    );
  });

  it('defines tools as non-strict functions, description only when there is one', () => {
    const t = transcript([user('u1', text('Hi'))], {
      tools: [WEATHER, { name: 'ls', inputSchema: { type: 'object' } }],
    });
    expect(convert(t).body).toEqual(
      body([userMsg('Hi')], {
        tools: [WEATHER_TOOL, { type: 'function', name: 'ls', parameters: { type: 'object' }, strict: false }],
      }),
    );
  });

  it('defines stub tools with tool_choice none when the history calls tools the request does not offer (X8)', () => {
    const t = transcript([
      user('u1', text('Weather?')),
      assistant('a1', CLAUDE, [call('toolu_1', 'get_weather', { city: 'Oslo' })]),
      tool('t1', result('toolu_1', '4°C')),
      user('u2', text('Thanks')),
    ]);
    const out = convert(t);
    expect(out.body).toEqual(
      body(
        [
          userMsg('Weather?'),
          fnCall('toolu_1', 'get_weather', '{"city":"Oslo"}'),
          fnOut('toolu_1', '4°C'),
          userMsg('Thanks'),
        ],
        {
          tools: [
            {
              type: 'function',
              name: 'get_weather',
              description: 'This tool was used earlier in the conversation and is not available now. Do not call it.',
              parameters: { type: 'object', properties: {} },
              strict: false,
            },
          ],
          tool_choice: 'none',
        },
      ),
    );
    expect(out.report.synthesized).toEqual([
      { kind: 'stub-tool', detail: 'get_weather: used in the history but not defined by the request (X8, A-T6)' },
    ]);
  });

  it('throws a TranscriptError for a target of another API', () => {
    expect(() => convertToOpenAIResponses(transcript([]), { api: 'openai-chat', model: 'gpt-5.5' })).toThrow(
      TranscriptError,
    );
  });
});

describe('user turns', () => {
  it('sends text, images (data URL or URL) and PDFs (file_data with filename, or file_url) in one message', () => {
    const t = transcript([
      user(
        'u1',
        text('Look:'),
        { type: 'image', mediaType: 'image/png', data: PNG },
        { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/c.jpg' },
      ),
      user(
        'u2',
        { type: 'document', mediaType: 'application/pdf', data: PDF, title: 'spec.pdf' },
        { type: 'document', mediaType: 'application/pdf', data: PDF },
        { type: 'document', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' },
      ),
    ]);
    const out = convert(t);
    expect(out.body).toEqual(
      body([
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look:' },
            { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
            { type: 'input_image', image_url: 'https://example.com/c.jpg', detail: 'auto' },
            { type: 'input_file', filename: 'spec.pdf', file_data: `data:application/pdf;base64,${PDF}` },
            { type: 'input_file', filename: 'document.pdf', file_data: `data:application/pdf;base64,${PDF}` },
            { type: 'input_file', file_url: 'https://example.com/a.pdf' },
          ],
        },
      ]),
    );
    expect(out.report).toEqual(
      report(t, [at('u1', 0), at('u1', 1), at('u1', 2), at('u2', 0), at('u2', 1), at('u2', 2)]),
    );
  });

  it('replaces images and PDFs with placeholders for a model that reads neither (registry: unknown model)', () => {
    expect([lookupModel('my-local-model', 'openai').vision, lookupModel('my-local-model', 'openai').pdf]).toEqual([
      false,
      false,
    ]);
    const t = transcript([
      user(
        'u1',
        text('See'),
        { type: 'image', mediaType: 'image/png', data: PNG },
        { type: 'document', mediaType: 'application/pdf', data: PDF, title: 'a.pdf' },
      ),
    ]);
    const out = convert(t, { model: 'my-local-model' });
    expect(out.body).toEqual({
      model: 'my-local-model',
      input: [
        userMsg(
          'See',
          '[image omitted: the model does not accept images]',
          '[document "a.pdf" omitted: application/pdf is not accepted by this model]',
        ),
      ],
      stream: true,
      store: false,
      max_output_tokens: 1000,
    });
    expect(out.report).toEqual(
      report(t, [
        at('u1', 0),
        at('u1', 1, fate('converted', 'image replaced by a placeholder: the model does not accept images')),
        at(
          'u1',
          2,
          fate('converted', 'document replaced by a placeholder: application/pdf is not accepted by this target'),
        ),
      ]),
    );
  });

  it('replaces an image type Responses does not take (R-I1)', () => {
    const t = transcript([user('u1', { type: 'image', mediaType: 'image/heic', data: PNG })]);
    const out = convert(t);
    expect(out.body).toEqual(
      body([userMsg('[image omitted: image/heic is not an accepted image type (A-I1, C-I1, G-I1)]')]),
    );
    expect(out.report.blocks).toEqual([
      at(
        'u1',
        0,
        fate(
          'converted',
          'image replaced by a placeholder: image/heic is not an accepted image type (A-I1, C-I1, G-I1)',
        ),
      ),
    ]);
  });
});

describe('assistant turns', () => {
  it('sends foreign text as output_text messages without ids and calls as function_call items with JSON arguments', () => {
    const t = transcript(
      [
        user('u1', text('Weather in Oslo and Bergen?')),
        assistant('a1', CLAUDE, [
          text('Checking.'),
          text('Both cities.'),
          call('toolu_A', 'get_weather', { city: 'Oslo' }, { meta: { itemId: 'fc_not_ours' } }),
          call('toolu_B', 'get_weather', { city: 'Bergen' }),
        ]),
        tool('t1', result('toolu_A', '4°C'), result('toolu_B', '6°C')),
        assistant('a2', CLAUDE, [text('Oslo 4°C, Bergen 6°C.', { meta: { itemId: 'msg_not_ours' } })]),
        user('u2', text('Thanks')),
      ],
      { tools: [WEATHER] },
    );
    const out = convert(t);
    expect(out.body).toEqual(
      body(
        [
          userMsg('Weather in Oslo and Bergen?'),
          {
            type: 'message',
            role: 'assistant',
            content: [
              { type: 'output_text', text: 'Checking.' },
              { type: 'output_text', text: 'Both cities.' },
            ],
          },
          fnCall('toolu_A', 'get_weather', '{"city":"Oslo"}'),
          fnCall('toolu_B', 'get_weather', '{"city":"Bergen"}'),
          fnOut('toolu_A', '4°C'),
          fnOut('toolu_B', '6°C'),
          asstMsg('Oslo 4°C, Bergen 6°C.'),
          userMsg('Thanks'),
        ],
        { tools: [WEATHER_TOOL] },
      ),
    );
    expect(out.report).toEqual(
      report(t, [
        at('u1', 0),
        at('a1', 0),
        at('a1', 1),
        at('a1', 2),
        at('a1', 3),
        at('t1', 0),
        at('t1', 1),
        at('a2', 0),
        at('u2', 0),
      ]),
    );
  });

  it('drops foreign reasoning by default and sends it as labelled text when asked (R-K6)', () => {
    const t = transcript([
      user('u1', text('Q')),
      assistant('a1', CLAUDE, [thinking('Let me see.', { signature: 'EqQBsig' }), text('A')]),
      user('u2', text('Q2')),
    ]);
    const dropped = convert(t);
    expect(dropped.body).toEqual(body([userMsg('Q'), asstMsg('A'), userMsg('Q2')]));
    expect(dropped.report.blocks[1]).toEqual(
      at(
        'a1',
        0,
        fate(
          'dropped',
          'reasoning from anthropic/claude-sonnet-4-5 (anthropic-messages) cannot be replayed to another model (X3, A-K6, R-K6)',
        ),
      ),
    );
    const asText = convert(t, { foreignReasoning: 'text' });
    expect(asText.body).toEqual(
      body([
        userMsg('Q'),
        {
          type: 'message',
          role: 'assistant',
          content: [
            {
              type: 'output_text',
              text: '[Reasoning by anthropic/claude-sonnet-4-5 (anthropic-messages), shared as plain text]\n```\nLet me see.\n```',
            },
            { type: 'output_text', text: 'A' },
          ],
        },
        userMsg('Q2'),
      ]),
    );
    expect(asText.report.blocks[1]).toEqual(
      at(
        'a1',
        0,
        fate(
          'converted',
          'reasoning from anthropic/claude-sonnet-4-5 (anthropic-messages) sent as labelled plain text',
        ),
      ),
    );
  });

  it('keeps the text of foreign text blocks with citations and signatures, without them (X3)', () => {
    const t = transcript([
      user('u1', text('Q')),
      assistant('a1', CLAUDE, [
        text('Cited.', { citations: [{ type: 'char_location', cited_text: 'x' }] }),
        text('Signed.', { signature: 'sig' }),
      ]),
      user('u2', text('Q2')),
    ]);
    const out = convert(t);
    expect(out.body).toEqual(
      body([
        userMsg('Q'),
        {
          type: 'message',
          role: 'assistant',
          content: [
            { type: 'output_text', text: 'Cited.' },
            { type: 'output_text', text: 'Signed.' },
          ],
        },
        userMsg('Q2'),
      ]),
    );
    expect(out.report.blocks.slice(1, 3)).toEqual([
      at('a1', 0, fate('converted', 'citations dropped, text kept (A-C1, G-C1)')),
      at(
        'a1',
        1,
        fate('converted', 'signature dropped: opaque state of anthropic/claude-sonnet-4-5 (anthropic-messages) (X3)'),
      ),
    ]);
  });

  it('ends a history that ends on an assistant turn with a synthetic user turn', () => {
    const t = transcript([user('u1', text('Q')), assistant('a1', CLAUDE, [text('A')])]);
    const out = convert(t);
    expect(out.body).toEqual(body([userMsg('Q'), asstMsg('A'), userMsg('Continue.')]));
    expect(out.report).toEqual(report(t, [at('u1', 0), at('a1', 0)], [CONTINUE]));
  });
});

describe('tool turns', () => {
  const exchange = (...results: unknown[]) =>
    transcript(
      [
        user('u1', text('Go')),
        assistant(
          'a1',
          CLAUDE,
          results.map((_, i) => call(`toolu_${i}`, 'get_weather', {})),
        ),
        tool('t1', ...results),
        user('u2', text('Next')),
      ],
      { tools: [WEATHER] },
    );
  const outputs = (t: ReturnType<typeof exchange>) =>
    convert(t).body.input.filter((i) => i.type === 'function_call_output');
  const image = { type: 'image', mediaType: 'image/png', data: PNG };
  const imagePart = { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' };

  it('sends string results as is and marks failures with an "Error:" prefix (R-2)', () => {
    const t = exchange(result('toolu_0', 'sunny'), result('toolu_1', 'service down', { isError: true }));
    expect(outputs(t)).toEqual([fnOut('toolu_0', 'sunny'), fnOut('toolu_1', 'Error: service down')]);
    expect(convert(t).report.blocks.slice(3, 5)).toEqual([
      at('t1', 0),
      at('t1', 1, fate('converted', 'failure marked with an "Error:" prefix: Responses has no is_error (R-2, C-T7)')),
    ]);
  });

  it('joins text-only content parts into one string and leaves out blank ones (X4)', () => {
    const t = exchange(result('toolu_0', [text('line 1'), text('  '), text('line 2')]));
    expect(outputs(t)).toEqual([fnOut('toolu_0', 'line 1\nline 2')]);
    expect(convert(t).report.blocks[2]).toEqual(
      at('t1', 0, fate('converted', 'empty text parts of the result left out (X4)')),
    );
  });

  it('keeps images inside the result as input_image parts (R-2, X7), an error prefix on the first text', () => {
    const t = exchange(
      result('toolu_0', [text('Screenshot:'), image]),
      result('toolu_1', [image], { isError: true }),
      result('toolu_2', [text('bad'), image], { isError: true }),
    );
    expect(outputs(t)).toEqual([
      fnOut('toolu_0', [{ type: 'input_text', text: 'Screenshot:' }, imagePart]),
      fnOut('toolu_1', [{ type: 'input_text', text: 'Error:' }, imagePart]),
      fnOut('toolu_2', [{ type: 'input_text', text: 'Error: bad' }, imagePart]),
    ]);
  });

  it('never sends an empty output (X4)', () => {
    const t = exchange(result('toolu_0', ''), result('toolu_1', [text(' ')]), result('toolu_2', '', { isError: true }));
    expect(outputs(t)).toEqual([
      fnOut('toolu_0', '(no output)'),
      fnOut('toolu_1', '(no output)'),
      fnOut('toolu_2', 'Error:'),
    ]);
    expect(convert(t).report.blocks.slice(4, 7)).toEqual([
      at('t1', 0, fate('converted', 'empty result sent as "(no output)" (X4)')),
      at(
        't1',
        1,
        fate('converted', 'empty text parts of the result left out (X4)'),
        fate('converted', 'empty result sent as "(no output)" (X4)'),
      ),
      at('t1', 2, fate('converted', 'failure marked with an "Error:" prefix: Responses has no is_error (R-2, C-T7)')),
    ]);
  });

  it('answers a call without a result with the synthetic error result (X1, R-T3)', () => {
    const t = transcript(
      [user('u1', text('Go')), assistant('a1', CLAUDE, [call('toolu_1', 'get_weather', {})]), user('u2', text('Hm?'))],
      { tools: [WEATHER] },
    );
    const out = convert(t);
    expect(out.body).toEqual(
      body(
        [
          userMsg('Go'),
          fnCall('toolu_1', 'get_weather', '{}'),
          fnOut('toolu_1', 'Error: no result: the call was interrupted'),
          userMsg('Hm?'),
        ],
        { tools: [WEATHER_TOOL] },
      ),
    );
    expect(out.report).toEqual(
      report(
        t,
        [at('u1', 0), at('a1', 0), at('u2', 0)],
        [{ kind: 'error-result', detail: 'call toolu_1 (get_weather) in turn a1 had no result (X1)' }],
      ),
    );
  });

  it("maps call ids outside the portable set (≤ 40, within R-T1's 64) on the call and its output alike (X2)", () => {
    const long = `call_${'x'.repeat(50)}`;
    const mapped = new IdMap(PORTABLE_ID_POLICY).assign(long);
    expect(mapped.length).toBeLessThanOrEqual(40);
    const t = transcript(
      [
        user('u1', text('Go')),
        assistant('a1', CLAUDE, [call(long, 'get_weather', {})]),
        tool('t1', result(long, 'ok')),
        user('u2', text('Next')),
      ],
      { tools: [WEATHER] },
    );
    const out = convert(t);
    expect(out.body.input.slice(1, 3)).toEqual([fnCall(mapped, 'get_weather', '{}'), fnOut(mapped, 'ok')]);
    expect(out.report.blocks.slice(1, 3)).toEqual([
      at('a1', 0, fate('id-mapped', `${long} → ${mapped}`)),
      at('t1', 0, fate('id-mapped', `${long} → ${mapped}`)),
    ]);
  });
});

describe('cross-origin', () => {
  it('treats another OpenAI model as foreign: no reasoning, no item ids, no native replay (X3)', () => {
    const native = [
      { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAAmini' },
      {
        id: 'fc_1',
        type: 'function_call',
        status: 'completed',
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
      },
    ];
    const t = transcript(
      [
        user('u1', text('Weather?')),
        assistant(
          'a1',
          MINI,
          [
            thinking('', { signature: 'gAAAAmini', meta: { itemId: 'rs_1' } }),
            call('call_1', 'get_weather', { city: 'Oslo' }, { meta: { itemId: 'fc_1' } }),
          ],
          {
            native: { api: 'openai-responses', payload: native },
          },
        ),
        tool('t1', result('call_1', '4°C')),
        user('u2', text('Thanks')),
      ],
      { tools: [WEATHER] },
    );
    const out = convert(t);
    expect(out.body).toEqual(
      body(
        [
          userMsg('Weather?'),
          fnCall('call_1', 'get_weather', '{"city":"Oslo"}'),
          fnOut('call_1', '4°C'),
          userMsg('Thanks'),
        ],
        { tools: [WEATHER_TOOL] },
      ),
    );
    expect(out.report).toEqual(
      report(t, [
        at('u1', 0),
        at(
          'a1',
          0,
          fate(
            'dropped',
            'reasoning from openai/gpt-5-mini-2025-08-07 (openai-responses) cannot be replayed to another model (X3, A-K6, R-K6)',
          ),
        ),
        at('a1', 1),
        at('t1', 0),
        at('u2', 0),
      ]),
    );
  });

  it('converts every neutral transcript into a body the contract validator accepts, reporting every block', () => {
    for (const [name, t] of Object.entries(loadNeutralTranscripts())) {
      for (const target of [{}, { thinking: true, foreignReasoning: 'text' as const }, { model: 'gpt-4.1' }]) {
        const out = convert(t, target);
        expect(
          out.report.blocks.map((b) => `${b.turn}#${b.index}`),
          name,
        ).toEqual(t.turns.flatMap((x) => x.blocks.map((_, i) => `${x.id}#${i}`)));
      }
    }
  });

  it("mixed-origins: keeps only the target's own reasoning and ids (neutral transcript)", () => {
    const t = loadNeutralTranscripts()['mixed-origins']!;
    const out = convert(t);
    expect(out.body).toEqual(
      body(
        [
          userMsg('Find how retries work.'),
          {
            type: 'reasoning',
            id: 'rs_0a1',
            summary: [{ type: 'summary_text', text: '**Searching docs**' }],
            encrypted_content: 'gAAAAABencrypted-reasoning-1',
          },
          fnCall('call_Ab12', 'search_docs', '{"q":"retry policy"}', { id: 'fc_0a2' }),
          fnOut('call_Ab12', 'retry.md: bounded retries with retry-after'),
          fnCall('toolu_01XyZ', 'read_file', '{"path":"retry.md"}'),
          fnOut('toolu_01XyZ', '# Retries\nAt most 3.'),
          asstMsg('Retries are bounded: at most 3, honouring retry-after.'),
          userMsg('And quota errors?'),
          asstMsg('Quota errors are never retried.'),
          userMsg('Show me the code.'),
        ],
        {
          instructions: 'You are a careful assistant.',
          tools: [
            {
              type: 'function',
              name: 'search_docs',
              description: 'Search the docs.',
              parameters: { type: 'object', properties: { q: { type: 'string' } } },
              strict: false,
            },
            {
              type: 'function',
              name: 'read_file',
              parameters: { type: 'object', properties: { path: { type: 'string' } } },
              strict: false,
            },
          ],
        },
      ),
    );
    const anthropic = 'anthropic/claude-opus-4-5 (anthropic-messages)';
    expect(out.report).toEqual(
      report(t, [
        at('u1', 0),
        at('r1', 0),
        at('r1', 1),
        at('r2', 0),
        at(
          'c1',
          0,
          fate('dropped', `reasoning from ${anthropic} cannot be replayed to another model (X3, A-K6, R-K6)`),
        ),
        at('c1', 1, fate('dropped', `redacted thinking is opaque state of ${anthropic} (X3)`)),
        at('c1', 2),
        at('c2', 0),
        at(
          'g1',
          0,
          fate(
            'dropped',
            'reasoning from google/gemini-3-pro-preview (gemini-generate-content) cannot be replayed to another model (X3, A-K6, R-K6)',
          ),
        ),
        at('g1', 1),
        at('g1', 2, fate('dropped', 'empty or whitespace-only text (X4, A-E1)')),
        at('u2', 0),
        at('w1', 0),
        at('u3', 0),
      ]),
    );
  });
});
