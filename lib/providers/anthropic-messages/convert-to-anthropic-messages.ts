/**
 * Baton transcript → the body of a streaming Anthropic Messages request (`POST /v1/messages`),
 * with its conversion report (DESIGN.md, "One module per wire API"; transcript-v1.md, "The
 * `baton convert` contract"; provider-rules.md §0 and §1). Pure and synchronous.
 *
 * Steps: resolve the target and look the model up → run the shared pre-pass with Anthropic's
 * capabilities → encode each prepared turn (same-origin `native` content verbatim, everything else
 * block by block) → apply the message-level thinking rules → body and report.
 */
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { lookupModel } from '../../models/registry';
import type { ModelInfo } from '../../models/types';
import { TranscriptError } from '../../transcript/codec';
import { PORTABLE_ID_POLICY } from '../../transcript/ids';
import {
  commitSnapshot,
  prepareTranscript,
  rangeEnd,
  rangeStart,
  STAGE,
  type PrepareCapabilities,
  type PreparedBlock,
  type PreparedTranscript,
  type PreparedTurn,
  type StageRange,
} from '../../transcript/prepare';
import { ReportBuilder, withLazyReport } from '../../transcript/report';
import type { Meta, ToolDefinition, Transcript, Turn } from '../../transcript/schema';
import { resolveTarget, type ConvertTarget, type ResolvedTarget } from '../../transcript/target';
import { uniqueTools } from '../convert-unique-tools';
import type { ConvertOptions, ConvertResult } from '../types';
import { convertResuming, type ConversionCache, type Incremental } from '../../transcript/prepare-cache';
import {
  dropUnansweredServerTools,
  isServerBlock,
  isServerResult,
  moveServerToolResults,
  type ServerToolIds,
} from './convert-anthropic-messages-server-tools';
import { encodeBlock, type EncodeContext } from './convert-anthropic-messages-blocks';
import {
  citesDocuments,
  countDocuments,
  dropDanglingCitations,
  replayNative,
} from './convert-anthropic-messages-native';
import {
  compactMessages,
  enforceThinkingFirst,
  stripFinalThinking,
  thinkingConfig,
  toolLoopStartsWithThinking,
  trimFinalAssistant,
} from './convert-anthropic-messages-thinking';
import {
  assistantDocuments,
  blockedThinking,
  compactionBeta,
  compactionStart,
  noPrefill,
  opensWithCompaction,
  orderBreakpoints,
  placeSystemMessages,
  refKey,
  replaysThinking,
  SAMPLING_PARAMETERS,
  THINKING_BINDING_BETA,
  toolChoiceFor,
  userCitations,
  warnBreakpoints,
  type BlockedBlocks,
  type BodyMessage,
  type BreakpointCount,
} from './convert-anthropic-messages-2026';
import type {
  AnthropicMessagesBody,
  AnthropicThinkingConfig,
  DraftBlock,
  DraftMessage,
} from './convert-anthropic-messages-types';
import { ANTHROPIC_API, isObject } from './read-anthropic-messages-content';

export type {
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicMessagesBody,
} from './convert-anthropic-messages-types';

/** A-I1: the base64 image media types the API takes. */
export const ANTHROPIC_IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/**
 * A-I3: on Amazon Bedrock and Google Cloud (Vertex AI) only base64 sources work. Recognised from
 * the provider id or the endpoint's host.
 */
function base64Only(target: ResolvedTarget): boolean {
  return (
    /bedrock|vertex/i.test(target.provider) || /bedrock|aiplatform\.googleapis|vertex/i.test(target.endpoint ?? '')
  );
}

/**
 * What an Anthropic model takes, for the pre-pass: tool-call ids in the portable set of X2
 * (`^[a-zA-Z0-9_-]{1,40}$`, inside A-T1's pattern and 64-character advice), images inside tool results (X7,
 * A-T7), the four image types of A-I1 by base64 or URL (URL not on Bedrock/Vertex, A-I3), no
 * images in assistant turns (A-I2), PDF documents when the registry says so, and plain-text
 * documents (SDK `PlainTextSource`).
 */
export function anthropicCapabilities(info: ModelInfo, target: ResolvedTarget): PrepareCapabilities {
  const urls = !base64Only(target);
  return {
    idPolicy: PORTABLE_ID_POLICY,
    toolResultImages: true,
    vision: info.vision,
    imageMediaTypes: ANTHROPIC_IMAGE_MEDIA_TYPES,
    imageUrls: urls,
    assistantImages: false,
    documentMediaTypes: info.pdf ? ['application/pdf', 'text/plain'] : ['text/plain'],
    documentUrls: urls,
  };
}

/**
 * Converts a transcript into a streaming Anthropic Messages request body
 * `{model, max_tokens, stream: true, system?, messages, tools?, tool_choice?, thinking?}` and the
 * report of what happened to every input block.
 *
 * - `max_tokens`: `target.maxOutputTokens`, else the registry's `defaultOutputTokens` (tokens);
 *   clamped, with a warning, to the registry's `maxOutputTokens` for a known model.
 * - `target.thinking`: `{type: 'adaptive'}` or `{type: 'enabled', budget_tokens}` per the registry
 *   (budget: half of `max_tokens`, ≥ 1024, < `max_tokens`); switched off with a warning when the
 *   model has no control, `max_tokens` is too small, or a tool loop in progress cannot meet A-K2.
 * - Same-origin turns replay their `native` content verbatim (fate `replayed-native`), or are rebuilt
 *   keeping signatures, redacted thinking, citations and provider items in place (A-K1, A-C1).
 * - Tool results go first in the next user message (A-T2), a following user turn after them;
 *   stub tools come with `tool_choice: {type: 'none'}` (X8, A-T6).
 *
 * A valid transcript always converts.
 * @throws TranscriptError when `target.api` is not `anthropic-messages` or
 *   `target.maxOutputTokens` is not a positive integer.
 */
export function convertToAnthropicMessages(
  transcript: Transcript,
  target: ConvertTarget,
  options: ConvertOptions = {},
): ConvertResult<AnthropicMessagesBody> {
  if (target.api !== ANTHROPIC_API)
    throw new TranscriptError('target.api', `expected "${ANTHROPIC_API}", got ${JSON.stringify(target.api)}`);
  const resolved = resolveTarget(target);
  const info = lookupModel(resolved.model, resolved.provider);
  // docs/architecture.md#incremental-conversion: splice onto the last conversion's prefix when it is provably the same.
  return convertResuming(options.cache, `${ANTHROPIC_API}\u0001${JSON.stringify(resolved)}`, transcript, (inc) =>
    convertMessages(transcript, target, resolved, info, options, inc),
  );
}

/**
 * What an Anthropic snapshot keeps besides the pre-pass's part (docs/architecture.md#incremental-conversion):
 * the body's messages before the boundary, final (no end-of-history rule reaches them: the tail
 * always opens with a user message), and the state of every pass that reads across messages.
 */
interface AnthropicPrefix {
  /** `transcript.source.kind`, which A-B4 reads. */
  sourceKind: string | undefined;
  /** A-B4, A-B5, A-P2: the blocked blocks of the turns before the boundary (none of a later turn). */
  blocked: BlockedBlocks;
  messages: BodyMessage[];
  /** A-T1: server tool ids used before the boundary. */
  servers: ServerToolIds;
  /** A-C1: documents before the boundary; `cites`: a citation there names a document by index, so the prefix holds only for the request's document count `total`. */
  documents: number;
  cites: boolean;
  total: number;
  /** A-B3: thinking is replayed before the boundary. */
  thinking: boolean;
  /** A-P2: betas of compaction blocks before the boundary. */
  betas: string[];
  /** A-S2 after the tools, the system prompt and the messages before the boundary. */
  breakpoints: BreakpointCount;
}

/**
 * {@link convertToAnthropicMessages} after the target is resolved; undefined when a conversion
 * resumed from `inc.snapshot` turns out not to be exact (the caller then converts cold).
 */
function convertMessages(
  transcript: Transcript,
  target: ConvertTarget,
  resolved: ResolvedTarget,
  info: ModelInfo,
  options: ConvertOptions,
  inc: Incremental | undefined,
): ConvertResult<AnthropicMessagesBody> | undefined {
  const resumed = inc?.snapshot;
  const kept = resumed?.encoded as AnthropicPrefix | undefined;
  const sourceKind = transcript.source?.kind;
  if (kept && kept.sourceKind !== sourceKind) return undefined;
  const report = new ReportBuilder(transcript, undefined, resumed?.report, resumed?.k);
  for (const key of SAMPLING_PARAMETERS)
    if ((target as unknown as Record<string, unknown>)[key] !== undefined)
      report.warn(`${key} left out: the API refuses sampling parameters under version 2026-10-21 (A-V1)`);
  // A-P1: a same-origin compaction block opens the conversation; the turns it summarises go.
  // Resumed, only the turns after the boundary are looked at: a compaction block there reaches back.
  const from = resumed ? resumed.k : 0;
  const start = compactionStart(transcript, resolved, report, from);
  if (start.transcript !== transcript) {
    if (resumed) return undefined;
    inc = undefined; // the turns are cut: no snapshot this time
  }
  // A-B4, A-B5: thinking bound to another account, or already dropped by the API, is not sent again.
  // With snapshots, in two runs: the answers before the next boundary, then those after it; each
  // may block only blocks of its own side (else the splice would not be exact).
  const messagesOf = (t: Transcript, b: BlockedBlocks): DraftMessage[] =>
    buildMessages(t, resolved, info, b, new ReportBuilder(t), options.cache, undefined)!.parts.flat();
  const turns = start.transcript.turns;
  const next = inc && inc.next >= from ? inc.next : turns.length;
  const initial =
    kept && start.skipped.size > 0 ? new Map([...kept.blocked, ...start.skipped]) : (kept?.blocked ?? start.skipped);
  const namedBefore = new Set<string>();
  const before = blockedThinking(start.transcript, resolved, messagesOf, initial, from, next, namedBefore);
  const namedAfter = new Set<string>();
  const blocked = blockedThinking(start.transcript, resolved, messagesOf, before, next, turns.length, namedAfter);
  let recordable = inc !== undefined && next < turns.length;
  if (inc && (namedBefore.size > 0 || namedAfter.size > 0)) {
    const at = turnIndex(turns, from);
    for (const id of namedBefore) {
      const i = at(id);
      if (i < 0 && resumed) return undefined;
      if (i < 0 || i >= next) recordable = false;
    }
    for (const id of namedAfter) {
      const i = at(id);
      if (i < 0 && resumed) return undefined;
      if (i < next) recordable = false;
    }
  }

  const built = buildMessages(start.transcript, resolved, info, blocked, report, options.cache, inc, kept?.servers);
  if (!built) return undefined;
  const { prepared, maxTokens, systemText, parts } = built;
  if (parts.length < 2) recordable = false;

  report.stage = STAGE.after;
  let thinking: AnthropicThinkingConfig | undefined = resolved.thinking
    ? thinkingConfig(info, maxTokens, report)
    : undefined;
  // The end-of-history rules read and change only the last messages: those of the last part,
  // which always opens with a user message.
  let tail = parts[parts.length - 1]!;
  if (thinking && !toolLoopStartsWithThinking(tail)) {
    // A-K2: the final assistant message of a tool loop in progress must start with replayable thinking.
    report.warn(
      'thinking off for this request: a tool loop is in progress and its last assistant message does not start with a thinking block from this model (A-K2)',
    );
    thinking = undefined;
  }
  // `thinkingAlwaysOn` is an optional registry field (read loosely so this compiles before it lands).
  if (!resolved.thinking && (info as { thinkingAlwaysOn?: boolean }).thinkingAlwaysOn === true)
    report.warn(`${info.id} always thinks: thinking cannot be switched off for it`);
  const beforeTail = tail;
  if (!thinking) tail = stripFinalThinking(tail, report); // A-K4
  tail = trimFinalAssistant(tail, report); // A-R4
  tail = noPrefill(tail, info, report); // A-V4
  if (tail !== beforeTail) tail = compactMessages(tail);
  parts[parts.length - 1] = tail;
  // A-C1: the document count is the whole request's; a prefix whose citations name documents by
  // index holds only for the count it was made with.
  let documents = kept ? kept.documents : 0;
  const counts = parts.map(countDocuments);
  for (const n of counts) documents += n;
  if (kept?.cites && kept.total !== documents) return undefined;
  const cites = recordable && ((kept?.cites ?? false) || citesDocuments(parts[0]!));
  const bodyParts = parts.map((part) => {
    let messages = dropDanglingCitations(part, report, documents); // A-C1
    messages = assistantDocuments(messages, report); // A-V2
    return userCitations(messages, report); // A-V3
  });

  const betas = new Set<string>(kept?.betas);
  // A-P2: a replayed compaction block needs the beta of the feature that produced it.
  const p = prepared.incremental;
  const cut = recordable ? p!.boundary : -1;
  let betasBefore: string[] | undefined;
  for (let i = p?.resumed ? p.from : 0; i < prepared.turns.length; i++) {
    if (i === cut) betasBefore = [...betas];
    // Indexed: this function runs once per conversion, unoptimised, where `for…of` allocates per turn.
    const blocks = prepared.turns[i]!.blocks;
    for (let k = 0; k < blocks.length; k++) {
      const pb = blocks[k]!;
      if (
        pb.sameOrigin &&
        pb.block.type === 'provider_item' &&
        isObject(pb.block.item) &&
        pb.block.item.type === 'compaction' &&
        !(pb.ref && blocked.has(refKey(pb.ref)))
      )
        betas.add(compactionBeta(pb.block));
    }
  }
  // A-B3: with the person's leave (default), replayed thinking that fails the conversation check is
  // dropped by the API (and reported in input_transformations) instead of refusing the request.
  const replayed = (kept?.thinking ?? false) || bodyParts.some(replaysThinking);
  if (thinking && resolved.prefixMismatchBehavior !== 'error' && replayed) {
    thinking = { ...thinking, block_binding: { prefix_mismatch_behavior: 'drop_block' } };
    betas.add(THINKING_BINDING_BETA);
  }

  const placed = bodyParts.map((part) => placeSystemMessages(part, info, systemText, report)); // A-M1
  const body: AnthropicMessagesBody = {
    model: resolved.model,
    max_tokens: maxTokens,
    stream: true,
    // A-R1: the conversation's instructions go in the top-level `system` field, never in `messages`.
    ...(prepared.system !== undefined ? { system: prepared.system } : {}),
    messages: (kept ? kept.messages : []).concat(...placed),
  };
  const tools = uniqueTools(prepared.tools, report); // each name once
  if (tools.length > 0) body.tools = tools.map((t) => encodeTool(t, report));
  if (prepared.toolChoiceNone) body.tool_choice = toolChoiceFor({ type: 'none' }, info, report); // X8, A-T6, A-V5
  if (thinking) body.thinking = thinking;
  // A-S2, in the order tools → system → messages. Resumed, the count goes on from the snapshot's:
  // tools (encodeTool writes no cache_control) and the system prompt (a string) hold no breakpoint.
  const breakpoints: BreakpointCount = kept ? { ...kept.breakpoints } : { count: 0, seen5m: false, removed: 0 };
  if (!kept && body.tools) orderBreakpoints(body.tools, breakpoints);
  let breakpointsBefore: BreakpointCount | undefined;
  placed.forEach((part, i) => {
    for (const m of part) if (Array.isArray(m.content)) orderBreakpoints(m.content, breakpoints);
    if (i === 0) breakpointsBefore = { ...breakpoints };
  });
  warnBreakpoints(breakpoints, report);
  if (report.tainted) return undefined;
  if (recordable && built.ranges)
    commitSnapshot(
      prepared,
      {
        sourceKind,
        blocked: withoutTurnsFrom(before, turns, next),
        messages: (kept ? kept.messages : []).concat(placed[0]!),
        servers: built.serversBefore!,
        documents: (kept ? kept.documents : 0) + counts[0]!,
        cites,
        total: documents,
        thinking: (kept?.thinking ?? false) || replaysThinking(bodyParts[0]!),
        betas: betasBefore!,
        breakpoints: breakpointsBefore!,
      } satisfies AnthropicPrefix,
      built.ranges,
    );
  const result: Omit<ConvertResult<AnthropicMessagesBody>, 'report'> = {
    api: ANTHROPIC_API,
    model: resolved.model,
    body,
  };
  // A-B3, A-P2: the non-secret headers this request needs; a beta feature means the beta endpoint.
  if (betas.size > 0) result.headers = { 'anthropic-beta': [...betas].sort().join(',') };
  return withLazyReport(result, report);
}

/** The index of a turn by id among `turns[from..]`, or -1 (a map made on first use). */
function turnIndex(turns: readonly Turn[], from: number): (id: string) => number {
  let byId: Map<string, number> | undefined;
  return (id) => {
    if (!byId) {
      byId = new Map();
      for (let i = from; i < turns.length; i++) byId.set(turns[i]!.id, i);
    }
    return byId.get(id) ?? -1;
  };
}

/** `blocked` without the entries of turns `turns[from..]` (a snapshot keeps only those of the turns before its boundary). */
function withoutTurnsFrom(blocked: BlockedBlocks, turns: readonly Turn[], from: number): BlockedBlocks {
  if (blocked.size === 0) return blocked;
  const out = new Map(blocked);
  for (let i = from; i < turns.length; i++) {
    const turn = turns[i]!;
    for (let index = 0; index < turn.blocks.length; index++) out.delete(refKey({ turn: turn.id, index }));
  }
  return out;
}

/** What {@link buildMessages} gives: the message list before the tail rules, and what the body needs. */
interface Built {
  prepared: PreparedTranscript;
  maxTokens: number;
  /**
   * The messages after the per-message passes, in parts: with a snapshot to record, those before
   * its boundary and those from it (the second opens with a user message that nothing before it
   * merges with or reaches into); else one part. Resumed, only the messages after the snapshot's.
   */
  parts: DraftMessage[][];
  /** A-M1: the system text of a draft block that stands for a system message read from a history. */
  systemText: (d: DraftBlock) => string | undefined;
  /** With two parts: the report ranges of the per-turn stages before the boundary, and A-T1's ids there. */
  ranges?: StageRange[];
  serversBefore?: ServerToolIds;
}

/**
 * The message list of a request, up to the rules that depend on thinking and on the end of the
 * history: the shared pre-pass with Anthropic's capabilities, each prepared turn encoded (same-origin
 * `native` content verbatim unless a block of it is in `blocked`), the server-tool and A-K3 rules.
 * Deterministic (X9): the same transcript and target give the same messages, block for block.
 *
 * With `inc` (docs/architecture.md#incremental-conversion), resumed from its snapshot, only the
 * turns after the snapshot's boundary are encoded, A-T1's ids going on from `servers`; undefined
 * when the splice cannot be proved exact. Every pass reads and changes one message at a time,
 * except merges of neighbours (X4, A-R2), the move of a server tool's result into the assistant
 * message before it (A-T2) and A-T1's ids: so a boundary holds when the message before it is an
 * assistant message without server tool blocks and the message at it a user message that starts
 * with no tool result and holds no server tool result.
 */
function buildMessages(
  transcript: Transcript,
  resolved: ResolvedTarget,
  info: ModelInfo,
  blocked: BlockedBlocks,
  report: ReportBuilder,
  cache: ConversionCache | undefined,
  inc: Incremental | undefined,
  servers?: ServerToolIds,
): Built | undefined {
  const caps: PrepareCapabilities = {
    ...anthropicCapabilities(info, resolved),
    // A-P1: no synthetic user turn in front of a compaction block.
    opensHistory: (turn) =>
      turn.role === 'assistant' &&
      opensWithCompaction(
        turn.blocks,
        blocked,
        turn.blocks.map((b) => b.ref),
      ),
  };
  const prepared = prepareTranscript(transcript, resolved, caps, report, cache, inc);
  const p = prepared.incremental;
  if (p && !p.ok) return undefined;
  const maxTokens = resolveMaxTokens(resolved, info, report);
  const systemBlocks = new Set<DraftBlock>();
  const turns = prepared.turns;
  const first = p?.resumed ? p.from : 0;
  const cut = p && p.boundary >= first ? p.boundary : turns.length;
  report.stage = STAGE.encode;
  const encodeRange = rangeStart(report);
  const drafts: DraftMessage[] = new Array<DraftMessage>(turns.length - first);
  for (let i = first; i < turns.length; i++) {
    if (i === cut) rangeEnd(encodeRange, report);
    drafts[i - first] = encodeTurn(turns[i]!, report, blocked, systemBlocks);
  }
  let parts = [compactMessages(drafts.slice(0, cut - first))];
  if (cut < turns.length) {
    const after = compactMessages(drafts.slice(cut - first));
    if (after.length === 0) {
      // nothing from the boundary on: one part
    } else if (parts[0]!.length === 0) parts = [after];
    else if (holds(parts[0], after)) parts.push(after);
    else parts = [compactMessages(parts[0]!.concat(after))];
  }
  // Resumed: the first message must not merge with or reach into the snapshot's last (an assistant
  // message, checked when it was taken), and the end-of-history rules must find theirs after it.
  if (p?.resumed && !(parts[0]!.length > 0 && holds(undefined, parts[0]!))) return undefined;
  // Each step returns its input when it changes nothing; compacting again is needed only after a change.
  report.stage = STAGE.encode + 1;
  parts = parts.map((part) => {
    const moved = moveServerToolResults(part, report); // A-R1, A-T2
    return moved !== part ? compactMessages(moved) : part;
  });
  const seen: ServerToolIds = servers
    ? { calls: new Set(servers.calls), results: new Set(servers.results) }
    : { calls: new Set(), results: new Set() };
  const passRange = rangeStart(report);
  let serversBefore: ServerToolIds | undefined;
  parts = parts.map((part, i) => {
    if (i === 1) {
      rangeEnd(passRange, report);
      serversBefore = { calls: new Set(seen.calls), results: new Set(seen.results) };
    }
    const answered = dropUnansweredServerTools(part, report, seen); // A-S1
    return answered !== part ? compactMessages(answered) : part;
  });
  parts = parts.map((part) => enforceThinkingFirst(part, report)); // A-K3
  const systemText = (d: DraftBlock): string | undefined => {
    if (!systemBlocks.has(d)) return undefined;
    return (d.source as { meta?: Meta } | undefined)?.meta?.systemMessage as string | undefined;
  };
  const out: Built = { prepared, maxTokens, parts, systemText };
  if (parts.length === 2 && cut < turns.length) {
    out.ranges = [encodeRange, passRange];
    out.serversBefore = serversBefore;
  }
  return out;
}

/**
 * True when the messages `after` can be converted apart from those `before` them: `before` ends on
 * an assistant message with a block other than a server tool's, which no pass can empty (left
 * undefined: a snapshot's, checked when it was taken), and `after` opens with a user message that holds no server tool result and does not
 * start with a tool result (A-K2 and A-S1 then never look back past it).
 */
function holds(before: readonly DraftMessage[] | undefined, after: readonly DraftMessage[]): boolean {
  const last = before?.[before.length - 1];
  // Not only server tool blocks: A-S1 may drop those, and the message must stay.
  if (before && (!last || last.role !== 'assistant' || last.blocks.every(isServerBlock))) return false;
  const head = after[0];
  return (
    head === undefined ||
    (head.role === 'user' &&
      head.blocks.length > 0 &&
      head.blocks[0]!.block.type !== 'tool_result' &&
      !head.blocks.some(isServerResult))
  );
}

/** `max_tokens` in tokens: the caller's limit, else the registry default; never above a known model's maximum. */
function resolveMaxTokens(target: ResolvedTarget, info: ModelInfo, report: ReportBuilder): number {
  const asked = target.maxOutputTokens;
  if (asked !== undefined && !(Number.isSafeInteger(asked) && asked > 0))
    throw new TranscriptError('target.maxOutputTokens', `expected a positive integer (tokens), got ${String(asked)}`);
  const tokens = asked ?? info.defaultOutputTokens;
  if (info.known && tokens > info.maxOutputTokens) {
    report.warn(`max_tokens lowered from ${tokens} to ${info.maxOutputTokens}, the most ${info.id} accepts`);
    return info.maxOutputTokens;
  }
  return tokens;
}

/**
 * One prepared turn → one draft message: `assistant` stays, `user` and `tool` are `user` (A-R1,
 * A-T2). Blocks in `blocked` are left out, reported (A-B4, A-B5, A-P1), and the turn is then
 * rebuilt from its blocks instead of replaying its `native` content. Draft blocks that stand for a
 * system message read from a history (`meta.systemMessage`, A-M1) are added to `systemBlocks`.
 */
function encodeTurn(
  turn: PreparedTurn,
  report: ReportBuilder,
  blocked: BlockedBlocks,
  systemBlocks: Set<DraftBlock>,
): DraftMessage {
  const role = turn.role === 'assistant' ? 'assistant' : 'user';
  const anySkipped = blocked.size > 0 && turn.blocks.some((pb) => skipped(pb, blocked));
  const native = turn.native && !anySkipped ? replayNative(turn, report) : undefined;
  if (native) return { role, blocks: native };
  const input = turn.blocks;
  // Exact size, trimmed at the end (a pushed-to `[]` reserves 17 slots), indexed loops and one
  // draft-block shape: this runs for every block of every cold conversion.
  const blocks = new Array<DraftBlock>(input.length);
  let n = 0;
  const ctx: EncodeContext = { report, role };
  for (let i = 0; i < input.length; i++) {
    const pb = input[i]!;
    if (anySkipped && skipped(pb, blocked)) {
      report.add(pb.ref, 'dropped', blocked.get(refKey(pb.ref!))!);
      continue;
    }
    const system = role === 'user' && pb.block.type === 'text' && typeof pb.block.meta?.systemMessage === 'string';
    const encoded = encodeBlock(pb, ctx);
    if (encoded === undefined) continue;
    const d: DraftBlock = { block: encoded, ref: pb.ref };
    if (system) {
      d.source = pb.block;
      systemBlocks.add(d);
    }
    blocks[n++] = d;
  }
  blocks.length = n;
  return { role, blocks };
}

/** True when `pb` is an input block that A-B4, A-B5 or A-P1 left out. */
function skipped(pb: PreparedBlock, blocked: BlockedBlocks): boolean {
  return pb.ref !== undefined && blocked.has(refKey(pb.ref));
}

/**
 * A tool definition → `{name, description?, input_schema}` (SDK `Tool`). The API requires
 * `input_schema.type` to be `"object"`: a schema without a type gets it, any other schema is
 * replaced by an empty object schema; both are warned about.
 */
export function encodeTool(def: ToolDefinition, report: ReportBuilder): Tool {
  const schema = def.inputSchema;
  let input_schema: Tool.InputSchema;
  if (schema.type === 'object') input_schema = schema as Tool.InputSchema;
  else if (schema.type === undefined) {
    input_schema = { type: 'object', ...schema };
    report.warn(`tool ${def.name}: input_schema has no type; sent with type "object"`);
  } else {
    input_schema = { type: 'object', properties: {} };
    report.warn(
      `tool ${def.name}: input_schema type ${JSON.stringify(schema.type)} is not "object"; sent as an empty object schema`,
    );
  }
  return { name: def.name, ...(def.description !== undefined ? { description: def.description } : {}), input_schema };
}
