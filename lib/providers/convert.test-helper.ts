/**
 * Set-up shared by the converter tests of every wire API: a decoded transcript, a conversion to
 * any API with the test defaults that also runs the independent contract validator, and readers
 * of the conversion report. The per-API helpers (`<api>/convert-*.test-helper.ts`) re-export
 * what they share from here. Test-only.
 */
import { expect } from 'vitest';
import { validateRequest } from '../../test/contract';
import { decodeTranscript } from '../transcript/codec';
import { createConversionCache, type ConversionCache } from '../transcript/prepare-cache';
import type { BlockFate, BlockReport, ConversionReport } from '../transcript/report';
import type { Transcript } from '../transcript/schema';
import type { ConvertTarget } from '../transcript/target';
import { convertToAnthropicMessages } from './anthropic-messages/convert-to-anthropic-messages';
import { convertToGeminiGenerateContent } from './gemini-generate-content/convert-to-gemini-generate-content';
import { convertToGeminiInteractions } from './gemini-interactions/convert-to-gemini-interactions';
import { convertToOpenAIChat } from './openai-chat/convert-to-openai-chat';
import { convertToOpenAIResponses } from './openai-responses/convert-to-openai-responses';

/**
 * A decoded (so schema-checked: a typo in a test fails loudly) `baton.transcript` v1 with id
 * `test`, the given `turns` and any other top-level fields in `extra` (`extra.turns` is ignored).
 * @throws TranscriptError when the turns or fields are not a valid transcript.
 */
export function transcript(turns: unknown[], extra: Record<string, unknown> = {}): Transcript {
  return decodeTranscript({ format: 'baton.transcript', version: 1, id: 'test', ...extra, turns });
}

/** Report entry of a block that went through unchanged (`kept`, "sent as is"). */
export function kept(turn: string, index = 0): BlockReport {
  return { turn, index, fates: [{ fate: 'kept', detail: 'sent as is' }] };
}

/**
 * The fates `report` records for block `index` of turn `turn`.
 * @throws Error naming `turn#index` when the report has no entry for that block.
 */
export function fatesOf(report: ConversionReport, turn: string, index: number): BlockFate[] {
  const entry = report.blocks.find((b) => b.turn === turn && b.index === index);
  if (!entry)
    throw new Error(
      `the report has no entry for block ${turn}#${index} (entries: ${report.blocks.map((b) => `${b.turn}#${b.index}`).join(', ')})`,
    );
  return entry.fates;
}

/** The converter of each wire API that sends over HTTP. */
const CONVERTERS = {
  'anthropic-messages': convertToAnthropicMessages,
  'openai-chat': convertToOpenAIChat,
  'openai-responses': convertToOpenAIResponses,
  'gemini-generate-content': convertToGeminiGenerateContent,
  'gemini-interactions': convertToGeminiInteractions,
} as const;

/** A wire API with a converter in {@link CONVERTERS}. */
export type HttpApi = keyof typeof CONVERTERS;

/**
 * Converts `t` for `model` on `api` with the test default of 1000 output tokens (`target`
 * overrides it and adds fields), then asserts that the independent contract validator
 * (`test/contract`) finds nothing wrong with the body. Returns the converter's result.
 */
export function convertChecked<A extends HttpApi>(
  api: A,
  t: Transcript,
  model: string,
  target: Partial<ConvertTarget> = {},
): ReturnType<(typeof CONVERTERS)[A]> {
  const convert = CONVERTERS[api] as (t: Transcript, target: ConvertTarget) => ReturnType<(typeof CONVERTERS)[A]>;
  const out = convert(t, { api, model, maxOutputTokens: 1000, ...target });
  expect(validateRequest(api, out.body, { model })).toEqual([]);
  return out;
}

/**
 * The request bytes a send and a preview use (headers, body, report) of converting `t` to
 * `target` with the converter of its API, through `cache` when one is given.
 */
export function convertedBytes(t: Transcript, target: ConvertTarget, cache?: ConversionCache): string {
  const convert = CONVERTERS[target.api as HttpApi] as (
    t: Transcript,
    target: ConvertTarget,
    options: { cache?: ConversionCache },
  ) => { headers?: unknown; body: unknown; report: unknown };
  const r = convert(t, target, cache ? { cache } : {});
  return JSON.stringify([r.headers ?? null, r.body, r.report]);
}

/**
 * docs/architecture.md#incremental-conversion: converts `all`'s first `from`, `from + 1`, … turns
 * (the same turn objects, as the store's transcript cache keeps them) through one new
 * `ConversionCache`, asserting after every append that the bytes equal a cold conversion's.
 * Returns the cache (its `resumed` counts the conversions spliced onto a snapshot).
 */
export function growThroughCache(all: Transcript, target: ConvertTarget, from = 1): ConversionCache {
  const cache = createConversionCache();
  for (let n = from; n <= all.turns.length; n++) {
    const t = { ...all, turns: all.turns.slice(0, n) };
    expect(convertedBytes(t, target, cache), `after ${n} turns`).toBe(convertedBytes(t, target));
  }
  return cache;
}
