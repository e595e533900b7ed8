/**
 * The Anthropic rules of API version 2026-10-21 and of preserved thinking, compaction and
 * mid-conversation system messages (provider-rules-2026-anthropic-openai.md §1a–§1c), as pure
 * passes of the Messages converter. Every change is recorded in the report.
 */
import type { ModelInfo } from '../../models/types';
import type { BlockRef, ReportBuilder } from '../../transcript/report';
import type { Block, Meta, ProviderItemBlock, Transcript, Turn } from '../../transcript/schema';
import { isSameOrigin, type ResolvedTarget } from '../../transcript/target';
import { isBlank } from '../../transcript/text';
import type {
  AnthropicContentBlock,
  AnthropicMessagesBody,
  DraftBlock,
  DraftMessage,
} from './convert-anthropic-messages-types';
import { ANTHROPIC_API, compactionBetaOf, isObject, type JsonObject } from './read-anthropic-messages-content';

/** A-B3: the beta that turns a failed conversation check into a dropped block. */
export const THINKING_BINDING_BETA = 'thinking-binding-controls-2026-08-01';

/** `turn.id` + block index → why the block must not be sent as thinking again. */
export type BlockedBlocks = Map<string, string>;

/** The key of a block in {@link BlockedBlocks}. */
export const refKey = (ref: BlockRef): string => `${ref.index}\u0000${ref.turn}`;

const isThinkingType = (type: unknown): boolean => type === 'thinking' || type === 'redacted_thinking';

/**
 * A-B4: thinking from Sonnet/Haiku 5.5 is bound to the organization that produced it, and blocks
 * minted in claude.ai or Claude Code are removed. So thinking of a turn imported from Claude Code
 * (or marked `meta.importedFrom` `claude-code` / `claude-web`) is never sent as `thinking`.
 * Claude Code turns are recognised by the transcript's `source.kind` and the absence of a
 * `meta.responseId` (Baton's own answers always carry the response id). claude.ai turns have the
 * origin api `web` and are never same-origin anyway.
 * @returns the reason, or undefined for a turn whose thinking may be replayed.
 */
export function accountBindingProblem(turn: Turn, transcript: Transcript): string | undefined {
  const imported = turn.meta?.importedFrom;
  if (imported === 'claude-code' || imported === 'claude-web')
    return `thinking minted in ${imported} is bound to another account and is removed by the API (A-B4)`;
  if (transcript.source?.kind === 'claude-code' && turn.meta?.responseId === undefined)
    return 'thinking imported from Claude Code is bound to another account and is removed by the API (A-B4)';
  return undefined;
}

/** One `input_transformations` entry as stored in `turn.meta.inputTransformations` (A-B5). */
interface InputTransformation {
  type: string;
  path?: string;
  reason?: string;
}

/** The `input_transformations` a reader stored on a turn (A-B5), or an empty list. */
export function inputTransformationsOf(turn: Turn): InputTransformation[] {
  const list = (turn.meta as Meta | undefined)?.inputTransformations;
  return Array.isArray(list)
    ? list.filter((e): e is InputTransformation => isObject(e) && typeof e.type === 'string')
    : [];
}

const PATH = /^messages\.(\d+)\.content\.(\d+)$/;

/**
 * The dropped thinking blocks Baton placed on an answer when it came in (`meta.droppedThinking`:
 * `{ turn, index, reason }[]`, matched against the body sent), or undefined for an answer stored
 * without them (then its paths are looked up by converting the turns before it again).
 */
function placedDrops(turn: Turn): { turn: string; index: number; reason: string }[] | undefined {
  const list = (turn.meta as Meta | undefined)?.droppedThinking;
  if (!Array.isArray(list)) return undefined;
  return list.filter(
    (r): r is { turn: string; index: number; reason: string } =>
      isObject(r) && typeof r.turn === 'string' && typeof r.index === 'number' && typeof r.reason === 'string',
  );
}

/**
 * A-B4 and A-B5: the thinking blocks of the transcript that must not be sent as thinking again.
 *
 * A-B5: an answer read under the thinking-binding beta lists in `turn.meta.inputTransformations`
 * the blocks the API dropped from the request that produced it (`thinking_dropped`, path
 * `messages.i.content.j`). The converter is deterministic (X9), so converting the turns before
 * that answer for the same target gives that request again; `messagesOf` does it, and each path
 * is looked up in its messages. Only a path that names a thinking or redacted_thinking block of
 * the transcript is taken (a history edited since may no longer match; the API would then drop
 * the block again itself). Answers of other origins are not looked at: their requests were other
 * conversions.
 * @param messagesOf the converter's message list for a transcript, with the blocks given so far left out.
 * @param initial blocks already left out (A-P1: those before the compaction block in its turn).
 * @param from, to the answers looked at are those of turns `[from, to)` (all by default); a
 *   conversion resumed from a prefix snapshot looks only at the turns after its boundary
 *   (docs/architecture.md#incremental-conversion), starting from the snapshot's blocks.
 * @param named when given, receives the turn id of every block this call blocks (the resumed
 *   conversion checks that none is before its boundary).
 */
export function blockedThinking(
  transcript: Transcript,
  target: ResolvedTarget,
  messagesOf: (t: Transcript, blocked: BlockedBlocks) => readonly DraftMessage[],
  initial: BlockedBlocks = new Map(),
  from = 0,
  to = transcript.turns.length,
  named?: Set<string>,
): BlockedBlocks {
  const blocked: BlockedBlocks = new Map(initial);
  const block = (ref: BlockRef, why: string): void => {
    blocked.set(refKey(ref), why);
    named?.add(ref.turn);
  };
  for (let k = from; k < to; k++) {
    const turn = transcript.turns[k]!;
    if (turn.role !== 'assistant') continue;
    const problem = accountBindingProblem(turn, transcript);
    if (problem) turn.blocks.forEach((b, index) => isThinkingType(b.type) && block({ turn: turn.id, index }, problem));
    const dropped = inputTransformationsOf(turn).filter(
      (e) => e.type === 'thinking_dropped' && typeof e.path === 'string',
    );
    if (dropped.length === 0 || !isSameOrigin(turn.origin, target) || turn.origin?.api !== ANTHROPIC_API) continue;
    const placed = placedDrops(turn);
    if (placed) {
      // Placed against the body actually sent when the answer came in: exact even when that send
      // left turns out, which re-converting the turns before the answer cannot know.
      for (const r of placed)
        if (isThinkingType(transcript.turns.find((t) => t.id === r.turn)?.blocks[r.index]?.type ?? ''))
          block(
            { turn: r.turn, index: r.index },
            `the API dropped this block from an earlier request (${r.reason}, answer ${turn.id}); it is not sent again (A-B5)`,
          );
      continue;
    }
    const messages = messagesOf({ ...transcript, turns: transcript.turns.slice(0, k) }, new Map(blocked));
    for (const e of dropped) {
      const m = PATH.exec(e.path!);
      const d = m ? messages[Number(m[1])]?.blocks[Number(m[2])] : undefined;
      if (!d?.ref || !isThinkingType(d.block.type)) continue;
      block(
        d.ref,
        `the API dropped this block from an earlier request (${e.reason ?? 'no reason given'}, answer ${turn.id}); it is not sent again (A-B5)`,
      );
    }
  }
  return blocked;
}

/** The compaction item of a block, when it is one of this API. */
function compactionItem(b: Block): JsonObject | undefined {
  return b.type === 'provider_item' && b.api === ANTHROPIC_API && isObject(b.item) && b.item.type === 'compaction'
    ? b.item
    : undefined;
}

/** What {@link compactionStart} decided. */
export interface CompactionStart {
  /** The transcript from the compaction turn on (the input when there is none to replay). */
  transcript: Transcript;
  /** Blocks of the compaction turn before the compaction block: they are summarised by it (A-P1). */
  skipped: BlockedBlocks;
}

/**
 * A-P1: a same-origin `compaction` block replays byte for byte as the first block of the
 * conversation, so the turns before it (which it summarises) are left out, and so are the blocks
 * before it in its own turn; only the latest compaction block with content is sent. A compaction
 * block whose `content` is null is dropped (A-P2). Earlier compaction blocks fall with the turns
 * before the latest one. Every block left out is reported `dropped`. With `from`, only the turns
 * from that index on are looked at (a resumed conversion: the turns before were looked at when its
 * snapshot was taken, docs/architecture.md#incremental-conversion).
 */
export function compactionStart(
  transcript: Transcript,
  target: ResolvedTarget,
  report: ReportBuilder,
  from = 0,
): CompactionStart {
  const skipped: BlockedBlocks = new Map();
  let at: { turn: number; block: number } | undefined;
  // Indexed loops, no closure per turn: this looks at every block of every conversion.
  const turns = transcript.turns;
  for (let t = from; t < turns.length; t++) {
    const turn = turns[t]!;
    if (turn.role !== 'assistant' || !isSameOrigin(turn.origin, target)) continue;
    for (let i = 0; i < turn.blocks.length; i++) {
      const item = compactionItem(turn.blocks[i]!);
      if (!item) continue;
      if (typeof item.content !== 'string') {
        const why = 'compaction block without content: compaction failed and there is nothing to replay (A-P2)';
        report.add({ turn: turn.id, index: i }, 'dropped', why);
        skipped.set(refKey({ turn: turn.id, index: i }), why);
      } else at = { turn: t, block: i };
    }
  }
  if (!at) return { transcript, skipped };
  const start = at;
  const why = 'summarised by a later compaction block, which opens the conversation (A-P1)';
  transcript.turns
    .slice(0, start.turn)
    .forEach((turn) => turn.blocks.forEach((_, index) => report.add({ turn: turn.id, index }, 'dropped', why)));
  const turn = transcript.turns[start.turn]!;
  for (let index = 0; index < start.block; index++) {
    report.add({ turn: turn.id, index }, 'dropped', why);
    skipped.set(refKey({ turn: turn.id, index }), why);
  }
  return { transcript: { ...transcript, turns: transcript.turns.slice(start.turn) }, skipped };
}

/** A-P1: the history may open on an assistant turn whose first block sent is a compaction block. */
export function opensWithCompaction(
  blocks: readonly { block: Block }[],
  skipped: BlockedBlocks,
  refs: readonly (BlockRef | undefined)[],
): boolean {
  const first = blocks.findIndex((_, i) => !(refs[i] && skipped.has(refKey(refs[i]!))));
  return first >= 0 && compactionItem(blocks[first]!.block) !== undefined;
}

/** A-P2: the beta a replayed compaction block needs: the one stored with it, else by its kind. */
export function compactionBeta(b: ProviderItemBlock): string {
  const stored = b.meta?.anthropicBeta;
  if (typeof stored === 'string' && stored !== '') return stored;
  return compactionBetaOf(b.item as JsonObject);
}

/**
 * A-V2: an assistant message must not hold a `document` block (400 under 2026-10-21). A replayed
 * one (native content read from a request body) becomes a text block with its plain text, or is
 * dropped when it has none; both reported. Documents stay allowed in user messages and results.
 */
export function assistantDocuments(messages: DraftMessage[], report: ReportBuilder): DraftMessage[] {
  let out: DraftMessage[] | undefined;
  messages.forEach((m, i) => {
    if (m.role !== 'assistant' || !m.blocks.some(isDocument)) return;
    const blocks: DraftBlock[] = [];
    for (const d of m.blocks) {
      if (d.block.type !== 'document') {
        blocks.push(d);
        continue;
      }
      const source = (d.block as JsonObject).source;
      const text =
        isObject(source) && source.type === 'text' && typeof source.data === 'string' ? source.data : undefined;
      if (text !== undefined && !isBlank(text)) {
        report.add(
          d.ref,
          'converted',
          'document in an assistant message sent as its text: the API refuses documents there (A-V2)',
        );
        blocks.push({ ...d, block: { type: 'text', text } });
      } else
        report.add(
          d.ref,
          'dropped',
          'document in an assistant message dropped: the API refuses documents there and it has no plain text (A-V2)',
        );
    }
    (out ??= messages.slice())[i] = { ...m, blocks };
  });
  return out ?? messages;
}

const isDocument = (d: DraftBlock): boolean => d.block.type === 'document';

/** Text without its `citations` (the text stays). */
function withoutCitations(block: JsonObject): JsonObject {
  const { citations: _c, ...rest } = block;
  return rest;
}

const hasCitations = (b: unknown): boolean => isObject(b) && Array.isArray(b.citations) && b.citations.length > 0;

/**
 * A-V3: a `text` block in a user message must not carry a non-empty `citations` array, directly
 * or inside a `search_result` block (400 under 2026-10-21). The citations are left out and the
 * text kept, reported. Assistant citations (A-C1) are untouched.
 */
export function userCitations(messages: DraftMessage[], report: ReportBuilder): DraftMessage[] {
  let out: DraftMessage[] | undefined;
  messages.forEach((m, i) => {
    // Most user messages cite nothing: looked at first, so that only a message that changes is copied.
    if (m.role !== 'user' || !m.blocks.some(citesInUserMessage)) return;
    const blocks = m.blocks.map((d) => {
      const b = d.block as JsonObject;
      if (b.type === 'text' && hasCitations(b)) {
        report.add(d.ref, 'converted', 'citations left out of user text, text kept (A-V3)');
        return { ...d, block: withoutCitations(b) as AnthropicContentBlock };
      }
      if (b.type === 'search_result' && Array.isArray(b.content) && b.content.some(hasCitations)) {
        report.add(d.ref, 'converted', 'citations left out of the text inside a search result, text kept (A-V3)');
        return {
          ...d,
          block: {
            ...b,
            content: b.content.map((c) => (hasCitations(c) ? withoutCitations(c as JsonObject) : c)),
          } as AnthropicContentBlock,
        };
      }
      return d;
    });
    (out ??= messages.slice())[i] = { ...m, blocks };
  });
  return out ?? messages;
}

/** True when {@link userCitations} changes the block: text with citations, or a search result holding such text. */
function citesInUserMessage(d: DraftBlock): boolean {
  const b = d.block as JsonObject;
  if (b.type === 'text') return hasCitations(b);
  return b.type === 'search_result' && Array.isArray(b.content) && b.content.some(hasCitations);
}

/**
 * A-V4: a model without prefill answers 400 when `messages` ends on an assistant message. For such
 * a model (and an unknown one, the safe side) a final assistant message is dropped, reported.
 */
export function noPrefill(messages: DraftMessage[], info: ModelInfo, report: ReportBuilder): DraftMessage[] {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'assistant' || info.prefill === true) return messages;
  for (const d of last.blocks)
    report.add(d.ref, 'dropped', `${info.id} takes no prefill: the request may not end on an assistant message (A-V4)`);
  if (last.blocks.some((d) => !d.ref))
    report.warn(`a final assistant message was dropped: ${info.id} takes no prefill (A-V4)`);
  return messages.slice(0, -1);
}

/** A message of the request body: a user or assistant message, or a mid-conversation system message (A-M1). */
export type BodyMessage = AnthropicMessagesBody['messages'][number];

/**
 * A-M1: a system message read from a history (a user-turn text block with `meta.systemMessage`,
 * already folded in as labelled text) is sent as `role: "system"` where the model takes it
 * (Opus 4.8 and later, `ModelInfo.systemMessages`) and where the API allows it: right after
 * user content, before an assistant message or at the end of `messages`. That holds for the
 * trailing system blocks of a user message that also has other content. Everywhere else (older
 * and unknown models, other places) it stays folded into the user message as labelled text.
 * @param systemText the system text of a draft block, or undefined when it is not one.
 */
export function placeSystemMessages(
  messages: readonly DraftMessage[],
  info: ModelInfo,
  systemText: (d: DraftBlock) => string | undefined,
  report: ReportBuilder,
): BodyMessage[] {
  const out: BodyMessage[] = [];
  // Indexed loops and no closure per message: this step writes every message of the body.
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const blocks = m.blocks;
    let cut = blocks.length;
    if (m.role === 'user' && info.systemMessages === true)
      while (cut > 0 && systemText(blocks[cut - 1]!) !== undefined) cut--;
    if (cut === blocks.length || cut === 0) {
      out.push({ role: m.role, content: blocks.map(nativeBlock) });
      continue;
    }
    out.push({ role: 'user', content: blocks.slice(0, cut).map(nativeBlock) });
    for (let k = cut; k < blocks.length; k++) {
      const d = blocks[k]!;
      report.add(d.ref, 'converted', 'sent as a mid-conversation system message (A-M1)');
      out.push({ role: 'system', content: systemText(d)! });
    }
  }
  return out;
}

/** The native block of a draft block (one function for every message, not a closure per message). */
function nativeBlock(d: DraftBlock): AnthropicContentBlock {
  return d.block;
}

/** `cache_control` of a block, when set. */
function ttlOf(block: unknown): '1h' | '5m' | undefined {
  if (!isObject(block) || !isObject(block.cache_control)) return undefined;
  return block.cache_control.ttl === '1h' ? '1h' : '5m';
}

/** The state of {@link cacheControlOrder} after some holders: breakpoints kept, a `5m` one seen, breakpoints removed. */
export interface BreakpointCount {
  count: number;
  seen5m: boolean;
  removed: number;
}

/**
 * A-S2 over a list of blocks (tools, system blocks or a message's content), in order, continuing
 * `state`: a breakpoint past the fourth, or a `1h` one after a `5m` one, is removed. The block is
 * replaced in `list` by a copy without it (never changed in place: it may be the transcript's own
 * native content).
 */
export function orderBreakpoints(list: unknown[], state: BreakpointCount): void {
  for (let i = 0; i < list.length; i++) {
    const h = list[i];
    const ttl = ttlOf(h);
    if (!ttl) continue;
    if (state.count >= 4 || (ttl === '1h' && state.seen5m)) {
      const { cache_control: _removed, ...rest } = h as JsonObject;
      list[i] = rest;
      state.removed++;
      continue;
    }
    state.count++;
    if (ttl === '5m') state.seen5m = true;
  }
}

/** The A-S2 warning for `state`'s removed breakpoints, if any. */
export function warnBreakpoints(state: BreakpointCount, report: ReportBuilder): void {
  if (state.removed > 0)
    report.warn(
      `${state.removed} replayed cache_control breakpoint(s) removed: at most 4, and a 1h entry may not follow a 5m one (A-S2)`,
    );
}

/**
 * A-S2: `cache_control` breakpoints (replayed with native content read from a request body) in
 * the order tools → system → messages: at most 4, and no `1h` entry after a `5m` one. A
 * breakpoint that breaks either rule is removed from the body (the block stays), with a warning.
 * Changes `body`'s lists in place (they are the converter's own, not yet returned).
 */
export function cacheControlOrder(body: AnthropicMessagesBody, report: ReportBuilder): void {
  const state: BreakpointCount = { count: 0, seen5m: false, removed: 0 };
  if (body.tools) orderBreakpoints(body.tools, state);
  if (Array.isArray(body.system)) orderBreakpoints(body.system as unknown[], state);
  for (const m of body.messages) if (Array.isArray(m.content)) orderBreakpoints(m.content, state);
  warnBreakpoints(state, report);
}

/** A-V5: forced tool use (`tool_choice` `any` / `tool`) becomes `auto` on a model that refuses it (Sonnet 5.5). */
export function toolChoiceFor(
  choice: AnthropicMessagesBody['tool_choice'],
  info: ModelInfo,
  report: ReportBuilder,
): AnthropicMessagesBody['tool_choice'] {
  if (!choice || (choice.type !== 'any' && choice.type !== 'tool') || info.forcedToolUse !== false) return choice;
  report.warn(`${info.id} refuses forced tool use: tool_choice ${choice.type} sent as auto (A-V5)`);
  return { type: 'auto' };
}

/** True when a message list replays a thinking or redacted_thinking block. */
export function replaysThinking(messages: readonly DraftMessage[]): boolean {
  return messages.some((m) => m.role === 'assistant' && m.blocks.some((d) => isThinkingType(d.block.type)));
}

/** A-V1: the sampling parameters a caller may have asked for (read loosely: no target field carries them yet). */
export const SAMPLING_PARAMETERS = ['temperature', 'top_p', 'top_k', 'topP', 'topK'] as const;
