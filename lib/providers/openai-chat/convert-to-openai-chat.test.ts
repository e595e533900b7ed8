import { describe, expect, it } from 'vitest';
import { lookupModel } from '../../models/registry';
import { loadNeutralTranscript } from '../../../test/fixtures/transcripts';
import {
  assistant,
  call,
  CLAUDE,
  convert,
  expectValid,
  fates,
  GPT4O,
  OPENAI_BASE,
  result,
  text,
  tool,
  transcript,
  user,
} from './convert-to-openai-chat.test-helper';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('user turns', () => {
  it('sends the system prompt and plain text as strings (simple-text)', () => {
    const r = convert(loadNeutralTranscript('simple-text'));
    expect(r.body).toEqual({
      ...OPENAI_BASE,
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'Write a haiku about rain.' },
        { role: 'assistant', content: 'Soft rain on the roof\nthe city exhales its dust\npuddles hold the sky' },
        { role: 'user', content: 'Now one about snow.' },
      ],
    });
    expect(r.report).toEqual({
      input: { format: 'baton', turns: 3, blocks: 3 },
      blocks: [fates('u1', 0), fates('a1', 0), fates('u2', 0)],
      synthesized: [],
      warnings: [],
    });
    expect(r.api).toBe('openai-chat');
    expect(r.model).toBe('gpt-4o');
    expectValid(r.body);
  });

  it('sends images as image_url (data or URL), PDFs as file parts, moves tool-result images to a user message (images-and-documents)', () => {
    const r = convert(loadNeutralTranscript('images-and-documents'));
    const png = { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } };
    expect(r.body).toEqual({
      ...OPENAI_BASE,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            png,
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
            {
              type: 'file',
              file: {
                filename: 'spec.pdf',
                file_data:
                  'data:application/pdf;base64,JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PD4+CmVuZG9iagp0cmFpbGVyCjw8Pj4KJSVFT0YK',
              },
            },
            { type: 'text', text: '[Document "notes.txt" (text/plain)]\n```\nHello, plain text.\n```' },
          ],
        },
        {
          role: 'assistant',
          content: 'Let me take a screenshot too.',
          tool_calls: [{ id: 'toolu_shot', type: 'function', function: { name: 'screenshot', arguments: '{}' } }],
        },
        {
          role: 'tool',
          tool_call_id: 'toolu_shot',
          content: 'Screenshot taken.\n[1 image from this result follows in the next user message]',
        },
        { role: 'user', content: [{ type: 'text', text: '[Images returned by tool call toolu_shot]' }, png] },
        { role: 'assistant', content: 'A single pixel, a cat, a PDF and a note.' },
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' } },
            { type: 'text', text: 'And this gif?' },
          ],
        },
      ],
      tools: [{ type: 'function', function: { name: 'screenshot', parameters: { type: 'object', properties: {} } } }],
    });
    expect(r.report).toEqual({
      input: { format: 'baton', turns: 5, blocks: 11 },
      blocks: [
        fates('u1', 0),
        fates('u1', 1),
        fates('u1', 2),
        fates('u1', 3),
        fates('u1', 4, { fate: 'converted', detail: 'text/plain document sent as labelled text' }),
        fates('a1', 0),
        fates('a1', 1),
        fates('t1', 0, {
          fate: 'converted',
          detail: '1 image(s) moved from the tool result to a following user message (X7, C-T6, G-I3)',
        }),
        fates('a2', 0),
        fates('u2', 0),
        fates('u2', 1),
      ],
      synthesized: [{ kind: 'text', detail: 'label for images moved out of the result of call toolu_shot (X7)' }],
      warnings: [],
    });
    expectValid(r.body);
  });

  it('replaces images and PDFs with placeholders for a model without vision or PDF input', () => {
    const t = transcript([
      user(
        'u1',
        text('Look'),
        { type: 'image', mediaType: 'image/png', data: PNG },
        { type: 'document', mediaType: 'application/pdf', data: 'JVBERi0=' },
      ),
    ]);
    const r = convert(t, { model: 'deepseek-chat', provider: 'deepseek' });
    expect(lookupModel('deepseek-chat', 'deepseek').vision).toBe(false);
    expect(r.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'text', text: '[image omitted: the model does not accept images]' },
          { type: 'text', text: '[document omitted: application/pdf is not accepted by this model]' },
        ],
      },
    ]);
    expect(r.report.blocks).toEqual([
      fates('u1', 0),
      fates('u1', 1, {
        fate: 'converted',
        detail: 'image replaced by a placeholder: the model does not accept images',
      }),
      fates('u1', 2, {
        fate: 'converted',
        detail: 'document replaced by a placeholder: application/pdf is not accepted by this target',
      }),
    ]);
    expectValid(r.body, 'deepseek');
  });
});

describe('assistant turns', () => {
  it('sends tool calls with content null and text joined into one string (C-R2)', () => {
    const t = transcript([
      user('u1', text('Go')),
      assistant('a1', CLAUDE, [text('First.'), text('Second.'), call('toolu_1', 'run', { n: 1 })]),
      tool('t1', result('toolu_1', 'done')),
      assistant('a2', CLAUDE, [call('toolu_2', 'run', { n: 2 })]),
      tool('t2', result('toolu_2', 'done again')),
    ]);
    const r = convert(t);
    expect(r.body.messages).toEqual([
      { role: 'user', content: 'Go' },
      {
        role: 'assistant',
        content: 'First.\n\nSecond.',
        tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'run', arguments: '{"n":1}' } }],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'done' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'toolu_2', type: 'function', function: { name: 'run', arguments: '{"n":2}' } }],
      },
      { role: 'tool', tool_call_id: 'toolu_2', content: 'done again' },
    ]);
    expect(r.body.tool_choice).toBe('none');
    expectValid(r.body);
  });

  it('sends a refusal as a refusal part or field (C-R2), and drops OpenAI reasoning it cannot replay (C-R4)', () => {
    const t = transcript([
      user('u1', text('Do the bad thing')),
      assistant('a1', GPT4O, [{ type: 'thinking', text: 'hmm' }, text('No.', { meta: { refusal: true } })], {
        stopReason: 'refusal',
      }),
      user('u2', text('Then say hi')),
      assistant('a2', GPT4O, [
        text('Hi.'),
        text('I still won\u2019t do the other thing.', { meta: { refusal: true } }),
      ]),
      user('u3', text('Thanks')),
    ]);
    const r = convert(t);
    expect(r.body.messages).toEqual([
      { role: 'user', content: 'Do the bad thing' },
      { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] },
      { role: 'user', content: 'Then say hi' },
      { role: 'assistant', content: 'Hi.', refusal: 'I still won\u2019t do the other thing.' },
      { role: 'user', content: 'Thanks' },
    ]);
    expect(r.report.blocks[1]).toEqual(
      fates('a1', 0, {
        fate: 'dropped',
        detail: 'reasoning cannot be replayed in Chat Completions for OpenAI models (C-R4)',
      }),
    );
    expectValid(r.body);
  });

  it('drops an assistant message left empty and merges the user messages around it (X4)', () => {
    const t = transcript([
      user('u1', text('Hi')),
      assistant('a1', GPT4O, [{ type: 'thinking', text: 'only thoughts' }]),
      user('u2', text('Hello?')),
    ]);
    const r = convert(t);
    expect(r.body.messages).toEqual([{ role: 'user', content: 'Hi\n\nHello?' }]);
    expect(r.report.blocks).toEqual([
      fates('u1', 0),
      fates('a1', 0, {
        fate: 'dropped',
        detail: 'reasoning cannot be replayed in Chat Completions for OpenAI models (C-R4)',
      }),
      fates('u2', 0),
    ]);
    expectValid(r.body);
  });

  it('sends {} for arguments that were not valid JSON, and reports it', () => {
    const t = transcript([
      user('u1', text('Go')),
      assistant('a1', CLAUDE, [call('c1', 'run', {}, { meta: { rawArguments: '{"n":', invalidArguments: true } })]),
      tool('t1', result('c1', 'bad call')),
    ]);
    const r = convert(t, { model: 'gpt-4.1' });
    expect(r.body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run', arguments: '{}' } }],
    });
    expect(r.report.blocks[1]).toEqual(
      fates('a1', 0, { fate: 'converted', detail: 'arguments were not valid JSON: sent as {}' }),
    );
  });
});

describe('tool turns', () => {
  it('sends one tool message per result with tool_call_id, "Error: " for failures (C-T2, C-T7), and text-only content (C-T6)', () => {
    const t = transcript([
      user('u1', text('Go')),
      assistant('a1', CLAUDE, [call('c1', 'a'), call('c2', 'b'), call('c3', 'c'), call('c4', 'd')]),
      tool(
        't1',
        result('c2', 'boom', { isError: true }),
        result('c1', [text('line 1'), text('line 2')]),
        result('c3', ''),
        result('c4', 'Error: already marked', { isError: true }),
      ),
    ]);
    const r = convert(t);
    expect(r.body.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: 'line 1\nline 2' },
      { role: 'tool', tool_call_id: 'c2', content: 'Error: boom' },
      { role: 'tool', tool_call_id: 'c3', content: '(no output)' },
      { role: 'tool', tool_call_id: 'c4', content: 'Error: already marked' },
    ]);
    expect(r.report.blocks.slice(5)).toEqual([
      fates('t1', 0, {
        fate: 'converted',
        detail: 'failure marked with an "Error: " prefix: Chat Completions has no error flag (C-T7)',
      }),
      fates('t1', 1),
      fates('t1', 2, { fate: 'converted', detail: 'empty result sent as "(no output)" (X4)' }),
      fates('t1', 3),
    ]);
    expectValid(r.body);
  });

  it('answers an unanswered call, turns an orphan result into user text and stubs undefined tools (orphans)', () => {
    const r = convert(loadNeutralTranscript('orphans'));
    expect(r.body).toEqual({
      ...OPENAI_BASE,
      messages: [
        { role: 'user', content: '(The conversation so far, which begins with a reply from the assistant.)' },
        { role: 'assistant', content: 'Hi! How can I help?' },
        { role: 'user', content: 'List the files.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_list', type: 'function', function: { name: 'ls', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_list', content: 'Error: no result: the call was interrupted' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Never mind, stop.' },
            {
              type: 'text',
              text: '[Result of tool call call_ghost, whose call is not in this conversation]\na.txt b.txt',
            },
            { type: 'text', text: 'What did you find?' },
          ],
        },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'ls',
            description: 'This tool was used earlier in the conversation and is not available now. Do not call it.',
            parameters: { type: 'object', properties: {} },
          },
        },
      ],
      tool_choice: 'none',
    });
    expect(r.report).toEqual({
      input: { format: 'baton', turns: 6, blocks: 7 },
      blocks: [
        fates('a0', 0),
        fates('u1', 0),
        fates('a1', 0),
        fates('u2', 0),
        fates('x1', 0, {
          fate: 'converted',
          detail: 'tool result without a matching call sent as labelled user text (X1)',
        }),
        fates('u3', 0, { fate: 'dropped', detail: 'empty or whitespace-only text (X4, A-E1)' }),
        fates('u3', 1),
      ],
      synthesized: [
        { kind: 'error-result', detail: 'call call_list (ls) in turn a1 had no result (X1)' },
        {
          kind: 'user-turn',
          detail: 'the history starts on an assistant turn: a short user turn opens it (A-R3, G-R5)',
        },
        { kind: 'stub-tool', detail: 'ls: used in the history but not defined by the request (X8, A-T6)' },
      ],
      warnings: [],
    });
    expectValid(r.body);
  });
});

describe('cross-origin', () => {
  it('drops foreign reasoning and keeps calls, results and failures (anthropic-tool-loop)', () => {
    const r = convert(loadNeutralTranscript('anthropic-tool-loop'));
    expect(r.body).toEqual({
      ...OPENAI_BASE,
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'Weather in Oslo and Bergen?' },
        {
          role: 'assistant',
          content: 'Checking both cities.',
          tool_calls: [
            { id: 'toolu_01A', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
            { id: 'toolu_01B', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Bergen"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01A', content: '4°C, rain' },
        { role: 'tool', tool_call_id: 'toolu_01B', content: 'Error: service unavailable' },
        { role: 'assistant', content: 'Oslo: 4°C and rain. Bergen: unknown, the service failed.' },
        { role: 'user', content: 'Try Bergen again.' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Current weather for a city.',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        },
      ],
    });
    expect(r.report).toEqual({
      input: { format: 'baton', turns: 5, blocks: 9 },
      blocks: [
        fates('t1', 0),
        fates('t2', 0, {
          fate: 'dropped',
          detail:
            'reasoning from anthropic/claude-sonnet-4-5-20250929 (anthropic-messages) cannot be replayed to another model (X3, A-K6, R-K6)',
        }),
        fates('t2', 1),
        fates('t2', 2),
        fates('t2', 3),
        fates('t3', 0),
        fates('t3', 1, {
          fate: 'converted',
          detail: 'failure marked with an "Error: " prefix: Chat Completions has no error flag (C-T7)',
        }),
        fates('t4', 0),
        fates('t5', 0),
      ],
      synthesized: [],
      warnings: [],
    });
    expectValid(r.body);
  });

  it('sends foreign reasoning as labelled text when asked (foreignReasoning: text)', () => {
    const t = transcript([
      user('u1', text('Q')),
      assistant('a1', CLAUDE, [{ type: 'thinking', text: 'Think.', signature: 'sig' }, text('A.')]),
      user('u2', text('More')),
    ]);
    const r = convert(t, { foreignReasoning: 'text' });
    expect(r.body.messages[1]).toEqual({
      role: 'assistant',
      content:
        '[Reasoning by anthropic/claude-sonnet-4-5 (anthropic-messages), shared as plain text]\n```\nThink.\n```\n\nA.',
    });
    expect(r.report.blocks[1]).toEqual(
      fates('a1', 0, {
        fate: 'converted',
        detail: 'reasoning from anthropic/claude-sonnet-4-5 (anthropic-messages) sent as labelled plain text',
      }),
    );
  });

  it('maps ids over 40 characters and illegal tool names, consistently on calls and results (C-T1, C-T5, X2, X5)', () => {
    const r = convert(loadNeutralTranscript('odd-ids-and-names'));
    const calls = r.body.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
    const results = r.body.messages.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : []));
    expect(calls.map((c) => c.id)).toEqual(results);
    for (const c of calls) {
      expect(c.id).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
      expect(c.function.name).toMatch(/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/);
    }
    expect(new Set(results).size).toBe(4);
    expect(r.body.messages[0]).toEqual({ role: 'system', content: 'Broken \uFFFD surrogate in the system prompt.' });
    expectValid(r.body);
  });
});
