/**
 * fast-check arbitraries for Baton transcripts of every shape the converters must survive: mixed
 * origins, parallel calls, orphans both ways, thinking and redacted thinking, images in user turns
 * and tool results, empty and whitespace blocks, consecutive same-role turns, long and odd ids and
 * tool names, lone surrogates, unfinished calls. Every generated value is a *valid* transcript
 * (checked with the decoder, so a generator bug fails loudly instead of testing nothing).
 */
import fc from 'fast-check';
import { decodeTranscript } from '../../lib/transcript/codec';
import type { Block, Origin, Transcript } from '../../lib/transcript/schema';

export const ORIGINS: readonly Origin[] = [
  { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
  {
    provider: 'anthropic',
    api: 'anthropic-messages',
    model: 'claude-opus-4-5-20251101',
    requestedModel: 'claude-opus-4-5',
  },
  { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5-2026-04-23', requestedModel: 'gpt-5.5' },
  { provider: 'openai', api: 'openai-chat', model: 'gpt-4o-2024-08-06', requestedModel: 'gpt-4o' },
  { provider: 'google', api: 'gemini-generate-content', model: 'gemini-3-pro-preview' },
  { provider: 'google', api: 'gemini-generate-content', model: 'gemini-2.5-flash' },
  { provider: 'google', api: 'gemini-interactions', model: 'gemini-3-pro-preview' },
  { provider: 'deepseek', api: 'openai-chat', model: 'deepseek-reasoner' },
  { provider: 'mistral', api: 'openai-chat', model: 'mistral-large-latest' },
  { provider: 'openrouter', api: 'openai-chat', model: 'anthropic/claude-sonnet-4.5' },
  { provider: 'chatgpt-web', api: 'web', model: 'chatgpt' },
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((n) => String.fromCharCode(n));
const nastyChar = fc.oneof(
  fc.constantFrom('a', 'Z', ' ', '\n', '`', '"', '\\', 'é', '\u{1F600}', '\u0000', '\u2028'),
  loneSurrogate,
);

/** Text: ordinary, empty, whitespace-only, or with lone surrogates and odd characters. */
export const textArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) },
  { weight: 2, arbitrary: fc.constantFrom('', ' ', '\n\t ', '   ') },
  { weight: 2, arbitrary: fc.string({ unit: nastyChar, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }) },
);

/** Tool-call ids: ordinary, duplicated across turns, too long, with illegal characters. */
export const idArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'call_abc',
    'toolu_01A',
    'dup',
    'dup',
    'call_5fK2|fc_68a1b2c3d4e5f607',
    'x',
    'fc_123',
    'a.b.c',
    'íd ünïcode',
  ),
  fc.string({ minLength: 41, maxLength: 90, unit: fc.constantFrom('a', 'B', '0', '_', '-', '|', '.') }),
  fc.stringMatching(/^[a-zA-Z0-9_-]{1,12}$/),
);

/** Tool names: portable, dotted (MCP), too long, starting with a digit, with spaces. */
export const toolNameArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('get_weather', 'search', 'read_file', 'ls') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'mcp.github.search_issues',
      '9lives',
      'has space',
      'a'.repeat(80),
      'bad/name',
      'émoji🙂',
    ),
  },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_]{0,10}$/) },
);

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const imageArb = fc
  .record({
    type: fc.constant('image' as const),
    mediaType: fc.constantFrom('image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/heic', 'image/svg+xml'),
    src: fc.oneof(fc.constant({ data: PNG }), fc.constant({ url: 'https://example.com/a.png' })),
  })
  .map(({ src, ...rest }) => ({ ...rest, ...src }));

const documentArb = fc
  .record({
    type: fc.constant('document' as const),
    mediaType: fc.constantFrom('application/pdf', 'text/plain', 'application/zip'),
    src: fc.oneof(fc.constant({ data: 'SGVsbG8=' }), fc.constant({ url: 'https://example.com/a.pdf' })),
    title: fc.option(fc.constantFrom('a.pdf', 'notes'), { nil: undefined }),
  })
  .map(({ src, title, ...rest }) => ({ ...rest, ...src, ...(title !== undefined ? { title } : {}) }));

const signatureFor = (o: Origin): string =>
  o.api === 'anthropic-messages' ? 'EqQBCkYIBxgCKkBsig' : o.api === 'openai-responses' ? 'gAAAAABenc' : 'CiQBjz1rXsig';

/** Keys the decoder rejects anywhere (security-requirements.md I2): a valid transcript never holds them. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
function withoutForbiddenKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutForbiddenKeys);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (!FORBIDDEN_KEYS.has(k)) out[k] = withoutForbiddenKeys(x);
  return out;
}

const jsonInput: fc.Arbitrary<unknown> = fc
  .oneof(
    { weight: 5, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
  )
  .map(withoutForbiddenKeys);

interface CallSpec {
  id: string;
}

/** One assistant turn's blocks for a given origin, plus the calls it made. */
function assistantBlocksArb(origin: Origin): fc.Arbitrary<{ blocks: Block[]; calls: CallSpec[] }> {
  const sig = signatureFor(origin);
  const thinking = fc
    .record({
      type: fc.constant('thinking' as const),
      text: textArb,
      signed: fc.boolean(),
    })
    .map(({ signed, ...b }) => (signed ? { ...b, signature: sig } : b));
  const redacted = fc.constant({ type: 'redacted_thinking' as const, data: 'EmwKAhgBEgy3redacted' });
  const text = fc
    .record({
      type: fc.constant('text' as const),
      text: textArb,
      extra: fc.constantFrom('none', 'none', 'signature', 'citations'),
    })
    .map(({ extra, ...b }) =>
      extra === 'signature'
        ? { ...b, signature: sig }
        : extra === 'citations'
          ? { ...b, citations: [{ type: 'char_location', cited_text: 'x' }] }
          : b,
    );
  const call = fc
    .record({
      type: fc.constant('tool_call' as const),
      id: idArb,
      name: toolNameArb,
      input: jsonInput,
      flavour: fc.constantFrom('plain', 'plain', 'plain', 'signed', 'partial'),
    })
    .map(({ flavour, ...b }) =>
      flavour === 'signed' ? { ...b, signature: sig } : flavour === 'partial' ? { ...b, meta: { partial: true } } : b,
    );
  const providerItem = fc
    .record({
      type: fc.constant('provider_item' as const),
      api: fc.constant(origin.api),
      item: fc.constant({ type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'q' } }),
      text: fc.option(fc.constantFrom('web_search: q', ''), { nil: undefined }),
    })
    .map((b) => (b.text === undefined ? { type: b.type, api: b.api, item: b.item } : b));
  const head = fc.array(fc.oneof(thinking, redacted), { maxLength: 2 });
  const body = fc.array(
    fc.oneof(
      { weight: 4, arbitrary: text },
      { weight: 1, arbitrary: imageArb },
      { weight: 1, arbitrary: providerItem },
    ),
    { maxLength: 3 },
  );
  const calls = fc.array(call, { maxLength: 3 });
  return fc.tuple(head, body, calls).map(([h, b, c]) => ({
    blocks: [...h, ...b, ...c] as Block[],
    calls: c.filter((x) => !('meta' in x)).map((x) => ({ id: x.id })),
  }));
}

const resultContentArb = fc.oneof(
  textArb,
  fc.array(fc.oneof(fc.record({ type: fc.constant('text' as const), text: textArb }), imageArb), { maxLength: 3 }),
);

function resultArb(callId: fc.Arbitrary<string>) {
  return fc
    .record({
      type: fc.constant('tool_result' as const),
      callId,
      content: resultContentArb,
      isError: fc.option(fc.boolean(), { nil: undefined }),
    })
    .map((r) => (r.isError === undefined ? { type: r.type, callId: r.callId, content: r.content } : r));
}

type TurnDraft = {
  role: 'user' | 'assistant' | 'tool';
  blocks: Block[];
  origin?: Origin;
  status?: 'interrupted' | 'error';
  stopReason?: 'max_tokens';
};

const userTurnArb: fc.Arbitrary<TurnDraft[]> = fc
  .array(
    fc.oneof(
      { weight: 5, arbitrary: fc.record({ type: fc.constant('text' as const), text: textArb }) },
      { weight: 1, arbitrary: imageArb },
      { weight: 1, arbitrary: documentArb },
    ),
    { maxLength: 3 },
  )
  .map((blocks) => [{ role: 'user', blocks: blocks as Block[] }]);

/** An assistant turn, usually followed by results for some (or all) of its calls, in any order, sometimes with an extra orphan. */
const exchangeArb: fc.Arbitrary<TurnDraft[]> = fc.constantFrom(...ORIGINS).chain((origin) =>
  fc
    .tuple(
      assistantBlocksArb(origin),
      fc.constantFrom('all', 'all', 'all', 'some', 'none'),
      fc.boolean(),
      fc.constantFrom('ok', 'ok', 'ok', 'interrupted', 'max_tokens'),
    )
    .chain(([{ blocks, calls }, answered, orphan, ending]) => {
      const chosen =
        answered === 'all' ? calls : answered === 'some' ? calls.slice(0, Math.ceil(calls.length / 2)) : [];
      const results = chosen.map((c) => resultArb(fc.constant(c.id)));
      const extra = orphan ? [resultArb(idArb)] : [];
      return fc
        .tuple(...results, ...extra)
        .chain((rs) => fc.shuffledSubarray(rs, { minLength: rs.length, maxLength: rs.length }))
        .map((rs) => {
          const turn: TurnDraft = { role: 'assistant', origin, blocks };
          if (ending === 'interrupted') turn.status = 'interrupted';
          if (ending === 'max_tokens') turn.stopReason = 'max_tokens';
          return rs.length ? [turn, { role: 'tool', blocks: rs as Block[] }] : [turn];
        });
    }),
);

const strayToolTurnArb: fc.Arbitrary<TurnDraft[]> = fc
  .array(resultArb(idArb), { minLength: 1, maxLength: 2 })
  .map((rs) => [{ role: 'tool', blocks: rs as Block[] }]);

const toolDefArb = fc
  .record({ name: toolNameArb, description: fc.option(textArb, { nil: undefined }) })
  .map(({ name, description }) => ({
    name,
    ...(description !== undefined ? { description } : {}),
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  }));

/** A valid transcript of any shape. */
export const transcriptArb: fc.Arbitrary<Transcript> = fc
  .record({
    segments: fc.array(
      fc.oneof(
        { weight: 4, arbitrary: userTurnArb },
        { weight: 5, arbitrary: exchangeArb },
        { weight: 1, arbitrary: strayToolTurnArb },
      ),
      { maxLength: 10 },
    ),
    system: fc.option(textArb, { nil: undefined }),
    tools: fc.option(fc.uniqueArray(toolDefArb, { selector: (t) => t.name, maxLength: 3 }), { nil: undefined }),
  })
  .map(({ segments, system, tools }) => {
    const turns = segments.flat().map((t, i) => ({ id: `t${i}`, ...t }));
    return decodeTranscript({
      format: 'baton.transcript',
      version: 1,
      id: 'generated',
      ...(system !== undefined ? { system } : {}),
      ...(tools !== undefined ? { tools } : {}),
      turns,
    });
  });
