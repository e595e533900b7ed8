/**
 * Token estimates per target (docs/disclosure.md): exact gpt-tokenizer counts for OpenAI models, characters /
 * ratio for the others, fixed image and page estimates, and the count-endpoint rule.
 */
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { assistant, CLAUDE, PNG, transcript, turn, user } from './context.test-helper';
import { plan } from './plan';
import {
  ANTHROPIC_TOOL_SYSTEM_PROMPT,
  countRequestBase,
  countText,
  countTurn,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD,
  PDF_PAGE_TOKENS,
  pdfPages,
  REPLY_PRIMING,
  shouldUseCountEndpoint,
  imageTokens,
  tokenizerFamily,
  TOOL_FRAMING,
} from './tokens';

/** A PNG's signature and IHDR chunk for `w`×`h` px (all the estimate reads), as base64. */
function pngBase64(w: number, h: number): string {
  const be = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  const b = [
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...be(13),
    0x49,
    0x48,
    0x44,
    0x52,
    ...be(w),
    ...be(h),
    8,
    6,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  ];
  return btoa(String.fromCharCode(...b));
}

const PLAIN = { disallowedSpecial: new Set<string>() };
const SAMPLES = [
  'hello world',
  'Grüße aus Köln — 東京 🙂',
  'function f(x) { return x ** 2; }\n',
  'a'.repeat(1000),
  'say <|endoftext|> please',
  '',
];

describe('tokenizerFamily', () => {
  it.each([
    ['gpt-4o', 'o200k'],
    ['gpt-4o-mini-2024-07-18', 'o200k'],
    ['gpt-4.1', 'o200k'],
    ['gpt-5.5', 'o200k'],
    ['o3', 'o200k'],
    ['o4-mini', 'o200k'],
    ['openai/gpt-oss-120b', 'o200k'],
    ['chatgpt-4o-latest', 'o200k'],
    ['gpt-4', 'cl100k'],
    ['gpt-4-turbo', 'cl100k'],
    ['gpt-3.5-turbo', 'cl100k'],
    ['claude-sonnet-4-5', 'anthropic'],
    ['anthropic/claude-sonnet-4.5', 'anthropic'],
    ['us.anthropic.claude-3-7-sonnet-20250219-v1:0', 'anthropic'],
    ['gemini-2.5-flash', 'gemini'],
    ['models/gemini-3-pro-preview', 'gemini'],
    ['deepseek-chat', 'generic'],
    ['mistral-large-latest', 'generic'],
  ])('%s → %s', (model, family) => {
    expect(tokenizerFamily(model)).toBe(family);
  });
});

describe("imageTokens: the worked examples of each provider's documentation", () => {
  it('OpenAI (high detail): 1024×1024 → 765, 2048×4096 → 1,105 (images-vision guide, "Calculating costs")', () => {
    expect(imageTokens('o200k', { width: 1024, height: 1024 })).toBe(765);
    expect(imageTokens('o200k', { width: 2048, height: 4096 })).toBe(1_105);
    expect(imageTokens('cl100k', { width: 4096, height: 2048 })).toBe(1_105);
    // Below 768 px on the short side nothing is scaled: 512×512 is one tile.
    expect(imageTokens('o200k', { width: 512, height: 512 })).toBe(255);
  });

  it('Claude: width × height / 750 — 200×200 ≈ 54, 1000×1000 ≈ 1,334, 1092×1092 ≈ 1,590; larger images are scaled down to ~1,600', () => {
    expect(imageTokens('anthropic', { width: 200, height: 200 })).toBe(54);
    expect(imageTokens('anthropic', { width: 1000, height: 1000 })).toBe(1_334);
    expect(imageTokens('anthropic', { width: 1092, height: 1092 })).toBe(1_590);
    expect(imageTokens('anthropic', { width: 4000, height: 3000 })).toBe(1_600);
    // Long edge over 1568 px: 3136×200 is scaled to 1568×100 first.
    expect(imageTokens('anthropic', { width: 3136, height: 200 })).toBe(Math.ceil((1568 * 100) / 750));
  });

  it('Gemini: both sides ≤ 384 px → 258; otherwise 258 per 768×768 tile', () => {
    expect(imageTokens('gemini', { width: 384, height: 384 })).toBe(258);
    expect(imageTokens('gemini', { width: 385, height: 100 })).toBe(258);
    expect(imageTokens('gemini', { width: 1024, height: 1024 })).toBe(4 * 258);
    expect(imageTokens('gemini', { width: 1920, height: 1080 })).toBe(6 * 258);
  });

  it('falls back to the fixed estimate when the dimensions are unknown', () => {
    expect(imageTokens('gemini', undefined)).toBe(IMAGE_TOKENS.gemini);
    expect(imageTokens('anthropic', { width: 0, height: 10 })).toBe(IMAGE_TOKENS.anthropic);
  });
});

describe('countText', () => {
  it('matches gpt-tokenizer exactly for o200k and cl100k (special-token text counted as plain text)', () => {
    for (const s of SAMPLES) {
      expect(countText(s, 'o200k')).toBe(encodeO200k(s, PLAIN).length);
      expect(countText(s, 'cl100k')).toBe(encodeCl100k(s, PLAIN).length);
    }
    expect(countText('hello world', 'o200k')).toBe(encodeO200k('hello world').length);
  });

  it('estimates Claude at 3.5 and Gemini at 4 characters per token, rounded up', () => {
    expect(countText('a'.repeat(7), 'anthropic')).toBe(2);
    expect(countText('a'.repeat(8), 'anthropic')).toBe(3);
    expect(countText('a'.repeat(8), 'gemini')).toBe(2);
    expect(countText('a'.repeat(9), 'gemini')).toBe(3);
    expect(countText('a'.repeat(7), 'generic')).toBe(2);
    expect(countText('', 'anthropic')).toBe(0);
  });
});

describe('countTurn', () => {
  const opts = { family: 'o200k' as const, sameOrigin: false, reasoningAsText: false, omitImages: false };

  it('counts text, tool calls and results exactly for OpenAI', () => {
    const call = turn('a', 'assistant', [
      { type: 'text', text: 'Checking.' },
      { type: 'tool_call', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
    ]);
    const expected =
      MESSAGE_OVERHEAD +
      encodeO200k('Checking.').length +
      TOOL_FRAMING +
      encodeO200k('call_1').length +
      encodeO200k('get_weather').length +
      encodeO200k('{"city":"Oslo"}').length;
    expect(countTurn(call, opts)).toEqual({ tokens: expected, toolCalls: true });
    const result = turn('r', 'tool', [{ type: 'tool_result', callId: 'call_1', content: '4°C, rain' }]);
    expect(countTurn(result, opts)).toEqual({
      tokens: MESSAGE_OVERHEAD + TOOL_FRAMING + encodeO200k('call_1').length + encodeO200k('4°C, rain').length,
      toolCalls: false,
    });
  });

  it('counts each image from its dimensions (a 1×1 PNG here) and a fixed estimate for a URL image, per family; nothing when images are omitted', () => {
    const t = turn('u', 'user', [
      { type: 'image', mediaType: 'image/png', data: PNG },
      { type: 'image', mediaType: 'image/png', url: 'https://example.com/a.png' },
    ]);
    // 1×1 px: OpenAI one 512-px tile, 85 + 170; Claude ⌈1/750⌉; Gemini ≤ 384 px on both sides, 258.
    expect(countTurn(t, opts).tokens).toBe(MESSAGE_OVERHEAD + 255 + 765);
    expect(countTurn(t, { ...opts, family: 'anthropic' }).tokens).toBe(MESSAGE_OVERHEAD + 1 + 1_600);
    expect(countTurn(t, { ...opts, family: 'gemini' }).tokens).toBe(MESSAGE_OVERHEAD + 258 + 1_120);
    expect(countTurn(t, { ...opts, omitImages: true }).tokens).toBe(MESSAGE_OVERHEAD);
    expect(IMAGE_TOKENS).toEqual({ o200k: 765, cl100k: 765, anthropic: 1_600, gemini: 1_120, generic: 1_600 });
  });

  it('counts an image inside a tool result from its dimensions too', () => {
    const r = turn('r', 'tool', [
      {
        type: 'tool_result',
        callId: 'c1',
        content: [{ type: 'image', mediaType: 'image/png', data: pngBase64(2048, 4096) }],
      },
    ]);
    expect(countTurn(r, opts).tokens).toBe(MESSAGE_OVERHEAD + TOOL_FRAMING + encodeO200k('c1').length + 1_105);
  });

  it('counts foreign reasoning only when it is sent as text; own reasoning always', () => {
    const t = turn('a', 'assistant', [
      { type: 'thinking', text: 'Let me think about it.' },
      { type: 'redacted_thinking', data: 'opaque' },
    ]);
    const thought = encodeO200k('Let me think about it.').length;
    expect(countTurn(t, opts).tokens).toBe(MESSAGE_OVERHEAD);
    expect(countTurn(t, { ...opts, reasoningAsText: true }).tokens).toBe(MESSAGE_OVERHEAD + thought);
    expect(countTurn(t, { ...opts, sameOrigin: true }).tokens).toBe(MESSAGE_OVERHEAD + thought);
  });

  it('skips left-out blocks', () => {
    const t = turn('u', 'user', [
      { type: 'text', text: 'keep' },
      { type: 'text', text: 'leave this out' },
    ]);
    expect(countTurn(t, { ...opts, skip: new Set([1]) }).tokens).toBe(MESSAGE_OVERHEAD + encodeO200k('keep').length);
  });

  it('counts PDF pages from the data and text documents by size', () => {
    const pdf = btoa(
      '%PDF-1.4\n1 0 obj << /Type /Pages /Count 3 >>\n2 0 obj << /Type /Page >>\n3 0 obj << /Type /Page >>\n4 0 obj <</Type/Page>>',
    );
    expect(pdfPages(pdf)).toBe(3);
    expect(pdfPages('not base64!')).toBe(1);
    const doc = turn('u', 'user', [
      { type: 'document', mediaType: 'application/pdf', data: pdf },
      { type: 'document', mediaType: 'text/plain', data: btoa('x'.repeat(35)) },
    ]);
    expect(countTurn(doc, { ...opts, family: 'anthropic' }).tokens).toBe(
      MESSAGE_OVERHEAD + 3 * PDF_PAGE_TOKENS.anthropic + 10,
    );
    expect(countTurn(doc, { ...opts, family: 'gemini' }).tokens).toBe(MESSAGE_OVERHEAD + 3 * 560 + 9);
  });
});

describe('request base', () => {
  it('adds reply priming, the system prompt, tool JSON and Claude’s tool-use system prompt', () => {
    const tools = [{ name: 'get_weather', inputSchema: { type: 'object' } }];
    expect(countRequestBase(undefined, undefined, false, 'o200k')).toBe(REPLY_PRIMING);
    expect(countRequestBase('Be brief.', tools, false, 'o200k')).toBe(
      REPLY_PRIMING + MESSAGE_OVERHEAD + encodeO200k('Be brief.').length + encodeO200k(JSON.stringify(tools)).length,
    );
    expect(countRequestBase(undefined, undefined, true, 'anthropic')).toBe(
      REPLY_PRIMING + ANTHROPIC_TOOL_SYSTEM_PROMPT,
    );
    expect(countRequestBase('  ', undefined, false, 'anthropic')).toBe(REPLY_PRIMING);
  });
});

describe('plan token estimates', () => {
  it('an OpenAI plan’s estimate is exactly the gpt-tokenizer count plus the documented overheads', () => {
    const t = transcript(
      [user('u1', 'What is the capital of Norway?'), assistant('a1', 'Oslo.'), user('u2', 'And of Sweden?')],
      { system: 'Answer briefly.' },
    );
    const expected =
      REPLY_PRIMING +
      (MESSAGE_OVERHEAD + encodeO200k('Answer briefly.').length) +
      ['What is the capital of Norway?', 'Oslo.', 'And of Sweden?'].reduce(
        (n, s) => n + MESSAGE_OVERHEAD + encodeO200k(s).length,
        0,
      );
    const p = plan(t, { api: 'openai-chat', model: 'gpt-4o' });
    expect(p.tokenizer).toBe('o200k');
    expect(p.estimatedInputTokens).toBe(expected);
    expect(p.uncorrectedInputTokens).toBe(expected);
    expect(p.turns.map((x) => x.tokens)).toEqual([
      MESSAGE_OVERHEAD + encodeO200k('What is the capital of Norway?').length,
      MESSAGE_OVERHEAD + encodeO200k('Oslo.').length,
      MESSAGE_OVERHEAD + encodeO200k('And of Sweden?').length,
    ]);
  });

  it('counts same-origin reasoning for its own model and drops foreign reasoning from the estimate', () => {
    const t = transcript([
      user('u1', 'hi'),
      turn(
        'a1',
        'assistant',
        [
          { type: 'thinking', text: 'x'.repeat(35), signature: 'sig' },
          { type: 'text', text: 'hello' },
        ],
        { origin: CLAUDE },
      ),
      user('u2', 'again'),
    ]);
    const own = plan(t, { api: 'anthropic-messages', model: 'claude-sonnet-4-5' });
    const other = plan(t, { api: 'anthropic-messages', model: 'claude-opus-4-5' });
    expect(own.turns[1]!.tokens - other.turns[1]!.tokens).toBe(10);
    expect(
      plan(t, { api: 'anthropic-messages', model: 'claude-opus-4-5' }, { foreignReasoning: 'text' }).turns[1]!.tokens,
    ).toBe(own.turns[1]!.tokens);
  });

  it('counts cl100k for older OpenAI models', () => {
    const t = transcript([user('u1', 'Grüße aus Köln — 東京')]);
    expect(plan(t, { api: 'openai-chat', model: 'gpt-4-turbo' }).turns[0]!.tokens).toBe(
      MESSAGE_OVERHEAD + encodeCl100k('Grüße aus Köln — 東京').length,
    );
  });
});

describe('shouldUseCountEndpoint', () => {
  it('is true only for a provider that already received the conversation', () => {
    expect(shouldUseCountEndpoint('anthropic', ['openai', 'anthropic'])).toBe(true);
    expect(shouldUseCountEndpoint('anthropic', new Set(['openai']))).toBe(false);
    expect(shouldUseCountEndpoint('google', [])).toBe(false);
  });
});

describe('models without vision', () => {
  it('count no image tokens, as the converter sends no images', () => {
    const t = transcript([
      turn('u0', 'user', [
        { type: 'text', text: 'see' },
        { type: 'image', mediaType: 'image/png', data: PNG },
      ]),
    ]);
    const withVision = plan(t, { api: 'openai-chat', model: 'gpt-4o' });
    const without = plan(t, { api: 'openai-chat', model: 'deepseek-chat', provider: 'deepseek' });
    expect(withVision.turns[0]!.tokens).toBe(MESSAGE_OVERHEAD + encodeO200k('see').length + 255); // a 1×1 PNG: one 512-px tile, 85 + 170
    expect(without.turns[0]!.tokens).toBe(MESSAGE_OVERHEAD + Math.ceil(3 / 3.5));
    expect(without.report.blocks[1]!.fates).toEqual([
      { fate: 'converted', detail: 'image replaced by a placeholder: the model does not accept images' },
    ]);
    expect(without.stats.imagesOmitted).toBe(1);
    expect(withVision.stats.imagesOmitted).toBe(0);
  });
});
