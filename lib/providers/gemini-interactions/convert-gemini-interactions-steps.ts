/**
 * Prepared turns → Interactions steps, one small encoder per block type, and the same-origin
 * replay of a turn's own steps (provider-rules-2026-gemini.md §9; docs/provider-rules.md#9-gemini-interactions-api-gemini-interactions-2026).
 * Used by `convert-to-gemini-interactions.ts`; pure and synchronous. Every change beyond the
 * shared pre-pass is recorded in the report with its rule id.
 */
import type { IdMap, NameMap } from '../../transcript/ids';
import { isRecord as isObject, type JsonObject } from '../../transcript/json';
import type { PreparedBlock, PreparedTurn } from '../../transcript/prepare';
import type { BlockRef, ReportBuilder } from '../../transcript/report';
import type { Block, ToolResultBlock } from '../../transcript/schema';
import type {
  FunctionCallStep,
  FunctionResultStep,
  InteractionsContent,
  InteractionsStep,
} from './convert-to-gemini-interactions-types';
import { GEMINI_INTERACTIONS_API, stepsToBlocks } from './read-gemini-interactions-steps';

/** What the encoders need to know about the request. */
export interface InteractionsEncodeContext {
  report: ReportBuilder;
  ids: IdMap;
  names: NameMap;
}

/** Step types that only the person or the client writes: never part of a model turn's replay. */
const CLIENT_STEPS = new Set(['user_input', 'function_result']);

/** The model's own step types (GI-R3). */
const MODEL_STEPS = new Set(['thought', 'model_output', 'function_call']);

/**
 * The built-in tool steps of `@google/genai` 3.3.0's `Step` union (GI-R3): the only provider
 * items replayed as steps; anything else is not a step the API knows.
 */
const BUILT_IN_STEPS = new Set(
  [
    'code_execution',
    'file_search',
    'google_maps',
    'google_search',
    'mcp_server_tool',
    'processing',
    'retrieval',
    'url_context',
  ].flatMap((t) => [`${t}_call`, `${t}_result`]),
);

/**
 * Encodes one prepared turn as steps, appended to `steps` in order: a user turn is one
 * `user_input` (GI-R3, GI-R4); a tool turn is one `function_result` per result (GI-T1); an
 * assistant turn is its same-origin steps verbatim when it has `native` ({@link replayNativeSteps}),
 * else its blocks in order — consecutive text and images merged into one `model_output`, thinking
 * as a signed `thought` (GI-K1), calls as `function_call` (GI-T4).
 *
 * It appends to the request's list rather than returning a list of its own, and merges content
 * without a closure: it runs for every turn of a cold conversion, where a `[]` per turn that is
 * pushed to reserves 17 slots.
 */
export function encodeTurn(turn: PreparedTurn, ctx: InteractionsEncodeContext, steps: InteractionsStep[]): void {
  if (turn.role === 'assistant' && turn.native) {
    const replay = replayNativeSteps(turn, ctx);
    const ids = turn.sources.map((s) => s.id).join(', ');
    if (!('problem' in replay)) {
      for (const source of turn.sources)
        source.blocks.forEach((_, index) =>
          ctx.report.add(
            { turn: source.id, index },
            'replayed-native',
            'same-origin Interactions steps sent as received',
          ),
        );
      for (let i = 0; i < replay.steps.length; i++) steps.push(replay.steps[i]!);
      return;
    }
    ctx.report.warn(
      `turn ${ids}: its native Interactions steps were not replayed (${replay.problem}); rebuilt from its blocks`,
    );
  }
  const role = turn.role;
  // Consecutive text and media of the turn, not yet a step (GI-R4: one content list per run).
  let content: InteractionsContent[] | undefined;
  const blocks = turn.blocks;
  for (let k = 0; k < blocks.length; k++) {
    const pb = blocks[k]!;
    const b = pb.block;
    switch (b.type) {
      case 'text': {
        if (b.text === '') {
          ctx.report.add(pb.ref, 'dropped', 'empty text is never sent (GI-R4, X4)');
          continue;
        }
        if (b.signature !== undefined)
          ctx.report.add(
            pb.ref,
            'converted',
            'text signature left out: Interactions text content has no signature (GI-R4)',
          );
        (content ??= []).push({ type: 'text', text: b.text });
        continue;
      }
      case 'image':
      case 'document': {
        (content ??= []).push(media(b, pb.ref, ctx));
        continue;
      }
      case 'thinking': {
        content = flush(steps, role, content);
        // GI-K1, GI-K3: only a same-origin thought with a non-empty signature is replayed.
        if (!pb.sameOrigin || !b.signature) {
          ctx.report.add(
            pb.ref,
            'dropped',
            pb.sameOrigin
              ? 'thought without a signature is never sent (GI-K1)'
              : 'reasoning from another origin is never a thought step (GI-K2, GI-K3)',
          );
          continue;
        }
        // GI-K2: the summary goes back only as received, never made up.
        steps.push(
          b.text.trim() !== ''
            ? { type: 'thought', signature: b.signature, summary: [{ type: 'text', text: b.text }] }
            : { type: 'thought', signature: b.signature },
        );
        continue;
      }
      case 'redacted_thinking':
        ctx.report.add(pb.ref, 'dropped', 'redacted thinking has no Interactions form (GI-K3)');
        continue;
      case 'tool_call':
        content = flush(steps, role, content);
        steps.push(functionCall(b, pb.ref, ctx));
        continue;
      case 'tool_result':
        content = flush(steps, role, content);
        steps.push(functionResult(b, pb, ctx));
        continue;
      case 'provider_item': {
        content = flush(steps, role, content);
        const item = b.item;
        if (
          pb.sameOrigin &&
          b.api === GEMINI_INTERACTIONS_API &&
          isObject(item) &&
          typeof item.type === 'string' &&
          BUILT_IN_STEPS.has(item.type)
        ) {
          steps.push(item as InteractionsStep); // GI-R3: an origin-scoped built-in tool step, as received
          continue;
        }
        if (b.text !== undefined && b.text.trim() !== '') {
          ctx.report.add(
            pb.ref,
            'converted',
            `${b.api} item is not an Interactions step that can be replayed: sent as its text`,
          );
          (content ??= []).push({ type: 'text', text: b.text });
          continue;
        }
        ctx.report.add(pb.ref, 'dropped', `${b.api} item is not an Interactions step that can be replayed (GI-R3)`);
        continue;
      }
      default: {
        const never: never = b;
        throw new Error(`unhandled block type ${(never as Block).type}`);
      }
    }
  }
  flush(steps, role, content);
}

/** Appends the pending content as one `user_input` or `model_output` step (when any); returns undefined, the next run's start. */
function flush(
  steps: InteractionsStep[],
  role: PreparedTurn['role'],
  content: InteractionsContent[] | undefined,
): undefined {
  if (content && content.length > 0)
    steps.push({ type: role === 'user' ? 'user_input' : 'model_output', content } as InteractionsStep);
  return undefined;
}

/** `{type, data, mime_type}` (GI-R4: base64 without a `data:` prefix); a URL as `uri`. */
function media(
  b: Extract<Block, { type: 'image' | 'document' }>,
  ref: BlockRef | undefined,
  ctx: InteractionsEncodeContext,
): InteractionsContent {
  if (b.data !== undefined) return { type: b.type, data: b.data, mime_type: b.mediaType };
  // Unreachable after the pre-pass (URLs become placeholders there); kept so nothing is lost silently.
  ctx.report.add(
    ref,
    'converted',
    `${b.type} by URL replaced by a placeholder: Interactions takes inline data here (GI-R4)`,
  );
  return { type: 'text', text: `[${b.type} omitted: ${b.mediaType} by URL is not accepted]` };
}

/**
 * `{type: 'function_call', id, name, arguments}`. The id is the pre-pass's (X2: unique in the
 * request, the same on the call and its result, GI-T4); `arguments` must be an object, anything
 * else is wrapped as `{value}` and reported (GI-T4). A foreign call travels bare, with no thought
 * step (GI-K3).
 */
export function functionCall(
  b: Extract<Block, { type: 'tool_call' }>,
  ref: BlockRef | undefined,
  ctx: InteractionsEncodeContext,
): FunctionCallStep {
  let args: Record<string, unknown>;
  if (isObject(b.input)) args = b.input;
  else {
    args = { value: b.input };
    ctx.report.add(
      ref,
      'converted',
      'non-object arguments wrapped as {"value": …}: function_call.arguments is an object (GI-T4)',
    );
  }
  if (b.signature)
    ctx.report.add(
      ref,
      'converted',
      'call signature left out: an Interactions function_call step has no signature field (GI-K3)',
    );
  return { type: 'function_call', id: b.id, name: b.name, arguments: args };
}

/**
 * `{type: 'function_result', call_id, name, result, is_error?}`: a step of its own (GI-T1), named
 * after its call (GI-T2: the server rejects a result without `name`), `result` a string or an
 * array of text and image content (GI-T3), `is_error: true` for a failed call (GI-T3).
 */
export function functionResult(
  b: ToolResultBlock,
  pb: PreparedBlock,
  ctx: InteractionsEncodeContext,
): FunctionResultStep {
  const name = pb.toolName ?? b.callId;
  if (pb.toolName === undefined)
    ctx.report.add(pb.ref, 'converted', `result without a known call name: named after its call id (GI-T2)`);
  let result: FunctionResultStep['result'];
  if (typeof b.content === 'string') result = b.content;
  else {
    // GI-R4: never empty text; a result left with no content is its (empty) text.
    const content = b.content.flatMap((c): InteractionsContent[] =>
      c.type === 'text'
        ? c.text.trim() === ''
          ? []
          : [{ type: 'text', text: c.text }]
        : c.data !== undefined
          ? [{ type: 'image', data: c.data, mime_type: c.mediaType }]
          : [{ type: 'text', text: `[image omitted: ${c.mediaType} by URL is not accepted]` }],
    );
    if (content.length < b.content.length)
      ctx.report.add(pb.ref, 'converted', 'empty text left out of the result: never send empty text (GI-R4, X4)');
    result = content.length > 0 ? content : '';
  }
  return b.isError
    ? { type: 'function_result', call_id: b.callId, name, result, is_error: true }
    : { type: 'function_result', call_id: b.callId, name, result };
}

/** The result of a native replay attempt: the steps, or why the turn must be rebuilt from its blocks. */
export type NativeReplay = { steps: InteractionsStep[] } | { problem: string };

/**
 * Replays `turn.native.payload` (the model steps of one interaction) verbatim: thought steps and
 * their signatures in their original place (GI-K1, GI-K4), built-in tool steps as received
 * (GI-R3). The payload must read back into exactly the turn's blocks, so every block the report
 * calls `replayed-native` is in the body. Only what this request needs changes: a
 * `function_call`'s `id` and `name` follow the request's maps (X2, X5; GI-T4), and an empty
 * `signature: ""` (streams put one on `function_call`) is removed, never sent (GI-K4).
 */
export function replayNativeSteps(turn: PreparedTurn, ctx: InteractionsEncodeContext): NativeReplay {
  const payload = turn.native?.payload;
  const source = turn.sources.length === 1 ? turn.sources[0] : undefined;
  if (!Array.isArray(payload) || payload.length === 0 || !source)
    return { problem: 'the payload is not a non-empty array of steps' };
  for (const [i, step] of payload.entries()) {
    if (!isObject(step) || typeof step.type !== 'string') return { problem: `step ${i} is not a step object` };
    if (CLIENT_STEPS.has(step.type)) return { problem: `step ${i} is a ${step.type} step, not a model step` };
    if (!MODEL_STEPS.has(step.type) && !BUILT_IN_STEPS.has(step.type))
      return { problem: `step ${i} has a type the API does not know (${step.type})` };
    if (step.type === 'thought' && (typeof step.signature !== 'string' || step.signature === ''))
      return { problem: `step ${i} is a thought without a signature (GI-K1)` };
  }
  let blocks: Block[];
  try {
    blocks = stepsToBlocks(payload as JsonObject[], ['native', 'payload']);
  } catch (e) {
    return { problem: (e as Error).message };
  }
  if (JSON.stringify(blocks.map(stripMeta)) !== JSON.stringify(source.blocks.map(stripMeta)))
    return { problem: 'it does not read back into the turn’s blocks' };
  const calls = turn.blocks.filter((pb) => pb.block.type === 'tool_call');
  let k = 0;
  const steps: InteractionsStep[] = [];
  for (const raw of payload as JsonObject[]) {
    let step: JsonObject = raw;
    if (step.signature === '') {
      const { signature: _s, ...rest } = step;
      step = rest;
    }
    if (step.type === 'function_call') {
      const pb = calls[k++];
      if (!pb || pb.block.type !== 'tool_call') return { problem: 'it has more function_call steps than tool calls' };
      const call = pb.block;
      if (
        step.name !== (ctx.names.toOriginal(call.name) ?? call.name) ||
        step.id !== (ctx.ids.toOriginal(call.id) ?? call.id)
      )
        return { problem: `function_call ${String(step.id)} does not match tool call ${call.id}` };
      step = { ...step, id: call.id, name: call.name };
    }
    steps.push(step as InteractionsStep);
  }
  if (k !== calls.length) return { problem: 'it has fewer function_call steps than tool calls' };
  return { steps };
}

function stripMeta(b: Block): Block {
  if (b.meta === undefined) return b;
  const { meta: _m, ...rest } = b;
  return rest as Block;
}
