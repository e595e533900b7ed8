/**
 * Interactions SSE events → one Baton assistant turn per interaction (provider-rules-2026-gemini.md
 * §9, GI-S1–GI-S3, GI-E1).
 *
 * Each event is the JSON of one SSE `data:` line, told apart by `event_type`:
 * `interaction.created` → `interaction.status_update` → (`step.start` → `step.delta`* →
 * `step.stop`)+ → `interaction.completed`, with `error` events possible. `index` ties deltas to
 * their step. The assembler rebuilds the Interaction object (its `steps` as the unary response
 * would hold them) and reads it like a response, so a streamed turn and a unary one are the same.
 */
import type { Turn, TurnError } from '../../transcript/schema';
import type { ReadContext, StreamAssembler } from '../types';
import { guardAssembler } from '../guard-turn';
import { buildInteractionsTurn, readInteractionsError } from './read-gemini-interactions-response';
import { GEMINI_INTERACTIONS_API, isObject, type JsonObject } from './read-gemini-interactions-steps';

/** A step being assembled. */
interface OpenStep {
  step: JsonObject;
  /** `arguments_delta` pieces (GI-S1: a JSON string, parsed at `step.stop`). */
  args?: string;
  stopped: boolean;
}

class InteractionsStreamAssembler implements StreamAssembler {
  private readonly interaction: JsonObject = {};
  private readonly steps = new Map<number, OpenStep>();
  private readonly warnings: string[] = [];
  private error: TurnError | undefined;
  private lastUsage: unknown;
  private count = 0;
  done = false;

  constructor(private readonly ctx: ReadContext) {}

  push(event: unknown): void {
    const n = this.count++;
    if (!isObject(event)) return this.warn(n, 'not an Interactions SSE event object');
    if (this.done) return this.warn(n, `${String(event.event_type)} after the end of the interaction ignored`);
    switch (event.event_type) {
      case 'interaction.created':
      case 'interaction.completed': {
        const i = isObject(event.interaction) ? event.interaction : {};
        for (const [k, v] of Object.entries(i)) if (k !== 'steps') this.interaction[k] = v;
        if (event.event_type === 'interaction.completed') this.done = true; // GI-S2
        return;
      }
      case 'interaction.status_update':
        if (typeof event.status === 'string') this.interaction.status = event.status;
        if (typeof event.continuation_token === 'string')
          this.interaction.continuation_token = event.continuation_token;
        if (event.usage !== undefined) this.lastUsage = event.usage;
        return;
      case 'step.start':
        return this.start(n, event);
      case 'step.delta':
        return this.delta(n, event);
      case 'step.stop': {
        const open = this.at(n, event);
        if (!open) return;
        this.close(open);
        if (event.usage !== undefined) this.lastUsage = event.usage;
        return;
      }
      case 'error':
        // GI-E1: an error event ends the turn; the partial content is kept.
        this.error = readInteractionsError(event.error);
        this.done = true;
        return;
      default:
        return this.warn(n, `unknown event_type ${JSON.stringify(event.event_type)} ignored`);
    }
  }

  snapshot(): Turn {
    return this.build(this.error ? 'error' : this.done ? undefined : 'streaming');
  }

  finish(): Turn {
    return this.build(this.error ? 'error' : this.done ? undefined : 'interrupted');
  }

  private warn(n: number, problem: string): void {
    this.warnings.push(`event ${n}: ${problem}`);
  }

  private at(n: number, event: JsonObject): OpenStep | undefined {
    const open = typeof event.index === 'number' ? this.steps.get(event.index) : undefined;
    if (!open)
      this.warn(n, `${String(event.event_type)} for unknown step index ${JSON.stringify(event.index)} ignored`);
    return open;
  }

  private start(n: number, event: JsonObject): void {
    if (typeof event.index !== 'number' || !isObject(event.step) || typeof event.step.type !== 'string')
      return this.warn(n, 'step.start without an index and a typed step ignored');
    if (this.steps.has(event.index)) return this.warn(n, `step ${event.index} started twice: ignored`);
    this.steps.set(event.index, { step: structuredClone(event.step), stopped: false });
  }

  private delta(n: number, event: JsonObject): void {
    const open = this.at(n, event);
    if (!open) return;
    if (isObject(event.metadata) && event.metadata.total_usage !== undefined)
      this.lastUsage = event.metadata.total_usage;
    const d = isObject(event.delta) ? event.delta : undefined;
    if (!d || typeof d.type !== 'string') return this.warn(n, 'step.delta without a typed delta ignored');
    const step = open.step;
    switch (d.type) {
      case 'text':
        if (typeof d.text === 'string') appendContent(step, 'content', { type: 'text', text: d.text });
        return;
      case 'thought_signature':
        // Signatures are opaque and whole (G-K9): pieces are joined, never re-encoded.
        if (typeof d.signature === 'string')
          step.signature = (typeof step.signature === 'string' ? step.signature : '') + d.signature;
        return;
      case 'thought_summary':
        if (isObject(d.content)) appendContent(step, 'summary', d.content);
        return;
      case 'arguments_delta':
        if (typeof d.arguments === 'string') open.args = (open.args ?? '') + d.arguments;
        return;
      case 'image':
      case 'audio':
      case 'document':
      case 'video': {
        const { type, ...rest } = d;
        appendContent(step, 'content', { type, ...rest });
        return;
      }
      default: {
        // A built-in tool delta (GI-S1): its fields onto the step, as the unary step would hold them.
        const { type: _t, ...rest } = d;
        Object.assign(step, rest);
      }
    }
  }

  /** `step.stop`: the streamed arguments are complete; parse them (GI-S1). */
  private close(open: OpenStep): void {
    open.stopped = true;
    if (open.args === undefined) return;
    try {
      const parsed = JSON.parse(open.args) as unknown;
      open.step.arguments = isObject(parsed) ? parsed : { value: parsed };
      open.args = undefined;
    } catch {
      open.stopped = false; // unparseable: kept as a partial call
    }
  }

  private build(status: Turn['status']): Turn {
    const indices = [...this.steps.keys()].sort((a, b) => a - b);
    const steps: JsonObject[] = [];
    const partial = new Map<number, string>();
    for (const i of indices) {
      const open = this.steps.get(i)!;
      const step = { ...open.step };
      if (step.type === 'function_call' && (open.args !== undefined || !open.stopped)) {
        partial.set(steps.length, open.args ?? '');
        if (open.args !== undefined) step.arguments = bestEffortArgs(open.args);
      }
      steps.push(step);
    }
    const interaction: JsonObject = { ...this.interaction, steps };
    if (interaction.usage === undefined && this.lastUsage !== undefined) interaction.usage = this.lastUsage; // GI-S3
    return buildInteractionsTurn(interaction, this.ctx, {
      ...(status ? { status } : {}),
      ...(this.error ? { error: this.error } : {}),
      partial,
      warnings: this.warnings,
    });
  }
}

/** Appends a content item to `step[key]`, joining consecutive text pieces. */
function appendContent(step: JsonObject, key: 'content' | 'summary', item: JsonObject): void {
  const list = Array.isArray(step[key]) ? [...(step[key] as unknown[])] : [];
  const last = list[list.length - 1];
  if (item.type === 'text' && isObject(last) && last.type === 'text' && Object.keys(last).length === 2)
    list[list.length - 1] = { ...last, text: String(last.text) + String(item.text) };
  else list.push({ ...item });
  step[key] = list;
}

/** The arguments streamed so far of a cut-off call, as an object when they parse, else `{}`. */
function bestEffortArgs(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return isObject(v) ? v : {};
  } catch {
    return {};
  }
}

/**
 * Creates an assembler for one Interactions stream. `snapshot()` gives the partial turn
 * (`streaming`); `finish()` gives the status `interaction.completed` says (GI-S2), `error` after an
 * `error` event (GI-E1, partial content kept), else `interrupted`. A function call whose
 * `arguments_delta` pieces never completed keeps `meta.partial: true` and `meta.rawArguments`.
 * Never throws: unusable events are listed in `turn.meta.warnings`.
 */
export function createGeminiInteractionsStreamAssembler(ctx: ReadContext): StreamAssembler {
  return guardAssembler(new InteractionsStreamAssembler(ctx), ctx, GEMINI_INTERACTIONS_API);
}

/**
 * Reads a whole recorded stream that may hold several interactions one after another into one turn
 * per interaction: a new one starts at each `interaction.created` (or at any event after the
 * current one ended). With several turns and `ctx.turnId`, ids are `<turnId>-1`, `<turnId>-2`, …
 */
export function readGeminiInteractionsStreamEvents(events: readonly unknown[], ctx: ReadContext): Turn[] {
  const groups: unknown[][] = [];
  let current: unknown[] | undefined;
  let probe: StreamAssembler | undefined;
  for (const event of events) {
    const created = isObject(event) && event.event_type === 'interaction.created';
    if (!current || (created && current.length > 0) || probe!.done) {
      current = [];
      groups.push(current);
      probe = createGeminiInteractionsStreamAssembler(ctx);
    }
    current.push(event);
    probe!.push(event);
  }
  return groups.map((group, i) => {
    const assembler = createGeminiInteractionsStreamAssembler(
      ctx.turnId && groups.length > 1 ? { ...ctx, turnId: `${ctx.turnId}-${i + 1}` } : ctx,
    );
    for (const event of group) assembler.push(event);
    return assembler.finish();
  });
}
