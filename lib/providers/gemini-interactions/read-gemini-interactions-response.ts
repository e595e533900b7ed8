/**
 * A complete Interaction object (the unary `interactions.create` / `get` response) → one Baton
 * assistant turn (provider-rules-2026-gemini.md §9, GI-S2, GI-S3, GI-E1, GI-P2). The stream
 * assembler rebuilds the same shape and uses {@link buildInteractionsTurn} too.
 */
import type { Block, Meta, Turn, TurnError, TurnStatus } from '../../transcript/schema';
import type { ReadContext } from '../types';
import { guardTurn } from '../guard-turn';
import {
  GEMINI_INTERACTIONS_API,
  fail,
  isObject,
  makeInteractionsOrigin,
  mapInteractionStatus,
  readInteractionsUsage,
  stepsToBlocks,
  type JsonObject,
} from './read-gemini-interactions-steps';

/** How the stream assembler ended, beyond what the Interaction object says. */
export interface InteractionsTurnState {
  /** Overrides the status the Interaction's own `status` gives (a cut stream, an error event). */
  status?: TurnStatus;
  error?: TurnError;
  /** Step positions (in the model steps) of calls whose arguments never completed → their raw text. */
  partial?: ReadonlyMap<number, string>;
  warnings?: readonly string[];
}

/**
 * An error object → a turn error (GI-E1): HTTP `{code: 400, message, status}` gives `type` =
 * `status`, else the code; an SSE error's `code` is a URI string and is kept as `type`.
 */
export function readInteractionsError(err: unknown): TurnError {
  const e = isObject(err) ? err : {};
  const type =
    typeof e.status === 'string' && e.status
      ? e.status
      : typeof e.code === 'string' && e.code
        ? e.code
        : typeof e.code === 'number'
          ? String(e.code)
          : 'error';
  return { type, message: typeof e.message === 'string' ? e.message : '' };
}

/**
 * Builds the assistant turn from an Interaction object: the model steps (every step but an echoed
 * `user_input`, GI-S3) in order as blocks, `native = {api, payload: <those steps>}` for lossless
 * same-origin replay, `usage` from the `total_*` counts (GI-S3), status and stop reason from
 * `status` (GI-S2) with the raw value in `meta.rawStopReason`, `meta.responseId` (the interaction id) only for a
 * non-empty id (GI-P2: a `store: false` interaction has `id: ""`, nothing may chain from it),
 * `meta.continuationToken` when present, and a `model_output.error` (GI-E1) as the turn error.
 * @throws TranscriptError for unreadable steps (the stream assembler catches it per step).
 */
export function buildInteractionsTurn(
  interaction: JsonObject,
  ctx: ReadContext,
  state: InteractionsTurnState = {},
): Turn {
  const all: unknown[] = Array.isArray(interaction.steps) ? interaction.steps : [];
  const steps = all.filter((s) => !(isObject(s) && s.type === 'user_input'));
  const blocks: Block[] = stepsToBlocks(steps, ['steps']);
  if (state.partial?.size) {
    // Mark the tool_call blocks that stand for cut-off function_call steps (A-T9 drops them on replay).
    let k = -1;
    steps.forEach((s, i) => {
      if (!isObject(s) || s.type !== 'function_call') return;
      k = blocks.findIndex((b, j) => j > k && b.type === 'tool_call' && b.id === s.id);
      const raw = state.partial!.get(i);
      if (raw !== undefined && k >= 0) blocks[k] = { ...blocks[k]!, meta: { partial: true, rawArguments: raw } };
    });
  }
  const model = typeof interaction.model === 'string' && interaction.model ? interaction.model : undefined;
  const id = typeof interaction.id === 'string' && interaction.id ? interaction.id : undefined;
  const raw = typeof interaction.status === 'string' ? interaction.status : undefined;
  const outcome = raw !== undefined ? mapInteractionStatus(raw) : { status: 'complete' as TurnStatus };
  const turn: Turn = {
    id: ctx.turnId ?? id ?? 'assistant',
    role: 'assistant',
    origin: makeInteractionsOrigin(ctx, model),
    status: state.status ?? outcome.status,
    blocks,
  };
  if (steps.length) turn.native = { api: GEMINI_INTERACTIONS_API, payload: steps };
  if (ctx.createdAt) turn.createdAt = ctx.createdAt;
  if (outcome.stopReason && turn.status !== 'error') turn.stopReason = outcome.stopReason;
  const meta: Meta = {};
  if (id) meta.responseId = id; // GI-P2: never an empty id
  if (raw !== undefined) meta.rawStopReason = raw;
  if (typeof interaction.continuation_token === 'string') meta.continuationToken = interaction.continuation_token;
  const stepError = steps.find((s) => isObject(s) && s.type === 'model_output' && s.error !== undefined) as
    JsonObject | undefined;
  if (state.error) turn.error = state.error;
  else if (stepError) {
    turn.status = 'error';
    turn.error = readInteractionsError(stepError.error);
  } else if (turn.status === 'error') {
    const errors = Array.isArray(interaction.errors) ? interaction.errors : [];
    turn.error = errors.length ? readInteractionsError(errors[0]) : { type: raw ?? 'error', message: '' };
  }
  if (state.warnings?.length) meta.warnings = [...state.warnings];
  const usage = readInteractionsUsage(interaction.usage);
  if (usage) turn.usage = usage;
  if (Object.keys(meta).length) turn.meta = meta;
  return turn;
}

/**
 * Reads a complete Interaction object into one assistant turn. An error body
 * (`{error: {code, message, status}}`, GI-E1) gives an error turn with no blocks.
 * Origin: `{provider: ctx.provider, api: 'gemini-interactions', model: interaction.model, requestedModel?, endpoint?}`.
 * @throws TranscriptError naming the JSON path when the response is not an object, its `steps`
 *   is not an array, or a step is malformed.
 */
export function readGeminiInteractionsResponse(response: unknown, ctx: ReadContext): Turn {
  if (!isObject(response)) return fail([], 'expected a Gemini Interaction object');
  if (response.error !== undefined && response.steps === undefined) {
    const turn = buildInteractionsTurn({}, ctx, { status: 'error', error: readInteractionsError(response.error) });
    return guardTurn(turn, ctx, GEMINI_INTERACTIONS_API);
  }
  if (response.steps !== undefined && !Array.isArray(response.steps)) fail(['steps'], 'expected array');
  return guardTurn(buildInteractionsTurn(response, ctx), ctx, GEMINI_INTERACTIONS_API);
}
