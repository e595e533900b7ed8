/**
 * Interactions steps → Baton blocks, shared by the history, response and stream readers and by
 * the converter's native-replay check (provider-rules-2026-gemini.md §9;
 * docs/provider-rules.md#9-gemini-interactions-api-gemini-interactions-2026). Pure and synchronous.
 *
 * Shapes: `@google/genai` 3.3.0 `Step`, `Content_2`, `Usage`, `InteractionStatus_2`.
 */
import type { JsonPath } from '../../transcript/codec';
import type {
  Block,
  Origin,
  StopReason,
  ToolCallBlock,
  ToolResultContentBlock,
  TurnStatus,
  Usage,
} from '../../transcript/schema';
import type { ReadContext } from '../types';
import { describe, fail, isObject, str, type JsonObject } from '../json-read';

export { describe, fail, isObject, str, type JsonObject };

/** The API id used in `origin.api`, `native.api` and `provider_item.api`. */
export const GEMINI_INTERACTIONS_API = 'gemini-interactions' as const;

/** The `Api-Revision` REST clients send (GI-R1: the steps schema). */
export const INTERACTIONS_API_REVISION = '2026-05-20';

/** Text of a content array's text items, joined; undefined when it holds none. */
function joinedText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((c): c is JsonObject => isObject(c) && c.type === 'text' && typeof c.text === 'string');
  return texts.length ? texts.map((c) => c.text as string).join('') : undefined;
}

/**
 * One content item of a `user_input` / `model_output` / `function_result` (GI-R4, GI-T3) → a block:
 * `text` → text; `image` with `data` or an http(s) `uri` → image; `document` → document (in a
 * user turn) — anything else, or a document in a model turn, is a `provider_item` holding the
 * item as received.
 */
export function contentToBlock(c: unknown, path: JsonPath, role: 'user' | 'assistant'): Block {
  if (!isObject(c)) return fail(path, `expected a content object, got ${describe(c)}`);
  const type = str(c, 'type', path);
  if (type === 'text') return { type: 'text', text: str(c, 'text', path) };
  if (type === 'image' || (type === 'document' && role === 'user')) {
    const mediaType = typeof c.mime_type === 'string' && c.mime_type ? c.mime_type : undefined;
    if (typeof c.data === 'string' && c.data && mediaType) return { type, mediaType, data: c.data };
    if (typeof c.uri === 'string' && /^(https?|gs):\/\//i.test(c.uri))
      return { type, mediaType: mediaType ?? (type === 'image' ? 'image/*' : 'application/octet-stream'), url: c.uri };
    if (role === 'user') return fail(path, `${type} content needs data and mime_type, or a uri`);
  }
  if (role === 'user') return fail([...path, 'type'], `content type ${describe(type)} cannot be kept in a user turn`);
  return { type: 'provider_item', api: GEMINI_INTERACTIONS_API, item: c };
}

/**
 * Model steps → blocks, in order (GI-R3): `thought` → thinking (summary text joined, the
 * `signature` kept when non-empty, GI-K1, GI-K4); `model_output` → one block per content item;
 * `function_call` → tool_call (`arguments` as input; a JSON string is parsed, GI-T4; a non-empty
 * signature kept, GI-K4); every other step (built-in tools, GI-R3) → a `provider_item`. A
 * `user_input` step inside a response is an echo and is skipped (GI-S3).
 * @throws TranscriptError naming the path for a step that is not an object or lacks a required field.
 */
export function stepsToBlocks(steps: readonly unknown[], path: JsonPath): Block[] {
  const blocks: Block[] = [];
  steps.forEach((step, i) => {
    const p = [...path, i];
    if (!isObject(step)) fail(p, `expected a step object, got ${describe(step)}`);
    const type = str(step, 'type', p);
    switch (type) {
      case 'user_input':
        return; // GI-S3: a GET echoes the input; only model steps make the turn
      case 'thought': {
        const text = joinedText(step.summary) ?? '';
        const signature = typeof step.signature === 'string' && step.signature !== '' ? step.signature : undefined;
        blocks.push(signature !== undefined ? { type: 'thinking', text, signature } : { type: 'thinking', text });
        return;
      }
      case 'model_output': {
        const content = step.content === undefined ? [] : step.content;
        if (!Array.isArray(content)) fail([...p, 'content'], `expected array, got ${describe(content)}`);
        content.forEach((c: unknown, j: number) => blocks.push(contentToBlock(c, [...p, 'content', j], 'assistant')));
        return;
      }
      case 'function_call': {
        const id = str(step, 'id', p);
        const name = str(step, 'name', p);
        if (!id) fail([...p, 'id'], 'must not be empty (GI-T4)');
        if (!name) fail([...p, 'name'], 'must not be empty');
        let input = (step.arguments ?? {}) as ToolCallBlock['input'];
        if (typeof input === 'string') {
          try {
            input = JSON.parse(input) as ToolCallBlock['input'];
          } catch {
            input = { value: input };
          }
        }
        const signature = typeof step.signature === 'string' && step.signature !== '' ? step.signature : undefined;
        blocks.push(
          signature !== undefined
            ? { type: 'tool_call', id, name, input, signature }
            : { type: 'tool_call', id, name, input },
        );
        return;
      }
      default:
        blocks.push({ type: 'provider_item', api: GEMINI_INTERACTIONS_API, item: step });
    }
  });
  return blocks;
}

/**
 * `function_result.result` (GI-T3) → tool-result content: a string as is; an array of text and
 * image content as blocks (other content as labelled text); an object as its JSON text.
 */
export function readResultContent(result: unknown, path: JsonPath): string | ToolResultContentBlock[] {
  if (typeof result === 'string') return result;
  if (Array.isArray(result))
    return result.map((c: unknown, j: number): ToolResultContentBlock => {
      const b = contentToBlock(c, [...path, j], 'assistant');
      if (b.type === 'text' || b.type === 'image') return b;
      return { type: 'text', text: JSON.stringify(c) };
    });
  if (result === undefined || result === null) return fail(path, 'required field missing');
  return JSON.stringify(result);
}

/** GI-S3: `total_*` token counts → usage; undefined when none is a count. */
export function readInteractionsUsage(usage: unknown): Usage | undefined {
  if (!isObject(usage)) return undefined;
  const out: Usage = {};
  const set = (key: keyof Usage, v: unknown) => {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) out[key] = v;
  };
  set('inputTokens', usage.total_input_tokens);
  set('outputTokens', usage.total_output_tokens);
  set('reasoningTokens', usage.total_thought_tokens);
  set('cacheReadTokens', usage.total_cached_tokens);
  return Object.keys(out).length ? out : undefined;
}

/** How an interaction's `status` ends a turn (GI-S2). */
export interface StatusOutcome {
  status: TurnStatus;
  stopReason?: StopReason;
}

/**
 * GI-S2: `completed` → end_turn; `requires_action` → tool_use; `incomplete` and
 * `budget_exceeded` → max_tokens; `failed` → an error turn; `cancelled` → a stopped turn;
 * `requires_continuation` → other. `in_progress` and `queued` mean the interaction has not
 * finished (interrupted); any other value is `other`.
 */
export function mapInteractionStatus(raw: string): StatusOutcome {
  switch (raw) {
    case 'completed':
      return { status: 'complete', stopReason: 'end_turn' };
    case 'requires_action':
      return { status: 'complete', stopReason: 'tool_use' };
    case 'incomplete':
    case 'budget_exceeded':
      return { status: 'complete', stopReason: 'max_tokens' };
    case 'failed':
      return { status: 'error' };
    case 'cancelled':
      return { status: 'stopped' };
    case 'in_progress':
    case 'queued':
      return { status: 'interrupted' };
    default:
      return { status: 'complete', stopReason: 'other' };
  }
}

/** Builds `origin` from the read context and the reported `model` (transcript-v1.md, Origin). */
export function makeInteractionsOrigin(ctx: ReadContext, model: string | undefined): Origin {
  const reported = model || ctx.requestedModel || 'unknown';
  const origin: Origin = { provider: ctx.provider, api: GEMINI_INTERACTIONS_API, model: reported };
  if (ctx.requestedModel && ctx.requestedModel !== reported) origin.requestedModel = ctx.requestedModel;
  if (ctx.endpoint) origin.endpoint = ctx.endpoint;
  return origin;
}
