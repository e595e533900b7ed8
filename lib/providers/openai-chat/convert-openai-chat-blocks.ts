/**
 * Block-by-block encoding of prepared turns into Chat Completions messages (provider-rules.md §2,
 * §5). One small helper per block conversion; every change beyond the pre-pass is reported.
 */
import type { PreparedBlock, PreparedTurn } from '../../transcript/prepare';
import type { ReportBuilder } from '../../transcript/report';
import type { Block, DocumentBlock, ImageBlock, ToolCallBlock, ToolResultBlock } from '../../transcript/schema';
import { isBlank } from '../../transcript/text';
import { DUMMY_THOUGHT_SIGNATURE, type ChatProfile } from './convert-openai-chat-profile';
import type {
  OpenAIChatAssistantMessage,
  OpenAIChatMessage,
  OpenAIChatTextPart,
  OpenAIChatToolCall,
  OpenAIChatToolMessage,
  OpenAIChatUserMessage,
  OpenAIChatUserPart,
} from './convert-openai-chat-types';

/** What the block encoders share for one request. */
export interface EncodeContext {
  profile: ChatProfile;
  report: ReportBuilder;
}

/** Text of the assistant message inserted between a tool message and a user message (M-2). */
export const ASSISTANT_AFTER_TOOL_TEXT = 'I have processed the tool results.';

/** Replaces an empty tool result, so no message goes out with empty content (X4). */
export const EMPTY_RESULT_TEXT = '(no output)';

/**
 * A user turn → one user message: a plain string for a single text block, else content parts
 * (text, `image_url`, `file`). Undefined when nothing is left.
 */
export function encodeUserTurn(turn: PreparedTurn, ctx: EncodeContext): OpenAIChatUserMessage | undefined {
  // The usual user turn, one text block: its string, with no part list or part made on the way.
  const only0 = turn.blocks.length === 1 ? turn.blocks[0]!.block : undefined;
  if (only0?.type === 'text') return { role: 'user', content: only0.text };
  const parts: OpenAIChatUserPart[] = [];
  for (const pb of turn.blocks) {
    const part = encodeUserBlock(pb, ctx);
    if (part) parts.push(part);
  }
  if (parts.length === 0) return undefined;
  const only = parts.length === 1 ? parts[0] : undefined;
  return { role: 'user', content: only?.type === 'text' ? only.text : parts };
}

function encodeUserBlock(pb: PreparedBlock, ctx: EncodeContext): OpenAIChatUserPart | undefined {
  const b = pb.block;
  switch (b.type) {
    case 'text':
      return textPart(b.text);
    case 'image':
      return imagePart(b);
    case 'document':
      return documentPart(b, pb, ctx);
    case 'thinking':
    case 'redacted_thinking':
    case 'tool_call':
    case 'tool_result':
    case 'provider_item':
      return notHere(pb, 'user', ctx);
    default:
      return exhaustive(b);
  }
}

function textPart(text: string): OpenAIChatTextPart {
  return { type: 'text', text };
}

/** C-I1: a URL as given, or inline data as a `data:` URL. */
function imagePart(b: ImageBlock): OpenAIChatUserPart {
  return { type: 'image_url', image_url: { url: b.url ?? `data:${b.mediaType};base64,${b.data ?? ''}` } };
}

/** OpenAI PDF input: a `file` part with the bytes as a `data:` URL. */
function documentPart(b: DocumentBlock, pb: PreparedBlock, ctx: EncodeContext): OpenAIChatUserPart {
  if (ctx.profile.pdf && b.mediaType === 'application/pdf' && b.data !== undefined)
    return {
      type: 'file',
      file: { filename: b.title ?? 'document.pdf', file_data: `data:application/pdf;base64,${b.data}` },
    };
  // The pre-pass already replaces documents the target can't take; this is a safety net.
  ctx.report.add(
    pb.ref,
    'converted',
    `document replaced by a placeholder: ${b.mediaType} is not accepted by this target`,
  );
  return textPart(`[document omitted: ${b.mediaType} is not accepted by this model]`);
}

/** A block the pre-pass should never leave in this role: dropped and reported, never thrown. */
function notHere(pb: PreparedBlock, role: string, ctx: EncodeContext): undefined {
  ctx.report.add(pb.ref, 'dropped', `${pb.block.type} is not valid in a Chat Completions ${role} message`);
  return undefined;
}

function exhaustive(b: never): undefined {
  throw new Error(`unhandled block type ${(b as Block).type}`);
}

/**
 * An assistant message under construction. Lists are made only when a turn has something for
 * them, and the calls at their size: this runs for every assistant turn of a cold conversion,
 * where five lists per turn (two pushed to, 17 slots each) were a sixth of the convert's allocation.
 */
interface AssistantParts {
  /** The turn's texts joined by blank lines, as `join('\n\n')` would (undefined: none). */
  text: string | undefined;
  /** Refusal text (`meta.refusal`, as the reader stores it), sent as OpenAI's `refusal`. */
  refusals: string[] | undefined;
  calls: OpenAIChatToolCall[];
  /** How many of `calls` are set. */
  callCount: number;
  reasoning: string[] | undefined;
  reasoningRefs: PreparedBlock[] | undefined;
}

/**
 * The input turn id(s) behind a prepared turn, for report details (made only when a detail needs
 * it: this was an array and a string per assistant turn of every conversion).
 */
export function turnLabel(turn: PreparedTurn): string {
  return turn.sources.length > 0 ? turn.sources.map((t) => t.id).join('+') : '(synthesised)';
}

/**
 * An assistant turn rebuilt from its blocks: text joined into one string (C-R2: no images, no
 * other parts), `tool_calls` with mapped ids, and same-origin reasoning in the provider's own
 * field (D-1, D-G2), or dropped where it can't travel (C-R4, M-4). Undefined when the message
 * would be empty (X4); its blocks are then reported dropped. Report details name the turn by
 * {@link turnLabel}.
 */
export function encodeAssistantTurn(turn: PreparedTurn, ctx: EncodeContext): OpenAIChatAssistantMessage | undefined {
  const blocks = turn.blocks;
  let calls = 0;
  for (let i = 0; i < blocks.length; i++) if (blocks[i]!.block.type === 'tool_call') calls++;
  const acc: AssistantParts = {
    text: undefined,
    refusals: undefined,
    calls: calls > 0 ? new Array<OpenAIChatToolCall>(calls) : NO_CALLS,
    callCount: 0,
    reasoning: undefined,
    reasoningRefs: undefined,
  };
  for (let i = 0; i < blocks.length; i++) encodeAssistantBlock(blocks[i]!, acc, ctx);
  // Every tool_call block gave one call; trimmed all the same, so a short count can never leave a hole.
  if (acc.callCount < calls) acc.calls.length = acc.callCount;
  const { profile, report } = ctx;
  if (profile.dummySignatures) addDummySignature(acc.calls, ctx, turn);
  if (acc.text === undefined && acc.calls.length === 0 && acc.refusals === undefined) {
    for (const pb of acc.reasoningRefs ?? [])
      report.add(pb.ref, 'dropped', 'reasoning alone cannot make an assistant message (X4)');
    return undefined;
  }
  const msg: OpenAIChatAssistantMessage = {
    role: 'assistant',
    content: acc.text ?? null,
  };
  if (acc.refusals !== undefined) {
    const refusal = acc.refusals.join('\n\n');
    // C-R2: content is required without tool_calls, so a refusal alone travels as a refusal part.
    if (msg.content === null && acc.calls.length === 0) msg.content = [{ type: 'refusal', refusal }];
    else msg.refusal = refusal;
  }
  if (acc.calls.length > 0) msg.tool_calls = acc.calls;
  const reasoning = acc.reasoning?.join('\n\n');
  if (profile.reasoningField === 'reasoning_content') {
    if (reasoning !== undefined) msg.reasoning_content = reasoning;
    else if (acc.calls.length > 0) {
      // D-1, D-3: a thinking model rejects a tool-call turn without reasoning_content.
      msg.reasoning_content = '';
      report.synthesize(
        'dummy-signature',
        `reasoning_content "" on the tool-call message of turn ${turnLabel(turn)} (D-1, D-3)`,
      );
    }
  } else if (profile.reasoningField === 'reasoning' && reasoning !== undefined) msg.reasoning = reasoning;
  return msg;
}

/** No calls (shared, never written: a turn with calls gets a list of its own). */
const NO_CALLS: OpenAIChatToolCall[] = [];

/** Appends a text to the message's content, a blank line between texts. */
function addText(acc: AssistantParts, text: string): void {
  acc.text = acc.text === undefined ? text : `${acc.text}\n\n${text}`;
}

function encodeAssistantBlock(pb: PreparedBlock, acc: AssistantParts, ctx: EncodeContext): void {
  const b = pb.block;
  const { report } = ctx;
  switch (b.type) {
    case 'text':
      if (isBlank(b.text)) {
        report.add(pb.ref, 'dropped', 'empty text: its signature has no field in Chat Completions (X4)');
        return;
      }
      if (b.signature !== undefined)
        report.add(pb.ref, 'converted', 'text sent without its signature: Chat Completions has no field for it (G-K6)');
      if (b.citations !== undefined)
        report.add(pb.ref, 'converted', 'citations dropped: output-only in Chat Completions, text kept');
      // Only OpenAI has a refusal field; elsewhere a refusal is plain text.
      if (b.meta?.refusal === true && ctx.profile.dialect === 'openai') (acc.refusals ??= []).push(b.text);
      else addText(acc, b.text);
      return;
    case 'thinking':
      return encodeThinking(pb, b.text, b.signature, acc, ctx);
    case 'redacted_thinking':
      report.add(pb.ref, 'dropped', 'redacted thinking has no field in Chat Completions (C-R4)');
      return;
    case 'tool_call':
      acc.calls[acc.callCount++] = toolCall(b, pb, ctx);
      return;
    case 'provider_item':
      if (b.text !== undefined && !isBlank(b.text)) {
        report.add(pb.ref, 'converted', `${b.api} item sent as text: Chat Completions has no input field for it`);
        addText(acc, b.text);
      } else report.add(pb.ref, 'dropped', `${b.api} item has no input field in Chat Completions`);
      return;
    case 'image':
    case 'document':
    case 'tool_result':
      notHere(pb, 'assistant', ctx); // C-R2: the pre-pass turns assistant images into placeholders
      return;
    default:
      exhaustive(b);
  }
}

/** Same-origin reasoning: the provider's own field where it has one (D-1, D-G2), else dropped (C-R4, M-4). */
function encodeThinking(
  pb: PreparedBlock,
  text: string,
  signature: string | undefined,
  acc: AssistantParts,
  ctx: EncodeContext,
): void {
  const { profile, report } = ctx;
  if (profile.reasoningField === 'none' || isBlank(text)) {
    report.add(pb.ref, 'dropped', isBlank(text) ? 'empty reasoning text (X4)' : reasoningDropDetail(profile));
    return;
  }
  if (signature !== undefined)
    report.add(
      pb.ref,
      'converted',
      `reasoning sent as ${profile.reasoningField} without its signature (no field for it)`,
    );
  (acc.reasoning ??= []).push(text);
  (acc.reasoningRefs ??= []).push(pb);
}

function reasoningDropDetail(profile: ChatProfile): string {
  switch (profile.dialect) {
    case 'openai':
      return 'reasoning cannot be replayed in Chat Completions for OpenAI models (C-R4)';
    case 'mistral':
      return 'reasoning input is not accepted by Mistral (M-4)';
    case 'deepseek':
      return 'reasoning_content is not sent to a DeepSeek model outside thinking mode (D-2, D-3)';
    case 'openrouter':
      return 'reasoning replays to OpenRouter only as reasoning_details from the native message (OR-2)';
    default:
      return `reasoning has no input field on ${profile.dialect} Chat Completions (C-R4)`;
  }
}

/** A function call; `arguments` is the JSON of the input. G-K7: a same-origin Gemini signature rides along (an empty one is none). */
function toolCall(b: ToolCallBlock, pb: PreparedBlock, ctx: EncodeContext): OpenAIChatToolCall {
  // The reader keeps unparsable arguments in meta.rawArguments with `input: {}`; `{}` is what travels.
  if (b.meta?.invalidArguments === true)
    ctx.report.add(pb.ref, 'converted', 'arguments were not valid JSON: sent as {}');
  const call: OpenAIChatToolCall = {
    id: b.id,
    type: 'function',
    function: { name: b.name, arguments: JSON.stringify(b.input) },
  };
  if (b.signature === '')
    ctx.report.add(pb.ref, 'converted', 'empty signature left out: an empty signature is no signature (G-K1)');
  else if (b.signature !== undefined) {
    if (ctx.profile.toolCallSignatures) call.extra_content = { google: { thought_signature: b.signature } };
    else ctx.report.add(pb.ref, 'converted', 'tool call sent without its signature: no field for it on this endpoint');
  }
  return call;
}

/** G-K4: on Gemini 3, the first call of a step with no signature at all gets the documented dummy. */
function addDummySignature(calls: OpenAIChatToolCall[], ctx: EncodeContext, turn: PreparedTurn): void {
  const first = calls[0];
  if (!first || calls.some((c) => c.extra_content?.google?.thought_signature !== undefined)) return;
  first.extra_content = { google: { thought_signature: DUMMY_THOUGHT_SIGNATURE } };
  ctx.report.synthesize(
    'dummy-signature',
    `${DUMMY_THOUGHT_SIGNATURE} on call ${first.id} of turn ${turnLabel(turn)} (G-K4)`,
  );
}

/**
 * A tool turn → one `tool` message per result, in call order (C-T2, C-T3), appended to `out` (the
 * request's messages: no list of its own per tool turn).
 */
export function encodeToolTurn(turn: PreparedTurn, ctx: EncodeContext, out: OpenAIChatMessage[]): void {
  for (const pb of turn.blocks) {
    const b = pb.block;
    switch (b.type) {
      case 'tool_result':
        out.push(toolMessage(b, pb, ctx));
        break;
      case 'provider_item':
        ctx.report.add(pb.ref, 'dropped', `${b.api} item has no input field in Chat Completions tool messages`);
        break;
      case 'text':
      case 'thinking':
      case 'redacted_thinking':
      case 'tool_call':
      case 'image':
      case 'document':
        notHere(pb, 'tool', ctx);
        break;
      default:
        exhaustive(b);
    }
  }
}

/** C-T2 `tool_call_id`; C-T6 text only; C-T7 failures as an `Error: ` prefix; M-5 `name`. */
function toolMessage(b: ToolResultBlock, pb: PreparedBlock, ctx: EncodeContext): OpenAIChatToolMessage {
  let content = toolResultText(b, pb, ctx);
  if (isBlank(content)) {
    if (pb.ref) ctx.report.add(pb.ref, 'converted', `empty result sent as "${EMPTY_RESULT_TEXT}" (X4)`);
    content = EMPTY_RESULT_TEXT;
  }
  if (b.isError === true && !/^error\b/i.test(content)) {
    content = `Error: ${content}`;
    ctx.report.add(
      pb.ref,
      'converted',
      'failure marked with an "Error: " prefix: Chat Completions has no error flag (C-T7)',
    );
  }
  const msg: OpenAIChatToolMessage = { role: 'tool', tool_call_id: b.callId, content };
  if (ctx.profile.toolResultName && pb.toolName !== undefined) msg.name = pb.toolName;
  return msg;
}

/** The result as one string: text parts joined by newlines (C-T6). Images were moved out by the pre-pass (X7). */
function toolResultText(b: ToolResultBlock, pb: PreparedBlock, ctx: EncodeContext): string {
  if (typeof b.content === 'string') return b.content;
  const texts: string[] = [];
  for (const c of b.content) {
    if (c.type === 'text') {
      if (!isBlank(c.text)) texts.push(c.text);
    } else {
      ctx.report.add(pb.ref, 'converted', 'image in a tool result replaced by a placeholder (C-T6)');
      texts.push('[image omitted: tool messages take text only]');
    }
  }
  return texts.join('\n');
}
