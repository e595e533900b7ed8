/**
 * Baton transcript → Gemini `generateContent` request body, the REST shape `@google/genai` sends
 * (provider-rules.md §4; DESIGN.md, "One module per wire API"). Pure and synchronous.
 *
 * Steps: resolve the target → look the model up → the shared pre-pass (X1–X8) with Gemini's
 * capabilities → encode each prepared turn (role, then block type) → content passes (G-E1, G-R6,
 * G-K4) → request-level fields (system, tools, tool config, generation config).
 */
import { lookupModel } from '../../models/registry';
import type { ModelInfo } from '../../models/types';
import { TranscriptError } from '../../transcript/codec';
import type { IdPolicy } from '../../transcript/ids';
import {
  prepareTranscript,
  type PrepareCapabilities,
  type PreparedTranscript,
  type PreparedTurn,
  commitSnapshot,
  rangeEnd,
  rangeStart,
  STAGE,
} from '../../transcript/prepare';
import { convertResuming, type Incremental } from '../../transcript/prepare-cache';
import { ReportBuilder, withLazyReport } from '../../transcript/report';
import type { ToolDefinition, Transcript } from '../../transcript/schema';
import { resolveTarget, type ConvertTarget, type ResolvedTarget } from '../../transcript/target';
import { uniqueTools } from '../convert-unique-tools';
import type { ConvertOptions, ConvertResult } from '../types';
import { encodeBlock, GEMINI_API, type GeminiEncodeContext } from './convert-gemini-generate-content-blocks';
import { addDummySignatures, mergeContents, type DraftContent } from './convert-gemini-generate-content-contents';
import { replayNativeParts } from './convert-gemini-generate-content-native';
import type {
  GeminiContent,
  GeminiFunctionDeclaration,
  GeminiGenerateContentBody,
  GeminiThinkingConfig,
} from './convert-to-gemini-generate-content-types';

export type * from './convert-to-gemini-generate-content-types';
export { DUMMY_THOUGHT_SIGNATURE } from './convert-gemini-generate-content-contents';

/**
 * Tool-call ids for Gemini: `functionCall.id` is optional and unconstrained in the docs (G-T3);
 * Gemini's own ids (`call_` + 32 hex) must be echoed exactly, so the limit is generous. [INF]
 */
export const GEMINI_ID_POLICY: IdPolicy = { maxLength: 64, alphabet: 'alnum_-' };

/** G-I1: the image types Gemini takes inline. */
export const GEMINI_IMAGE_MEDIA_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
  'image/heif',
];

/**
 * What the pre-pass must know about a Gemini model: inline images only (G-I1, no URLs), images
 * in model turns allowed, PDFs inline when the model reads them, and tool-result images inside
 * `functionResponse.parts` only on Gemini 3 (G-I3, X7; otherwise moved to a user content).
 */
export function geminiCapabilities(info: ModelInfo): PrepareCapabilities {
  return {
    idPolicy: GEMINI_ID_POLICY,
    toolResultImages: info.functionResponseParts,
    vision: info.vision,
    imageMediaTypes: GEMINI_IMAGE_MEDIA_TYPES,
    imageUrls: false,
    assistantImages: true,
    documentMediaTypes: info.pdf ? ['application/pdf'] : [],
    documentUrls: false,
  };
}

/**
 * Converts a transcript into the body of a streaming Gemini `generateContent` request (model and
 * `:streamGenerateContent` go in the URL). Model facts come from `lookupModel`.
 * @param transcript a decoded, valid transcript (never mutated).
 * @param target the request's target (`api: 'gemini-generate-content'`).
 * @returns `{api, model, body, report}` (transcript-v1.md, "The `baton convert` contract").
 * @throws TranscriptError only for an invalid `maxOutputTokens` (not a positive integer); a valid
 * transcript always converts.
 */
export function convertToGeminiGenerateContent(
  transcript: Transcript,
  target: ConvertTarget,
  options: ConvertOptions = {},
): ConvertResult<GeminiGenerateContentBody> {
  const resolved = resolveTarget(target);
  return encodeGeminiGenerateContent(transcript, resolved, lookupModel(resolved.model, resolved.provider), options);
}

/**
 * {@link convertToGeminiGenerateContent} with the model facts given explicitly (for tests and
 * callers that already looked the model up).
 * @throws TranscriptError for an invalid `target.maxOutputTokens`.
 */
export function encodeGeminiGenerateContent(
  transcript: Transcript,
  target: ResolvedTarget,
  info: ModelInfo,
  options: ConvertOptions = {},
): ConvertResult<GeminiGenerateContentBody> {
  // docs/architecture.md#incremental-conversion: splice onto the last conversion's prefix when it is provably the same.
  const key = `gemini-generate-content\u0001${JSON.stringify(target)}\u0001${JSON.stringify(info)}`;
  return convertResuming(options.cache, key, transcript, (inc) => encodeGemini(transcript, target, info, options, inc));
}

/** What a Gemini snapshot keeps: the merge fold's state at the boundary and the final contents before it. */
interface GeminiPrefix {
  merged: DraftContent[];
  contents: GeminiContent[];
}

/** {@link encodeGeminiGenerateContent}; undefined when a splice turns out not to be exact. */
function encodeGemini(
  transcript: Transcript,
  target: ResolvedTarget,
  info: ModelInfo,
  options: ConvertOptions,
  inc: Incremental | undefined,
): ConvertResult<GeminiGenerateContentBody> | undefined {
  const resumed = inc?.snapshot;
  const report = new ReportBuilder(transcript, undefined, resumed?.report, resumed?.k);
  const maxOutputTokens = outputLimit(target, info, report);
  const prepared = prepareTranscript(transcript, target, geminiCapabilities(info), report, options.cache, inc);
  const p = prepared.incremental;
  if (p && !p.ok) return undefined;
  const ctx: GeminiEncodeContext = {
    report,
    vertex: isVertex(target),
    wholeTurns: info.thinkingLevels !== undefined, // G-K11: Gemini 3.5+
    functionResponseParts: info.functionResponseParts,
    calls: new Map(),
  };
  // Encoded per prepared turn, then merged (a left fold): resumed, the tail is merged onto the
  // snapshot's merged contents; recording, the fold's state is kept where the boundary turn starts.
  report.stage = STAGE.encode;
  const encodeRange = rangeStart(report);
  const turns = prepared.turns;
  const start = p?.resumed ? p.from : 0;
  const boundary = p && p.boundary >= 0 ? p.boundary : turns.length;
  const head: DraftContent[] = [];
  for (let i = start; i < boundary; i++) head.push(encodeTurn(turns[i]!, ctx, prepared));
  rangeEnd(encodeRange, report);
  const tail: DraftContent[] = [];
  for (let i = boundary; i < turns.length; i++) tail.push(encodeTurn(turns[i]!, ctx, prepared));
  const kept = p?.resumed?.encoded as GeminiPrefix | undefined;
  const mergedHead = mergeContents(head, kept ? kept.merged.slice() : []);
  // The boundary holds only if its content cannot merge into the one before it.
  const crosses = (d: DraftContent | undefined, before: DraftContent[]): boolean =>
    d === undefined || d.parts.length === 0 || before[before.length - 1]?.role === d.role;
  if (kept && start < boundary && crosses(head[0], kept.merged)) return undefined;
  const recordable = p !== undefined && p.boundary >= 0 && !crosses(tail[0], mergedHead);
  const atBoundary = recordable ? mergedHead.slice() : undefined;
  const merged = mergeContents(tail, mergedHead);
  if (kept && start === boundary && crosses(tail[0], kept.merged)) return undefined;
  // G-K4: only Gemini 3 enforces signatures on the current turn's calls (G-K1, G-K3). Per content,
  // so the contents before the boundary are signed (and reported) apart from the rest.
  report.stage = STAGE.after;
  const signRange = rangeStart(report);
  const sign = (drafts: DraftContent[]): DraftContent[] =>
    info.thoughtSignatures === 'enforced' ? addDummySignatures(drafts, report) : drafts;
  const from = kept ? kept.merged.length : 0;
  const cut = atBoundary ? atBoundary.length : merged.length;
  const headContents = sign(merged.slice(from, cut)).map(({ role, parts }) => ({ role, parts }));
  rangeEnd(signRange, report);
  const tailContents = sign(merged.slice(cut)).map(({ role, parts }) => ({ role, parts }));
  if (report.tainted) return undefined;
  const prefix = kept ? kept.contents.concat(headContents) : headContents;
  if (atBoundary)
    commitSnapshot(prepared, { merged: atBoundary, contents: prefix } satisfies GeminiPrefix, [encodeRange, signRange]);
  const contents: GeminiContent[] = prefix.concat(tailContents);

  const body: GeminiGenerateContentBody = { contents, generationConfig: { maxOutputTokens } };
  if (prepared.system !== undefined) {
    if (/(^|\/)gemma-/i.test(target.model) && contents[0]) {
      // G-R1: Gemma models reject systemInstruction; the system text opens the first user content.
      contents[0] = { ...contents[0], parts: [{ text: prepared.system }, ...contents[0].parts] };
      report.warn('Gemma models take no systemInstruction: the system prompt was sent as the first user part (G-R1)');
    } else body.systemInstruction = { parts: [{ text: prepared.system }] };
  }
  const tools = uniqueTools(prepared.tools, report); // each name once
  if (tools.length > 0) body.tools = [{ functionDeclarations: tools.map(functionDeclaration) }];
  // X8: stub definitions only describe history; the model must not call them.
  if (prepared.toolChoiceNone) body.toolConfig = { functionCallingConfig: { mode: 'NONE' } };
  const thinkingConfig = thinking(target, info, report, isVertex(target));
  if (thinkingConfig) body.generationConfig.thinkingConfig = thinkingConfig;
  // Key order as the SDK writes it: contents, systemInstruction, tools, toolConfig, generationConfig.
  const { generationConfig, ...rest } = body;
  return withLazyReport({ api: GEMINI_API, model: target.model, body: { ...rest, generationConfig } }, report);
}

/** One prepared turn → one draft content. Roles `user`/`model` only (G-R1); function responses are `user` (G-R2). */
function encodeTurn(turn: PreparedTurn, ctx: GeminiEncodeContext, prepared: PreparedTranscript): DraftContent {
  switch (turn.role) {
    case 'user':
      return encodeBlocks('user', turn, ctx);
    case 'tool':
      return encodeBlocks('user', turn, ctx);
    case 'assistant':
      return turn.native ? encodeNative(turn, ctx, prepared) : encodeBlocks('model', turn, ctx);
    default: {
      const never: never = turn.role;
      throw new Error(`unhandled role ${String(never)}`);
    }
  }
}

function encodeBlocks(role: 'user' | 'model', turn: PreparedTurn, ctx: GeminiEncodeContext): DraftContent {
  const draft: DraftContent = { role, parts: [], refs: [] };
  for (const pb of turn.blocks) {
    const part = encodeBlock(pb, ctx, role);
    if (part === undefined) continue;
    draft.parts.push(part);
    draft.refs.push(pb.ref);
  }
  return draft;
}

/** Same-origin replay (X3): the turn's own parts verbatim, each source block reported `replayed-native`. */
function encodeNative(turn: PreparedTurn, ctx: GeminiEncodeContext, prepared: PreparedTranscript): DraftContent {
  const replay = replayNativeParts(turn, ctx, prepared);
  const ids = turn.sources.map((s) => s.id).join(', ');
  if ('problem' in replay) {
    ctx.report.warn(
      `turn ${ids}: its native Gemini parts were not replayed (${replay.problem}); rebuilt from its blocks`,
    );
    return encodeBlocks('model', turn, ctx);
  }
  for (const source of turn.sources)
    source.blocks.forEach((_, index) =>
      ctx.report.add({ turn: source.id, index }, 'replayed-native', 'same-origin Gemini parts sent as received'),
    );
  return { role: 'model', parts: replay.parts, refs: replay.refs };
}

/** `{name, description?, parametersJsonSchema}` with the schema as given (names mapped by the pre-pass, X5/G-T4). */
function functionDeclaration(t: ToolDefinition): GeminiFunctionDeclaration {
  return {
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    parametersJsonSchema: t.inputSchema,
  };
}

/**
 * `maxOutputTokens` in tokens: the caller's, else the registry default; a known model's ceiling
 * caps it (reported).
 */
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

/** The endpoint is Vertex AI (G-T9, V-G1). */
function isVertex(target: ResolvedTarget): boolean {
  return target.endpoint?.includes('aiplatform.googleapis.com') ?? false;
}

/**
 * Thinking on: thoughts included, at `thinkingLevel: 'HIGH'` (Gemini 3) or a dynamic budget
 * (`thinkingBudget: -1`, Gemini 2.5). Off: `thinkingBudget: 0` where the model allows it, the
 * lowest common level `'low'` on Gemini 3 (which cannot switch thinking off), else the model's
 * default. Gemini 3.5+ (registry `thinkingLevels`, G-G1): always a `thinkingLevel`, never a
 * budget; off is the lowest level the model takes (MINIMAL is refused on Vertex: "Thinking level
 * is unsupported: THINKING_LEVEL_MINIMAL"), reported, since thinking cannot be switched off.
 * No `temperature`, `topP` or `topK` is ever sent (G-G1). https://ai.google.dev/gemini-api/docs/thinking
 */
function thinking(
  target: ResolvedTarget,
  info: ModelInfo,
  report: ReportBuilder,
  vertex: boolean,
): GeminiThinkingConfig | undefined {
  const levels = info.thinkingLevels?.filter((l) => !(vertex && l === 'MINIMAL'));
  if (levels && levels.length > 0) {
    if (target.thinking)
      return { includeThoughts: true, thinkingLevel: levels.includes('HIGH') ? 'HIGH' : levels[levels.length - 1]! };
    report.warn(`${info.id} cannot switch thinking off: sent at its lowest thinking level ${levels[0]!} (G-G1)`);
    return { thinkingLevel: levels[0]! };
  }
  if (target.thinking) {
    if (info.thinking === 'level') return { includeThoughts: true, thinkingLevel: 'HIGH' };
    if (info.thinking === 'budget') return { includeThoughts: true, thinkingBudget: -1 };
    report.warn(`thinking was requested, but ${info.id} has no Gemini thinking control: sent without thinkingConfig`);
    return undefined;
  }
  if (info.canDisableThinking) return { thinkingBudget: 0 };
  if (info.thinking === 'level') return { thinkingLevel: 'LOW' };
  return undefined;
}
