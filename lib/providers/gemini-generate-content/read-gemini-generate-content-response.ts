/**
 * A complete Gemini `generateContent` response → one Baton assistant turn. The stream assembler
 * rebuilds the same response shape and uses {@link buildGeminiTurn} too.
 */
import type { Block, Meta, Turn, TurnError, TurnStatus } from '../../transcript/schema';
import type { ReadContext } from '../types';
import {
  GEMINI_API,
  fail,
  isObject,
  makeOrigin,
  mapGeminiFinishReason,
  partView,
  readGeminiUsage,
  readModelPart,
  type JsonObject,
} from './read-gemini-generate-content-parts';
import { guardTurn } from '../guard-turn';

/** How the turn ended, and what the stream assembler knows beyond the response itself. */
export interface GeminiTurnState {
  status: TurnStatus;
  error?: TurnError;
  /** Part positions of function calls whose arguments never completed → their raw streamed pieces (JSON text). */
  partial?: ReadonlyMap<number, string>;
  /** Problems met while assembling (chunks that could not be applied). */
  warnings?: readonly string[];
  /** Streams never throw on provider content: an unreadable part becomes a `provider_item` and a warning. */
  lenient?: boolean;
}

/** Candidate-level fields kept in `turn.meta` under the same names. */
const CANDIDATE_META = [
  'finishMessage',
  'safetyRatings',
  'citationMetadata',
  'groundingMetadata',
  'urlContextMetadata',
] as const;

/** A Gemini error object (`{code, message, status}`) → a turn error; `type` is `status`, else the code. */
export function readGeminiError(err: unknown): TurnError {
  const e = isObject(err) ? err : {};
  const type =
    typeof e.status === 'string' && e.status ? e.status : typeof e.code === 'number' ? String(e.code) : 'error';
  return { type, message: typeof e.message === 'string' ? e.message : '' };
}

/**
 * Builds the assistant turn from a `GenerateContentResponse` object: the first candidate's parts
 * in order as blocks, `native = {api, payload: candidates[0].content.parts}`, `usage`, the
 * normalised `finishReason` with the raw value in `meta.rawStopReason`, `meta.responseId`, and the
 * candidate's `finishMessage` / safety / citation / grounding metadata in `meta` (G-C1: response
 * only). Function calls without an id get `<name>_<index>` (index among the turn's calls) and
 * `meta.generatedId: true`. A prompt blocked with no candidate (`promptFeedback.blockReason`) is
 * a turn with `status: "error"`, `error.type: "blocked"` and no blocks (transcript-v1.md).
 * @throws TranscriptError for unreadable parts unless `state.lenient`.
 */
export function buildGeminiTurn(response: JsonObject, ctx: ReadContext, state: GeminiTurnState): Turn {
  const candidates = Array.isArray(response.candidates) ? response.candidates : [];
  const candidate = isObject(candidates[0]) ? candidates[0] : undefined;
  const content = candidate && isObject(candidate.content) ? candidate.content : undefined;
  const parts: unknown[] = content && Array.isArray(content.parts) ? content.parts : [];
  const warnings = [...(state.warnings ?? [])];

  let calls = 0;
  const blocks = parts.map((part, i): Block => {
    let block: Block;
    try {
      block = readModelPart(
        part,
        ['candidates', 0, 'content', 'parts', i],
        (name) => ({ id: `${name}_${calls}`, generated: true }),
        true,
      );
    } catch (e) {
      if (!state.lenient) throw e;
      warnings.push(`parts[${i}]: ${(e as Error).message}; kept as provider_item`);
      block = { type: 'provider_item', api: GEMINI_API, item: part };
    }
    if (isObject(part) && partView(part).functionCall !== undefined) calls++;
    const raw = state.partial?.get(i);
    if (raw !== undefined) block.meta = { ...block.meta, partial: true, rawArguments: raw };
    return block;
  });

  const model = typeof response.modelVersion === 'string' ? response.modelVersion : undefined;
  const responseId = typeof response.responseId === 'string' && response.responseId ? response.responseId : undefined;
  const turn: Turn = {
    id: ctx.turnId ?? responseId ?? 'assistant',
    role: 'assistant',
    origin: makeOrigin(ctx, model),
    status: state.status,
    blocks,
    native: { api: GEMINI_API, payload: parts },
  };
  if (ctx.createdAt) turn.createdAt = ctx.createdAt;
  const meta: Meta = {};
  if (responseId) meta.responseId = responseId;
  const feedback = isObject(response.promptFeedback) ? response.promptFeedback : undefined;
  if (!candidate && feedback && typeof feedback.blockReason === 'string') {
    // P4: a blocked prompt is its own state, not an empty answer.
    turn.status = 'error';
    const detail =
      typeof feedback.blockReasonMessage === 'string' && feedback.blockReasonMessage
        ? `: ${feedback.blockReasonMessage}`
        : '';
    turn.error = { type: 'blocked', message: `prompt blocked: ${feedback.blockReason}${detail}` };
    turn.stopReason = 'content_filter';
    meta.rawStopReason = feedback.blockReason;
  } else if (candidate && typeof candidate.finishReason === 'string') {
    turn.stopReason = mapGeminiFinishReason(
      candidate.finishReason,
      blocks.some((b) => b.type === 'tool_call'),
    );
    meta.rawStopReason = candidate.finishReason;
  }
  if (state.error) turn.error = state.error;
  if (candidate) for (const key of CANDIDATE_META) if (candidate[key] != null) meta[key] = candidate[key];
  if (feedback) meta.promptFeedback = feedback;
  if (candidates.length > 1) meta.otherCandidates = candidates.slice(1);
  if (warnings.length) meta.warnings = warnings;
  const usage = readGeminiUsage(response.usageMetadata);
  if (usage) turn.usage = usage;
  if (Object.keys(meta).length) turn.meta = meta;
  return turn;
}

/**
 * Reads a complete (non-streamed) Gemini `generateContent` response into one assistant turn.
 * `native.payload` is `candidates[0].content.parts` verbatim (thought signatures on their own
 * parts, G-K1). An error body (`{error: {code, message, status}}`) gives `status: "error"`.
 * Origin: `{provider: ctx.provider, api, model: response.modelVersion, requestedModel?, endpoint?}`.
 * @throws TranscriptError naming the JSON path when the response is not an object, its
 *   candidates are not an array, or a part is malformed.
 */
export function readGeminiGenerateContentResponse(response: unknown, ctx: ReadContext): Turn {
  if (!isObject(response)) return fail([], 'expected a Gemini GenerateContentResponse object');
  if (response.error !== undefined && response.candidates === undefined) {
    const turn = buildGeminiTurn({}, ctx, { status: 'error', error: readGeminiError(response.error) });
    delete turn.native;
    return guardTurn(turn, ctx, 'gemini-generate-content');
  }
  if (response.candidates !== undefined && !Array.isArray(response.candidates)) fail(['candidates'], 'expected array');
  const candidates = (response.candidates ?? []) as unknown[];
  if (
    candidates.length === 0 &&
    !(isObject(response.promptFeedback) && typeof response.promptFeedback.blockReason === 'string')
  )
    fail(['candidates'], 'no candidate and no promptFeedback.blockReason');
  const c = candidates[0];
  if (c !== undefined) {
    if (!isObject(c)) fail(['candidates', 0], 'expected object');
    if (c.content !== undefined && !isObject(c.content)) fail(['candidates', 0, 'content'], 'expected object');
    if (isObject(c.content) && c.content.parts !== undefined && !Array.isArray(c.content.parts))
      fail(['candidates', 0, 'content', 'parts'], 'expected array');
  }
  return guardTurn(buildGeminiTurn(response, ctx, { status: 'complete' }), ctx, 'gemini-generate-content');
}
