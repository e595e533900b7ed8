/**
 * Baton transcript → Gemini Interactions API request body (`POST /v1beta/interactions`), the
 * REST shape `@google/genai`'s `interactions.create` sends (provider-rules-2026-gemini.md §9;
 * docs/provider-rules.md#9-gemini-interactions-api-gemini-interactions-2026; DESIGN.md, "One module per wire API"). Pure and
 * synchronous.
 *
 * Steps: resolve the target → look the model up → the shared pre-pass (X1–X8) → encode each
 * prepared turn as steps → request-level fields (system, tools, generation config, store, stream).
 * Stateless by default (GI-R2): `store: false` and the whole history as steps.
 */
import { lookupModel } from '../../models/registry';
import type { ModelInfo } from '../../models/types';
import { TranscriptError } from '../../transcript/codec';
import type { IdPolicy } from '../../transcript/ids';
import {
  commitSnapshot,
  prepareTranscript,
  rangeEnd,
  rangeStart,
  STAGE,
  type PrepareCapabilities,
} from '../../transcript/prepare';
import { convertResuming, type Incremental } from '../../transcript/prepare-cache';
import { ReportBuilder, withLazyReport } from '../../transcript/report';
import type { ToolDefinition, Transcript } from '../../transcript/schema';
import { resolveTarget, type ConvertTarget, type ResolvedTarget } from '../../transcript/target';
import { uniqueTools } from '../convert-unique-tools';
import type { ConvertOptions, ConvertResult } from '../types';
import { encodeTurn, type InteractionsEncodeContext } from './convert-gemini-interactions-steps';
import type {
  GeminiInteractionsBody,
  InteractionsFunctionTool,
  InteractionsGenerationConfig,
  InteractionsStep,
  InteractionsThinkingLevel,
} from './convert-to-gemini-interactions-types';
import { GEMINI_INTERACTIONS_API, INTERACTIONS_API_REVISION } from './read-gemini-interactions-steps';

export type * from './convert-to-gemini-interactions-types';
export { GEMINI_INTERACTIONS_API, INTERACTIONS_API_REVISION };

/**
 * Call ids: `function_call.id` is required and unique (GI-T4); Gemini's own (`zggxzq8r`) are
 * echoed exactly, others mapped through X2 into this alphabet. [INF] for the limit.
 */
export const GEMINI_INTERACTIONS_ID_POLICY: IdPolicy = { maxLength: 64, alphabet: 'alnum_-' };

/** GI-R4: the image types Interactions takes inline. */
export const GEMINI_INTERACTIONS_IMAGE_MEDIA_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
  'image/heif',
  'image/gif',
  'image/bmp',
  'image/tiff',
];

/**
 * What the pre-pass must know: inline images and PDFs only (GI-R4; URLs become placeholders),
 * images in model turns allowed, images inside function results allowed (GI-T3, X7).
 */
export function interactionsCapabilities(info: ModelInfo): PrepareCapabilities {
  return {
    idPolicy: GEMINI_INTERACTIONS_ID_POLICY,
    toolResultImages: true,
    vision: info.vision,
    imageMediaTypes: GEMINI_INTERACTIONS_IMAGE_MEDIA_TYPES,
    imageUrls: false,
    assistantImages: true,
    documentMediaTypes: info.pdf ? ['application/pdf'] : [],
    documentUrls: false,
  };
}

/**
 * Converts a transcript into the body of a streaming Interactions request. Model facts come from
 * `lookupModel`. The result carries `headers: {'Api-Revision': '2026-05-20'}` (GI-R1), which
 * the transport sends as given.
 * @param transcript a decoded, valid transcript (never mutated).
 * @param target the request's target (`api: 'gemini-interactions'`).
 * @returns `{api, model, body, report, headers}` (transcript-v1.md, "The `baton convert` contract").
 * @throws TranscriptError only for an invalid `maxOutputTokens`; a valid transcript always converts.
 */
export function convertToGeminiInteractions(
  transcript: Transcript,
  target: ConvertTarget,
  options: ConvertOptions = {},
): ConvertResult<GeminiInteractionsBody> {
  const resolved = resolveTarget(target);
  return encodeGeminiInteractions(transcript, resolved, lookupModel(resolved.model, resolved.provider), options);
}

/**
 * {@link convertToGeminiInteractions} with the model facts given explicitly.
 * @throws TranscriptError for an invalid `target.maxOutputTokens`.
 */
export function encodeGeminiInteractions(
  transcript: Transcript,
  target: ResolvedTarget,
  info: ModelInfo,
  options: ConvertOptions = {},
): ConvertResult<GeminiInteractionsBody> {
  // docs/architecture.md#incremental-conversion: splice onto the last conversion's prefix when it is provably the same.
  const key = `gemini-interactions\u0001${JSON.stringify(target)}\u0001${JSON.stringify(info)}`;
  return convertResuming(options.cache, key, transcript, (inc) =>
    encodeInteractions(transcript, target, info, options, inc),
  );
}

/** {@link encodeGeminiInteractions}; undefined when a splice turns out not to be exact. */
function encodeInteractions(
  transcript: Transcript,
  target: ResolvedTarget,
  info: ModelInfo,
  options: ConvertOptions,
  inc: Incremental | undefined,
): ConvertResult<GeminiInteractionsBody> | undefined {
  const resumed = inc?.snapshot;
  const report = new ReportBuilder(transcript, undefined, resumed?.report, resumed?.k);
  const max_output_tokens = outputLimit(target, info, report);
  const prepared = prepareTranscript(transcript, target, interactionsCapabilities(info), report, options.cache, inc);
  const p = prepared.incremental;
  if (p && !p.ok) return undefined;
  const ctx: InteractionsEncodeContext = { report, ids: prepared.ids, names: prepared.names };
  // GI-R2, GI-R3: the whole history, as steps with no role, in conversation order. Resumed: the
  // snapshot's steps, then the tail's.
  report.stage = STAGE.encode;
  const range = rangeStart(report);
  const input: InteractionsStep[] = p?.resumed ? (p.resumed.encoded as InteractionsStep[]).slice() : [];
  const turns = prepared.turns;
  for (let i = p?.resumed ? p.from : 0; i < turns.length; i++) {
    if (i === p?.boundary) commitSnapshot(prepared, input.slice(), [rangeEnd(range, report)]);
    encodeTurn(turns[i]!, ctx, input);
  }
  if (report.tainted) return undefined;

  const generation_config: InteractionsGenerationConfig = { max_output_tokens };
  thinking(target, info, report, generation_config);
  // X8 (GI-R7): stub definitions only describe history; `tool_choice` lives inside generation_config.
  if (prepared.toolChoiceNone) generation_config.tool_choice = 'none';

  // GI-R1 key order: model, input, system_instruction?, tools?, generation_config, store, stream.
  const body: GeminiInteractionsBody = {
    model: target.model,
    input,
    // GI-R5: a plain string, sent on every request.
    ...(prepared.system !== undefined ? { system_instruction: prepared.system } : {}),
    ...toolsField(uniqueTools(prepared.tools, report)),
    generation_config,
    store: false, // GI-R2, GI-P1: stateless, so no previous_interaction_id
    stream: true, // GI-R8
  };
  return withLazyReport(
    { api: GEMINI_INTERACTIONS_API, model: target.model, body, headers: { 'Api-Revision': INTERACTIONS_API_REVISION } },
    report,
  );
}

/** GI-R6: a flat list of `{type: 'function', name, description?, parameters}`; absent when empty. */
function toolsField(tools: ToolDefinition[]): { tools?: InteractionsFunctionTool[] } {
  if (tools.length === 0) return {};
  return {
    tools: tools.map((t) => ({
      type: 'function',
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      parameters: t.inputSchema,
    })),
  };
}

/** `max_output_tokens`: the caller's, else the registry default; a known model's ceiling caps it (reported). */
function outputLimit(target: ResolvedTarget, info: ModelInfo, report: ReportBuilder): number {
  const asked = target.maxOutputTokens;
  if (asked === undefined) return info.defaultOutputTokens;
  if (!Number.isInteger(asked) || asked < 1)
    throw new TranscriptError('maxOutputTokens', `must be a positive integer, got ${String(asked)}`);
  if (info.known && asked > info.maxOutputTokens) {
    report.warn(`maxOutputTokens ${asked} exceeds ${info.id}'s limit: sent ${info.maxOutputTokens}`);
    return info.maxOutputTokens;
  }
  return asked;
}

/**
 * GI-R7 thinking, per model. The model's own levels (registry `thinkingLevels`, G-G1) when known:
 * on → `high` with `thinking_summaries: 'auto'`; off → the lowest level it takes, reported, since
 * thinking cannot be switched off. Gemini 3 without a level list: on → `high`, off → `low`
 * (reported). Other thinking models (Gemini 2.5): on → `high` with summaries; off → the model's
 * default (no field). `temperature` and `top_p` are never sent (GI-R7).
 */
function thinking(
  target: ResolvedTarget,
  info: ModelInfo,
  report: ReportBuilder,
  config: InteractionsGenerationConfig,
): void {
  const levels = info.thinkingLevels?.map((l) => l.toLowerCase() as InteractionsThinkingLevel);
  if (target.thinking) {
    if (info.thinking === 'none' && !levels) {
      report.warn(`thinking was requested, but ${info.id} has no Gemini thinking control: sent without thinking_level`);
      return;
    }
    config.thinking_level = !levels || levels.includes('high') ? 'high' : levels[levels.length - 1]!;
    config.thinking_summaries = 'auto';
    return;
  }
  const lowest = levels?.[0] ?? (info.thinking === 'level' ? 'low' : undefined);
  if (lowest === undefined) return;
  report.warn(`${info.id} cannot switch thinking off: sent at its lowest thinking level ${lowest} (GI-R7, G-G1)`);
  config.thinking_level = lowest;
}
