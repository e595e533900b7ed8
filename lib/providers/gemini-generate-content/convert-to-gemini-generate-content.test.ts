import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC,
  convert,
  GEMINI_25_FLASH,
  GEMINI_25_ORIGIN,
  GEMINI_3_PRO,
  GEMMA,
  kept,
  OFF_25,
  OFF_3,
  OPENAI_CHAT,
  transcript,
  VERTEX_ENDPOINT,
} from './convert-gemini-generate-content.test-helper';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjQKJSVFT0YK';
const user = (id: string, text: string) => ({ id, role: 'user', blocks: [{ type: 'text', text }] });

describe('user turns', () => {
  it('sends text, inline images and PDFs as parts of one user content; the system prompt as systemInstruction', () => {
    const t = transcript(
      [
        {
          id: 'u1',
          role: 'user',
          blocks: [
            { type: 'text', text: 'Compare these.' },
            { type: 'image', mediaType: 'image/png', data: PNG },
            { type: 'document', mediaType: 'application/pdf', data: PDF },
          ],
        },
      ],
      { system: 'Be brief.' },
    );
    expect(convert(t, GEMINI_25_FLASH)).toEqual({
      api: 'gemini-generate-content',
      model: 'gemini-2.5-flash',
      body: {
        contents: [
          {
            role: 'user',
            parts: [
              { text: 'Compare these.' },
              { inlineData: { mimeType: 'image/png', data: PNG } },
              { inlineData: { mimeType: 'application/pdf', data: PDF } },
            ],
          },
        ],
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        generationConfig: OFF_25,
      },
      report: {
        input: { format: 'baton', turns: 1, blocks: 3 },
        blocks: [kept('u1', 0), kept('u1', 1), kept('u1', 2)],
        synthesized: [],
        warnings: [],
      },
    });
  });

  it('reports a document title it cannot carry, and turns image URLs and unsupported types into placeholders (G-I1)', () => {
    const t = transcript([
      {
        id: 'u1',
        role: 'user',
        blocks: [
          { type: 'document', mediaType: 'application/pdf', data: PDF, title: 'spec.pdf' },
          { type: 'image', mediaType: 'image/png', url: 'https://example.com/a.png' },
          { type: 'image', mediaType: 'image/gif', data: 'R0lGODlhAQABAAAAACw=' },
        ],
      },
    ]);
    const { body, report } = convert(t, GEMINI_3_PRO);
    expect(body.contents).toEqual([
      {
        role: 'user',
        parts: [
          { inlineData: { mimeType: 'application/pdf', data: PDF } },
          { text: '[image omitted: the API takes only inline image data, not URLs]' },
          { text: '[image omitted: image/gif is not an accepted image type (A-I1, C-I1, G-I1)]' },
        ],
      },
    ]);
    expect(report.blocks).toEqual([
      {
        turn: 'u1',
        index: 0,
        fates: [
          {
            fate: 'converted',
            detail: 'sent as inlineData; the title "spec.pdf" is not carried (Gemini inlineData has no title)',
          },
        ],
      },
      {
        turn: 'u1',
        index: 1,
        fates: [
          {
            fate: 'converted',
            detail: 'image replaced by a placeholder: the API takes only inline image data, not URLs',
          },
        ],
      },
      {
        turn: 'u1',
        index: 2,
        fates: [
          {
            fate: 'converted',
            detail: 'image replaced by a placeholder: image/gif is not an accepted image type (A-I1, C-I1, G-I1)',
          },
        ],
      },
    ]);
  });

  it('puts the system prompt into the first user content for Gemma, which takes no systemInstruction (G-R1)', () => {
    const t = transcript([user('u1', 'Hi')], { system: 'Be brief.' });
    const result = convert(t, GEMMA, { thinking: true });
    expect(result.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Be brief.' }, { text: 'Hi' }] }],
      generationConfig: { maxOutputTokens: 1000 },
    });
    expect(result.report.warnings).toEqual([
      'Gemma models take no systemInstruction: the system prompt was sent as the first user part (G-R1)',
      'thinking was requested, but gemma-3-27b-it has no Gemini thinking control: sent without thinkingConfig',
    ]);
  });
});

describe('assistant turns', () => {
  it('sends a foreign turn as a model content: text and functionCall parts with ids; foreign thinking dropped (X3)', () => {
    const t = transcript([
      user('u1', 'Weather?'),
      {
        id: 'a1',
        role: 'assistant',
        origin: ANTHROPIC,
        blocks: [
          { type: 'thinking', text: 'Call it.', signature: 'EqQBsig' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool_call', id: 'toolu_01A', name: 'get_weather', input: { city: 'Oslo' } },
        ],
      },
      { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'toolu_01A', content: '4°C' }] },
      { id: 'a2', role: 'assistant', origin: ANTHROPIC, blocks: [{ type: 'text', text: 'It is 4°C.' }] },
    ]);
    const tools = [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }];
    expect(convert({ ...t, tools }, GEMINI_25_FLASH)).toEqual({
      api: 'gemini-generate-content',
      model: 'gemini-2.5-flash',
      body: {
        contents: [
          { role: 'user', parts: [{ text: 'Weather?' }] },
          {
            role: 'model',
            parts: [
              { text: 'Checking.' },
              { functionCall: { id: 'toolu_01A', name: 'get_weather', args: { city: 'Oslo' } } },
            ],
          },
          {
            role: 'user',
            parts: [{ functionResponse: { id: 'toolu_01A', name: 'get_weather', response: { output: '4°C' } } }],
          },
          { role: 'model', parts: [{ text: 'It is 4°C.' }] },
          { role: 'user', parts: [{ text: 'Continue.' }] },
        ],
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } },
              },
            ],
          },
        ],
        generationConfig: OFF_25,
      },
      report: {
        input: { format: 'baton', turns: 4, blocks: 6 },
        blocks: [
          kept('u1', 0),
          {
            turn: 'a1',
            index: 0,
            fates: [
              {
                fate: 'dropped',
                detail:
                  'reasoning from anthropic/claude-sonnet-4-5 (anthropic-messages) cannot be replayed to another model (X3, A-K6, R-K6)',
              },
            ],
          },
          kept('a1', 1),
          kept('a1', 2),
          kept('t1', 0),
          kept('a2', 0),
        ],
        synthesized: [
          {
            kind: 'user-turn',
            detail: 'the history ends on an assistant turn: a user turn asks the model to continue (A-R4, G-R6, M-3)',
          },
        ],
        warnings: [],
      },
    });
  });

  it('keeps same-origin signatures on their own parts, including an empty signed text part (G-K1, G-E2), and replays a signed thought', () => {
    const t = transcript([
      user('u1', 'Count the r in strawberry.'),
      {
        id: 'a1',
        role: 'assistant',
        origin: GEMINI_25_ORIGIN,
        blocks: [
          { type: 'thinking', text: 'Letters...', signature: 'c2lnLXRob3VnaHQ=' },
          { type: 'thinking', text: 'More letters.' },
          { type: 'text', text: 'Three.' },
          { type: 'text', text: '', signature: 'c2lnLWVuZA==' },
        ],
      },
      user('u2', 'Sure?'),
    ]);
    const { body, report } = convert(t, GEMINI_25_FLASH);
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Count the r in strawberry.' }] },
      {
        role: 'model',
        parts: [
          { text: 'Letters...', thought: true, thoughtSignature: 'c2lnLXRob3VnaHQ=' },
          { text: 'Three.' },
          { text: '', thoughtSignature: 'c2lnLWVuZA==' },
        ],
      },
      { role: 'user', parts: [{ text: 'Sure?' }] },
    ]);
    expect(report.blocks).toEqual([
      kept('u1', 0),
      kept('a1', 0),
      {
        turn: 'a1',
        index: 1,
        fates: [{ fate: 'dropped', detail: 'thought summary without a signature is not replayed (G-K6)' }],
      },
      kept('a1', 2),
      kept('a1', 3),
      kept('u2', 0),
    ]);
  });

  it('removes a model content left empty and merges the user contents around it (G-E1, G-R6)', () => {
    const t = transcript([
      user('u1', 'Hello'),
      {
        id: 'a1',
        role: 'assistant',
        origin: GEMINI_25_ORIGIN,
        blocks: [
          { type: 'thinking', text: 'Hmm.' },
          { type: 'redacted_thinking', data: 'b3BhcXVl' },
        ],
      },
      user('u2', 'Anyone there?'),
    ]);
    const { body, report } = convert(t, GEMINI_25_FLASH);
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'Hello' }, { text: 'Anyone there?' }] }]);
    expect(report.blocks).toEqual([
      kept('u1', 0),
      {
        turn: 'a1',
        index: 0,
        fates: [{ fate: 'dropped', detail: 'thought summary without a signature is not replayed (G-K6)' }],
      },
      { turn: 'a1', index: 1, fates: [{ fate: 'dropped', detail: 'redacted thinking has no Gemini form (G-K6)' }] },
      kept('u2', 0),
    ]);
  });

  it('wraps non-object arguments, since functionCall.args is a JSON object', () => {
    const t = transcript([
      user('u1', 'Go'),
      {
        id: 'a1',
        role: 'assistant',
        origin: OPENAI_CHAT,
        blocks: [{ type: 'tool_call', id: 'call_1', name: 'run', input: 'ls -la' }],
      },
      { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'call_1', content: 'a.txt' }] },
    ]);
    const { body, report } = convert(t, GEMINI_25_FLASH);
    expect(body.contents[1]).toEqual({
      role: 'model',
      parts: [{ functionCall: { id: 'call_1', name: 'run', args: { value: 'ls -la' } } }],
    });
    expect(report.blocks[1]).toEqual({
      turn: 'a1',
      index: 0,
      fates: [
        {
          fate: 'converted',
          detail: 'non-object arguments wrapped as {"value": …}: functionCall.args is a JSON object',
        },
      ],
    });
  });

  it('replays a same-origin Gemini part kept as a provider item; one that is not a part goes as its text or is dropped', () => {
    const t = transcript([
      user('u1', 'Compute'),
      {
        id: 'a1',
        role: 'assistant',
        origin: GEMINI_25_ORIGIN,
        blocks: [
          {
            type: 'provider_item',
            api: 'gemini-generate-content',
            item: { executableCode: { language: 'PYTHON', code: 'print(1)' } },
          },
          { type: 'provider_item', api: 'gemini-generate-content', item: 'not a part' },
          {
            type: 'provider_item',
            api: 'gemini-generate-content',
            item: { type: 'server_tool_use', name: 'web_search' },
            text: 'searched the web',
          },
          { type: 'text', text: '1' },
        ],
      },
      user('u2', 'Thanks'),
    ]);
    const { body, report } = convert(t, GEMINI_25_FLASH);
    expect(body.contents[1]).toEqual({
      role: 'model',
      parts: [
        { executableCode: { language: 'PYTHON', code: 'print(1)' } },
        { text: 'searched the web' },
        { text: '1' },
      ],
    });
    expect(report.blocks.slice(1, 5)).toEqual([
      kept('a1', 0),
      {
        turn: 'a1',
        index: 1,
        fates: [
          {
            fate: 'dropped',
            detail: 'gemini-generate-content item is not a Gemini part that can be replayed (not an object)',
          },
        ],
      },
      {
        turn: 'a1',
        index: 2,
        fates: [
          {
            fate: 'converted',
            detail:
              'gemini-generate-content item is not a Gemini part that can be replayed (it does not set exactly one data field (G-E1)): sent as its text',
          },
        ],
      },
      kept('a1', 3),
    ]);
  });
});

describe('tool turns', () => {
  const calls = (results: unknown[], callMeta?: Record<string, unknown>) =>
    transcript([
      user('u1', 'Look up both.'),
      {
        id: 'a1',
        role: 'assistant',
        origin: OPENAI_CHAT,
        blocks: [
          {
            type: 'tool_call',
            id: 'call_A',
            name: 'lookup',
            input: { q: 'a' },
            ...(callMeta ? { meta: callMeta } : {}),
          },
          {
            type: 'tool_call',
            id: 'call_B',
            name: 'lookup',
            input: { q: 'b' },
            ...(callMeta ? { meta: callMeta } : {}),
          },
        ],
      },
      { id: 't1', role: 'tool', blocks: results },
    ]);
  const results = [
    {
      type: 'tool_result',
      callId: 'call_B',
      content: [
        { type: 'text', text: 'line 1' },
        { type: 'text', text: 'line 2' },
      ],
    },
    { type: 'tool_result', callId: 'call_A', content: 'boom', isError: true },
  ];

  it('answers every call in call order with an object response: output, or error for failures (G-T1, G-T2)', () => {
    const { body, report } = convert(calls(results), GEMINI_25_FLASH);
    expect(body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Look up both.' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'call_A', name: 'lookup', args: { q: 'a' } } },
            { functionCall: { id: 'call_B', name: 'lookup', args: { q: 'b' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'call_A', name: 'lookup', response: { error: 'boom' } } },
            { functionResponse: { id: 'call_B', name: 'lookup', response: { output: 'line 1\nline 2' } } },
          ],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'lookup',
              description: 'This tool was used earlier in the conversation and is not available now. Do not call it.',
              parametersJsonSchema: { type: 'object', properties: {} },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'NONE' } },
      generationConfig: OFF_25,
    });
    expect(report).toEqual({
      input: { format: 'baton', turns: 3, blocks: 5 },
      blocks: [kept('u1', 0), kept('a1', 0), kept('a1', 1), kept('t1', 0), kept('t1', 1)],
      synthesized: [
        { kind: 'stub-tool', detail: 'lookup: used in the history but not defined by the request (X8, A-T6)' },
      ],
      warnings: [],
    });
  });

  it('merges the function responses and the following user turn into one user content, responses first (G-R6)', () => {
    const t = calls(results);
    const { body } = convert(
      { ...t, turns: [...t.turns, { id: 'u2', role: 'user', blocks: [{ type: 'text', text: 'And c?' }] }] },
      GEMINI_25_FLASH,
    );
    expect(body.contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(body.contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'call_A', name: 'lookup', response: { error: 'boom' } } },
        { functionResponse: { id: 'call_B', name: 'lookup', response: { output: 'line 1\nline 2' } } },
        { text: 'And c?' },
      ],
    });
  });

  it('G-T8: sends ids Baton generated on the call and its response alike, reported; two calls to one function keep their own ids (G-T7)', () => {
    const { body, report } = convert(calls(results, { generatedId: true }), GEMINI_25_FLASH);
    expect(body.contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'call_A', name: 'lookup', args: { q: 'a' } } },
          { functionCall: { id: 'call_B', name: 'lookup', args: { q: 'b' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'call_A', name: 'lookup', response: { error: 'boom' } } },
          { functionResponse: { id: 'call_B', name: 'lookup', response: { output: 'line 1\nline 2' } } },
        ],
      },
    ]);
    expect(report.blocks[1]!.fates).toEqual([
      { fate: 'converted', detail: 'call id call_A minted by Baton, sent on the call and its response (G-T8)' },
    ]);
    expect(report.blocks[3]!.fates[0]!.fate).toBe('kept');
  });

  it('G-T9: omits every id on Vertex, which rejects them, and reports it (G-T3, V-G1)', () => {
    const { body, report } = convert(calls(results), GEMINI_25_FLASH, { endpoint: VERTEX_ENDPOINT });
    expect(body.contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'lookup', args: { q: 'a' } } },
          { functionCall: { name: 'lookup', args: { q: 'b' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'lookup', response: { error: 'boom' } } },
          { functionResponse: { name: 'lookup', response: { output: 'line 1\nline 2' } } },
        ],
      },
    ]);
    const call = { fate: 'converted', detail: 'call id omitted: Vertex rejects functionCall.id (G-T3, G-T9, V-G1)' };
    const result = {
      fate: 'converted',
      detail: 'call id omitted: Vertex rejects functionResponse.id (G-T3, G-T9, V-G1)',
    };
    expect(report.blocks).toEqual([
      kept('u1', 0),
      { turn: 'a1', index: 0, fates: [call] },
      { turn: 'a1', index: 1, fates: [call] },
      { turn: 't1', index: 0, fates: [result] },
      { turn: 't1', index: 1, fates: [result] },
    ]);
  });

  it('answers a call that has no result with a synthetic error response (X1)', () => {
    const { body, report } = convert(calls([results[1]]), GEMINI_25_FLASH);
    expect(body.contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'call_A', name: 'lookup', response: { error: 'boom' } } },
        {
          functionResponse: {
            id: 'call_B',
            name: 'lookup',
            response: { error: 'no result: the call was interrupted' },
          },
        },
      ],
    });
    expect(report.synthesized[0]).toEqual({
      kind: 'error-result',
      detail: 'call call_B (lookup) in turn a1 had no result (X1)',
    });
  });

  const withImage = transcript([
    user('u1', 'Screenshot please.'),
    {
      id: 'a1',
      role: 'assistant',
      origin: ANTHROPIC,
      blocks: [{ type: 'tool_call', id: 'toolu_1', name: 'shot', input: {} }],
    },
    {
      id: 't1',
      role: 'tool',
      blocks: [
        {
          type: 'tool_result',
          callId: 'toolu_1',
          content: [
            { type: 'text', text: 'Done.' },
            { type: 'image', mediaType: 'image/png', data: PNG },
          ],
        },
      ],
    },
  ]);

  it('carries tool-result images inside functionResponse.parts on Gemini 3 (G-I3)', () => {
    const { body, report } = convert(withImage, GEMINI_3_PRO);
    expect(body.contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          {
            functionCall: { id: 'toolu_1', name: 'shot', args: {} },
            thoughtSignature: 'skip_thought_signature_validator',
          },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: 'toolu_1',
              name: 'shot',
              response: { output: 'Done.' },
              parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }],
            },
          },
        ],
      },
    ]);
    expect(body.generationConfig).toEqual(OFF_3);
    expect(report.blocks[2]).toEqual(kept('t1', 0));
  });

  it('moves tool-result images after the responses, in the same user content, before Gemini 3 (X7, G-I3)', () => {
    const { body, report } = convert(withImage, GEMINI_25_FLASH);
    expect(body.contents.slice(1)).toEqual([
      { role: 'model', parts: [{ functionCall: { id: 'toolu_1', name: 'shot', args: {} } }] },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: 'toolu_1',
              name: 'shot',
              response: { output: 'Done.\n[1 image from this result follows in the next user message]' },
            },
          },
          { text: '[Images returned by tool call toolu_1]' },
          { inlineData: { mimeType: 'image/png', data: PNG } },
        ],
      },
    ]);
    expect(report.blocks[2]).toEqual({
      turn: 't1',
      index: 0,
      fates: [
        {
          fate: 'converted',
          detail: '1 image(s) moved from the tool result to a following user message (X7, C-T6, G-I3)',
        },
      ],
    });
  });
});
