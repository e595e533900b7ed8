/**
 * The shared pre-pass every converter runs first (DESIGN.md, "One module per wire API";
 * provider-rules.md §0, X1–X8). It turns a valid transcript into a neutral, repaired turn list
 * that any target can encode without breaking a cross-provider rule:
 *
 * - opaque state that is not the target's own is removed or converted (X3), per block;
 * - empty blocks and empty turns are removed and their neighbours merged (X4);
 * - lone surrogates are repaired (X6);
 * - every tool call is followed by exactly one result (X1): a call without one gets a synthetic
 *   error result, a result without a call becomes labelled user text;
 * - tool-call ids are mapped per request, deterministically and reversibly, on calls and results
 *   alike (X2); tool names are mapped to the portable form (X5);
 * - tool-result images move to a following user turn where the target can't hold them (X7);
 * - stub tool definitions cover tools the history uses but the request does not define (X8);
 * - the history starts on a user turn and does not end on an assistant turn.
 *
 * Everything it changes is recorded in the report; it never throws for a valid transcript.
 */
import { IdMap, NameMap, type IdPolicy } from './ids';
import { prepareBlock, type BlockContext, type MediaCapabilities, type PreparedBlock } from './prepare-blocks';
import { ReportBuilder, type BlockRef, type Fate } from './report';
import {
  cachedParts,
  contextKey,
  originId,
  requestId,
  storeParts,
  type ConversionCache,
  keepSnapshot,
  type Incremental,
  type PrefixSnapshot,
  type PreparedTurnParts,
} from './prepare-cache';
import type { Block, Native, Origin, ToolDefinition, ToolResultBlock, Transcript, Turn } from './schema';
import { isImportedState, nativeHasApproval } from './imported-state';
import { isSameOrigin, type ResolvedTarget } from './target';
import { repairSurrogatesDeep } from './text';

export type { MediaCapabilities, PreparedBlock } from './prepare-blocks';

/** What the converter tells the pre-pass about its target. */
export interface PrepareCapabilities extends MediaCapabilities {
  /** Tool-call id rules of the target (X2, §8). */
  idPolicy: IdPolicy;
  /** The target carries images inside tool results (X7: Anthropic, Responses, Gemini 3). */
  toolResultImages: boolean;
  /**
   * True when the history may open on this assistant turn without a synthetic user turn in front
   * (A-P1: an Anthropic `compaction` block must be the first block of the conversation).
   */
  opensHistory?: (turn: PreparedTurn) => boolean;
}

/** One message-to-be: consecutive same-role input turns merged, repaired and mapped. */
export interface PreparedTurn {
  role: 'user' | 'assistant' | 'tool';
  blocks: PreparedBlock[];
  /** The input turns merged into this one (empty for a synthesised turn). */
  sources: Turn[];
  /**
   * The provider's own content for lossless replay (transcript-v1.md `native`): set only when this
   * turn is exactly one same-origin input turn of the target's API whose blocks all went through
   * unchanged.
   */
  native?: Native;
}

/** The pre-pass result a converter encodes. */
export interface PreparedTranscript {
  target: ResolvedTarget;
  /** The system prompt (X6-repaired); undefined when absent or blank. */
  system?: string;
  /** Tool definitions with mapped names: the transcript's own, then stubs (X8). */
  tools: ToolDefinition[];
  /** True when the history uses tools but none were offered: tell the model not to call the stubs (X8). */
  toolChoiceNone: boolean;
  turns: PreparedTurn[];
  ids: IdMap;
  names: NameMap;
  report: ReportBuilder;
  /** With snapshots (docs/architecture.md#incremental-conversion): where the tail starts and the next boundary. */
  incremental?: PreparedIncremental;
}

/** Report entry ranges `[start, end)` of one per-turn stage that belong to the turns before a boundary. */
export interface StageRange {
  synthesized: [number, number];
  warnings: [number, number];
}

/** What a converter needs to splice onto a snapshot and to record the next one. */
export interface PreparedIncremental {
  inc: Incremental;
  /** The snapshot resumed from (its `prepared` are `turns[first..from)`), or undefined (cold). */
  resumed: PrefixSnapshot | undefined;
  /** Index in `turns` of the first prepared turn converted this time (0 when cold). */
  from: number;
  /** Index in `turns` of the prepared turn that starts at input turn `inc.next`, or -1: no snapshot this time. */
  boundary: number;
  /** Index in `turns` of the first non-synthetic turn (1 after a synthetic first user turn). */
  first: number;
  /** The pre-pass's part of the next snapshot (taken when its passes reached the boundary). */
  lastImported: boolean;
  ids: IdMap | undefined;
  names: NameMap | undefined;
  callNames: string[];
  ranges: StageRange[];
  /** False when the splice cannot be proved exact: the converter must convert cold instead. */
  ok: boolean;
}

/** Report stages of the pre-pass ({@link ReportBuilder.stage}); converters number theirs from 10. */
export const STAGE = { blocks: 1, pairing: 2, ends: 3, stubs: 4, encode: 10, after: 20 } as const;

/** The report counts now, as the start of a stage range. */
export function rangeStart(report: ReportBuilder): StageRange {
  const c = report.counts();
  return { synthesized: [c.synthesized, c.synthesized], warnings: [c.warnings, c.warnings] };
}

/** Ends `range` at the report counts now. */
export function rangeEnd(range: StageRange, report: ReportBuilder): StageRange {
  const c = report.counts();
  range.synthesized[1] = c.synthesized;
  range.warnings[1] = c.warnings;
  return range;
}

/**
 * Records the next snapshot (a converter calls it once its per-turn passes have reached the
 * boundary and `encoded` holds their state there, `ranges` their report entries up to it).
 */
export function commitSnapshot(prepared: PreparedTranscript, encoded: unknown, ranges: StageRange[]): void {
  const p = prepared.incremental;
  if (!p || !p.ok || p.boundary < 0 || !p.ids || !p.names || prepared.report.tainted) return;
  const { inc } = p;
  const t = inc.transcript;
  const from = p.resumed ? p.resumed.k : 0;
  keepSnapshot(inc, {
    turns: t.turns.slice(0, inc.next + 1),
    k: inc.next,
    system: t.system,
    tools: t.tools,
    meta: t.meta,
    prepared: prepared.turns.slice(p.first, p.boundary),
    lastImported: p.lastImported,
    ids: p.ids,
    names: p.names,
    callNames: p.callNames,
    report: prepared.report.baseUpTo(from, inc.next, [...p.ranges, ...ranges]),
    encoded,
  });
}

/** Text of the synthetic results, user turns and labels (transcript-v1.md, "Repairs are fixed"). */
export const SYNTHETIC = {
  errorResult: 'no result: the call was interrupted',
  firstUserTurn: '(The conversation so far, which begins with a reply from the assistant.)',
  lastUserTurn: 'Continue.',
  stubDescription: 'This tool was used earlier in the conversation and is not available now. Do not call it.',
} as const;

/**
 * Runs the pre-pass for one request.
 * @param transcript a decoded, valid transcript (never mutated).
 * @param target the resolved target (see `resolveTarget`).
 * @param caps what the target accepts.
 * @param report the report to record into (a new one by default).
 * @param cache per-turn results of the block step to reuse and fill (prepare-cache.ts); the result
 *   is the same with or without it.
 */
export function prepareTranscript(
  transcript: Transcript,
  target: ResolvedTarget,
  caps: PrepareCapabilities,
  report: ReportBuilder = new ReportBuilder(transcript),
  cache?: ConversionCache,
  inc?: Incremental,
): PreparedTranscript {
  const resumed = inc?.snapshot;
  // docs/architecture.md#incremental-conversion: the maps as they were at the snapshot's boundary.
  const names = resumed ? resumed.names.clone() : new NameMap();
  // The request part of the cache key: what the block step reads of the target and its capabilities.
  const request = cache ? requestId(cache, requestKeyOf(target, caps)) : 0;
  const ids = resumed ? resumed.ids.clone() : new IdMap(caps.idPolicy);
  const next = inc ? inc.next : -1;
  const nextTurn = next >= 0 ? transcript.turns[next] : undefined;
  if (inc) report.keepRepeats = true;
  const ranges: StageRange[] = [];

  // 1. Blocks: X3, X4, X6, A-T9 and media, per input turn. Empty turns vanish (X4).
  report.stage = STAGE.blocks;
  const blocksRange = rangeStart(report);
  let turns: PreparedTurn[] = [];
  let lastAssistant: Turn | undefined;
  let lastImported = resumed ? resumed.lastImported : false;
  let importedAtNext = false;
  // One context, updated per turn and block (prepareBlock keeps no reference to it).
  const ctx: BlockContext = {
    target,
    media: caps,
    report,
    role: 'user',
    sameOrigin: false,
    importedState: false,
    unfinished: false,
    isLastBlock: false,
  };
  const input = transcript.turns;
  for (let t = resumed ? resumed.k : 0; t < input.length; t++) {
    const turn = input[t]!;
    if (t === next) {
      importedAtNext = lastImported;
      ranges.push(rangeEnd(blocksRange, report));
    }
    if (turn.role === 'assistant') lastAssistant = turn;
    else if (turn.role === 'user') lastAssistant = undefined;
    // A tool turn's provider items belong to the assistant turn they answer (its origin decides X3).
    const origin = turn.role === 'tool' ? lastAssistant?.origin : turn.origin;
    // docs/security.md: provider state from an imported Baton file is the origin's only once confirmed.
    const imported: boolean = turn.role === 'tool' ? lastImported : isImportedState(turn);
    if (turn.role === 'assistant') lastImported = imported;
    const claimsOrigin = turn.role !== 'user' && isSameOrigin(origin, target);
    const sameOrigin = claimsOrigin && (!imported || target.importedState === 'replay');
    if (claimsOrigin && imported && !sameOrigin)
      report.warn(
        `provider state from an imported file (turn ${turn.id}) was not sent: it is replayed only after you confirm it in the disclosure preview`,
      );
    ctx.importedState = imported;
    ctx.role = turn.role;
    ctx.sameOrigin = sameOrigin;
    ctx.origin = origin;
    ctx.unfinished = turn.stopReason === 'max_tokens';
    let parts: PreparedTurnParts | undefined;
    if (cache) {
      // Everything the block step reads besides the turn itself (docs/architecture.md#incremental-conversion).
      const key = contextKey(request, originId(cache, origin), sameOrigin, imported);
      parts = cachedParts(cache, turn, key);
      if (parts) {
        const f = parts.fates;
        for (let i = 0; i < f.length; i += 3) report.add(f[i] as BlockRef, f[i + 1] as Fate, f[i + 2] as string);
      } else {
        const fates: PreparedTurnParts['fates'] = [];
        ctx.report = {
          add(ref, fate, detail) {
            if (ref) fates.push(ref, fate, detail);
            report.add(ref, fate, detail);
          },
        };
        parts = prepareTurnBlocks(turn, ctx, sameOrigin, origin, fates);
        ctx.report = report;
        storeParts(cache, turn, key, parts);
      }
    } else parts = prepareTurnBlocks(turn, ctx, sameOrigin, origin, NO_FATES);
    const { before, blocks, moved } = parts;
    if (before) turns.push(preparedTurn('user', before, [turn]));
    if (blocks.length > 0) {
      const native =
        turn.role === 'assistant' && !(imported && nativeHasApproval(turn.native?.payload))
          ? nativeOf(turn, sameOrigin, target, report)
          : undefined;
      turns.push(preparedTurn(turn.role, blocks, [turn], native));
    }
    if (moved) turns.push(preparedTurn('user', moved, [turn]));
  }
  turns = mergeSameRole(turns);

  // 2. Pairing (X1), id map (X2), name map (X5), tool-result images (X7).
  report.stage = STAGE.pairing;
  const pairing: PairingContext = {
    ids,
    names,
    report,
    toolResultImages: caps.toolResultImages,
    at: nextTurn,
    range: rangeStart(report),
    idsAt: undefined,
    namesAt: undefined,
    atTurn: undefined,
  };
  turns = pairToolCalls(turns, pairing);
  if (pairing.idsAt) ranges.push(pairing.range);
  turns = mergeSameRole(turns);
  // `native` replays verbatim only if nothing above touched the turn's blocks (ids and names included).
  // Indexed: this function runs once per conversion, often unoptimised, where `for…of` allocates.
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i]!;
    if (turn.native && !untouched(turn.sources[0]!, report)) turn.native = undefined;
  }

  // Splice onto the snapshot: the proof that nothing crossed the boundary is that the tail opens
  // with the boundary turn's own user turn, right after a turn of another role (checked here).
  let ok = true;
  let from = 0;
  if (resumed) {
    const head = turns[0];
    const last = resumed.prepared[resumed.prepared.length - 1] as PreparedTurn | undefined;
    ok = head !== undefined && head.role === 'user' && head.sources[0] === input[resumed.k] && last?.role !== 'user';
    from = resumed.prepared.length;
    turns = (resumed.prepared as PreparedTurn[]).concat(turns);
  }

  // 3. Start on a user turn, never end on an assistant turn (A-R3, G-R5, G-R6, M-3).
  report.stage = STAGE.ends;
  let first = 0;
  if (turns[0]?.role !== 'user' && !(turns[0] && caps.opensHistory?.(turns[0]))) {
    turns.unshift(synthUser(SYNTHETIC.firstUserTurn));
    report.synthesize('user-turn', 'the history starts on an assistant turn: a short user turn opens it (A-R3, G-R5)');
    first = 1;
    from++;
  }
  if (turns[turns.length - 1]?.role === 'assistant') {
    turns.push(synthUser(SYNTHETIC.lastUserTurn));
    report.synthesize(
      'user-turn',
      'the history ends on an assistant turn: a user turn asks the model to continue (A-R4, G-R6, M-3)',
    );
  }
  // The next boundary: the prepared turn that input turn `next` opens, after a turn of another role,
  // and the same object pairing saw (no merge with a turn made before it, e.g. X7's moved images).
  let boundary = -1;
  if (nextTurn && pairing.atTurn)
    for (let i = turns.length - 1; i > first && i >= from; i--)
      if (turns[i]!.sources[0] === nextTurn) {
        if (turns[i] === pairing.atTurn && turns[i - 1]!.role !== 'user') boundary = i;
        break;
      }

  // 4. Tools: the transcript's own, then stubs for names the history uses (X8).
  report.stage = STAGE.stubs;
  const tools: ToolDefinition[] = (transcript.tools ?? []).map((t) => {
    const repaired = repairSurrogatesDeep(t);
    return { ...repaired, name: names.map(t.name) };
  });
  const defined = new Set(tools.map((t) => t.name));
  let stubs = 0;
  const stub = (name: string): void => {
    if (defined.has(name)) return;
    defined.add(name);
    tools.push({
      name,
      description: SYNTHETIC.stubDescription,
      inputSchema: { type: 'object', properties: {} },
    });
    report.synthesize('stub-tool', `${name}: used in the history but not defined by the request (X8, A-T6)`);
    stubs++;
  };
  // Distinct call names before the next boundary, in first-use order (kept for the next snapshot).
  const callNames: string[] = resumed ? resumed.callNames.slice() : [];
  const seenNames = inc ? new Set(callNames) : undefined;
  for (const name of callNames) stub(name);
  for (let i = from; i < turns.length; i++) {
    const turn = turns[i]!;
    for (let k = 0; k < turn.blocks.length; k++) {
      const block = turn.blocks[k]!.block;
      if (block.type !== 'tool_call') continue;
      stub(block.name);
      if (seenNames && i < boundary && !seenNames.has(block.name)) {
        seenNames.add(block.name);
        callNames.push(block.name);
      }
    }
  }

  const system =
    transcript.system !== undefined && transcript.system.trim() !== ''
      ? repairSurrogatesDeep(transcript.system)
      : undefined;
  const out: PreparedTranscript = {
    target,
    ...(system !== undefined ? { system } : {}),
    tools,
    toolChoiceNone: stubs > 0 && (transcript.tools?.length ?? 0) === 0,
    turns,
    ids,
    names,
    report,
  };
  if (inc)
    out.incremental = {
      inc,
      resumed,
      from: resumed ? from : 0,
      boundary,
      first,
      lastImported: importedAtNext,
      ids: pairing.idsAt,
      names: pairing.namesAt,
      callNames,
      ranges,
      ok,
    };
  return out;
}

const NO_FATES: PreparedTurnParts['fates'] = [];
/** The blocks of a missing tool turn (read only). */
const NO_BLOCKS: readonly PreparedBlock[] = [];

/**
 * The block step for one input turn (`ctx` set for it): each block prepared (X3, X4, X6, A-T9,
 * media) and sorted into the turn's own blocks, user text in front of it (A-P2) or after it.
 * `fates` is where a recording report puts what it saw (kept with the parts for a cache).
 */
function prepareTurnBlocks(
  turn: Turn,
  ctx: BlockContext,
  sameOrigin: boolean,
  origin: Origin | undefined,
  fates: PreparedTurnParts['fates'],
): PreparedTurnParts {
  const input = turn.blocks;
  // Exact size, trimmed at the end: a pushed-to `[]` reserves 17 slots, for every turn of a cold conversion.
  const blocks = new Array<PreparedBlock>(input.length);
  let kept = 0;
  let moved: PreparedBlock[] | undefined;
  let before: PreparedBlock[] | undefined;
  for (let index = 0; index < input.length; index++) {
    const ref = { turn: turn.id, index };
    ctx.isLastBlock = index === input.length - 1;
    const b = prepareBlock(input[index]!, ref, ctx);
    if (b === undefined) continue;
    const pb = preparedBlock(b, ref, sameOrigin, origin);
    // A provider item flattened to text inside a tool turn must travel as user text.
    if (turn.role === 'tool' && b.type === 'text') (moved ??= []).push(pb);
    // A-P2: a compaction summary for another origin is user text, in front of the rest of its turn.
    else if (turn.role === 'assistant' && b.type === 'text' && b.meta?.userText === true && b !== input[index])
      (before ??= []).push(pb);
    else blocks[kept++] = pb;
  }
  blocks.length = kept;
  return { before, blocks, moved, fates };
}

/** The target and media capabilities as a string (functions and the id policy are not read by the block step). */
function requestKeyOf(target: ResolvedTarget, caps: PrepareCapabilities): string {
  return JSON.stringify([
    target,
    caps.vision,
    caps.imageMediaTypes,
    caps.imageUrls,
    caps.assistantImages,
    caps.documentMediaTypes,
    caps.documentUrls,
  ]);
}

function nativeOf(turn: Turn, sameOrigin: boolean, target: ResolvedTarget, report: ReportBuilder): Native | undefined {
  if (!sameOrigin || !turn.native || turn.native.api !== target.api) return undefined;
  if (turn.status !== undefined && turn.status !== 'complete') return undefined;
  return untouched(turn, report) ? repairSurrogatesDeep(turn.native) : undefined;
}

/** True when the pre-pass recorded no fate for any block of `turn`. */
function untouched(turn: Turn, report: ReportBuilder): boolean {
  return turn.blocks.every((_, index) => !report.hasFates({ turn: turn.id, index }));
}

/**
 * A prepared block, always of one shape (absent fields are `undefined`), so the converters' hot
 * loops read `block`, `ref` and `sameOrigin` from a single hidden class (docs/architecture.md#long-conversations-and-speed).
 */
function preparedBlock(
  block: Block,
  ref: BlockRef | undefined,
  sameOrigin: boolean,
  origin?: Origin,
  toolName?: string,
): PreparedBlock {
  return { block, ref, sameOrigin, origin, toolName };
}

/** A prepared turn, always of one shape (`native` undefined when absent). */
function preparedTurn(
  role: PreparedTurn['role'],
  blocks: PreparedBlock[],
  sources: Turn[],
  native?: Native,
): PreparedTurn {
  return { role, blocks, sources, native };
}

function synthUser(text: string): PreparedTurn {
  return preparedTurn('user', [preparedBlock({ type: 'text', text }, undefined, false)], []);
}

/**
 * X4, A-R2, G-R6: consecutive turns of the same role become one; a merged turn loses `native`.
 * Returns `turns` itself when no neighbours share a role (the caller owns the list either way).
 */
export function mergeSameRole(turns: PreparedTurn[]): PreparedTurn[] {
  // Usually nothing to merge: the list itself, without a copy (this runs twice per conversion).
  let merges = false;
  for (let i = 1; i < turns.length && !merges; i++) merges = turns[i]!.role === turns[i - 1]!.role;
  if (!merges) return turns;
  const out: PreparedTurn[] = [];
  // True when the last output turn is a merge made here, whose arrays this function owns.
  let owned = false;
  for (const t of turns) {
    const last = out[out.length - 1];
    if (last && last.role === t.role) {
      if (owned) {
        for (const b of t.blocks) last.blocks.push(b);
        for (const s of t.sources) last.sources.push(s);
      } else {
        out[out.length - 1] = preparedTurn(last.role, last.blocks.concat(t.blocks), last.sources.concat(t.sources));
        owned = true;
      }
    } else {
      out.push(t);
      owned = false;
    }
  }
  return out;
}

interface PairingContext {
  ids: IdMap;
  names: NameMap;
  report: ReportBuilder;
  toolResultImages: boolean;
  /** The input turn of the next boundary: the maps are copied when pairing reaches the turn it opens. */
  at: Turn | undefined;
  range: StageRange;
  idsAt: IdMap | undefined;
  namesAt: NameMap | undefined;
  /** The prepared turn of `at` (the boundary holds only if it comes out of the pre-pass unmerged). */
  atTurn: PreparedTurn | undefined;
}

/**
 * X1: each assistant turn's calls are answered, in call order, by the tool turn right after it.
 * Results are matched by the original id; the id map (X2) is applied to the pair.
 */
function pairToolCalls(turns: PreparedTurn[], ctx: PairingContext): PreparedTurn[] {
  const { ids, names, report } = ctx;
  const out: PreparedTurn[] = [];
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i]!;
    if (ctx.at !== undefined && turn.sources[0] === ctx.at && turn.role === 'user' && !ctx.idsAt) {
      ctx.idsAt = ids.clone();
      ctx.namesAt = names.clone();
      ctx.atTurn = turn;
      rangeEnd(ctx.range, report);
    }
    if (turn.role === 'tool') {
      // Not right after an assistant turn with calls: every result is an orphan.
      out.push(...orphanResults(turn.blocks, turn.sources, report));
      continue;
    }
    if (turn.role !== 'assistant') {
      out.push(turn);
      continue;
    }
    // Counted without a closure, and the arrays below made at their size or only when needed (a
    // pushed-to `[]` reserves 17 slots): this runs for every assistant turn of a cold conversion.
    let calls = 0;
    for (let k = 0; k < turn.blocks.length; k++) if (turn.blocks[k]!.block.type === 'tool_call') calls++;
    if (calls === 0) {
      out.push(turn);
      continue;
    }
    const next = turns[i + 1]?.role === 'tool' ? turns[++i] : undefined;
    const available = next ? next.blocks : NO_BLOCKS;
    // Results matched to a call; what is left over stays in `available` order. Up to 31 results
    // are marked in the bits of a number, more in an array (no array per tool turn in the usual case).
    let takenBits = 0;
    const takenList = available.length > 31 ? new Array<boolean>(available.length).fill(false) : undefined;
    const resultBlocks = new Array<PreparedBlock>(calls);
    let results = 0;
    let imageBlocks: PreparedBlock[] | undefined;
    // A copy of the turn's blocks, made only when a call's id or name changes.
    let assistantBlocks: PreparedBlock[] | undefined;
    for (let k = 0; k < turn.blocks.length; k++) {
      const pb = turn.blocks[k]!;
      if (pb.block.type !== 'tool_call') continue;
      const call = pb.block;
      const mappedId = ids.assign(call.id);
      const mappedName = names.map(call.name);
      if (mappedId !== call.id) report.add(pb.ref, 'id-mapped', `${call.id} → ${mappedId}`);
      if (mappedName !== call.name) report.add(pb.ref, 'name-mapped', `${call.name} → ${mappedName}`);
      let at = -1;
      for (let j = 0; j < available.length; j++) {
        const r = available[j]!.block;
        const isTaken = takenList ? takenList[j] : ((takenBits >>> j) & 1) === 1;
        if (!isTaken && r.type === 'tool_result' && r.callId === call.id) {
          at = j;
          break;
        }
      }
      if (at >= 0) {
        if (takenList) takenList[at] = true;
        else takenBits |= 1 << at;
        const r = available[at]!;
        const result = r.block as ToolResultBlock;
        if (mappedId !== call.id) report.add(r.ref, 'id-mapped', `${call.id} → ${mappedId}`);
        let kept = result;
        if (!ctx.toolResultImages) {
          const split = splitImages(result, r, report);
          kept = split.kept;
          for (const img of split.images) (imageBlocks ??= []).push(img);
        }
        resultBlocks[results++] = preparedBlock(
          kept.callId === mappedId ? kept : { ...kept, callId: mappedId },
          r.ref,
          r.sameOrigin,
          r.origin,
          mappedName,
        );
      } else {
        resultBlocks[results++] = preparedBlock(
          { type: 'tool_result', callId: mappedId, content: SYNTHETIC.errorResult, isError: true },
          undefined,
          false,
          undefined,
          mappedName,
        );
        report.synthesize(
          'error-result',
          `call ${call.id} (${call.name}) in turn ${pb.ref?.turn ?? '?'} had no result (X1)`,
        );
      }
      // The usual case, id and name unchanged, keeps the block itself.
      if (mappedId !== call.id || mappedName !== call.name) {
        assistantBlocks ??= turn.blocks.slice();
        assistantBlocks[k] = preparedBlock(
          { ...call, id: mappedId, name: mappedName },
          pb.ref,
          pb.sameOrigin,
          pb.origin,
          pb.toolName,
        );
      }
    }
    out.push(assistantBlocks ? preparedTurn(turn.role, assistantBlocks, turn.sources, turn.native) : turn);
    // Provider items of the tool turn travel with the results (same-origin only; others were flattened earlier).
    let orphans: PreparedBlock[] | undefined;
    for (let j = 0; j < available.length; j++) {
      if (takenList ? takenList[j] : ((takenBits >>> j) & 1) === 1) continue;
      const r = available[j]!;
      if (r.block.type === 'tool_result') (orphans ??= []).push(r);
      else resultBlocks.push(r);
    }
    out.push(preparedTurn('tool', resultBlocks, next?.sources ?? []));
    if (imageBlocks) out.push(preparedTurn('user', imageBlocks, []));
    if (orphans) for (const t of orphanResults(orphans, next?.sources ?? [], report)) out.push(t);
  }
  return out;
}

/** X7, C-T6, G-I3: images leave the result for a following user turn, announced by a short text. */
function splitImages(
  result: ToolResultBlock,
  from: PreparedBlock,
  report: ReportBuilder,
): { kept: ToolResultBlock; images: PreparedBlock[] } {
  if (typeof result.content === 'string' || !result.content.some((c) => c.type === 'image'))
    return { kept: result, images: [] };
  const images: PreparedBlock[] = [];
  const content: Exclude<ToolResultBlock['content'], string> = [];
  for (const c of result.content) {
    if (c.type === 'image') images.push(preparedBlock(c, from.ref, false));
    else content.push(c);
  }
  const note = `[${images.length} image${images.length > 1 ? 's' : ''} from this result follow${images.length > 1 ? '' : 's'} in the next user message]`;
  content.push({ type: 'text', text: note });
  report.add(
    from.ref,
    'converted',
    `${images.length} image(s) moved from the tool result to a following user message (X7, C-T6, G-I3)`,
  );
  const label = preparedBlock(
    { type: 'text', text: `[Images returned by tool call ${result.callId}]` },
    undefined,
    false,
  );
  report.synthesize('text', `label for images moved out of the result of call ${result.callId} (X7)`);
  return { kept: { ...result, content }, images: [label, ...images] };
}

/** X1, A-T4, C-T4: a result without a call becomes labelled user text (its images, if any, stay images). */
function orphanResults(blocks: PreparedBlock[], sources: Turn[], report: ReportBuilder): PreparedTurn[] {
  const out: PreparedBlock[] = [];
  for (const pb of blocks) {
    const b = pb.block;
    if (b.type !== 'tool_result') {
      out.push(pb);
      continue;
    }
    const label = `[Result of tool call ${b.callId}${b.isError ? ' (error)' : ''}, whose call is not in this conversation]`;
    const parts: Block[] =
      typeof b.content === 'string'
        ? [{ type: 'text', text: `${label}\n${b.content}` }]
        : [{ type: 'text', text: label }, ...b.content.filter((c) => c.type !== 'text' || c.text.trim() !== '')];
    report.add(pb.ref, 'converted', 'tool result without a matching call sent as labelled user text (X1)');
    for (const p of parts) out.push(preparedBlock(p, pb.ref, false));
  }
  return out.length > 0 ? [preparedTurn('user', out, sources)] : [];
}
