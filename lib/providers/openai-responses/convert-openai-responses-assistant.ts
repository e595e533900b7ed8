/**
 * Assistant turns → Responses input items (R-1, R-T2, R-K1–R-K4): rebuilt from blocks, or the
 * turn's own output items replayed verbatim when the pre-pass allows it (`PreparedTurn.native`).
 * Pure; provider-rules.md §3.
 */
import type { PreparedTurn } from '../../transcript/prepare';
import type { PreparedBlock } from '../../transcript/prepare-blocks';
import type { IdMap } from '../../transcript/ids';
import type { ReportBuilder } from '../../transcript/report';
import type { Block, ProviderItemBlock, TextBlock, ThinkingBlock, ToolCallBlock, Turn } from '../../transcript/schema';
import { isBlank, repairSurrogatesDeep } from '../../transcript/text';
import { type Entry } from './convert-openai-responses-content';
import {
  ID_REQUIRED,
  NOT_AN_INPUT_ITEM,
  NativeIndex,
  RESPONSES_API,
  areAnnotations,
  isObject,
  nativeItemsOf,
  providerItemProblem,
  toInputItem,
  type JsonObject,
} from './convert-openai-responses-native';
import type {
  AssistantMessageItem,
  FunctionCallItem,
  OtherInputItem,
  OutputTextPart,
  ReasoningItem,
  RefusalPart,
} from './convert-openai-responses-types';

/** What the assistant encoders need from the conversion. */
export interface AssistantContext {
  report: ReportBuilder;
  ids: IdMap;
  /**
   * An input turn whose native items a rebuilt turn must not use (its own items failed the
   * check), or undefined.
   */
  notNative?: Turn;
  /** Leave `id` off reasoning items (Azure rejects it when `store` is false, R-K2). */
  omitReasoningIds: boolean;
}

/**
 * Tracks, per response, whether a reasoning item was dropped: the items after it (up to the next
 * reasoning item) must not name it through their ids (R-K1: "Item 'fc_…' of type 'function_call'
 * was provided without its required 'reasoning' item").
 */
export class Orphans {
  private sourceTurn: string | undefined;
  private orphaned = false;
  /** Call at each block/item; resets at a new source turn (a new response). */
  at(turn: string | undefined): void {
    if (turn !== this.sourceTurn) this.orphaned = false;
    this.sourceTurn = turn;
  }
  reasoningDropped(): void {
    this.orphaned = true;
  }
  reasoningKept(): void {
    this.orphaned = false;
  }
  /**
   * After a dropped reasoning item: removes the entry's item `id` (reported), or — when the
   * API requires an id for that item type — marks the entry to be sent as text.
   */
  apply(entry: Entry, report: ReportBuilder): Entry {
    const item = entry.item as { type: string; id?: unknown };
    if (!this.orphaned || item.id === undefined || item.type === 'reasoning' || entry.invalid !== undefined)
      return entry;
    if (ID_REQUIRED.has(item.type))
      return { ...entry, invalid: 'the reasoning item before it could not be sent, R-K1' };
    for (const ref of entry.refs)
      report.add(ref, 'converted', `item id ${String(item.id)} left out: its reasoning item could not be sent (R-K1)`);
    const { id: _, ...rest } = item;
    return { ...entry, item: rest as Entry['item'] };
  }
}

export const R_K3 = 'reasoning without encrypted_content cannot be replayed with store: false (R-K3)';

/** Encodes an assistant turn rebuilt from its blocks, in block order. */
export function encodeAssistantBlocks(turn: PreparedTurn, turnIndex: number, ctx: AssistantContext): Entry[] {
  const out: Entry[] = [];
  // Both maps only for same-origin blocks (made on first need: most turns of a long mixed
  // conversation have none, and this runs for every assistant turn of every conversion). No
  // closure per turn either: the helpers below take what they read.
  // A turn of one input turn (the usual case) keeps both for that turn in locals instead.
  let indexes: Map<string, NativeIndex | undefined> | undefined;
  let seen: Map<string, number> | undefined;
  const only = turn.sources.length === 1 ? turn.sources[0]!.id : undefined;
  let onlySeen = -1;
  let onlyIndex: NativeIndex | undefined;
  let onlyIndexed = false;
  const orphans = new Orphans();
  const blocks = turn.blocks;
  for (let k = 0; k < blocks.length; k++) {
    const pb = blocks[k]!;
    orphans.at(pb.ref?.turn);
    if (pb.sameOrigin && pb.ref) {
      // A same-origin thinking block the pre-pass removed (e.g. empty and unsigned) is a reasoning item that won't be sent (R-K1).
      const id = pb.ref.turn;
      const source = sourceOf(turn, id, ctx);
      const last = id === only ? onlySeen : ((seen ??= new Map()).get(id) ?? -1);
      for (let i = last + 1; i < pb.ref.index; i++)
        if (source?.blocks[i]?.type === 'thinking') orphans.reasoningDropped();
      if (id === only) onlySeen = Math.max(pb.ref.index, last);
      else seen!.set(id, Math.max(pb.ref.index, last));
    }
    const b: Block = pb.block;
    // Text, thinking and calls of the same origin are matched against the turn's native items.
    let index: NativeIndex | undefined;
    if (pb.sameOrigin && pb.ref && (b.type === 'text' || b.type === 'thinking' || b.type === 'tool_call')) {
      const id = pb.ref.turn;
      if (id !== only) {
        indexes ??= new Map();
        if (!indexes.has(id)) indexes.set(id, nativeIndexOf(turn, id, ctx));
        index = indexes.get(id);
      } else {
        if (!onlyIndexed) onlyIndex = nativeIndexOf(turn, id, ctx);
        onlyIndexed = true;
        index = onlyIndex;
      }
    }
    switch (b.type) {
      case 'text':
        addText(out, b, pb, index, orphans, ctx, turnIndex);
        break;
      case 'thinking': {
        const item = reasoningItem(b, pb, index, ctx);
        if (item) {
          orphans.reasoningKept();
          out.push({ item, refs: pb.ref ? [pb.ref] : [], turn: turnIndex, role: 'assistant' });
        } else orphans.reasoningDropped();
        break;
      }
      case 'tool_call':
        out.push(
          orphans.apply(
            {
              item: functionCall(b, pb, index, ctx),
              refs: pb.ref ? [pb.ref] : [],
              turn: turnIndex,
              role: 'assistant',
            },
            ctx.report,
          ),
        );
        break;
      case 'provider_item':
        out.push(orphans.apply(providerItemEntry(b, pb, turnIndex, 'assistant'), ctx.report));
        break;
      case 'redacted_thinking':
      case 'image':
      case 'document':
      case 'tool_result':
        // The pre-pass leaves none of these in an assistant turn for this target; never lose one silently.
        ctx.report.add(pb.ref, 'dropped', `a ${b.type} block has no Responses assistant item`);
        break;
      default: {
        const never: never = b;
        throw new Error(`unhandled block ${(never as Block).type}`);
      }
    }
  }
  return out;
}

/**
 * The input turn a block names: one of the turns merged into `turn`, looked up there rather than
 * in a map of the whole transcript built for every conversion (undefined for `ctx.notNative`).
 */
function sourceOf(turn: PreparedTurn, id: string, ctx: AssistantContext): Turn | undefined {
  const sources = turn.sources;
  for (let i = 0; i < sources.length; i++)
    if (sources[i]!.id === id) return sources[i] === ctx.notNative ? undefined : sources[i];
  return undefined;
}

/** The native-item index of input turn `id` (of a same-origin block), built once per turn by the caller. */
function nativeIndexOf(turn: PreparedTurn, id: string, ctx: AssistantContext): NativeIndex | undefined {
  const items = nativeItemsOf(sourceOf(turn, id, ctx));
  // X6 over the native items too: their text is matched against (repaired) blocks and copied into the body.
  return items ? new NativeIndex(repairSurrogatesDeep(items)) : undefined;
}

/**
 * Text → `output_text` (or `refusal`, same origin). Same-origin text keeps its message's `msg_…`
 * id, `phase` and annotations (from the native item, else the reader's `meta.itemId`,
 * `meta.phase`, `meta.refusal` and `citations`); consecutive texts of one message (or all without
 * id) share one message item.
 */
function addText(
  out: Entry[],
  b: TextBlock,
  pb: PreparedBlock,
  index: NativeIndex | undefined,
  orphans: Orphans,
  ctx: AssistantContext,
  turnIndex: number,
): void {
  if (isBlank(b.text)) {
    // Kept by the pre-pass for its signature (G-E2), but Responses has no use for either (X4).
    ctx.report.add(pb.ref, 'dropped', 'empty text: Responses has no signature to carry (X4)');
    return;
  }
  if (b.signature !== undefined) ctx.report.add(pb.ref, 'converted', 'signature left out: Responses text has none');
  const native = index?.partFor(b.text);
  let part: OutputTextPart | RefusalPart = { type: 'output_text', text: b.text };
  if (native ? native.part.type === 'refusal' : pb.sameOrigin && b.meta?.refusal === true)
    part = { type: 'refusal', refusal: b.text };
  else if (native && Array.isArray(native.part.annotations)) part.annotations = native.part.annotations;
  else if (pb.sameOrigin && b.citations !== undefined && areAnnotations(b.citations)) part.annotations = b.citations;
  if (b.citations !== undefined && part.type === 'output_text' && part.annotations === undefined)
    ctx.report.add(pb.ref, 'converted', 'citations left out: they are not Responses annotations of this origin (A-C1)');
  const id = native?.messageId ?? (pb.sameOrigin ? metaItemId(b) : undefined);
  // R-P1: a same-origin message's phase is resent on every replay; another origin's gets none.
  const phase = native?.phase ?? (pb.sameOrigin && typeof b.meta?.phase === 'string' ? b.meta.phase : undefined);
  const last = out[out.length - 1];
  const lastItem = last?.item as AssistantMessageItem | undefined;
  const key = id ?? '';
  if (
    last &&
    last.turn === turnIndex &&
    lastItem?.type === 'message' &&
    lastItem.role === 'assistant' &&
    last.messageKey === key &&
    last.refs[0]?.turn === pb.ref?.turn
  ) {
    lastItem.content.push(part);
    if (pb.ref) last.refs.push(pb.ref);
    return;
  }
  const item: AssistantMessageItem =
    id || phase
      ? { type: 'message', role: 'assistant', ...(id ? { id } : {}), ...(phase ? { phase } : {}), content: [part] }
      : { type: 'message', role: 'assistant', content: [part] };
  out.push(
    orphans.apply(
      { item, refs: pb.ref ? [pb.ref] : [], turn: turnIndex, role: 'assistant', messageKey: key },
      ctx.report,
    ),
  );
}

/**
 * Same-origin thinking whose signature is the `encrypted_content` → a reasoning item (R-K2, R-K4:
 * summary and encrypted content, no `content`); the native item's id and summary parts are kept
 * when found. Without a signature it is dropped (R-K3). Foreign thinking never reaches here (X3).
 */
function reasoningItem(
  b: ThinkingBlock,
  pb: PreparedBlock,
  index: NativeIndex | undefined,
  ctx: AssistantContext,
): ReasoningItem | undefined {
  if (!pb.sameOrigin || b.signature === undefined || b.signature === '') {
    ctx.report.add(pb.ref, 'dropped', pb.sameOrigin ? R_K3 : 'reasoning of another origin (X3, R-K6)');
    return undefined;
  }
  const native = index?.reasoningFor(b.signature);
  const summary =
    native && Array.isArray(native.summary)
      ? (native.summary.filter(isSummary) as ReasoningItem['summary'])
      : isBlank(b.text)
        ? []
        : [{ type: 'summary_text' as const, text: b.text }];
  const nativeId = typeof native?.id === 'string' ? native.id : metaItemId(b);
  const id = ctx.omitReasoningIds ? undefined : nativeId;
  return id
    ? { type: 'reasoning', id, summary, encrypted_content: b.signature }
    : { type: 'reasoning', summary, encrypted_content: b.signature };
}

/** The Responses item id a reader kept in `meta.itemId` (`msg_…`, `rs_…`, `fc_…`), if any. */
function metaItemId(b: Block): string | undefined {
  const id = b.meta?.itemId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function isSummary(s: unknown): boolean {
  return isObject(s) && s.type === 'summary_text' && typeof s.text === 'string';
}

/**
 * tool_call (id and name mapped by the pre-pass, X2/X5) → `function_call` with `arguments` as a
 * JSON string. The item `id` comes only from the same origin's native item, and only when it
 * begins with `fc` — never the call id (R-T2).
 */
function functionCall(
  b: ToolCallBlock,
  pb: PreparedBlock,
  index: NativeIndex | undefined,
  ctx: AssistantContext,
): FunctionCallItem {
  if (b.signature !== undefined)
    ctx.report.add(pb.ref, 'converted', 'signature left out: Responses function calls have none');
  const original = ctx.ids.toOriginal(b.id) ?? b.id;
  const native = index?.callFor(original);
  const nativeId = typeof native?.id === 'string' ? native.id : pb.sameOrigin ? metaItemId(b) : undefined;
  const id = nativeId?.startsWith('fc') ? nativeId : undefined;
  if (nativeId !== undefined && id === undefined)
    ctx.report.add(pb.ref, 'converted', `item id ${nativeId} left out: a function_call id must begin with "fc" (R-T2)`);
  const serialised = JSON.stringify(b.input ?? {});
  // The model's own argument text, byte for byte, when it still says exactly what the block says.
  const args =
    typeof native?.arguments === 'string' && sameJson(native.arguments, serialised) ? native.arguments : serialised;
  return id
    ? { type: 'function_call', id, call_id: b.id, name: b.name, arguments: args }
    : { type: 'function_call', call_id: b.id, name: b.name, arguments: args };
}

/** True when `text` parses to the value whose `JSON.stringify` is `serialised`. */
function sameJson(text: string, serialised: string): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === serialised;
  } catch {
    return false;
  }
}

/**
 * A same-origin provider item replays in place (output-only fields removed, R-K4) when it is an
 * input item the API takes and that has no block form ({@link providerItemProblem}); otherwise it
 * is marked so that the request-level check sends its text instead (or drops it) and reports why.
 * The same holds for the items of a tool turn.
 */
export function providerItemEntry(
  b: ProviderItemBlock,
  pb: PreparedBlock,
  turnIndex: number,
  role: Entry['role'],
): Entry {
  const base = {
    refs: pb.ref ? [pb.ref] : [],
    turn: turnIndex,
    role,
    ...(b.text !== undefined ? { text: b.text } : {}),
  };
  const problem = pb.sameOrigin && b.api === RESPONSES_API ? providerItemProblem(b.item) : NOT_AN_INPUT_ITEM;
  if (problem === undefined) return { item: toInputItem(b.item as JsonObject), ...base };
  const type = isObject(b.item) && typeof b.item.type === 'string' ? b.item.type : 'unknown';
  return { item: { type } as OtherInputItem, ...base, invalid: problem };
}
