/**
 * Helpers for replaying the Responses API's own output items (a turn's `native` payload, or a
 * same-origin `provider_item`) as input items: which item types the API takes as input, which
 * fields are output-only, and lookups from transcript blocks back to the items they came from.
 * Pure; provider-rules.md §3.
 */
import type { Turn } from '../../transcript/schema';
import type { OtherInputItem } from './convert-openai-responses-types';
import { isRecord as isObject, type JsonObject } from '../../transcript/json';
import { lookupTable } from '../../transcript/lookup';

/** The API id in `origin.api`, `native.api` and `provider_item.api`. */
export const RESPONSES_API = 'openai-responses' as const;

/** A plain JSON object. */
export { isObject, type JsonObject };

/**
 * Item types the API accepts in `input` (openai 7.59 `ResponseInputItem`, R-1). `item_reference`
 * is left out: it only resolves with `store: true` (R-K2), and Baton always sends `store: false`.
 */
export const INPUT_ITEM_TYPES: ReadonlySet<string> = new Set([
  'message',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'web_search_call',
  'function_call',
  'function_call_output',
  'tool_search_call',
  'tool_search_output',
  'additional_tools',
  'configuration_update',
  'reasoning',
  'compaction',
  'compaction_trigger',
  'image_generation_call',
  'code_interpreter_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'custom_tool_call',
  'custom_tool_call_output',
  'program',
  'program_output',
]);

/**
 * Input item types whose `id` is required (openai 7.59 `ResponseInputItem`). Such an item cannot
 * lose its id when the reasoning item before it is not sent ("Item 'ws_…' of type
 * 'web_search_call' was provided without its required 'reasoning' item", R-K1), so it is sent as
 * text instead; items with an optional id just lose it.
 */
export const ID_REQUIRED: ReadonlySet<string> = new Set([
  'file_search_call',
  'computer_call',
  'web_search_call',
  'image_generation_call',
  'code_interpreter_call',
  'local_shell_call',
  'local_shell_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_call',
  'program',
  'program_output',
]);

/** Why a provider item is not replayed: its type is not an input item type. */
export const NOT_AN_INPUT_ITEM = 'not an input item of the Responses API';

/**
 * R-X1: input item types that are never taken from history. A `compaction_trigger` "must be the
 * final input item": it asks for a compaction in this request and is not a record of one.
 */
export const NEVER_FROM_HISTORY: Readonly<Record<string, string>> = lookupTable({
  compaction_trigger: 'a compaction_trigger must be the final input item and is never replayed from history (R-X1)',
});

/**
 * Client-executed calls and the output item that must answer them in the same request (R-T3: "No
 * tool output found for function call …"; the same pairing holds for the other client tools).
 */
export const OUTPUT_OF: Readonly<Record<string, string>> = lookupTable({
  function_call: 'function_call_output',
  custom_tool_call: 'custom_tool_call_output',
  computer_call: 'computer_call_output',
  local_shell_call: 'local_shell_call_output',
  shell_call: 'shell_call_output',
  apply_patch_call: 'apply_patch_call_output',
  tool_search_call: 'tool_search_output',
});

/** The call type an output item answers (inverse of {@link OUTPUT_OF}). */
export const CALL_OF: Readonly<Record<string, string>> = lookupTable(
  Object.fromEntries(Object.entries(OUTPUT_OF).map(([c, o]) => [o, c])),
);

/**
 * The `call_id` that pairs a call with its output, when the item needs one. A `tool_search_call`
 * needs an output only when the client executed it (`execution: 'client'`); `local_shell_call_output`
 * names its call by `id` in the SDK types and by `call_id` in practice, so a local shell call and its
 * output pair when any of their `id`/`call_id` values match.
 */
export function pairingKeys(item: JsonObject): string[] {
  if (item.type === 'tool_search_call' && item.execution !== 'client') return [];
  if (item.type === 'tool_search_output' && item.execution !== 'client') return [];
  const callId = typeof item.call_id === 'string' ? item.call_id : undefined;
  const shellId =
    (item.type === 'local_shell_call' || item.type === 'local_shell_call_output') && typeof item.id === 'string'
      ? item.id
      : undefined;
  // Array literals of the exact length: `push` onto `[]` would reserve room for 17 keys, for every
  // call and output of every conversion.
  if (callId === undefined) return shellId === undefined ? [] : [shellId];
  return shellId === undefined ? [callId] : [callId, shellId];
}

/**
 * Item types with a transcript block form (text, thinking, tool_call, tool_result): the pre-pass
 * maps, pairs and repairs them only as blocks (X1, X2), so they never replay as provider items.
 */
export const BLOCK_FORM_TYPES: ReadonlySet<string> = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
]);

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** Why a client call or output item lacks what pairs it (R-T3), or undefined. */
function pairingProblem(item: JsonObject, type: string): string | undefined {
  if (OUTPUT_OF[type] === undefined && CALL_OF[type] === undefined) return undefined;
  if ((type === 'tool_search_call' || type === 'tool_search_output') && item.execution !== 'client') return undefined;
  return pairingKeys(item).length > 0 ? undefined : `${type} without a call_id (R-T3)`;
}

/**
 * Why a same-origin provider item cannot be replayed as an input item, or undefined: its type must
 * be an input item type without a block form ({@link BLOCK_FORM_TYPES}), an item whose `id`
 * the API requires must have one, and a client call or output must carry its `call_id` (R-T3).
 */
export function providerItemProblem(item: unknown): string | undefined {
  if (!isObject(item) || typeof item.type !== 'string' || !INPUT_ITEM_TYPES.has(item.type)) return NOT_AN_INPUT_ITEM;
  const type = item.type;
  if (NEVER_FROM_HISTORY[type] !== undefined) return NEVER_FROM_HISTORY[type];
  if (BLOCK_FORM_TYPES.has(type)) return `a ${type} item replays only as its transcript block`;
  if (ID_REQUIRED.has(type) && !nonEmpty(item.id)) return `${type} without its id`;
  return pairingProblem(item, type);
}

/**
 * Why an item of a same-origin turn's `native` output items cannot be replayed, or undefined: an
 * assistant `message` of `output_text` / `refusal` parts (string text, annotations an array),
 * non-blank when its content is a string (X4); a `reasoning` item with a `summary` of
 * `summary_text` entries and a string `encrypted_content` when present; a `function_call`
 * with `call_id`, `name` and string `arguments`. An output item (`…_output`) has no place in
 * an assistant turn (X1), and client calls need their `call_id` (R-T3). Other types are left to the
 * replay, which sends items the API does not take as text.
 */
export function nativeItemProblem(raw: unknown): string | undefined {
  if (!isObject(raw)) return 'not an object';
  const type =
    typeof raw.type === 'string' ? raw.type : raw.type === undefined && raw.role !== undefined ? 'message' : undefined;
  if (type === undefined) return 'no item type';
  switch (type) {
    case 'message':
      if (raw.role !== 'assistant') return `a ${JSON.stringify(raw.role)} message in an assistant turn`;
      if (typeof raw.content === 'string') return raw.content.trim() === '' ? 'empty message content (X4)' : undefined;
      if (!Array.isArray(raw.content)) return 'message content is neither a string nor a list of parts';
      return raw.content.every(isAssistantPart) ? undefined : 'a message part that is not output_text or refusal';
    case 'reasoning':
      if (
        !Array.isArray(raw.summary) ||
        !raw.summary.every((x) => isObject(x) && x.type === 'summary_text' && typeof x.text === 'string')
      )
        return 'reasoning summary is not a list of summary_text entries (R-1)';
      return raw.encrypted_content === undefined ||
        raw.encrypted_content === null ||
        typeof raw.encrypted_content === 'string'
        ? undefined
        : 'encrypted_content is not a string';
    case 'function_call':
      if (!nonEmpty(raw.call_id) || !nonEmpty(raw.name)) return 'function_call without call_id or name (R-1)';
      return typeof raw.arguments === 'string' ? undefined : 'function_call arguments are not a JSON string (R-1)';
    default:
      if (CALL_OF[type] !== undefined) return `${type} is an output item, not part of an assistant turn (X1)`;
      return pairingProblem(raw, type);
  }
}

function isAssistantPart(p: unknown): boolean {
  if (!isObject(p)) return false;
  if (p.type === 'refusal') return typeof p.refusal === 'string';
  return (
    p.type === 'output_text' &&
    typeof p.text === 'string' &&
    (p.annotations === undefined || p.annotations === null || Array.isArray(p.annotations))
  );
}

/** Fields the API returns on output items but rejects (or some compatible servers reject) on input (R-K4). */
const OUTPUT_ONLY_FIELDS = ['status', 'created_by'] as const;

/**
 * A copy of an output item fit for `input`: `status` and `created_by` removed (R-K4); a reasoning
 * item also loses `content`, the raw reasoning text ("Expected an array with maximum length 0", R-K4).
 */
export function toInputItem(item: JsonObject): OtherInputItem {
  const out: JsonObject = { ...item };
  for (const f of OUTPUT_ONLY_FIELDS) delete out[f];
  if (out.type === 'reasoning') delete out.content;
  return out as OtherInputItem;
}

/**
 * The Responses output items stored as a turn's `native` payload (an array of output items;
 * a whole response object's `output` array is accepted too), or undefined when the turn has none
 * from this API.
 */
export function nativeItemsOf(turn: Turn | undefined): JsonObject[] | undefined {
  if (!turn?.native || turn.native.api !== RESPONSES_API) return undefined;
  const p = turn.native.payload;
  const list = Array.isArray(p) ? p : isObject(p) && Array.isArray(p.output) ? p.output : undefined;
  return list?.filter(isObject);
}

/** One content part of a native assistant message, with the message's id. */
interface NativePart {
  messageId?: string;
  /** The message's `phase` (R-P1). */
  phase?: string;
  part: JsonObject;
  /** The part's text (`output_text.text` or `refusal.refusal`). */
  text: string;
}

/**
 * Looks up, for blocks rebuilt from a same-origin turn, the native items they came from: the
 * reasoning item of an `encrypted_content`, the function call of a `call_id`, and the message
 * part of a text (matched in order). Used to keep `msg_…`/`rs_…`/`fc_…` ids, annotations, refusals
 * and multi-part summaries when the turn cannot be replayed verbatim.
 */
export class NativeIndex {
  private readonly reasoning = new Map<string, JsonObject>();
  private readonly calls = new Map<string, JsonObject>();
  private readonly parts: NativePart[] = [];
  private cursor = 0;

  constructor(items: readonly JsonObject[]) {
    for (const item of items) {
      if (item.type === 'reasoning' && typeof item.encrypted_content === 'string')
        this.reasoning.set(item.encrypted_content, item);
      else if (item.type === 'function_call' && typeof item.call_id === 'string' && !this.calls.has(item.call_id))
        this.calls.set(item.call_id, item);
      else if (item.type === 'message' && Array.isArray(item.content)) {
        const messageId = typeof item.id === 'string' ? item.id : undefined;
        const phase = typeof item.phase === 'string' ? item.phase : undefined;
        for (const part of item.content.filter(isObject)) {
          const text = part.type === 'refusal' ? part.refusal : part.text;
          if (typeof text === 'string')
            this.parts.push({ ...(messageId ? { messageId } : {}), ...(phase ? { phase } : {}), part, text });
        }
      }
    }
  }

  /** The reasoning item whose `encrypted_content` is `signature`. */
  reasoningFor(signature: string): JsonObject | undefined {
    return this.reasoning.get(signature);
  }

  /** The function_call item with this (original, unmapped) `call_id`. */
  callFor(callId: string): JsonObject | undefined {
    return this.calls.get(callId);
  }

  /** The next message part (at or after the last match) whose text equals `text`. */
  partFor(text: string): NativePart | undefined {
    for (let i = this.cursor; i < this.parts.length; i++)
      if (this.parts[i]!.text === text) {
        this.cursor = i + 1;
        return this.parts[i];
      }
    return undefined;
  }
}

/** Annotation types of `output_text` (openai 7.59 `ResponseOutputText.annotations`). */
const ANNOTATION_TYPES = new Set(['url_citation', 'file_citation', 'container_file_citation', 'file_path']);

/** True when every entry of a same-origin text block's `citations` is a Responses annotation object. */
export function areAnnotations(citations: readonly unknown[]): boolean {
  return citations.every((c) => isObject(c) && typeof c.type === 'string' && ANNOTATION_TYPES.has(c.type));
}
