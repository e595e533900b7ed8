/**
 * Token estimates against what providers counted (docs/disclosure.md, "Token estimates per
 * target"): every recorded real request in `../shared/fixtures/recorded-streams/**\/llm-cassette-*`
 * carries its request body and, in its response, the input tokens the provider reported
 * (Anthropic `usage.input_tokens`, OpenAI Chat `usage.prompt_tokens`, Responses
 * `usage.input_tokens`, Gemini `usageMetadata.promptTokenCount`). Each body is read back into
 * turns with the wire API's own history reader, planned for the same API and model, and the
 * uncorrected estimate is compared with the provider's count.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { WIRE_API_MODULES } from '../providers/index';
import type { WireApi } from '../transcript/schema';
import { plan } from './plan';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const STREAMS = path.resolve(ROOT, '../shared/fixtures/recorded-streams');
const has = fs.existsSync(STREAMS);
if (!has) console.warn('skipping: ../shared/fixtures not found');

const API_OF_DIR: Record<string, WireApi> = {
  anthropic: 'anthropic-messages',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  gemini: 'gemini-generate-content',
};

/** One recorded request and the input tokens its provider reported. */
interface Recorded {
  name: string;
  api: WireApi;
  model: string;
  body: Record<string, unknown>;
  /** Input tokens the provider billed for this request (cache reads and writes included). */
  counted: number;
}

const num = (v: unknown) => (typeof v === 'number' ? v : 0);

/** The provider's input count in a response body (SSE, a JSON-array stream or one JSON object): the first usage found. */
function countedInput(api: WireApi, text: string): number | undefined {
  const docs: unknown[] = /^\s*(event|data):/m.test(text)
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .filter((d) => d.startsWith('{'))
        .map((d) => JSON.parse(d) as unknown)
    : ([] as unknown[]).concat(JSON.parse(text) as unknown);
  for (const d of docs as Record<string, Record<string, unknown> | undefined>[]) {
    switch (api) {
      case 'anthropic-messages': {
        // message_start carries the input usage; cache reads and writes are input too.
        const u = d.message?.usage as Record<string, unknown> | undefined;
        if (u && typeof u.input_tokens === 'number')
          return u.input_tokens + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens);
        break;
      }
      case 'openai-chat':
        if (typeof d.usage?.prompt_tokens === 'number') return d.usage.prompt_tokens;
        break;
      case 'openai-responses': {
        const u = (d.response?.usage ?? d.usage) as Record<string, unknown> | undefined;
        if (u && typeof u.input_tokens === 'number') return u.input_tokens;
        break;
      }
      case 'gemini-generate-content':
        if (typeof d.usageMetadata?.promptTokenCount === 'number') return d.usageMetadata.promptTokenCount;
        break;
    }
  }
  return undefined;
}

/** Every request of every cassette whose response reports input tokens. */
function loadRecorded(): Recorded[] {
  const out: Recorded[] = [];
  for (const [dir, api] of Object.entries(API_OF_DIR)) {
    const abs = path.join(STREAMS, dir);
    for (const file of fs
      .readdirSync(abs)
      .filter((n) => /^llm-cassette-.*\.(ya?ml|json)$/.test(n))
      .sort()) {
      const text = fs.readFileSync(path.join(abs, file), 'utf8');
      const doc = (file.endsWith('.json') ? JSON.parse(text) : YAML.parse(text)) as {
        interactions: {
          request: { uri: string; body: string | { string: string } };
          response: { body: string | { string: string | Uint8Array } };
        }[];
      };
      doc.interactions.forEach((inter, n) => {
        const req = inter.request.body;
        const body = JSON.parse(typeof req === 'string' ? req : req.string) as Record<string, unknown>;
        const res = inter.response.body;
        const raw = typeof res === 'string' ? res : res.string;
        const counted = countedInput(api, typeof raw === 'string' ? raw : gunzipSync(raw).toString('utf8'));
        const model =
          typeof body.model === 'string' ? body.model : (/\/models\/([^:/]+):/.exec(inter.request.uri)?.[1] ?? '');
        if (counted !== undefined) out.push({ name: `${dir}/${file}#${n}`, api, model, body, counted });
      });
    }
  }
  return out;
}

/**
 * Requests left out, with why: Anthropic's server tools (`web_search_20250305`) add a system prompt
 * of their own that Anthropic does not publish, and Baton's history reader keeps no server-tool
 * definition, so no estimate can contain it (recorded: 2,039 tokens counted for a one-line question).
 */
const SERVER_TOOL = (r: Recorded) =>
  Array.isArray(r.body.tools) &&
  (r.body.tools as { type?: unknown }[]).some((t) => typeof t.type === 'string' && /_\d{8}$/.test(t.type));

/** The uncorrected estimate Baton plans for the turns the recorded body carried, to the same API and model. */
function estimate(r: Recorded): number {
  const t = WIRE_API_MODULES[r.api].readHistory(r.body, { model: r.model });
  return plan(t, { api: r.api, model: r.model }).uncorrectedInputTokens;
}

describe.skipIf(!has)('token estimates against recorded provider usage', () => {
  const recorded = has ? loadRecorded() : [];
  const compared = recorded.filter((r) => !SERVER_TOOL(r));

  it('finds recorded requests with reported usage for all four APIs', () => {
    expect(new Set(compared.map((r) => r.api))).toEqual(new Set(Object.values(API_OF_DIR)));
    expect(compared.length).toBeGreaterThanOrEqual(20);
    expect(recorded.filter(SERVER_TOOL).map((r) => r.name)).toEqual([
      'anthropic/llm-cassette-web-search-citations.yaml#0',
    ]);
  });

  // Within a factor of two either way. For Claude and Gemini that is the range the correction
  // learned from reported usage may apply (CORRECTION_BOUNDS, token-cache.ts): an estimate further
  // off could not be corrected onto the provider's count. OpenAI models are tokenized exactly and
  // not corrected; what remains is framing the provider does not publish: tool schemas counted as
  // JSON (the recordings: up to 1.6× over) and encrypted reasoning replayed inside a tool loop,
  // which OpenAI bills but Baton counts as nothing (down to 0.51×). Short requests are the
  // loosest, as the fixed per-message figures weigh most there (a one-line Claude request sits at
  // 0.5× exactly: the next cut to those figures fails here).
  it.each(compared.map((r) => [r.name, r] as const))(
    '%s: the estimate is within a factor of 2 of the input tokens the provider counted',
    (_name, r) => {
      const tokens = estimate(r);
      expect(tokens, `estimated ${tokens}, ${r.model} counted ${r.counted}`).toBeGreaterThanOrEqual(r.counted / 2);
      expect(tokens, `estimated ${tokens}, ${r.model} counted ${r.counted}`).toBeLessThanOrEqual(r.counted * 2);
    },
  );

  // Over a whole API the per-request framing errors partly cancel (the recordings: 0.72 to 1.23
  // of the counts). 35% leaves room for new recordings and still fails on a systematic drift
  // such as a wrong characters-per-token figure for a family.
  it.each(Object.values(API_OF_DIR))(
    '%s: summed over its recordings, the estimates are within 35%% of the counts',
    (api) => {
      const mine = compared.filter((r) => r.api === api);
      const estimated = mine.reduce((n, r) => n + estimate(r), 0);
      const counted = mine.reduce((n, r) => n + r.counted, 0);
      expect(estimated / counted, `estimated ${estimated}, counted ${counted}`).toBeGreaterThan(0.65);
      expect(estimated / counted, `estimated ${estimated}, counted ${counted}`).toBeLessThan(1.35);
    },
  );

  // The image request is mostly image: a 166×282 PNG, which Claude's documented formula (width ×
  // height / 750, from the dimensions in the stored bytes) puts at 63 tokens, and a five-word
  // question. Little framing is left to guess, so 10% is asked of it.
  it('anthropic/llm-cassette-image-input.yaml#0: an image request is estimated within 10%', () => {
    const r = compared.find((x) => x.name === 'anthropic/llm-cassette-image-input.yaml#0')!;
    const tokens = estimate(r);
    expect(Math.abs(tokens - r.counted) / r.counted, `estimated ${tokens}, counted ${r.counted}`).toBeLessThanOrEqual(
      0.1,
    );
  });

  it.todo('Anthropic server tools (web_search): their system prompt is not estimated (see SERVER_TOOL above)');
});
