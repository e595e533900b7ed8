/**
 * Same-origin replay of a Chat Completions assistant `message` as it was received
 * (transcript-v1.md `native`; X3). Only fields valid on input travel: role, content, refusal,
 * name, tool_calls (`id`, `type`, `function`), and the provider extras the same provider accepts
 * back (D-1, D-G2, OR-2, G-K7). Output-only fields (`annotations`, `audio`, whose id expires, a
 * streamed `index`, nulls) are left out. When the id or name map changed a call, the payload is
 * not a message Baton can vouch for, or it says other things than the turn's blocks (texts, calls,
 * reasoning), the caller rebuilds the message from blocks instead.
 */
import type { PreparedTurn } from '../../transcript/prepare';
import type { Block, ToolCallBlock } from '../../transcript/schema';
import { turnLabel, type EncodeContext } from './convert-openai-chat-blocks';
import type {
  OpenAIChatAssistantMessage,
  OpenAIChatGoogleExtra,
  OpenAIChatRefusalPart,
  OpenAIChatTextPart,
  OpenAIChatToolCall,
} from './convert-openai-chat-types';
import { isRecord as isObject, type JsonObject } from '../../transcript/json';

/** Message fields every provider accepts back. */
const BASE_FIELDS = new Set(['role', 'content', 'refusal', 'name', 'tool_calls']);

/**
 * The native message of a prepared same-origin assistant turn, ready to send, or undefined when it
 * can't be used (no `native`, another API, a malformed payload, or calls whose id or name was
 * mapped for this request). Reports `replayed-native` for every block of the source turn.
 * Report details name the turn by {@link turnLabel}.
 */
export function replayNativeMessage(turn: PreparedTurn, ctx: EncodeContext): OpenAIChatAssistantMessage | undefined {
  const native = turn.native;
  const source = turn.sources.length === 1 ? turn.sources[0] : undefined;
  if (!native || native.api !== 'openai-chat' || !source || !isObject(native.payload)) return undefined;
  const p = native.payload;
  if (p.role !== undefined && p.role !== 'assistant') return undefined;

  const calls = turn.blocks.flatMap((pb) => (pb.block.type === 'tool_call' ? [pb.block] : []));
  const toolCalls = nativeToolCalls(p.tool_calls, calls, ctx);
  if (!toolCalls) return undefined;
  const content = nativeContent(p.content);
  if (content === undefined) return undefined;

  const msg: OpenAIChatAssistantMessage = { role: 'assistant', content: content === '' ? null : content };
  const refusal = typeof p.refusal === 'string' && p.refusal !== '' ? p.refusal : undefined;
  if (refusal !== undefined) {
    // C-R2: content is required without tool_calls; a refusal alone travels as a refusal part.
    if (msg.content === null && toolCalls.length === 0) msg.content = [{ type: 'refusal', refusal }];
    else msg.refusal = refusal;
  }
  if (msg.content === null && toolCalls.length === 0) return undefined; // e.g. audio only: rebuild from blocks
  if (typeof p.name === 'string' && p.name !== '') msg.name = p.name;
  if (toolCalls.length > 0) msg.tool_calls = toolCalls;

  const kept = copyExtras(p, msg, ctx);
  if (!carriesBlocks(msg, source.blocks)) {
    // Only a message that stands for every block may be reported `replayed-native`.
    ctx.report.warn(
      `turn ${turnLabel(turn)}: its native message says other things than its blocks; rebuilt from its blocks`,
    );
    return undefined;
  }
  if (ctx.profile.deepseekThinking && toolCalls.length > 0 && msg.reasoning_content === undefined) {
    msg.reasoning_content = ''; // D-1, D-3
    ctx.report.synthesize(
      'dummy-signature',
      `reasoning_content "" on the tool-call message of turn ${turnLabel(turn)} (D-1, D-3)`,
    );
  }

  const left = Object.keys(p).filter((k) => !BASE_FIELDS.has(k) && !kept.has(k) && isPresent(p[k]));
  const detail =
    'Chat Completions message replayed as received' +
    (left.length > 0 ? `; not sent: ${left.join(', ')} (output-only or not accepted by ${ctx.profile.dialect})` : '');
  source.blocks.forEach((_, index) => ctx.report.add({ turn: source.id, index }, 'replayed-native', detail));
  return msg;
}

/**
 * True when the message says what the turn's blocks say: its texts (content, then refusal) are the
 * turn's text blocks in order, and any reasoning string it sends back is the text of one of the
 * turn's thinking blocks. (Calls are matched one to one by {@link nativeToolCalls}.)
 */
function carriesBlocks(msg: OpenAIChatAssistantMessage, blocks: readonly Block[]): boolean {
  const texts: string[] = [];
  if (typeof msg.content === 'string') texts.push(msg.content);
  else for (const part of msg.content ?? []) texts.push(part.type === 'text' ? part.text : part.refusal);
  if (msg.refusal !== undefined) texts.push(msg.refusal);
  const own = blocks.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  if (JSON.stringify(texts.filter((t) => t !== '')) !== JSON.stringify(own)) return false;
  const thoughts = new Set(blocks.flatMap((b) => (b.type === 'thinking' ? [b.text] : [])));
  return [msg.reasoning_content, msg.reasoning].every((r) => r === undefined || r === '' || thoughts.has(r));
}

/** The native calls, whitelisted, when they match the prepared calls one to one (ids and names as mapped, X2, X5). */
function nativeToolCalls(raw: unknown, calls: ToolCallBlock[], ctx: EncodeContext): OpenAIChatToolCall[] | undefined {
  const list = raw === undefined || raw === null ? [] : raw;
  if (!Array.isArray(list) || list.length !== calls.length) return undefined;
  const out: OpenAIChatToolCall[] = [];
  for (let i = 0; i < list.length; i++) {
    const nc: unknown = list[i];
    const call = calls[i]!;
    if (!isObject(nc) || (nc.type !== undefined && nc.type !== 'function') || nc.id !== call.id) return undefined;
    const fn = nc.function;
    if (!isObject(fn) || fn.name !== call.name || typeof fn.arguments !== 'string') return undefined;
    const tc: OpenAIChatToolCall = {
      id: nc.id,
      type: 'function',
      function: { name: fn.name, arguments: fn.arguments },
    };
    const google =
      isObject(nc.extra_content) && isObject(nc.extra_content.google) ? nc.extra_content.google : undefined;
    // G-K1: a signature is a non-empty string; an empty one is none, so the call is rebuilt from its block.
    if (
      google?.thought_signature !== undefined &&
      (typeof google.thought_signature !== 'string' || google.thought_signature === '')
    )
      return undefined;
    if (ctx.profile.toolCallSignatures && isObject(nc.extra_content))
      tc.extra_content = nc.extra_content as OpenAIChatGoogleExtra; // G-K7
    out.push(tc);
  }
  return out;
}

/** `content` as received: a string, null, or text/refusal parts (C-R2). Undefined when it is anything else. */
function nativeContent(raw: unknown): OpenAIChatAssistantMessage['content'] | undefined {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string') return raw;
  if (!Array.isArray(raw)) return undefined;
  const parts: Array<OpenAIChatTextPart | OpenAIChatRefusalPart> = [];
  for (const part of raw as unknown[]) {
    if (isObject(part) && part.type === 'text' && typeof part.text === 'string')
      parts.push({ type: 'text', text: part.text });
    else if (isObject(part) && part.type === 'refusal' && typeof part.refusal === 'string')
      parts.push({ type: 'refusal', refusal: part.refusal });
    else return undefined;
  }
  return parts.length > 0 ? parts : null;
}

/** Copies the provider extras this dialect accepts back, when they have the expected type. Returns the keys copied. */
function copyExtras(p: JsonObject, msg: OpenAIChatAssistantMessage, ctx: EncodeContext): Set<string> {
  const kept = new Set<string>();
  for (const key of ctx.profile.nativeExtras) {
    const v = p[key];
    if (key === 'reasoning_content' && typeof v === 'string')
      msg.reasoning_content = v; // D-1
    else if (key === 'reasoning' && typeof v === 'string')
      msg.reasoning = v; // D-G2
    else if (key === 'reasoning_details' && Array.isArray(v))
      msg.reasoning_details = v; // OR-2, unchanged
    else if (key === 'extra_content' && isObject(v))
      msg.extra_content = v as OpenAIChatGoogleExtra; // G-K7
    else continue;
    kept.add(key);
  }
  return kept;
}

function isPresent(v: unknown): boolean {
  return v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0);
}
