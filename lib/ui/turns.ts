/**
 * Pure helpers over turns and conversation metadata for the side panel: applying background
 * events to local state, and reading what to show (origins, provider switches, retry offers).
 */
import type { BackgroundEvent, ConversationMeta, ProviderStatus } from '../messaging/protocol';
import type { Block, Origin, Turn } from '../transcript/schema';
import { lookupTable } from '../transcript/lookup';

/** Replaces the turn with the same id, or appends it. */
export function upsertTurn(turns: readonly Turn[], turn: Turn): Turn[] {
  const i = turns.findIndex((t) => t.id === turn.id);
  if (i < 0) return [...turns, turn];
  const out = [...turns];
  out[i] = turn;
  return out;
}

type TextDelta = Extract<BackgroundEvent, { type: 'textDelta' }>;

/**
 * How a `textDelta` fits the turns: `apply` (it continues block `index`, or starts it at the end),
 * `have` (its text is already there: an earlier snapshot included it) or `gap` (text is missing
 * before it, or the turn or block is unknown: only a snapshot can repair that).
 */
export function deltaFit(turns: readonly Turn[], d: TextDelta): 'apply' | 'have' | 'gap' {
  const turn = turns.find((t) => t.id === d.turnId);
  if (!turn) return 'gap';
  const b = turn.blocks[d.index];
  if (b === undefined) return d.index === turn.blocks.length && d.at === 0 ? 'apply' : 'gap';
  if (b.type !== d.kind) return 'gap';
  const have = b.text.length;
  if (d.at > have) return 'gap';
  return d.at + d.text.length > have ? 'apply' : 'have';
}

/**
 * Streamed chunks behind a text or thinking block made by {@link applyTextDelta}: the block's
 * text is the text of the block the log started from plus `log[0..end)`. A renderer that showed the
 * block at `end = k` shows the next one by appending `log[k..end)`, without reading the whole text
 * (`components/markdown/markdown-view.tsx`; docs/architecture.md#streaming-to-the-side-panel).
 */
export interface AppendLog {
  log: string[];
  end: number;
}
const appendLogs = new WeakMap<object, AppendLog>();

/** The {@link AppendLog} of a block made by {@link applyTextDelta}, if it was. */
export function appendLogOf(block: object): AppendLog | undefined {
  return appendLogs.get(block);
}

/**
 * Appends a `textDelta` to block `index` of its turn (only the part not already there, see
 * {@link deltaFit}). A delta that does not fit (unknown turn, a gap, another block type) changes
 * nothing and returns `turns` itself: the caller asks for a snapshot (`resumeStream`).
 */
export function applyTextDelta(turns: readonly Turn[], d: TextDelta): Turn[] {
  if (deltaFit(turns, d) !== 'apply') return turns as Turn[];
  const i = turns.findIndex((t) => t.id === d.turnId);
  const turn = turns[i]!;
  const blocks = [...turn.blocks];
  const b = blocks[d.index] as Extract<Block, { type: 'text' | 'thinking' }> | undefined;
  const chunk = b && d.at < b.text.length ? d.text.slice(b.text.length - d.at) : d.text;
  const next = b ? { ...b, text: b.text + chunk } : { type: d.kind, text: chunk };
  const prior = b && appendLogs.get(b);
  if (prior && prior.log.length === prior.end) {
    prior.log.push(chunk);
    appendLogs.set(next, { log: prior.log, end: prior.end + 1 });
  } else appendLogs.set(next, { log: [chunk], end: 1 });
  blocks[d.index] = next;
  const out = [...turns];
  out[i] = { ...turn, blocks };
  return out;
}

/**
 * Replaces or adds a conversation's metadata and keeps the list newest first. When the list
 * already holds an equal meta and is in order, it is returned as is (docs/architecture.md#long-conversations-and-speed: the side panel's
 * list then renders nothing again when a conversation is merely opened).
 */
export function upsertMeta(list: readonly ConversationMeta[], meta: ConversationMeta): ConversationMeta[] {
  const old = list.find((c) => c.id === meta.id);
  if (old && JSON.stringify(old) === JSON.stringify(meta) && isNewestFirst(list)) return list as ConversationMeta[];
  return sortNewestFirst([...list.filter((c) => c.id !== meta.id), meta]);
}

function isNewestFirst(list: readonly ConversationMeta[]): boolean {
  for (let i = 1; i < list.length; i++) if (list[i - 1]!.updatedAt < list[i]!.updatedAt) return false;
  return true;
}

/** Newest `updatedAt` first (ISO 8601 strings sort as time). */
export function sortNewestFirst(list: readonly ConversationMeta[]): ConversationMeta[] {
  return [...list].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
}

/** Names of origins that are not configured providers. */
const ORIGIN_NAMES: Readonly<Record<string, string>> = lookupTable({ chrome: 'On-device' });

/** A provider's display name: its configured name, else a known origin's name, else the id as stored in the origin. */
export function providerName(id: string, providers: readonly ProviderStatus[]): string {
  return providers.find((p) => p.id === id)?.name ?? ORIGIN_NAMES[id] ?? id;
}

/** `Anthropic · claude-sonnet-4-5` (plus the endpoint when not the default). */
export function originLabel(origin: Origin | undefined, providers: readonly ProviderStatus[]): string {
  if (!origin) return 'unknown model';
  const where = origin.endpoint ? ` at ${origin.endpoint}` : '';
  return `${providerName(origin.provider, providers)} · ${origin.model}${where}`;
}

const originKey = (o: Origin) => `${o.provider}|${o.endpoint ?? ''}`;

/**
 * For each assistant turn whose provider differs from the previous assistant turn's, the
 * previous origin (so the UI can say "switched from X to Y"). Keyed by turn id.
 */
export function providerSwitches(turns: readonly Turn[]): Map<string, Origin> {
  const out = new Map<string, Origin>();
  let prev: Origin | undefined;
  for (const t of turns) {
    if (t.role !== 'assistant' || !t.origin) continue;
    if (prev && originKey(prev) !== originKey(t.origin)) out.set(t.id, prev);
    prev = t.origin;
  }
  return out;
}

/** What the end of the conversation offers: nothing, or a retry after a failed/cut/missing answer. */
export type RetryOffer =
  | { kind: 'none' }
  | { kind: 'retry'; reason: 'interrupted' | 'stopped' | 'error' | 'no_answer' | 'not_sent'; turn?: Turn };

/**
 * A retry is offered when no answer is in flight and the last turn is an assistant turn left
 * `interrupted`, `stopped` or `error` (or still `streaming` though nothing is in flight: the
 * worker died, L2), or a user turn that never got an answer.
 */
export function retryOffer(turns: readonly Turn[], busy: boolean): RetryOffer {
  const last = turns[turns.length - 1];
  if (busy || !last) return { kind: 'none' };
  // A captured selection ("Continue selection in…") was never sent: offer to send it (docs/side-panel.md).
  if (last.role === 'user')
    return { kind: 'retry', reason: last.meta?.capturedSelection === true ? 'not_sent' : 'no_answer' };
  if (last.role !== 'assistant') return { kind: 'none' };
  switch (last.status) {
    case 'interrupted':
    case 'streaming':
      return { kind: 'retry', reason: 'interrupted', turn: last };
    case 'stopped':
      return { kind: 'retry', reason: 'stopped', turn: last };
    case 'error':
      return { kind: 'retry', reason: 'error', turn: last };
    default:
      return { kind: 'none' };
  }
}

/** Each tool call's name and the origin of the turn that made it, keyed by call id (for labelling results). */
export function toolCallIndex(turns: readonly Turn[]): Map<string, { name: string; origin?: Origin }> {
  const out = new Map<string, { name: string; origin?: Origin }>();
  for (const t of turns)
    for (const b of t.blocks)
      if (b.type === 'tool_call') out.set(b.id, { name: b.name, ...(t.origin ? { origin: t.origin } : {}) });
  return out;
}
