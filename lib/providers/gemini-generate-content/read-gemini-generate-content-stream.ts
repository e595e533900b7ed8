/**
 * Gemini `streamGenerateContent` chunks → one Baton assistant turn per response.
 *
 * Each event is one `GenerateContentResponse` (the JSON of one SSE `data:` line, or one element
 * of the non-SSE JSON array). Parts are accumulated: consecutive unsigned text pieces of the same
 * kind (thought or not) are joined; a part carrying a `thoughtSignature` is never merged with
 * another (G-K1, G-K2) — including the empty final text part Gemini 3 signs (G-E2); an empty,
 * unsigned text piece is an empty delta and adds nothing. Function calls whose arguments stream
 * as `partialArgs` / `willContinue` (Vertex `streamFunctionCallArguments`) are assembled into
 * one `functionCall` part.
 */
import type { Turn, TurnError } from '../../transcript/schema';
import type { ReadContext, StreamAssembler } from '../types';
import { isObject, partView, type JsonObject } from './read-gemini-generate-content-parts';
import { buildGeminiTurn, readGeminiError } from './read-gemini-generate-content-response';
import { guardAssembler } from '../guard-turn';

const CANDIDATE_KEYS = [
  'finishReason',
  'finishMessage',
  'safetyRatings',
  'groundingMetadata',
  'urlContextMetadata',
] as const;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** `$.a.b[0]["c"]` → `['a', 'b', 0, 'c']`; undefined when not a plain member/index path (RFC 9535 subset). */
export function parseJsonPath(path: string): (string | number)[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const out: (string | number)[] = [];
  const re = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[(?:'([^']*)'|"([^"]*)")\]/y;
  re.lastIndex = 1;
  while (re.lastIndex < path.length) {
    const m = re.exec(path);
    if (!m) return undefined;
    out.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? m[3] ?? m[4])!);
  }
  return out;
}

/** Sets `value` at `path` inside `root`, creating objects and arrays on the way. */
function setAt(root: JsonObject, path: (string | number)[], value: unknown): void {
  let cur: Record<string | number, unknown> = root;
  path.forEach((seg, i) => {
    if (i === path.length - 1) {
      cur[seg] = value;
      return;
    }
    const next = cur[seg];
    if (next === null || typeof next !== 'object') cur[seg] = typeof path[i + 1] === 'number' ? [] : {};
    cur = cur[seg] as Record<string | number, unknown>;
  });
}

/** A function call whose arguments are still streaming. */
interface OpenCall {
  pos: number;
  args: JsonObject;
  pieces: unknown[];
  /** jsonPaths whose string value continues in the next piece. */
  continuing: Set<string>;
}

class GeminiStreamAssembler implements StreamAssembler {
  private parts: JsonObject[] = [];
  private readonly top: JsonObject = {};
  private readonly candidate: JsonObject = {};
  private sawCandidate = false;
  private open: OpenCall | undefined;
  /** Part positions of calls that never completed → raw pieces (JSON text). */
  private readonly abandoned = new Map<number, string>();
  private readonly warnings: string[] = [];
  private readonly warned = new Set<string>();
  private error: TurnError | undefined;
  private count = 0;
  done = false;

  constructor(private readonly ctx: ReadContext) {}

  push(event: unknown): void {
    const n = this.count++;
    if (!isObject(event)) return this.warn(n, 'not a GenerateContentResponse object');
    if (this.error) return this.warn(n, 'chunk after the error ignored');
    if (event.error !== undefined) {
      // P3: an error chunk mid-stream ends the turn; the partial content is kept.
      this.error = readGeminiError(event.error);
      this.done = true;
      return;
    }
    for (const key of ['modelVersion', 'responseId', 'usageMetadata'] as const)
      if (event[key] !== undefined) this.top[key] = event[key];
    if (isObject(event.promptFeedback)) {
      this.top.promptFeedback = event.promptFeedback;
      if (typeof event.promptFeedback.blockReason === 'string' && !Array.isArray(event.candidates)) this.done = true;
    }
    if (event.candidates === undefined) return;
    if (!Array.isArray(event.candidates)) return this.warn(n, 'candidates is not an array');
    for (const c of event.candidates) {
      if (!isObject(c)) {
        this.warn(n, 'candidate is not an object');
        continue;
      }
      if (c.index !== undefined && c.index !== 0) {
        this.warnOnce(`candidate ${String(c.index)} ignored (only the first candidate is read)`);
        continue;
      }
      this.sawCandidate = true;
      const content = isObject(c.content) ? c.content : undefined;
      const parts = content && Array.isArray(content.parts) ? content.parts : [];
      if (parts.length && this.done) this.warn(n, 'parts after finishReason ignored');
      else for (const part of parts) this.applyPart(n, part);
      for (const key of CANDIDATE_KEYS) if (c[key] !== undefined) this.candidate[key] = c[key];
      if (isObject(c.citationMetadata) && Array.isArray(c.citationMetadata.citationSources)) {
        const prev =
          isObject(this.candidate.citationMetadata) && Array.isArray(this.candidate.citationMetadata.citationSources)
            ? this.candidate.citationMetadata.citationSources
            : [];
        this.candidate.citationMetadata = {
          ...c.citationMetadata,
          citationSources: [...prev, ...c.citationMetadata.citationSources],
        };
      }
      if (typeof c.finishReason === 'string') this.done = true;
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

  private warnOnce(problem: string): void {
    if (this.warned.has(problem)) return;
    this.warned.add(problem);
    this.warnings.push(problem);
  }

  private applyPart(n: number, part: unknown): void {
    if (!isObject(part)) return this.warn(n, 'part is not an object');
    const v = partView(part);
    if (isObject(v.functionCall)) return this.applyCall(n, part, v.functionCall);
    if (this.open) this.abandon(n);
    if (typeof v.text === 'string' && v.thoughtSignature === undefined) {
      if (v.text === '') return; // an empty delta
      const last = this.parts[this.parts.length - 1];
      const lv = last && partView(last);
      if (
        lv &&
        typeof lv.text === 'string' &&
        lv.thoughtSignature === undefined &&
        (lv.thought === true) === (v.thought === true)
      ) {
        this.parts[this.parts.length - 1] = { ...last, text: lv.text + v.text };
        return;
      }
    }
    this.parts.push({ ...part });
  }

  private applyCall(n: number, part: JsonObject, fc: JsonObject): void {
    const named = typeof fc.name === 'string' && fc.name !== '';
    if (this.open && !named) return this.continueCall(n, fc);
    if (this.open) this.abandon(n);
    if (!named) return this.warn(n, 'functionCall without a name and no call in progress ignored');
    if (fc.willContinue !== true) {
      this.parts.push({ ...part });
      return;
    }
    // Streamed arguments: keep the part (and its thoughtSignature), drop the streaming fields.
    const { willContinue: _w, partialArgs: _p, ...call } = fc;
    const pos = this.parts.length;
    this.open = { pos, args: isObject(fc.args) ? { ...fc.args } : {}, pieces: [], continuing: new Set() };
    this.parts.push({ ...part, functionCall: { ...call, args: this.open.args } });
    this.continueCall(n, fc);
  }

  private continueCall(n: number, fc: JsonObject): void {
    const open = this.open!;
    const pieces = Array.isArray(fc.partialArgs) ? fc.partialArgs : [];
    for (const piece of pieces) {
      open.pieces.push(piece);
      const p = isObject(piece) ? piece : {};
      const jsonPath = typeof p.jsonPath === 'string' ? p.jsonPath : '';
      const path = parseJsonPath(jsonPath);
      if (!path || path.length === 0 || path.some((s) => typeof s === 'string' && FORBIDDEN.has(s))) {
        this.warn(n, `partialArgs jsonPath ${JSON.stringify(jsonPath)} ignored`);
        continue;
      }
      let value: unknown;
      if (typeof p.stringValue === 'string') {
        const prev = open.continuing.has(jsonPath) ? readAt(open.args, path) : undefined;
        value = (typeof prev === 'string' ? prev : '') + p.stringValue;
      } else if (p.numberValue !== undefined) value = p.numberValue;
      else if (p.boolValue !== undefined) value = p.boolValue;
      else if (p.nullValue !== undefined) value = null;
      else value = p.structValue ?? p.listValue;
      setAt(open.args, path, value);
      if (p.willContinue === true) open.continuing.add(jsonPath);
      else open.continuing.delete(jsonPath);
    }
    const part = this.parts[open.pos]!;
    const key = 'functionCall' in part ? 'functionCall' : 'function_call';
    this.parts[open.pos] = { ...part, [key]: { ...(part[key] as JsonObject), args: structuredCloneJson(open.args) } };
    if (fc.willContinue !== true) this.open = undefined;
  }

  /** A streamed call interrupted by another part: kept, marked partial. */
  private abandon(n: number): void {
    const open = this.open!;
    this.abandoned.set(open.pos, JSON.stringify(open.pieces));
    this.warn(n, `function call in parts[${open.pos}] ended without its final piece`);
    this.open = undefined;
  }

  private build(status: Turn['status'] & string): Turn {
    const partial = new Map(this.abandoned);
    if (this.open) partial.set(this.open.pos, JSON.stringify(this.open.pieces));
    const response: JsonObject = { ...this.top };
    if (this.sawCandidate || this.parts.length)
      response.candidates = [{ ...this.candidate, content: { role: 'model', parts: [...this.parts] } }];
    const state = {
      status,
      partial,
      warnings: this.warnings,
      lenient: true,
      ...(this.error ? { error: this.error } : {}),
    };
    return buildGeminiTurn(response, this.ctx, state);
  }
}

function readAt(root: JsonObject, path: (string | number)[]): unknown {
  let cur: unknown = root;
  for (const seg of path)
    cur = cur !== null && typeof cur === 'object' ? (cur as Record<string | number, unknown>)[seg] : undefined;
  return cur;
}

/** Copy of a JSON value, so earlier snapshots do not change as arguments keep streaming. */
function structuredCloneJson<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/**
 * Creates an assembler for one Gemini stream. `snapshot()` gives the partial turn (`status:
 * "streaming"`); `finish()` gives `complete` only after a candidate with `finishReason` (or a
 * blocked prompt, which reads as `status: "error"`, `error.type: "blocked"`), `error` after an
 * error chunk (`{error: {code, message, status}}`, partial content kept, P3), else `interrupted`.
 * A function call whose streamed arguments never completed keeps `meta.partial: true`,
 * `meta.rawArguments` (the JSON of the `partialArgs` pieces received) and the arguments assembled
 * so far as its input. Never throws: unusable chunks are listed in `turn.meta.warnings`.
 */
export function createGeminiGenerateContentStreamAssembler(ctx: ReadContext): StreamAssembler {
  return guardAssembler(new GeminiStreamAssembler(ctx), ctx, 'gemini-generate-content');
}

/**
 * Reads a whole recorded stream that may hold several responses one after another into one turn
 * per response: a new response starts at a chunk whose `responseId` differs from the current
 * one, or at a chunk with candidates after the current response finished (or failed) when the
 * ids cannot tell. With several turns and
 * `ctx.turnId`, ids are `<turnId>-1`, `<turnId>-2`, …
 */
export function readGeminiGenerateContentStreamEvents(events: readonly unknown[], ctx: ReadContext): Turn[] {
  const groups: unknown[][] = [];
  let current: unknown[] | undefined;
  let probe: StreamAssembler | undefined;
  let responseId: string | undefined;
  for (const event of events) {
    const id = isObject(event) && typeof event.responseId === 'string' ? event.responseId : undefined;
    const startsNew =
      !current ||
      (id !== undefined && responseId !== undefined && id !== responseId) ||
      (probe!.done &&
        isObject(event) &&
        Array.isArray(event.candidates) &&
        event.candidates.length > 0 &&
        (id === undefined || responseId === undefined));
    if (startsNew) {
      current = [];
      groups.push(current);
      probe = createGeminiGenerateContentStreamAssembler(ctx);
      responseId = undefined;
    }
    responseId ??= id;
    current!.push(event);
    probe!.push(event);
  }
  return groups.map((group, i) => {
    const assembler = createGeminiGenerateContentStreamAssembler(
      ctx.turnId && groups.length > 1 ? { ...ctx, turnId: `${ctx.turnId}-${i + 1}` } : ctx,
    );
    for (const event of group) assembler.push(event);
    return assembler.finish();
  });
}
