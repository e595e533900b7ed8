/**
 * Pure helpers over turns and conversation metadata for the side panel: applying background
 * events to local state, and reading what to show (origins, provider switches, retry offers).
 */
import type { BackgroundEvent, ConversationMeta, ProviderStatus } from '../messaging/protocol';
import type { Origin, Turn } from '../transcript/schema';
import { lookupTable } from '../transcript/lookup';

/** Replaces the turn with the same id, or appends it. */
export function upsertTurn(turns: readonly Turn[], turn: Turn): Turn[] {
  const i = turns.findIndex((t) => t.id === turn.id);
  if (i < 0) return [...turns, turn];
  const out = [...turns];
  out[i] = turn;
  return out;
}

/**
 * Appends a `textDelta` to block `index` of its turn. A delta that does not fit (unknown turn,
 * a gap in blocks, another block type) is ignored: the next `turnUpdated` snapshot repairs it.
 */
export function applyTextDelta(turns: readonly Turn[], d: Extract<BackgroundEvent, { type: 'textDelta' }>): Turn[] {
  const i = turns.findIndex((t) => t.id === d.turnId);
  const turn = turns[i];
  if (!turn) return [...turns];
  const blocks = [...turn.blocks];
  const b = blocks[d.index];
  if (b === undefined && d.index === blocks.length) blocks.push({ type: d.kind, text: d.text });
  else if (b && b.type === d.kind) blocks[d.index] = { ...b, text: b.text + d.text };
  else return [...turns];
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
