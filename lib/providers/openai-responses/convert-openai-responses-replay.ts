/**
 * Same-origin replay for the Responses converter: a turn's own output items (`native.payload`)
 * sent back as input items, changed only where the API rejects them on input (R-K1–R-K4, R-T2,
 * X2, X4, X5). Pure; provider-rules.md §3.
 */
import type { IdMap } from '../../transcript/ids';
import type { PreparedTurn } from '../../transcript/prepare';
import type { PreparedBlock } from '../../transcript/prepare-blocks';
import type { BlockRef } from '../../transcript/report';
import type { Block, ToolCallBlock, Turn } from '../../transcript/schema';
import { isBlank } from '../../transcript/text';
import { Orphans, R_K3, type AssistantContext } from './convert-openai-responses-assistant';
import type { Entry } from './convert-openai-responses-content';
import {
  INPUT_ITEM_TYPES,
  NEVER_FROM_HISTORY,
  NOT_AN_INPUT_ITEM,
  isObject,
  nativeItemProblem,
  toInputItem,
  type JsonObject,
} from './convert-openai-responses-native';
import { outputItemBlocks } from './read-openai-responses-items';
import type { FunctionCallItem, OtherInputItem } from './convert-openai-responses-types';

/**
 * Replays a same-origin turn's own output items (`native.payload`), every source block reported
 * `replayed-native`. Only what the API rejects on input is changed: output-only fields (R-K4),
 * empty `output_text` parts (X4), reasoning without `encrypted_content` (dropped, R-K3; the items
 * after it lose their ids, or are sent as text when the API requires their id, R-K1),
 * function-call ids that do not begin with `fc` (R-T2), and call ids and names, which follow the
 * request's maps (X2, X5). Items that are not input items become text (request-level check).
 */
export function encodeNativeTurn(
  turn: PreparedTurn,
  items: readonly unknown[],
  turnIndex: number,
  ctx: AssistantContext,
): Entry[] {
  const source = turn.sources[0]!;
  source.blocks.forEach((_, index) =>
    ctx.report.add({ turn: source.id, index }, 'replayed-native', "the turn's own output items, sent as received"),
  );
  const refs = new NativeRefs(source, turn.blocks, ctx.ids);
  const orphans = new Orphans();
  const out: Entry[] = [];
  for (const raw of items) {
    const item: JsonObject = isObject(raw) ? raw : { type: 'unknown' };
    // A history's EasyInputMessage may leave out `type: "message"`.
    const type = typeof item.type === 'string' ? item.type : item.role !== undefined ? 'message' : 'unknown';
    const blockRefs = refs.of(item, type);
    const ref = blockRefs[0];
    const entry = (i: Entry['item'], extra: Partial<Entry> = {}): Entry => ({
      item: i,
      refs: blockRefs,
      turn: turnIndex,
      role: 'assistant',
      ...extra,
    });
    if (type === 'reasoning') {
      if (typeof item.encrypted_content !== 'string' || item.encrypted_content === '') {
        ctx.report.add(ref, 'dropped', R_K3);
        orphans.reasoningDropped();
        continue;
      }
      const r = toInputItem(item);
      if (ctx.omitReasoningIds) delete r.id;
      orphans.reasoningKept();
      out.push(entry(r));
    } else if (type === 'function_call') {
      const fc = { ...toInputItem(item), ...refs.mappedCall(item) } as FunctionCallItem & OtherInputItem;
      if (fc.id !== undefined && (typeof fc.id !== 'string' || !fc.id.startsWith('fc'))) {
        ctx.report.add(
          ref,
          'converted',
          `item id ${String(fc.id)} left out: a function_call id must begin with "fc" (R-T2)`,
        );
        delete fc.id;
      }
      out.push(orphans.apply(entry(fc), ctx.report));
    } else if (type === 'message') {
      const m = withoutBlankText(toInputItem(item));
      if (Array.isArray(m.content) && m.content.length === 0) continue; // nothing but empty text (X4)
      out.push(orphans.apply(entry(m), ctx.report));
    } else {
      const never = NEVER_FROM_HISTORY[type]; // R-X1
      const valid = INPUT_ITEM_TYPES.has(type) && never === undefined;
      out.push(
        orphans.apply(
          entry(valid ? toInputItem(item) : { type }, {
            ...refs.textOf(ref),
            ...(valid ? {} : { invalid: never ?? NOT_AN_INPUT_ITEM }),
          }),
          ctx.report,
        ),
      );
    }
  }
  return out;
}

/**
 * Why a same-origin turn's own output items (`native.payload`) cannot be replayed for it, or
 * undefined when they can: every item must pass {@link nativeItemProblem}, and the items must
 * read back (as the Responses readers read them) as exactly the turn's blocks, in order, so that
 * every block the report calls `replayed-native` is in the body and the calls are the ones the
 * pre-pass paired with results (X1, R-T3). The caller then rebuilds the turn from its blocks.
 */
export function nativeTurnProblem(source: Turn, items: readonly unknown[]): string | undefined {
  for (let i = 0; i < items.length; i++) {
    const problem = nativeItemProblem(items[i]);
    if (problem) return `item ${i}: ${problem}`;
  }
  let derived: Block[];
  try {
    derived = items.flatMap((raw, i) => {
      const item = raw as JsonObject;
      return outputItemBlocks(item.type === undefined ? { ...item, type: 'message' } : item, ['native', i]);
    });
  } catch (e) {
    return `the items do not read as blocks (${(e as Error).message})`;
  }
  if (derived.length !== source.blocks.length)
    return `its items stand for ${derived.length} blocks, the turn has ${source.blocks.length}`;
  const at = source.blocks.findIndex((b, i) => !sameBlock(b, derived[i]!));
  return at >= 0 ? `its items do not match block ${at} (${source.blocks[at]!.type})` : undefined;
}

/** True when `b` is the block `read` (read back from a native item) in what replay depends on. */
function sameBlock(b: Block, read: Block): boolean {
  if (b.type === 'text' && read.type === 'text') return b.text === read.text;
  if (b.type === 'thinking' && read.type === 'thinking') return b.text === read.text && b.signature === read.signature;
  if (b.type === 'tool_call' && read.type === 'tool_call') return b.id === read.id && b.name === read.name;
  if (b.type === 'provider_item' && read.type === 'provider_item')
    return isObject(b.item) && isObject(read.item) && b.item.type === read.item.type;
  return false;
}

/** True for an `output_text` or `refusal` part with empty or whitespace-only text (it has no block: the pre-pass would have dropped it, X4). */
function isBlankPart(p: unknown): boolean {
  if (!isObject(p)) return false;
  const text = p.type === 'output_text' ? p.text : p.type === 'refusal' ? p.refusal : undefined;
  return typeof text === 'string' && isBlank(text);
}

/** A message without its empty `output_text` parts: never send an empty text (X4). */
function withoutBlankText(m: OtherInputItem): OtherInputItem {
  return Array.isArray(m.content) ? { ...m, content: m.content.filter((p) => !isBlankPart(p)) } : m;
}

/** Finds the source blocks behind each native item, in order of type, and the mapped id/name of each call. */
class NativeRefs {
  private readonly queues: Record<'thinking' | 'text' | 'provider_item', number[]> = {
    thinking: [],
    text: [],
    provider_item: [],
  };
  private readonly calls: ToolCallBlock[];

  constructor(
    private readonly source: Turn,
    prepared: readonly PreparedBlock[],
    private readonly ids: IdMap,
  ) {
    source.blocks.forEach((b, i) => {
      if (b.type === 'thinking' || b.type === 'text' || b.type === 'provider_item') this.queues[b.type].push(i);
    });
    this.calls = prepared.flatMap((pb) => (pb.block.type === 'tool_call' ? [pb.block] : []));
  }

  /** The source blocks of an item: thinking ↔ reasoning, text ↔ message parts, tool_call ↔ function_call, provider_item ↔ the rest. */
  of(item: JsonObject, type: string): BlockRef[] {
    const take = (q: number[], n = 1): BlockRef[] => q.splice(0, n).map((index) => ({ turn: this.source.id, index }));
    if (type === 'reasoning') return take(this.queues.thinking);
    if (type === 'message')
      return take(
        this.queues.text,
        Array.isArray(item.content) ? item.content.filter((p) => !isBlankPart(p)).length : 1,
      );
    if (type === 'function_call') {
      const index = this.source.blocks.findIndex((b) => b.type === 'tool_call' && b.id === item.call_id);
      return index >= 0 ? [{ turn: this.source.id, index }] : [];
    }
    return take(this.queues.provider_item);
  }

  /** The provider item's readable text, for the fallback when it cannot be replayed. */
  textOf(ref: BlockRef | undefined): Partial<Entry> {
    const b = ref ? this.source.blocks[ref.index] : undefined;
    return b?.type === 'provider_item' && b.text !== undefined ? { text: b.text } : {};
  }

  /**
   * The request's `call_id` and `name` for a native function_call: those the pre-pass gave its
   * tool_call block (X2, X5), matched by the original id in order. Unmatched calls keep theirs (the
   * request-level pairing check then finds them unanswered).
   */
  mappedCall(item: JsonObject): { call_id: string; name: string } {
    const at = this.calls.findIndex((c) => (this.ids.toOriginal(c.id) ?? c.id) === item.call_id);
    if (at < 0) return { call_id: String(item.call_id), name: String(item.name) };
    const [c] = this.calls.splice(at, 1);
    return { call_id: c!.id, name: c!.name };
  }
}
