/**
 * OpenAI Chat Completions streams (`chat.completion.chunk` events) → assistant turns.
 *
 * The assembler rebuilds the assistant message the way openai-node's `ChatCompletionStream`
 * accumulates it (content, refusal and reasoning text concatenated; tool calls merged by `index`;
 * OpenRouter `reasoning_details` merged by their own `index`), then reads it with the same code as
 * a complete response, so a streamed turn equals the turn of the equivalent response.
 */
import { assertNoPrototypeKeys } from '../../transcript/codec';
import type { Block, Turn } from '../../transcript/schema';
import type { ReadContext, StreamAssembler } from '../types';
import { CHAT_API, assistantBlocks, buildChatTurn, chatError } from './read-openai-chat-message';
import { describeValue, isRecord } from './read-openai-chat-util';
import { guardAssembler, type GuardedAssembler } from '../guard-turn';

interface ToolAcc {
  firstIndex: number;
  order: number;
  id?: string;
  type?: string;
  name: string;
  args: string;
  custom?: { name: string; input: string };
  extra: Record<string, unknown>;
}

const TOOL_DELTA_KEYS = ['index', 'id', 'type', 'function', 'custom'];
const DONE = '[DONE]';

const isDone = (ev: unknown): boolean => typeof ev === 'string' && ev.trim() === DONE;

/** Appends `piece` to a text accumulator; `null` marks the field as seen without text. */
function appendText(acc: string | null | undefined, piece: unknown): string | null | undefined {
  if (typeof piece === 'string') return (acc ?? '') + piece;
  if (piece === null && acc === undefined) return null;
  return acc;
}

class ChatStreamAssembler implements StreamAssembler {
  /** The `id` of the chunks seen so far (one per response). */
  responseId: string | undefined;
  /** `[DONE]` was received. */
  sawDone = false;
  private sawFinish = false;
  private model: string | undefined;
  private upstreamProvider: string | undefined;
  private started = false;
  private content: string | null | undefined;
  private refusal: string | null | undefined;
  private reasoningContent: string | null | undefined;
  private reasoning: string | null | undefined;
  private reasoningDetails: Record<string, unknown>[] = [];
  private annotations: unknown[] | undefined;
  private audio: Record<string, unknown> | undefined;
  private functionCall: { name: string; arguments: string } | undefined;
  private tools: ToolAcc[] = [];
  private toolByIndex = new Map<number, ToolAcc>();
  private finishReason: string | undefined;
  private nativeFinishReason: string | undefined;
  private usage: unknown;
  private error: { type: string; message: string } | undefined;
  private warnings: string[] = [];
  private events = 0;
  private warnedChoices = false;

  constructor(private readonly ctx: ReadContext) {}

  get done(): boolean {
    return this.sawFinish || this.sawDone || this.error !== undefined;
  }

  push(event: unknown): void {
    const n = this.events++;
    if (isDone(event)) {
      this.sawDone = true;
      return;
    }
    if (this.error) return; // nothing after a provider error is rendered (security-requirements.md P3)
    if (typeof event === 'string') {
      try {
        event = JSON.parse(event);
      } catch {
        this.warnings.push(`event ${n}: not JSON`);
        return;
      }
    }
    if (!isRecord(event)) {
      this.warnings.push(`event ${n}: expected an object, got ${describeValue(event)}`);
      return;
    }
    try {
      assertNoPrototypeKeys(event);
    } catch (e) {
      this.warnings.push(`event ${n}: ignored, ${(e as Error).message}`);
      return;
    }
    if (typeof event.id === 'string' && event.id && !this.responseId) this.responseId = event.id;
    if (typeof event.model === 'string' && event.model && !this.model) this.model = event.model;
    if (typeof event.provider === 'string' && event.provider && !this.upstreamProvider)
      this.upstreamProvider = event.provider;
    if (isRecord(event.usage)) this.usage = event.usage;
    else if (isRecord(event.x_groq) && isRecord(event.x_groq.usage) && this.usage === undefined)
      this.usage = event.x_groq.usage;
    if (isRecord(event.error)) {
      this.error = chatError(event.error);
      return;
    }
    if (!Array.isArray(event.choices)) {
      if (!isRecord(event.usage)) this.warnings.push(`event ${n}: no choices`);
      return;
    }
    for (const choice of event.choices) {
      if (!isRecord(choice)) continue;
      if (typeof choice.index === 'number' && choice.index !== 0) {
        if (!this.warnedChoices) this.warnings.push(`choice ${choice.index} not read: only choice 0 becomes the turn`);
        this.warnedChoices = true;
        continue;
      }
      this.started = true;
      if (isRecord(choice.delta)) this.applyDelta(choice.delta);
      if (typeof choice.finish_reason === 'string' && choice.finish_reason) {
        this.finishReason = choice.finish_reason;
        this.sawFinish = true;
        if (choice.finish_reason === 'error') this.error = { type: 'error', message: '' };
      }
      if (typeof choice.native_finish_reason === 'string' && choice.native_finish_reason)
        this.nativeFinishReason = choice.native_finish_reason;
    }
  }

  private applyDelta(d: Record<string, unknown>): void {
    this.content = appendText(this.content, d.content);
    this.refusal = appendText(this.refusal, d.refusal);
    this.reasoningContent = appendText(this.reasoningContent, d.reasoning_content);
    this.reasoning = appendText(this.reasoning, d.reasoning);
    if (Array.isArray(d.reasoning_details))
      for (const r of d.reasoning_details) if (isRecord(r)) this.mergeReasoningDetail(r);
    if (Array.isArray(d.annotations)) this.annotations = [...(this.annotations ?? []), ...d.annotations];
    if (isRecord(d.audio)) {
      const a = (this.audio ??= {});
      for (const [k, v] of Object.entries(d.audio))
        a[k] = (k === 'data' || k === 'transcript') && typeof v === 'string' && typeof a[k] === 'string' ? a[k] + v : v;
    }
    if (isRecord(d.function_call)) {
      const fc = (this.functionCall ??= { name: '', arguments: '' });
      if (typeof d.function_call.name === 'string' && d.function_call.name !== fc.name) fc.name += d.function_call.name;
      if (typeof d.function_call.arguments === 'string') fc.arguments += d.function_call.arguments;
    }
    if (Array.isArray(d.tool_calls)) for (const tc of d.tool_calls) if (isRecord(tc)) this.applyToolDelta(tc);
  }

  /** OpenRouter streams `reasoning_details` entries in pieces that share an `index`. */
  private mergeReasoningDetail(r: Record<string, unknown>): void {
    const prev = typeof r.index === 'number' ? this.reasoningDetails.find((x) => x.index === r.index) : undefined;
    if (!prev) {
      this.reasoningDetails.push({ ...r });
      return;
    }
    for (const [k, v] of Object.entries(r)) {
      if ((k === 'text' || k === 'summary' || k === 'data') && typeof v === 'string' && typeof prev[k] === 'string')
        prev[k] += v;
      else if (v !== null && v !== undefined) prev[k] = v;
      else if (!(k in prev)) prev[k] = v;
    }
  }

  private applyToolDelta(d: Record<string, unknown>): void {
    const idx = typeof d.index === 'number' ? d.index : undefined;
    const id = typeof d.id === 'string' && d.id ? d.id : undefined;
    let acc = idx !== undefined ? this.toolByIndex.get(idx) : undefined;
    if (!acc && idx === undefined) acc = id ? this.tools.find((t) => t.id === id) : this.tools[this.tools.length - 1];
    if (acc && id && acc.id && acc.id !== id) acc = undefined; // a new call that reuses an index
    if (!acc) {
      acc = { firstIndex: idx ?? this.tools.length, order: this.tools.length, name: '', args: '', extra: {} };
      this.tools.push(acc);
    }
    if (idx !== undefined) this.toolByIndex.set(idx, acc);
    if (id && !acc.id) acc.id = id;
    if (typeof d.type === 'string' && d.type && !acc.type) acc.type = d.type;
    if (isRecord(d.function)) {
      const { name, arguments: args } = d.function;
      if (typeof name === 'string' && name !== acc.name) acc.name += name;
      if (typeof args === 'string') acc.args += args;
    }
    if (isRecord(d.custom)) {
      const c = (acc.custom ??= { name: '', input: '' });
      if (typeof d.custom.name === 'string' && d.custom.name !== c.name) c.name += d.custom.name;
      if (typeof d.custom.input === 'string') c.input += d.custom.input;
    }
    for (const [k, v] of Object.entries(d)) if (!TOOL_DELTA_KEYS.includes(k) && !(k in acc.extra)) acc.extra[k] = v;
  }

  /** The assistant message so far, shaped like `choices[0].message` of a complete response. */
  private message(): Record<string, unknown> | undefined {
    if (!this.started) return undefined;
    const msg: Record<string, unknown> = { role: 'assistant', content: this.content ?? null };
    if (this.refusal !== undefined) msg.refusal = this.refusal;
    if (this.reasoningContent !== undefined && this.reasoningContent !== null)
      msg.reasoning_content = this.reasoningContent;
    if (this.reasoning !== undefined && this.reasoning !== null) msg.reasoning = this.reasoning;
    if (this.reasoningDetails.length) msg.reasoning_details = this.reasoningDetails.map((r) => ({ ...r }));
    if (this.annotations) msg.annotations = [...this.annotations];
    if (this.audio) msg.audio = { ...this.audio };
    if (this.functionCall) msg.function_call = { ...this.functionCall };
    if (this.tools.length) {
      const sorted = [...this.tools].sort((a, b) => a.firstIndex - b.firstIndex || a.order - b.order);
      msg.tool_calls = sorted.map((t) => {
        const out: Record<string, unknown> = {};
        if (t.id) out.id = t.id;
        out.type = t.type ?? (t.custom ? 'custom' : 'function');
        if (t.custom) out.custom = { ...t.custom };
        else out.function = { name: t.name, arguments: t.args };
        return { ...out, ...t.extra };
      });
    }
    return msg;
  }

  private build(final: boolean): Turn {
    const terminal = this.sawFinish || this.sawDone;
    const status = this.error ? 'error' : terminal ? 'complete' : final ? 'interrupted' : 'streaming';
    const message = this.message();
    const warnings = [...this.warnings];
    if (this.sawDone && !this.sawFinish && !this.error) warnings.push('stream ended with [DONE] but no finish_reason');
    let blocks: Block[] = [];
    if (message) {
      try {
        blocks = assistantBlocks(message, [], {
          incomplete: !terminal || this.error !== undefined,
          generateMissingIds: true,
        });
      } catch (e) {
        warnings.push(`message not readable: ${(e as Error).message}`);
      }
    }
    return buildChatTurn({
      ctx: this.ctx,
      model: this.model,
      responseId: this.responseId,
      status,
      blocks,
      message,
      finishReason: this.finishReason,
      usage: this.usage,
      error: this.error,
      nativeFinishReason: this.nativeFinishReason,
      upstreamProvider: this.upstreamProvider,
      warnings,
    });
  }

  snapshot(): Turn {
    return this.build(false);
  }

  finish(): Turn {
    return this.build(true);
  }
}

/**
 * A stream assembler for one Chat Completions response. Feed it each event as the SDK yields it
 * (the parsed JSON of one SSE `data:` line; the literal string `"[DONE]"` is accepted too).
 * The turn is `complete` once a chunk with `finish_reason` (or `[DONE]`) arrived; a usage chunk
 * that follows `finish_reason` is still read. Cut before that, `finish()` gives `interrupted`
 * with everything so far kept (a tool call whose arguments never parsed has `input: {}` and
 * `meta: {partial: true, rawArguments}`). An error event (`{error: {message, type, code}}`, or
 * OpenRouter's `finish_reason: "error"`) gives `status: 'error'` with `error: {type, message}`
 * and the partial content kept; later events are ignored. Never throws; malformed events are
 * listed in `turn.meta.warnings`. The turn's fields are those of `readOpenAIChatResponse`.
 */
export function createOpenAIChatStreamAssembler(ctx: ReadContext): StreamAssembler {
  return guardAssembler(new ChatStreamAssembler(ctx), ctx, CHAT_API);
}

/**
 * A whole recorded stream that may hold several responses one after another → one turn per
 * response. A new response starts at a chunk whose `id` differs from the current one, or at any
 * event after `[DONE]`. With several turns, a given `ctx.turnId` gets the suffixes `-1`, `-2`, ….
 */
export function readOpenAIChatStreamEvents(events: unknown[], ctx: ReadContext): Turn[] {
  const turns: Turn[] = [];
  let cur: GuardedAssembler<ChatStreamAssembler> | undefined;
  for (const ev of events) {
    if (isDone(ev) && !cur) continue;
    const id = isRecord(ev) && typeof ev.id === 'string' && ev.id ? ev.id : undefined;
    if (cur && !isDone(ev) && (cur.inner.sawDone || (id && cur.inner.responseId && id !== cur.inner.responseId))) {
      turns.push(cur.finish());
      cur = undefined;
    }
    cur ??= guardAssembler(new ChatStreamAssembler(ctx), ctx, CHAT_API);
    cur.push(ev);
  }
  if (cur) turns.push(cur.finish());
  if (ctx.turnId && turns.length > 1) return turns.map((t, i) => ({ ...t, id: `${ctx.turnId}-${i + 1}` }));
  return turns;
}
