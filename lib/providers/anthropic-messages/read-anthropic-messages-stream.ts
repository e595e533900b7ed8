/**
 * Anthropic Messages stream events → one Baton assistant turn per message.
 *
 * Events are the JSON of SSE `data:` lines as the SDK yields them: `message_start`,
 * `content_block_start` / `_delta` / `_stop`, `message_delta`, `message_stop`, `ping`, `error`
 * (https://docs.anthropic.com/en/api/messages-streaming). The assembler rebuilds the `Message`
 * the way the SDK's `MessageStream` does (blocks appended on start, deltas addressed by index,
 * `signature_delta` and `compaction_delta` assigned, citations appended, tool input JSON
 * parsed on `content_block_stop`) and reads it with {@link buildAnthropicTurn}.
 */
import type { Turn, TurnError } from '../../transcript/schema';
import type { ReadContext, StreamAssembler } from '../types';
import { isObject, type JsonObject } from './read-anthropic-messages-content';
import { buildAnthropicTurn, readAnthropicError } from './read-anthropic-messages-response';
import { guardAssembler } from '../guard-turn';

/** Blocks whose `input` streams as `input_json_delta` (SDK `tracksToolInput`). */
const TOOL_INPUT_TYPES = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/** Message-level keys copied from `message_start` and `message_delta`. */
const DELTA_KEYS = ['stop_reason', 'stop_sequence', 'stop_details', 'container'] as const;

class AnthropicStreamAssembler implements StreamAssembler {
  private message: JsonObject | undefined;
  private content: JsonObject[] = [];
  /** Event `index` → position in `content` (a message_start may already hold content). */
  private readonly positions = new Map<number, number>();
  /** Content position → input JSON text received so far. */
  private readonly json = new Map<number, string>();
  /** Content positions started but not yet stopped. */
  private readonly open = new Set<number>();
  /** Content positions whose input JSON was complete but unparsable → raw text. */
  private readonly badJson = new Map<number, string>();
  private readonly warnings: string[] = [];
  private error: TurnError | undefined;
  private count = 0;
  done = false;

  constructor(private readonly ctx: ReadContext) {}

  push(event: unknown): void {
    const n = this.count++;
    if (!isObject(event) || typeof event.type !== 'string') return this.warn(n, 'not a stream event object');
    if (this.done) return this.warn(n, `${event.type} after the end of the message ignored`);
    switch (event.type) {
      case 'message_start':
        return this.start(n, event);
      case 'content_block_start':
        return this.blockStart(n, event);
      case 'content_block_delta':
        return this.blockDelta(n, event);
      case 'content_block_stop':
        return this.blockStop(n, event);
      case 'message_delta':
        return this.messageDelta(event);
      case 'message_stop':
        this.done = true;
        return;
      case 'error':
        // P3: a provider error mid-stream ends the turn; the partial content is kept.
        this.error = readAnthropicError(event.error);
        this.done = true;
        return;
      case 'ping':
        return;
      default:
        return this.warn(n, `unknown event type ${JSON.stringify(event.type)} ignored`);
    }
  }

  snapshot(): Turn {
    return this.build(this.error ? 'error' : this.done ? 'complete' : 'streaming');
  }

  finish(): Turn {
    return this.build(this.error ? 'error' : this.done ? 'complete' : 'interrupted');
  }

  private warn(n: number, problem: string): void {
    this.warnings.push(`event ${n}: ${problem}`);
  }

  private start(n: number, event: JsonObject): void {
    if (this.message) return this.warn(n, 'second message_start ignored (one assembler reads one message)');
    const m = isObject(event.message) ? event.message : {};
    this.message = { ...m, usage: isObject(m.usage) ? { ...m.usage } : undefined };
    // A message_start may already carry content (programmatic tool calling replays calls this way).
    const own = Array.isArray(m.content) ? m.content.map((c) => (isObject(c) ? c : { type: 'invalid', value: c })) : [];
    // Blocks started before message_start (a broken or hostile stream) keep their positions; the
    // message's own content follows them (docs/security.md: resetting content but not positions threw).
    if (this.content.length > 0)
      this.warn(n, `message_start after ${this.content.length} content block(s): those blocks are kept first`);
    this.content = [...this.content, ...own];
  }

  private position(n: number, event: JsonObject): number | undefined {
    const pos = typeof event.index === 'number' ? this.positions.get(event.index) : undefined;
    if (pos === undefined)
      this.warn(n, `${String(event.type)} for unknown index ${JSON.stringify(event.index)} ignored`);
    return pos;
  }

  private blockStart(n: number, event: JsonObject): void {
    if (typeof event.index !== 'number' || !isObject(event.content_block))
      return this.warn(n, 'malformed content_block_start ignored');
    const pos = this.content.length;
    this.content.push({ ...event.content_block });
    this.positions.set(event.index, pos);
    this.open.add(pos);
  }

  private blockDelta(n: number, event: JsonObject): void {
    const pos = this.position(n, event);
    if (pos === undefined) return;
    const d = isObject(event.delta) ? event.delta : {};
    const b = this.content[pos];
    if (!b) return this.warn(n, `${String(d.type)} for a missing block ignored`);
    const mismatch = () => this.warn(n, `${String(d.type)} for a ${String(b.type)} block ignored`);
    // Blocks are replaced, never mutated, so earlier snapshots stay as they were.
    switch (d.type) {
      case 'text_delta':
        if (b.type !== 'text' || typeof d.text !== 'string') return mismatch();
        this.content[pos] = { ...b, text: String(b.text ?? '') + d.text };
        return;
      case 'thinking_delta':
        if (b.type !== 'thinking' || typeof d.thinking !== 'string') return mismatch();
        this.content[pos] = { ...b, thinking: String(b.thinking ?? '') + d.thinking };
        return;
      case 'signature_delta':
        if (b.type !== 'thinking' || typeof d.signature !== 'string') return mismatch();
        this.content[pos] = { ...b, signature: d.signature };
        return;
      case 'citations_delta':
        if (b.type !== 'text') return mismatch();
        this.content[pos] = { ...b, citations: [...(Array.isArray(b.citations) ? b.citations : []), d.citation] };
        return;
      case 'input_json_delta':
        if (!TOOL_INPUT_TYPES.has(String(b.type)) || typeof d.partial_json !== 'string') return mismatch();
        this.json.set(pos, (this.json.get(pos) ?? '') + d.partial_json);
        return;
      case 'compaction_delta': {
        if (b.type !== 'compaction') return mismatch();
        const next: JsonObject = { ...b, content: d.content };
        if ('encrypted_content' in d) next.encrypted_content = d.encrypted_content;
        this.content[pos] = next;
        return;
      }
      default:
        return this.warn(n, `unknown delta type ${JSON.stringify(d.type)} ignored`);
    }
  }

  private blockStop(n: number, event: JsonObject): void {
    const pos = this.position(n, event);
    if (pos === undefined) return;
    this.open.delete(pos);
    const raw = this.json.get(pos);
    if (raw === undefined || raw.trim() === '') return; // no arguments: keep the start's input (usually {})
    try {
      this.content[pos] = { ...this.content[pos]!, input: JSON.parse(raw) };
    } catch {
      this.badJson.set(pos, raw);
      this.content[pos] = { ...this.content[pos]!, input: {} };
      this.warn(n, `tool input of content[${pos}] is not valid JSON`);
    }
  }

  private messageDelta(event: JsonObject): void {
    const m = (this.message ??= {});
    const d = isObject(event.delta) ? event.delta : {};
    for (const key of DELTA_KEYS) if (d[key] !== undefined) m[key] = d[key];
    if (event.context_management != null) m.context_management = event.context_management;
    // A-B5: final in message_start; a message_delta carries it only after a server-side fallback, and then replaces it.
    if (Array.isArray(event.input_transformations)) m.input_transformations = event.input_transformations;
    // Usage counters in message_delta are cumulative totals: overwrite those present.
    if (isObject(event.usage)) {
      const usage: JsonObject = { ...(isObject(m.usage) ? m.usage : {}) };
      for (const [k, v] of Object.entries(event.usage)) if (v != null) usage[k] = v;
      m.usage = usage;
    }
  }

  private build(status: Turn['status'] & string): Turn {
    const partial = new Map(this.badJson);
    const content = this.content.map((b, pos) => {
      const raw = this.json.get(pos);
      if (!this.open.has(pos)) return b;
      if (TOOL_INPUT_TYPES.has(String(b.type))) partial.set(pos, raw ?? '');
      if (raw === undefined || raw.trim() === '') return b;
      try {
        return { ...b, input: JSON.parse(raw) as unknown };
      } catch {
        return { ...b, input: {} };
      }
    });
    const message = { ...(this.message ?? {}), content };
    const state = {
      status,
      partial,
      warnings: this.warnings,
      lenient: true,
      ...(this.error ? { error: this.error } : {}),
    };
    return buildAnthropicTurn(message, this.ctx, state);
  }
}

/**
 * Creates an assembler for one Anthropic Messages stream. `snapshot()` gives the partial turn
 * (`status: "streaming"`); `finish()` gives `complete` only after `message_stop`, `error` after
 * an `error` event (partial content kept, `error: {type, message}` from the provider, P3), else
 * `interrupted`. A tool call whose input JSON never completed keeps `meta.partial: true` and
 * `meta.rawArguments` (its input is the parsed text, or `{}` when unparsable). Never throws:
 * unusable events are listed in `turn.meta.warnings`.
 */
export function createAnthropicMessagesStreamAssembler(ctx: ReadContext): StreamAssembler {
  return guardAssembler(new AnthropicStreamAssembler(ctx), ctx, 'anthropic-messages');
}

/**
 * Reads a whole recorded stream that may hold several messages one after another (split at each
 * `message_start`) into one turn per message, each via the assembler. A message cut by the next
 * `message_start` ends `interrupted`. With several turns and `ctx.turnId`, ids are
 * `<turnId>-1`, `<turnId>-2`, …
 */
export function readAnthropicMessagesStreamEvents(events: readonly unknown[], ctx: ReadContext): Turn[] {
  const groups: unknown[][] = [];
  let current: unknown[] | undefined;
  let started = false;
  for (const event of events) {
    const isStart = isObject(event) && event.type === 'message_start';
    if (!current || (isStart && started)) {
      current = [];
      groups.push(current);
      started = false;
    }
    if (isStart) started = true;
    current.push(event);
  }
  return groups.map((group, i) => {
    const turnCtx = ctx.turnId && groups.length > 1 ? { ...ctx, turnId: `${ctx.turnId}-${i + 1}` } : ctx;
    const assembler = createAnthropicMessagesStreamAssembler(turnCtx);
    for (const event of group) assembler.push(event);
    return assembler.finish();
  });
}
