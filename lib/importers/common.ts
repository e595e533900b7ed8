/**
 * What every importer shares: the per-conversation collector (transactional: a conversation is
 * either decoded whole or skipped with its reason), stable ids, the imported-system-prompt rule
 * (N5) and small readers for untrusted JSON.
 */
import { decodeTranscript, TranscriptError } from '../transcript/codec';
import { hashBase62 } from '../transcript/ids';
import type { Block, Meta, Transcript, Turn } from '../transcript/schema';
import { fenced, repairSurrogatesDeep, toWellFormed, truncateCodePoints } from '../transcript/text';
import type { ImportKind, ImportOptions, ImportResult, SkippedConversation } from './types';
import { isRecord, type JsonObject } from '../transcript/json';

export { isRecord, type JsonObject };

/** `v` when it is a non-empty string, else undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A stable, deterministic 16-character id for content that has no id of its own. */
export function contentHash(text: string): string {
  return hashBase62(text, 16);
}

/** The transcript id for a conversation of `kind` with source id `sourceId` (I3 idempotence: same file, same ids). */
export function stableId(kind: ImportKind, sourceId: string): string {
  return `${kind}:${sourceId}`;
}

const MAX_DATE_MS = 8.64e15;

/** Epoch seconds (ChatGPT `create_time`) → ISO 8601; undefined when not a usable number. */
export function isoFromSeconds(v: unknown): string | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 && v * 1000 < MAX_DATE_MS
    ? new Date(v * 1000).toISOString()
    : undefined;
}

/** Epoch milliseconds → ISO 8601; undefined when not a usable number. */
export function isoFromMs(v: unknown): string | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 && v < MAX_DATE_MS
    ? new Date(v).toISOString()
    : undefined;
}

/** A date string → normalised ISO 8601 (`…Z`); undefined when it does not parse. */
export function isoFromString(v: unknown): string | undefined {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** A short title from a message: its first non-blank line, at most 80 characters. */
export function titleFrom(text: string | undefined): string | undefined {
  const line = text
    ?.split('\n')
    .find((l) => l.trim() !== '')
    ?.trim();
  if (!line) return undefined;
  // Cut on code points, so an emoji at the cut is kept whole or left out (docs/security.md).
  return truncateCodePoints(toWellFormed(line), 80);
}

/** The first text of the first user turn, for a title. */
export function firstUserText(turns: readonly Turn[]): string | undefined {
  for (const t of turns) {
    if (t.role !== 'user') continue;
    for (const b of t.blocks) if (b.type === 'text' && b.text.trim()) return b.text;
  }
  return undefined;
}

/** The message of an error, for a skip reason. */
export function reasonOf(e: unknown): string {
  if (e instanceof TranscriptError) return e.message;
  if (e instanceof RangeError) return `too large or too deeply nested: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

/** Label of an imported system prompt sent as user text (N5, I4). */
export const IMPORTED_SYSTEM_LABEL = '[System prompt from the imported conversation, kept as user text]';

/**
 * N5 / I4: nothing imported is ever sent as a system prompt. The transcript's `system` becomes a
 * fenced, labelled text block at the start of the first user turn (a new user turn when the
 * conversation starts otherwise), with `meta.importedSystem: true`.
 */
export function systemToPreamble(t: Transcript): Transcript {
  if (t.system === undefined) return t;
  const { system, ...rest } = t;
  if (!system.trim()) return rest;
  const block: Block = { type: 'text', text: fenced(IMPORTED_SYSTEM_LABEL, system), meta: { importedSystem: true } };
  const [first, ...others] = rest.turns;
  if (first && first.role === 'user')
    return { ...rest, turns: [{ ...first, blocks: [block, ...first.blocks] }, ...others] };
  let id = 'imported-system';
  while (rest.turns.some((x) => x.id === id)) id += '_';
  return { ...rest, turns: [{ id, role: 'user', blocks: [block] }, ...rest.turns] };
}

/** Most warnings kept on one conversation. */
const MAX_WARNINGS = 50;

/** Caps a warning list, saying how many were left out. */
export function capWarnings(warnings: readonly string[]): string[] {
  if (warnings.length <= MAX_WARNINGS) return [...warnings];
  return [...warnings.slice(0, MAX_WARNINGS), `… and ${warnings.length - MAX_WARNINGS} more`];
}

/** What {@link Collector.add} needs to name a conversation in a skip record. */
export interface ConversationInfo {
  sourceId?: string;
  title?: string;
}

/** A conversation as an importer builds it; the collector finishes and decodes it. */
export interface Draft {
  /** Source id (the conversation's own id in the file); becomes `source.id` and the transcript id. */
  sourceId: string;
  title?: string;
  createdAt?: string;
  system?: string;
  turns: Turn[];
  /** Where it was imported from; default `{kind, id: sourceId}`. */
  source?: Transcript['source'];
  /** Id override (default `<kind>:<sourceId>`). */
  id?: string;
  tools?: Transcript['tools'];
  meta?: Meta;
  /** Things dropped or repaired on the way, kept in `meta.importWarnings`. */
  warnings?: string[];
}

/**
 * Collects the conversations of one file. Each is built by a callback: whatever it throws becomes
 * a skip record with the reason, so a broken conversation never stops the others and is never
 * half-imported (I3). Ids seen twice in one file are skipped the second time.
 */
export class Collector {
  private readonly conversations: Transcript[] = [];
  private readonly skipped: SkippedConversation[] = [];
  private readonly ids = new Set<string>();

  constructor(
    private readonly kind: ImportKind,
    private readonly opts: ImportOptions = {},
    /** File-level notes added to every conversation (e.g. dropped `__proto__` keys). */
    private readonly fileWarnings: readonly string[] = [],
  ) {}

  /** Builds, finishes and decodes one conversation, or records why it was skipped. */
  add(info: ConversationInfo, build: () => Draft | Transcript): void {
    try {
      const built = build();
      const t = 'format' in built ? this.withFileWarnings(built) : this.fromDraft(built);
      this.push(t, info);
    } catch (e) {
      this.skip(info, reasonOf(e));
    }
  }

  /** Records a conversation that cannot be imported. */
  skip(info: ConversationInfo, reason: string): void {
    const s: SkippedConversation = { reason };
    if (info.sourceId !== undefined) s.id = info.sourceId;
    if (info.title !== undefined) s.title = info.title;
    this.skipped.push(s);
  }

  result(): ImportResult {
    return { conversations: this.conversations, skipped: this.skipped };
  }

  private fromDraft(d: Draft): Transcript {
    if (d.turns.length === 0) throw new TranscriptError('turns', 'no importable messages');
    const t: Transcript = {
      format: 'baton.transcript',
      version: 1,
      id: d.id ?? stableId(this.kind, d.sourceId),
      source: d.source ?? { kind: this.kind, id: d.sourceId },
      turns: d.turns,
    };
    if (d.title !== undefined && d.title.trim()) t.title = d.title;
    if (d.createdAt !== undefined) t.createdAt = d.createdAt;
    if (d.system !== undefined) t.system = d.system;
    if (d.tools?.length) t.tools = d.tools;
    const meta: Meta = { ...(d.meta ?? {}) };
    const warnings = [...this.fileWarnings, ...(d.warnings ?? [])];
    if (warnings.length) meta.importWarnings = capWarnings(warnings);
    if (Object.keys(meta).length) t.meta = meta;
    return t;
  }

  private withFileWarnings(t: Transcript): Transcript {
    if (!this.fileWarnings.length) return t;
    const own = Array.isArray(t.meta?.importWarnings) ? (t.meta.importWarnings as unknown[]).map(String) : [];
    return { ...t, meta: { ...(t.meta ?? {}), importWarnings: capWarnings([...this.fileWarnings, ...own]) } };
  }

  private push(t: Transcript, info: ConversationInfo): void {
    let out = systemToPreamble(repairLoneSurrogates(t));
    if (this.opts.now !== undefined) out = { ...out, meta: { ...(out.meta ?? {}), importedAt: this.opts.now } };
    const decoded = decodeTranscript(out);
    if (this.ids.has(decoded.id))
      return this.skip(info, `duplicate conversation id ${JSON.stringify(decoded.id)} in the same file`);
    this.ids.add(decoded.id);
    this.conversations.push(decoded);
  }
}

/** The import-summary line of a conversation whose lone surrogates were repaired. */
export const SURROGATES_REPAIRED =
  'text with lone UTF-16 surrogates (half of a character such as an emoji) repaired: each replaced by U+FFFD';

/**
 * X6 on the way in (docs/security.md): nothing stored holds a lone UTF-16 surrogate. Returns `t` itself
 * when it has none, else a repaired copy with {@link SURROGATES_REPAIRED} in `meta.importWarnings`.
 */
export function repairLoneSurrogates(t: Transcript): Transcript {
  const repaired = repairSurrogatesDeep(t);
  if (repaired === t) return t;
  const own = Array.isArray(repaired.meta?.importWarnings)
    ? (repaired.meta.importWarnings as unknown[]).map(String)
    : [];
  return {
    ...repaired,
    meta: { ...(repaired.meta ?? {}), importWarnings: capWarnings([...own, SURROGATES_REPAIRED]) },
  };
}
