/**
 * Baton transcript → OpenAI Responses API request body (`POST /v1/responses`, streaming).
 * Pure and synchronous (DESIGN.md, "One module per wire API"); rules from provider-rules.md §0
 * and §3, cited where enforced.
 *
 * Baton talks to Responses statelessly: `store: false`, and for reasoning models
 * `include: ['reasoning.encrypted_content']`, so reasoning travels back as full items rather than
 * ids (R-K2). The system prompt goes in `instructions`, or, for models that append
 * `instructions` after `input` (GPT-6.2+), as the leading developer message (R-K9). No sampling
 * parameter is ever sent (R-S1), so none can meet a reasoning effort other than `none`.
 */
import { TranscriptError } from '../../transcript/codec';
import { PORTABLE_ID_POLICY } from '../../transcript/ids';
import {
  commitSnapshot,
  prepareTranscript,
  rangeEnd,
  rangeStart,
  STAGE,
  type PrepareCapabilities,
  type PreparedTranscript,
  type PreparedTurn,
  type StageRange,
} from '../../transcript/prepare';
import { convertResuming, type Incremental } from '../../transcript/prepare-cache';
import { ReportBuilder, withLazyReport, type BlockRef } from '../../transcript/report';
import type { Block, Transcript } from '../../transcript/schema';
import { resolveTarget, type ConvertTarget, type ResolvedTarget } from '../../transcript/target';
import { lookupModel } from '../../models/registry';
import type { ModelInfo } from '../../models/types';
import { uniqueTools } from '../convert-unique-tools';
import type { ConvertOptions, ConvertResult } from '../types';
import { encodeAssistantBlocks, providerItemEntry, type AssistantContext } from './convert-openai-responses-assistant';
import { encodeNativeTurn, nativeTurnProblem } from './convert-openai-responses-replay';
import { checkEntries } from './convert-openai-responses-checks';
import {
  functionCallOutput,
  inputFile,
  inputImage,
  inputText,
  userMessage,
  type Entry,
} from './convert-openai-responses-content';
import { RESPONSES_API } from './convert-openai-responses-native';
import type {
  DeveloperMessageItem,
  OpenAIResponsesBody,
  ResponsesFunctionTool,
  ResponsesInputItem,
  ResponsesReasoningParam,
  UserContentPart,
  UserMessageItem,
} from './convert-openai-responses-types';

export type { OpenAIResponsesBody } from './convert-openai-responses-types';

/** R-I1 → C-I1: PNG, JPEG, WEBP and non-animated GIF. */
export const RESPONSES_IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/**
 * What the pre-pass must know about a Responses target: call ids in the portable set
 * `^[a-zA-Z0-9_-]{1,40}$` (X2, Baton's converter contract, which also meets R-T1's 64-character
 * `call_id` limit), images inside tool results (R-2, X7), images as URLs or data URLs but never
 * in assistant messages (R-I1; assistant content is `output_text`/`refusal` only), PDFs as
 * `input_file` when the model reads them.
 */
export function responsesCapabilities(info: ModelInfo): PrepareCapabilities {
  return {
    idPolicy: PORTABLE_ID_POLICY,
    toolResultImages: true,
    vision: info.vision,
    imageMediaTypes: RESPONSES_IMAGE_MEDIA_TYPES,
    imageUrls: true,
    assistantImages: false,
    documentMediaTypes: info.pdf ? ['application/pdf'] : [],
    documentUrls: true,
  };
}

/**
 * Converts a transcript into the body of one streaming Responses request to `target.model`.
 *
 * Body: `{model, input, instructions?, stream: true, store: false, include?, max_output_tokens,
 * tools?, tool_choice?, reasoning?}`; `max_output_tokens` (tokens) is `target.maxOutputTokens`,
 * else the registry's `defaultOutputTokens`. Items: user messages with `input_text`,
 * `input_image`, `input_file`; assistant messages with `output_text`; `function_call` (arguments as
 * a JSON string, item id only when it begins with `fc`, R-T2) and `function_call_output` (failures
 * prefixed `Error:`, R-2); same-origin `reasoning` items with `encrypted_content` right before the
 * item they produced (R-K1–R-K4); same-origin provider items in place. A same-origin turn with
 * `native` output items is replayed verbatim, minus what the API rejects on input.
 *
 * A valid transcript always converts: what Responses cannot take is converted or dropped and
 * reported. `max_output_tokens` is capped, with a warning, at a known model's `maxOutputTokens`.
 * @throws TranscriptError when `target.api` is not `openai-responses` or `target.maxOutputTokens`
 *   is not a positive integer.
 */
export function convertToOpenAIResponses(
  transcript: Transcript,
  target: ConvertTarget,
  options: ConvertOptions = {},
): ConvertResult<OpenAIResponsesBody> {
  if (target.api !== RESPONSES_API)
    throw new TranscriptError('target.api', `expected "${RESPONSES_API}", got "${target.api}"`);
  const resolved = resolveTarget(target);
  const info = lookupModel(resolved.model, resolved.provider);
  // docs/architecture.md#incremental-conversion: splice onto the last conversion's prefix when it is provably the same.
  return convertResuming(options.cache, `${RESPONSES_API}\u0001${JSON.stringify(resolved)}`, transcript, (inc) =>
    convertResponses(transcript, resolved, info, options, inc),
  );
}

/**
 * What a Responses snapshot keeps (docs/architecture.md#incremental-conversion): the final `input`
 * items of the prepared turns before the boundary (the user-message merge's state there, the R-K9
 * developer message first), and the pairing keys of their call and output items (R-T3, X1).
 */
interface ResponsesPrefix {
  input: readonly ResponsesInputItem[];
  keys: ReadonlySet<string>;
}

/** {@link convertToOpenAIResponses} after the target is resolved; undefined when a splice turns out not to be exact. */
function convertResponses(
  transcript: Transcript,
  resolved: ResolvedTarget,
  info: ModelInfo,
  options: ConvertOptions,
  inc: Incremental | undefined,
): ConvertResult<OpenAIResponsesBody> | undefined {
  const resumed = inc?.snapshot;
  const report = new ReportBuilder(transcript, undefined, resumed?.report, resumed?.k);
  const prepared = prepareTranscript(transcript, resolved, responsesCapabilities(info), report, options.cache, inc);
  const p = prepared.incremental;
  if (p && !p.ok) return undefined;
  const kept = p?.resumed?.encoded as ResponsesPrefix | undefined;

  const ctx: AssistantContext = {
    report,
    ids: prepared.ids,
    omitReasoningIds: isAzure(resolved),
  };
  // Each pass runs over the turns before the next boundary (the head), then over the rest, and
  // records the head's report range; resumed, only the turns from the snapshot's boundary on.
  const turns = prepared.turns;
  const start = p?.resumed ? p.from : 0;
  const boundary = p && p.boundary >= 0 ? p.boundary : turns.length;
  report.stage = STAGE.encode;
  const ranges: StageRange[] = [rangeStart(report)];
  const entries: Entry[] = [];
  for (let i = start; i < turns.length; i++) {
    if (i === boundary) rangeEnd(ranges[0]!, report);
    encodeTurn(turns[i]!, i, ctx, entries);
  }
  if (boundary >= turns.length) rangeEnd(ranges[0]!, report);
  const checked = checkEntries(entries, report, boundary, ranges, p !== undefined);
  // R-T3 pairing is the one check that reaches across: a key the kept prefix shares with the new
  // turns could change what either side became, so such a splice converts cold.
  if (kept && (shares(kept.keys, checked.headKeys) || shares(kept.keys, checked.tailKeys))) return undefined;

  // R-K9: GPT-6.2+ appends top-level `instructions` after `input`; the transcript's system prompt
  // is stable text, so it opens `input` as a developer message (cacheable, and a fixed prefix for
  // the reasoning items after it, R-K7). Earlier models keep `instructions`.
  const developerFirst = prepared.system !== undefined && info.instructionsAfterInput === true;
  // Adjacent user messages merge (a left fold): resumed, onto a copy of the kept items.
  const input: ResponsesInputItem[] = kept
    ? kept.input.slice()
    : developerFirst
      ? [developerMessage(prepared.system!)]
      : [];
  mergeUserMessages(input, checked.items, 0, checked.cut);
  const atBoundary = p && p.boundary >= 0 ? input.slice() : undefined;
  mergeUserMessages(input, checked.items, checked.cut, checked.items.length);

  report.stage = STAGE.after;
  const reasoning = reasoningParam(resolved, info, report);
  const body: OpenAIResponsesBody = {
    model: resolved.model,
    input,
    ...(prepared.system !== undefined && !developerFirst ? { instructions: prepared.system } : {}),
    stream: true,
    store: false,
    ...(isReasoningModel(info) ? { include: ['reasoning.encrypted_content'] as ['reasoning.encrypted_content'] } : {}),
    max_output_tokens: outputLimit(resolved, info, report),
    ...toolsOf(prepared),
    ...(reasoning ? { reasoning } : {}),
  };
  if (report.tainted) return undefined;
  // The next snapshot, unless the head and the tail share a pairing key (the head's checks then
  // depended on this tail).
  if (atBoundary && !shares(checked.headKeys, checked.tailKeys)) {
    const keys = new Set(kept?.keys);
    for (const k of checked.headKeys) keys.add(k);
    commitSnapshot(prepared, { input: atBoundary, keys } satisfies ResponsesPrefix, ranges);
  }
  return withLazyReport({ api: RESPONSES_API, model: resolved.model, body }, report);
}

/** True when the two sets share a member (the smaller one is walked). */
function shares(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size > b.size) [a, b] = [b, a];
  for (const k of a) if (b.has(k)) return true;
  return false;
}

/** R-K9: the stable system text as the leading `developer` message (never with `phase`, R-P1). */
function developerMessage(text: string): DeveloperMessageItem {
  return { type: 'message', role: 'developer', content: [inputText(text)] };
}

/**
 * Adjacent user messages become one (as every other target does, A-R2/G-R6): they appear when an
 * assistant turn between them had nothing Responses can carry (e.g. only redacted thinking).
 * Folds `items[from..to)` onto `out` (whose items are replaced, never mutated).
 */
function mergeUserMessages(
  out: ResponsesInputItem[],
  items: readonly ResponsesInputItem[],
  from: number,
  to: number,
): void {
  for (let i = from; i < to; i++) {
    const item = items[i]!;
    const last = out[out.length - 1];
    if (isUserMessage(last) && isUserMessage(item))
      out[out.length - 1] = userMessage([...last.content, ...item.content]);
    else out.push(item);
  }
}

function isUserMessage(item: ResponsesInputItem | undefined): item is UserMessageItem {
  return item !== undefined && item.type === 'message' && item.role === 'user' && !('id' in item);
}

/**
 * One prepared turn → its entries, appended to `out` (the request's list): switch on role (DESIGN.md,
 * style 6). User and tool turns append directly (no list of their own per turn, which a pushed-to
 * `[]` would make with 17 slots); an assistant turn's list is copied in by index.
 */
function encodeTurn(turn: PreparedTurn, index: number, ctx: AssistantContext, out: Entry[]): void {
  switch (turn.role) {
    case 'user':
      return encodeUser(turn, index, ctx.report, out);
    case 'assistant': {
      // Indexed: the caller runs once per conversion, often unoptimised, where `for…of` allocates.
      const encoded = encodeAssistant(turn, index, ctx);
      for (let k = 0; k < encoded.length; k++) out.push(encoded[k]!);
      return;
    }
    case 'tool':
      return encodeTool(turn, index, ctx.report, out);
    default: {
      const never: never = turn.role;
      throw new Error(`unhandled role ${String(never)}`);
    }
  }
}

/**
 * An assistant turn: its own output items replayed (same origin, `native` set by the pre-pass) when
 * they check out ({@link nativeTurnProblem}), else rebuilt from its blocks with a warning; a
 * rebuilt turn then takes nothing (ids, annotations) from those items.
 */
function encodeAssistant(turn: PreparedTurn, index: number, ctx: AssistantContext): Entry[] {
  const items = turn.native?.payload;
  const source = turn.sources[0];
  if (!Array.isArray(items) || !source) return encodeAssistantBlocks(turn, index, ctx);
  const problem = nativeTurnProblem(source, items);
  if (problem === undefined) return encodeNativeTurn(turn, items, index, ctx);
  ctx.report.warn(`turn ${source.id}: its native output items were not replayed (${problem}); rebuilt from its blocks`);
  return encodeAssistantBlocks(turn, index, { ...ctx, notNative: source });
}

/**
 * A user turn → a user message of text, images (R-I1) and documents (`input_file`). Provider items
 * that reach a user turn (a tool turn's items whose assistant turn made no function call) replay
 * in place, between messages, when they are the target's own. Entries are appended to `out`.
 */
function encodeUser(turn: PreparedTurn, index: number, report: ReportBuilder, out: Entry[]): void {
  const blocks = turn.blocks;
  // The current message's parts and refs: made at the size of the blocks left and trimmed when the
  // message ends (a pushed-to `[]` reserves 17 slots), with no closure per turn.
  let parts: UserContentPart[] | undefined;
  let refs: BlockRef[] | undefined;
  let n = 0;
  let r = 0;
  for (let k = 0; k < blocks.length; k++) {
    const pb = blocks[k]!;
    const b: Block = pb.block;
    let part: UserContentPart;
    switch (b.type) {
      case 'text':
        part = inputText(b.text);
        break;
      case 'image':
        part = inputImage(b);
        break;
      case 'document':
        part = inputFile(b);
        break;
      case 'provider_item':
        if (parts) out.push(userEntry(parts, n, refs!, r, index));
        parts = refs = undefined;
        n = r = 0;
        out.push(providerItemEntry(b, pb, index, 'user'));
        continue;
      case 'thinking':
      case 'redacted_thinking':
      case 'tool_call':
      case 'tool_result':
        // The pre-pass never leaves these in a user turn; never lose one silently.
        report.add(pb.ref, 'dropped', `a ${b.type} block has no place in a Responses user message`);
        continue;
      default: {
        const never: never = b;
        throw new Error(`unhandled block ${(never as Block).type}`);
      }
    }
    if (!parts) {
      parts = new Array<UserContentPart>(blocks.length - k);
      refs = new Array<BlockRef>(blocks.length - k);
    }
    parts[n++] = part;
    if (pb.ref) refs![r++] = pb.ref;
  }
  if (parts) out.push(userEntry(parts, n, refs!, r, index));
}

/** The entry of a user message of `parts[0..n)`, standing for the input blocks `refs[0..r)` (both trimmed here). */
function userEntry(parts: UserContentPart[], n: number, refs: BlockRef[], r: number, index: number): Entry {
  parts.length = n;
  refs.length = r;
  return { item: userMessage(parts), refs, turn: index, role: 'user' };
}

/** A tool turn → one `function_call_output` per result, in call order (X1, R-2), appended to `out`. */
function encodeTool(turn: PreparedTurn, index: number, report: ReportBuilder, out: Entry[]): void {
  for (const pb of turn.blocks) {
    const b: Block = pb.block;
    switch (b.type) {
      case 'tool_result':
        out.push({
          item: functionCallOutput(b, pb.ref, report),
          refs: pb.ref ? [pb.ref] : [],
          turn: index,
          role: 'tool',
        });
        break;
      case 'provider_item':
        out.push(providerItemEntry(b, pb, index, 'tool'));
        break;
      case 'text':
      case 'image':
      case 'document':
      case 'thinking':
      case 'redacted_thinking':
      case 'tool_call':
        report.add(pb.ref, 'dropped', `a ${b.type} block has no place among Responses tool outputs`);
        break;
      default: {
        const never: never = b;
        throw new Error(`unhandled block ${(never as Block).type}`);
      }
    }
  }
}

/**
 * Tools as `{type: 'function', name, description?, parameters, strict: false}`, each name once
 * (the first definition wins, the rest left out with a warning); `tool_choice: 'none'` for stubs only (X8).
 */
function toolsOf(prepared: PreparedTranscript): Pick<OpenAIResponsesBody, 'tools' | 'tool_choice'> {
  if (prepared.tools.length === 0) return {};
  const tools: ResponsesFunctionTool[] = uniqueTools(prepared.tools, prepared.report).map((t) => ({
    type: 'function',
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    parameters: t.inputSchema,
    strict: false,
  }));
  return { tools, ...(prepared.toolChoiceNone ? { tool_choice: 'none' as const } : {}) };
}

/** Requested output limit in tokens (default: the registry's), capped at a known model's maximum with a warning. */
function outputLimit(target: ResolvedTarget, info: ModelInfo, report: ReportBuilder): number {
  const wanted = target.maxOutputTokens ?? info.defaultOutputTokens;
  if (!Number.isInteger(wanted) || wanted <= 0)
    throw new TranscriptError('maxOutputTokens', `must be a positive integer, got ${wanted}`);
  if (info.known && wanted > info.maxOutputTokens) {
    report.warn(
      `max_output_tokens ${wanted} exceeds the limit of ${target.model} (${info.maxOutputTokens}): sent ${info.maxOutputTokens}`,
    );
    return info.maxOutputTokens;
  }
  return wanted;
}

/** OpenAI reasoning model per the registry (`reasoning`, or effort-controlled thinking). */
function isReasoningModel(info: ModelInfo): boolean {
  return info.reasoning || info.thinking === 'effort';
}

/**
 * `--thinking on` → `{effort: 'medium', summary: 'auto'}` on reasoning models; off → the model's
 * lowest effort (`minReasoningEffort`). Non-reasoning models take no `reasoning` parameter.
 */
function reasoningParam(
  target: ResolvedTarget,
  info: ModelInfo,
  report: ReportBuilder,
): ResponsesReasoningParam | undefined {
  if (!isReasoningModel(info)) {
    if (target.thinking)
      report.warn(`thinking was requested, but ${target.model} is not a reasoning model: no reasoning parameter sent`);
    return undefined;
  }
  if (target.thinking) return { effort: 'medium', summary: 'auto' };
  if (info.minReasoningEffort !== undefined) return { effort: info.minReasoningEffort };
  report.warn(
    `thinking off: no lowest reasoning effort is known for ${target.model}, so it reasons at its default effort`,
  );
  return undefined;
}

/** Azure OpenAI (by provider id or host): it rejects `id` on inline reasoning items when `store` is false (R-K2). */
function isAzure(target: ResolvedTarget): boolean {
  if (target.provider === 'azure' || target.provider === 'azure-openai') return true;
  try {
    return target.endpoint !== undefined && new URL(target.endpoint).hostname.endsWith('.azure.com');
  } catch {
    return false;
  }
}
