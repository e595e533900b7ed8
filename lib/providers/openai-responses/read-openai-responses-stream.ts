/**
 * OpenAI Responses API streams (`response.*` events) → assistant turns.
 *
 * The assembler keeps one slot per `output_index`: the item from `response.output_item.added`,
 * grown by the delta events, then replaced by the completed item from
 * `response.output_item.done` (authoritative: its `encrypted_content` is final, R-K3). The output
 * items are then read by the same code as a complete response.
 */
import { assertNoPrototypeKeys } from '../../transcript/codec';
import type { Block, Turn } from '../../transcript/schema';
import type { ReadContext, StreamAssembler } from '../types';
import { describeValue, isRecord } from '../openai-chat/read-openai-chat-util';
import {
  buildResponsesTurn,
  outputItemBlocks,
  responseOutcome,
  responsesError,
  type ResponseOutcome,
} from './read-openai-responses-items';
import { guardAssembler, type GuardedAssembler } from '../guard-turn';

type Obj = Record<string, unknown>;

interface Slot {
  item: Obj;
  done: boolean;
}

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);
const START = new Set(['response.created', 'response.in_progress', 'response.queued']);

/** Appends `delta` to `obj[key]` (a string field). */
function append(obj: Obj, key: string, delta: unknown): void {
  if (typeof delta === 'string') obj[key] = (typeof obj[key] === 'string' ? obj[key] : '') + delta;
}

/** The element `i` of the array `obj[key]`, created (as `init`) when missing. */
function elementAt(obj: Obj, key: string, i: unknown, init: () => Obj): Obj {
  const list = Array.isArray(obj[key]) ? (obj[key] as unknown[]) : (obj[key] = []);
  const index = typeof i === 'number' && i >= 0 ? i : Math.max(list.length - 1, 0);
  if (!isRecord(list[index])) list[index] = init();
  return list[index] as Obj;
}

class ResponsesStreamAssembler implements StreamAssembler {
  /** A `response.created` (or any response event) was seen. */
  started = false;
  private response: Obj | undefined;
  private terminal: Obj | undefined;
  private slots = new Map<number, Slot>();
  private indexById = new Map<string, number>();
  private error: { type: string; message: string } | undefined;
  private warnings: string[] = [];
  private events = 0;

  constructor(private readonly ctx: ReadContext) {}

  get done(): boolean {
    return this.terminal !== undefined || this.error !== undefined;
  }

  push(event: unknown): void {
    const n = this.events++;
    if (this.done) return; // nothing after the end or a provider error is rendered (P3)
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
    const type = typeof event.type === 'string' ? event.type : undefined;
    if (type === 'error' || (!type && isRecord(event.error))) {
      this.error = responsesError(type === 'error' ? event : event.error);
      return;
    }
    if (!type) {
      this.warnings.push(`event ${n}: no type`);
      return;
    }
    this.started = true;
    if (START.has(type) || TERMINAL.has(type)) {
      if (isRecord(event.response)) this.response = structuredClone(event.response);
      if (TERMINAL.has(type)) this.terminal = this.response ?? {};
      return;
    }
    this.applyItemEvent(type, event);
  }

  private slotFor(ev: Obj): Slot | undefined {
    const index =
      typeof ev.output_index === 'number'
        ? ev.output_index
        : typeof ev.item_id === 'string'
          ? this.indexById.get(ev.item_id)
          : undefined;
    return index === undefined ? undefined : this.slots.get(index);
  }

  private applyItemEvent(type: string, ev: Obj): void {
    if (type === 'response.output_item.added' || type === 'response.output_item.done') {
      if (!isRecord(ev.item)) return;
      const index = typeof ev.output_index === 'number' ? ev.output_index : this.slots.size;
      this.slots.set(index, { item: structuredClone(ev.item), done: type === 'response.output_item.done' });
      if (typeof ev.item.id === 'string') this.indexById.set(ev.item.id, index);
      return;
    }
    const slot = this.slotFor(ev);
    if (!slot || slot.done) return;
    const item = slot.item;
    const textPart = () =>
      elementAt(item, 'content', ev.content_index, () => ({ type: 'output_text', text: '', annotations: [] }));
    switch (type) {
      case 'response.content_part.added':
      case 'response.content_part.done':
        if (isRecord(ev.part)) Object.assign(textPart(), structuredClone(ev.part));
        return;
      case 'response.output_text.delta':
        return append(textPart(), 'text', ev.delta);
      case 'response.output_text.done':
        if (typeof ev.text === 'string') textPart().text = ev.text;
        return;
      case 'response.output_text.annotation.added': {
        const part = textPart();
        const list = Array.isArray(part.annotations) ? part.annotations : (part.annotations = []);
        list[typeof ev.annotation_index === 'number' ? ev.annotation_index : list.length] = ev.annotation;
        return;
      }
      case 'response.refusal.delta':
      case 'response.refusal.done': {
        const part = elementAt(item, 'content', ev.content_index, () => ({ type: 'refusal', refusal: '' }));
        if (type === 'response.refusal.delta') append(part, 'refusal', ev.delta);
        else if (typeof ev.refusal === 'string') part.refusal = ev.refusal;
        return;
      }
      case 'response.function_call_arguments.delta':
      case 'response.mcp_call_arguments.delta':
        return append(item, 'arguments', ev.delta);
      case 'response.function_call_arguments.done':
      case 'response.mcp_call_arguments.done':
        if (typeof ev.arguments === 'string') item.arguments = ev.arguments;
        return;
      case 'response.custom_tool_call_input.delta':
        return append(item, 'input', ev.delta);
      case 'response.custom_tool_call_input.done':
        if (typeof ev.input === 'string') item.input = ev.input;
        return;
      case 'response.code_interpreter_call_code.delta':
        return append(item, 'code', ev.delta);
      case 'response.code_interpreter_call_code.done':
        if (typeof ev.code === 'string') item.code = ev.code;
        return;
      case 'response.reasoning_summary_part.added':
      case 'response.reasoning_summary_part.done':
        if (isRecord(ev.part)) Object.assign(this.summaryPart(item, ev), structuredClone(ev.part));
        return;
      case 'response.reasoning_summary_text.delta':
        return append(this.summaryPart(item, ev), 'text', ev.delta);
      case 'response.reasoning_summary_text.done':
        if (typeof ev.text === 'string') this.summaryPart(item, ev).text = ev.text;
        return;
      case 'response.reasoning_text.delta':
      case 'response.reasoning_text.done': {
        const part = elementAt(item, 'content', ev.content_index, () => ({ type: 'reasoning_text', text: '' }));
        if (type === 'response.reasoning_text.delta') append(part, 'text', ev.delta);
        else if (typeof ev.text === 'string') part.text = ev.text;
        return;
      }
      default:
        return; // progress events (searching, generating, partial images, …) carry nothing the done item lacks
    }
  }

  private summaryPart(item: Obj, ev: Obj): Obj {
    return elementAt(item, 'summary', ev.summary_index, () => ({ type: 'summary_text', text: '' }));
  }

  private build(final: boolean): Turn {
    const resp = this.terminal ?? this.response ?? {};
    const fromResponse = this.terminal && Array.isArray(this.terminal.output) ? this.terminal.output : [];
    const indices = [...new Set([...this.slots.keys(), ...fromResponse.keys()])].sort((a, b) => a - b);
    const warnings = [...this.warnings];
    const items: unknown[] = [];
    const blocks: Block[] = [];
    for (const i of indices) {
      const slot = this.slots.get(i);
      const final = slot?.done ? slot.item : isRecord(fromResponse[i]) ? (fromResponse[i] as Obj) : undefined;
      let item = final ?? slot?.item;
      if (!item) continue;
      const complete = final !== undefined;
      // R-K3: an unfinished reasoning item's encrypted_content may be incomplete; never keep it.
      if (!complete && item.type === 'reasoning' && 'encrypted_content' in item) {
        item = { ...item };
        delete item.encrypted_content;
      }
      items.push(item);
      try {
        blocks.push(...outputItemBlocks(item, ['output', i], { incomplete: !complete }));
      } catch (e) {
        warnings.push(`output item ${i} not readable: ${(e as Error).message}`);
      }
    }
    let outcome: ResponseOutcome;
    if (this.error) outcome = { status: 'error', error: this.error };
    else if (this.terminal) outcome = responseOutcome(this.terminal, items);
    else outcome = { status: final ? 'interrupted' : 'streaming' };
    return buildResponsesTurn({
      ctx: this.ctx,
      model: typeof resp.model === 'string' && resp.model ? resp.model : undefined,
      responseId: typeof resp.id === 'string' && resp.id ? resp.id : undefined,
      outcome,
      blocks,
      items: this.started ? items : undefined,
      usage: resp.usage,
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
 * A stream assembler for one Responses API response. Feed it each event as the SDK yields it
 * (`{type: "response.…", …}`). The turn is final once `response.completed`,
 * `response.incomplete` (complete, stop reason from `incomplete_details.reason`) or
 * `response.failed` (`status: 'error'`) arrived; cut before that, `finish()` gives `interrupted`
 * with every item so far kept (unfinished function calls as partial tool calls, unfinished
 * reasoning without signature, R-K3). An `error` event gives `status: 'error'` with
 * `error: {type: code, message}` and the partial content kept; later events are ignored. Output
 * items come from `response.output_item.done`, else the terminal response's `output`. Never
 * throws; malformed events are listed in `turn.meta.warnings`. Fields as `readOpenAIResponsesResponse`.
 */
export function createOpenAIResponsesStreamAssembler(ctx: ReadContext): StreamAssembler {
  return guardAssembler(new ResponsesStreamAssembler(ctx), ctx, 'openai-responses');
}

/**
 * A whole recorded stream that may hold several responses one after another → one turn per
 * response, split at each `response.created`. With several turns, a given `ctx.turnId` gets the
 * suffixes `-1`, `-2`, ….
 */
export function readOpenAIResponsesStreamEvents(events: unknown[], ctx: ReadContext): Turn[] {
  const turns: Turn[] = [];
  let cur: GuardedAssembler<ResponsesStreamAssembler> | undefined;
  for (const ev of events) {
    if (cur?.inner.started && isRecord(ev) && ev.type === 'response.created') {
      turns.push(cur.finish());
      cur = undefined;
    }
    cur ??= guardAssembler(new ResponsesStreamAssembler(ctx), ctx, 'openai-responses');
    cur.push(ev);
  }
  if (cur) turns.push(cur.finish());
  if (ctx.turnId && turns.length > 1) return turns.map((t, i) => ({ ...t, id: `${ctx.turnId}-${i + 1}` }));
  return turns;
}
