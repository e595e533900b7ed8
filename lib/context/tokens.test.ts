/**
 * Token estimates per target (docs/disclosure.md): exact gpt-tokenizer counts for OpenAI models,
 * the providers' documented image formulas, which blocks count and which do not, and the
 * count-endpoint rule. How close the estimates come to what providers count is checked against
 * recorded usage in tokens-recorded.test.ts, not by restating this module's figures.
 */
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import type { Block } from '../transcript/schema';
import { assistant, CLAUDE, PNG, transcript, turn, user } from './context.test-helper';
import { plan } from './plan';
import {
  countRequestBase,
  countText,
  countTurn,
  IMAGE_TOKENS,
  pdfPages,
  shouldUseCountEndpoint,
  imageTokens,
  tokenizerFamily,
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

  it('estimates the other families from characters: nothing for no text, whole tokens that grow with the text', () => {
    for (const family of ['anthropic', 'gemini', 'generic'] as const) {
      expect(countText('', family)).toBe(0);
      const counts = [1, 7, 8, 100, 1000].map((n) => countText('a'.repeat(n), family));
      expect(counts.every((n) => Number.isInteger(n) && n >= 1)).toBe(true);
      expect([...counts].sort((a, b) => a - b)).toEqual(counts);
      expect(counts[4]).toBeGreaterThan(counts[3]!);
    }
  });
});

describe('countTurn', () => {
  const opts = { family: 'o200k' as const, sameOrigin: false, reasoningAsText: false, omitImages: false };
  /** A message's own framing: what a turn without blocks counts (each family's figure, not restated here). */
  const framing = (family: typeof opts.family | 'anthropic' | 'gemini' = 'o200k') =>
    countTurn(turn('e', 'user', []), { ...opts, family }).tokens;

  it('counts text, tool calls and results exactly for OpenAI', () => {
    const call = turn('a', 'assistant', [
      { type: 'text', text: 'Checking.' },
      { type: 'tool_call', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
    ]);
    // The call's id, name and JSON input are counted exactly, plus a fixed framing.
    const text = framing() + encodeO200k('Checking.').length;
    const got = countTurn(call, opts);
    expect(got.toolCalls).toBe(true);
    expect(got.tokens).toBeGreaterThan(
      text + encodeO200k('call_1').length + encodeO200k('get_weather').length + encodeO200k('{"city":"Oslo"}').length,
    );
    const otherInput = turn('a', 'assistant', [
      { type: 'text', text: 'Checking.' },
      { type: 'tool_call', id: 'call_1', name: 'get_weather', input: { city: 'Oslo, Norway' } },
    ]);
    expect(countTurn(otherInput, opts).tokens - got.tokens).toBe(
      encodeO200k('{"city":"Oslo, Norway"}').length - encodeO200k('{"city":"Oslo"}').length,
    );
    const result = (content: string) => turn('r', 'tool', [{ type: 'tool_result', callId: 'call_1', content }]);
    expect(countTurn(result('4°C, rain'), opts).toolCalls).toBe(false);
    expect(countTurn(result('4°C, rain and wind'), opts).tokens - countTurn(result('4°C, rain'), opts).tokens).toBe(
      encodeO200k('4°C, rain and wind').length - encodeO200k('4°C, rain').length,
    );
  });

  it('counts each image from its dimensions (a 1×1 PNG here) and a fixed estimate for a URL image, per family; nothing when images are omitted', () => {
    const t = turn('u', 'user', [
      { type: 'image', mediaType: 'image/png', data: PNG },
      { type: 'image', mediaType: 'image/png', url: 'https://example.com/a.png' },
    ]);
    // 1×1 px: OpenAI one 512-px tile, 85 + 170; Claude ⌈1/750⌉; Gemini ≤ 384 px on both sides, 258.
    for (const family of ['o200k', 'anthropic', 'gemini'] as const)
      expect(countTurn(t, { ...opts, family }).tokens - framing(family)).toBe(
        imageTokens(family, { width: 1, height: 1 }) + IMAGE_TOKENS[family],
      );
    expect([255, 1, 258]).toEqual([
      imageTokens('o200k', { width: 1, height: 1 }),
      imageTokens('anthropic', { width: 1, height: 1 }),
      imageTokens('gemini', { width: 1, height: 1 }),
    ]);
    expect(countTurn(t, { ...opts, omitImages: true }).tokens).toBe(framing());
  });

  it('counts an image inside a tool result from its dimensions too', () => {
    const r = turn('r', 'tool', [
      {
        type: 'tool_result',
        callId: 'c1',
        content: [{ type: 'image', mediaType: 'image/png', data: pngBase64(2048, 4096) }],
      },
    ]);
    const empty = turn('r', 'tool', [{ type: 'tool_result', callId: 'c1', content: [] }]);
    expect(countTurn(r, opts).tokens - countTurn(empty, opts).tokens).toBe(1_105);
  });

  it('counts foreign reasoning only when it is sent as text; own reasoning always', () => {
    const t = turn('a', 'assistant', [
      { type: 'thinking', text: 'Let me think about it.' },
      { type: 'redacted_thinking', data: 'opaque' },
    ]);
    const thought = encodeO200k('Let me think about it.').length;
    expect(countTurn(t, opts).tokens).toBe(framing());
    expect(countTurn(t, { ...opts, reasoningAsText: true }).tokens).toBe(framing() + thought);
    expect(countTurn(t, { ...opts, sameOrigin: true }).tokens).toBe(framing() + thought);
  });

  it('skips left-out blocks', () => {
    const t = turn('u', 'user', [
      { type: 'text', text: 'keep' },
      { type: 'text', text: 'leave this out' },
    ]);
    expect(countTurn(t, { ...opts, skip: new Set([1]) }).tokens).toBe(framing() + encodeO200k('keep').length);
  });

  it('counts PDF pages from the data and text documents by size', () => {
    const pdf = btoa(
      '%PDF-1.4\n1 0 obj << /Type /Pages /Count 3 >>\n2 0 obj << /Type /Page >>\n3 0 obj << /Type /Page >>\n4 0 obj <</Type/Page>>',
    );
    expect(pdfPages(pdf)).toBe(3);
    expect(pdfPages('not base64!')).toBe(1);
    const onePage = btoa('%PDF-1.4\n1 0 obj << /Type /Page >>');
    const docs = (...blocks: Block[]) => turn('u', 'user', blocks);
    const pdfBlock = (data: string): Block => ({ type: 'document', mediaType: 'application/pdf', data });
    const textDoc = (text: string): Block => ({ type: 'document', mediaType: 'text/plain', data: btoa(text) });
    for (const family of ['anthropic', 'gemini'] as const) {
      const f = { ...opts, family };
      const page = countTurn(docs(pdfBlock(onePage)), f).tokens - framing(family);
      expect(page).toBeGreaterThan(0);
      // Three pages count three times one page; a text document as its decoded text.
      expect(countTurn(docs(pdfBlock(pdf)), f).tokens - framing(family)).toBe(3 * page);
      expect(countTurn(docs(textDoc('x'.repeat(35))), f).tokens - framing(family)).toBe(
        countText('x'.repeat(35), family),
      );
    }
  });
});

describe('request base', () => {
  it('adds the system prompt, the tool JSON, and for Claude a tool-use system prompt once tools are in play', () => {
    const tools = [{ name: 'get_weather', inputSchema: { type: 'object' } }];
    const bare = countRequestBase(undefined, undefined, false, 'o200k');
    expect(bare).toBeGreaterThan(0);
    const withSystem = countRequestBase('Be brief.', undefined, false, 'o200k');
    expect(withSystem).toBeGreaterThan(bare + encodeO200k('Be brief.').length);
    expect(countRequestBase('Be brief.', tools, false, 'o200k') - withSystem).toBe(
      encodeO200k(JSON.stringify(tools)).length,
    );
    // Claude's tool-use prompt: added for tool activity, never for OpenAI.
    expect(countRequestBase(undefined, undefined, true, 'anthropic')).toBeGreaterThan(
      countRequestBase(undefined, undefined, false, 'anthropic') + 100,
    );
    expect(countRequestBase(undefined, undefined, true, 'o200k')).toBe(bare);
    // A blank system prompt is not sent, so not counted.
    expect(countRequestBase('  ', undefined, false, 'anthropic')).toBe(
      countRequestBase(undefined, undefined, false, 'anthropic'),
    );
  });
});

describe('plan token estimates', () => {
  it('an OpenAI plan’s estimate is the sum of its turns and the request base, each text counted by gpt-tokenizer', () => {
    const texts = ['What is the capital of Norway?', 'Oslo.', 'And of Sweden?'];
    const t = transcript([user('u1', texts[0]!), assistant('a1', texts[1]!), user('u2', texts[2]!)], {
      system: 'Answer briefly.',
    });
    const p = plan(t, { api: 'openai-chat', model: 'gpt-4o' });
    expect(p.tokenizer).toBe('o200k');
    const opts = { family: 'o200k' as const, sameOrigin: false, reasoningAsText: false, omitImages: false };
    const framing = countTurn(turn('e', 'user', []), opts).tokens;
    expect(p.turns.map((x) => x.tokens)).toEqual(texts.map((s) => framing + encodeO200k(s).length));
    const total =
      p.turns.reduce((n, x) => n + x.tokens, 0) + countRequestBase('Answer briefly.', undefined, false, 'o200k');
    expect(p.estimatedInputTokens).toBe(total);
    // Exact families are never corrected.
    expect(p.uncorrectedInputTokens).toBe(total);
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
    expect(own.turns[1]!.tokens - other.turns[1]!.tokens).toBe(countText('x'.repeat(35), 'anthropic'));
    expect(
      plan(t, { api: 'anthropic-messages', model: 'claude-opus-4-5' }, { foreignReasoning: 'text' }).turns[1]!.tokens,
    ).toBe(own.turns[1]!.tokens);
  });

  it('counts cl100k for older OpenAI models', () => {
    const t = transcript([user('u1', 'Grüße aus Köln — 東京')]);
    const text = 'Grüße aus Köln — 東京';
    expect(encodeCl100k(text).length).not.toBe(encodeO200k(text).length);
    expect(
      plan(t, { api: 'openai-chat', model: 'gpt-4-turbo' }).turns[0]!.tokens -
        plan(t, { api: 'openai-chat', model: 'gpt-4o' }).turns[0]!.tokens,
    ).toBe(encodeCl100k(text).length - encodeO200k(text).length);
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
    const textOnly = transcript([user('u0', 'see')]);
    // A 1×1 PNG: one 512-px tile for gpt-4o; nothing for a model without vision.
    expect(withVision.turns[0]!.tokens - plan(textOnly, { api: 'openai-chat', model: 'gpt-4o' }).turns[0]!.tokens).toBe(
      imageTokens('o200k', { width: 1, height: 1 }),
    );
    expect(without.turns[0]!.tokens).toBe(
      plan(textOnly, { api: 'openai-chat', model: 'deepseek-chat', provider: 'deepseek' }).turns[0]!.tokens,
    );
    expect(without.report.blocks[1]!.fates).toEqual([
      { fate: 'converted', detail: 'image replaced by a placeholder: the model does not accept images' },
    ]);
    expect(without.stats.imagesOmitted).toBe(1);
    expect(withVision.stats.imagesOmitted).toBe(0);
  });
});
