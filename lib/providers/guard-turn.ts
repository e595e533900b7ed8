/**
 * The last step of every reader (docs/security.md): a turn leaves a reader only once the transcript
 * decoder accepts it. A provider value the schema cannot hold (a usage count above 2^53, a stop
 * reason it does not know, a block with a `__proto__` key, …) becomes a reported conversion,
 * listed in `turn.meta.warnings` — never an exception and never a stored turn that fails to
 * decode. A stream assembler is wrapped the same way, and an exception from its own code (a bug
 * or an event order nobody foresaw) becomes a warning too, so a reader never throws on provider
 * content (transcript-v1.md, "Readers").
 */
import { assertNoPrototypeKeys, decodeTurn } from '../transcript/codec';
import {
  BLOCKS_ALLOWED_IN,
  blockSchema,
  metaSchema,
  nativeSchema,
  originSchema,
  stopReasonSchema,
  turnErrorSchema,
  turnSchema,
  turnStatusSchema,
  usageSchema,
  type Block,
  type Origin,
  type Turn,
  type Usage,
  type WireApi,
} from '../transcript/schema';
import type { ReadContext, StreamAssembler } from './types';

// Read on first use, so loading this module does not build the schema (docs/architecture.md#the-service-workers-start-up).
let usageKeys: (keyof Usage)[] | undefined;

/** True when `value` passes the zod `schema` and holds no prototype-named key (I2). */
function holds(schema: { safeParse(v: unknown): { success: boolean } }, value: unknown): boolean {
  if (!schema.safeParse(value).success) return false;
  try {
    assertNoPrototypeKeys(value);
    return true;
  } catch {
    return false;
  }
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'function') return 'a function';
  if (v === null || typeof v !== 'object') return String(v);
  return Array.isArray(v) ? 'an array' : 'an object';
}

/** The origin a reader gives when the turn's own cannot be kept. */
function fallbackOrigin(ctx: ReadContext, api: WireApi): Origin {
  const origin: Origin = { provider: ctx.provider || 'unknown', api, model: ctx.requestedModel || 'unknown' };
  return holds(originSchema, origin) ? origin : { provider: 'unknown', api, model: 'unknown' };
}

/**
 * Returns `turn` itself when the transcript decoder accepts it, else a repaired copy: each field
 * the schema cannot hold is dropped or replaced (unknown stop reason → `other`, unsafe usage
 * count → dropped, invalid block → dropped, invalid `native` → dropped, invalid status → `error`),
 * and every repair is a line in `meta.warnings`. Never throws; the result always decodes.
 * @param api the reader's wire API (for a replacement origin).
 */
export function guardTurn(turn: Turn, ctx: ReadContext, api: WireApi): Turn {
  try {
    decodeTurn(turn);
    return turn;
  } catch {
    return repairTurn(turn as unknown, ctx, api);
  }
}

function repairTurn(value: unknown, ctx: ReadContext, api: WireApi): Turn {
  const t = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const notes: string[] = [];
  const out: Turn = {
    id: typeof t.id === 'string' && t.id ? t.id : (ctx.turnId ?? 'assistant'),
    role: 'assistant',
    blocks: [],
  };
  if (holds(originSchema, t.origin)) out.origin = t.origin as Origin;
  else {
    out.origin = fallbackOrigin(ctx, api);
    notes.push(`origin ${describe(t.origin)} cannot be stored: replaced by the requested one`);
  }
  if (t.createdAt !== undefined && turnSchema.shape.createdAt.safeParse(t.createdAt).success)
    out.createdAt = t.createdAt as string;
  if (turnStatusSchema.safeParse(t.status).success) out.status = t.status as Turn['status'];
  else {
    out.status = 'error';
    notes.push(`status ${describe(t.status)} is not a turn status: the turn ends as an error`);
  }
  if (t.stopReason !== undefined) {
    if (stopReasonSchema.safeParse(t.stopReason).success) out.stopReason = t.stopReason as Turn['stopReason'];
    else {
      out.stopReason = 'other';
      notes.push(`stop reason ${describe(t.stopReason)} is not one the transcript knows: stored as "other"`);
    }
  }
  if (t.usage !== undefined) {
    const usage: Usage = {};
    const raw = (t.usage !== null && typeof t.usage === 'object' ? t.usage : {}) as Record<string, unknown>;
    for (const key of (usageKeys ??= Object.keys(usageSchema.shape) as (keyof Usage)[])) {
      const v = Object.hasOwn(raw, key) ? raw[key] : undefined;
      if (v === undefined) continue;
      if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) usage[key] = v;
      else
        notes.push(
          `usage.${key} ${describe(v)} is not a token count the transcript can hold (an integer from 0 to 2^53−1): dropped`,
        );
    }
    if (Object.keys(usage).length) out.usage = usage;
  }
  if (t.error !== undefined) {
    if (holds(turnErrorSchema, t.error)) out.error = t.error as Turn['error'];
    else {
      const e = (t.error !== null && typeof t.error === 'object' ? t.error : {}) as Record<string, unknown>;
      out.error = {
        type: typeof e.type === 'string' && e.type ? e.type : 'error',
        message: typeof e.message === 'string' ? e.message : '',
      };
    }
  }
  const allowed = BLOCKS_ALLOWED_IN.assistant;
  (Array.isArray(t.blocks) ? (t.blocks as unknown[]) : []).forEach((b, j) => {
    if (holds(blockSchema, b) && allowed.includes((b as Block).type)) out.blocks.push(b as Block);
    else
      notes.push(
        `block ${j} (${describe((b as { type?: unknown } | null)?.type)}) cannot be stored as the transcript defines blocks: dropped`,
      );
  });
  if (t.native !== undefined) {
    if (holds(nativeSchema, t.native)) out.native = t.native as Turn['native'];
    else
      notes.push(
        'the provider message (native) holds values the transcript cannot store: dropped, so the turn will not be replayed as is',
      );
  }
  const meta: Record<string, unknown> = holds(metaSchema, t.meta) ? { ...(t.meta as Record<string, unknown>) } : {};
  if (t.meta !== undefined && !holds(metaSchema, t.meta))
    notes.push('turn metadata holds values the transcript cannot store: dropped');
  const earlier = Array.isArray(meta.warnings)
    ? (meta.warnings as unknown[]).filter((w): w is string => typeof w === 'string')
    : [];
  meta.warnings = [...earlier, ...notes];
  out.meta = meta;
  try {
    return decodeTurn(out) && out;
  } catch (e) {
    // Unreachable by construction; kept so that the promise "always decodes" holds regardless.
    return {
      id: out.id,
      role: 'assistant',
      origin: fallbackOrigin(ctx, api),
      status: 'error',
      blocks: [],
      error: { type: 'invalid_response', message: `The answer could not be read: ${(e as Error).message}` },
      meta: { warnings: notes },
    };
  }
}

/**
 * A {@link StreamAssembler} whose output always decodes and which never throws: an exception
 * from `push` is recorded as a warning (the event is ignored), an exception while building the
 * turn gives an `error` turn, and every turn goes through {@link guardTurn}. `inner` is the
 * wrapped assembler (for readers that inspect their own state between events).
 */
export class GuardedAssembler<A extends StreamAssembler> implements StreamAssembler {
  private readonly failures: string[] = [];
  private count = 0;

  constructor(
    readonly inner: A,
    private readonly ctx: ReadContext,
    private readonly api: WireApi,
  ) {}

  get done(): boolean {
    return this.inner.done;
  }

  push(event: unknown): void {
    const n = this.count++;
    try {
      this.inner.push(event);
    } catch (e) {
      this.failures.push(
        `event ${n}: could not be read (${String((e as Error)?.message ?? e).slice(0, 200)}): ignored`,
      );
    }
  }

  snapshot(): Turn {
    return this.safe(() => this.inner.snapshot());
  }

  finish(): Turn {
    return this.safe(() => this.inner.finish());
  }

  private safe(build: () => Turn): Turn {
    let turn: Turn;
    try {
      turn = build();
    } catch (e) {
      turn = {
        id: this.ctx.turnId ?? 'assistant',
        role: 'assistant',
        origin: fallbackOrigin(this.ctx, this.api),
        status: 'error',
        blocks: [],
        error: {
          type: 'invalid_response',
          message: `The answer could not be read: ${String((e as Error)?.message ?? e).slice(0, 300)}`,
        },
      };
    }
    if (this.failures.length) {
      const earlier = Array.isArray(turn.meta?.warnings) ? (turn.meta.warnings as unknown[]) : [];
      turn = { ...turn, meta: { ...(turn.meta ?? {}), warnings: [...earlier, ...this.failures] } };
    }
    return guardTurn(turn, this.ctx, this.api);
  }
}

/** Wraps `inner` in a {@link GuardedAssembler}. */
export function guardAssembler<A extends StreamAssembler>(
  inner: A,
  ctx: ReadContext,
  api: WireApi,
): GuardedAssembler<A> {
  return new GuardedAssembler(inner, ctx, api);
}
