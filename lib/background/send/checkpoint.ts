/**
 * Stream checkpoints of the send pipeline (D1): an answer in flight is persisted at least every
 * second or 500 characters, and what changed is broadcast at most every `broadcastMs` as deltas
 * (docs/architecture.md#streaming-to-the-side-panel): the text appended to each text or thinking
 * block since the last broadcast (`textDelta`), so neither the message nor the panel's work grows
 * with the answer. A whole-turn `turnUpdated` is sent only when the turn's shape changes (a new
 * non-text block, a block's other fields) and at the end. Every event of the answer carries the
 * next `seq`; {@link Checkpointer.live} gives the last broadcast state and its `seq`, for a panel
 * that missed some (`resumeStream`).
 */
import type { BackgroundEvent } from '../../messaging/protocol';
import { metaOf } from '../../store/conversations';
import { isQuotaExceeded } from '../../store/quota';
import type { Block, Turn } from '../../transcript/schema';
import type { SendDeps } from '../core/deps';

/** What the panel has been sent of one block: its shape (everything but the streamed text) and the text's length. */
interface SentBlock {
  shape: string;
  length: number;
}

/** A block's fields other than its streamed text (an image's data by length only: it never streams). */
function shapeOf(block: Block): string {
  switch (block.type) {
    case 'text':
    case 'thinking':
      return JSON.stringify({ ...block, text: undefined });
    case 'image':
      return JSON.stringify({ ...block, data: block.data?.length });
    default:
      return JSON.stringify(block);
  }
}

/**
 * The events that bring a panel holding `sent` to `turn`: one `textDelta` per text or thinking
 * block that grew (or is new at the end), or `undefined` when only a whole snapshot can (a block
 * changed otherwise, shrank, or a non-text block appeared). `next` numbers them.
 */
function deltasTo(
  conversationId: string,
  turn: Turn,
  sent: readonly SentBlock[],
  next: () => number,
): BackgroundEvent[] | undefined {
  const blocks = turn.blocks;
  if (blocks.length < sent.length) return undefined;
  const out: { index: number; kind: 'text' | 'thinking'; at: number; text: string }[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (b.type !== 'text' && b.type !== 'thinking') {
      if (i >= sent.length || sent[i]!.shape !== shapeOf(b)) return undefined;
      continue;
    }
    const before = sent[i];
    if (before && before.shape !== shapeOf(b)) return undefined;
    const at = before?.length ?? 0;
    if (b.text.length < at) return undefined;
    if (b.text.length === at && before) continue;
    out.push({ index: i, kind: b.type, at, text: b.text.slice(at) });
  }
  // Numbered only once it is sure deltas can say it: a snapshot instead takes the next number.
  return out.map((d) => ({ type: 'textDelta', conversationId, turnId: turn.id, ...d, seq: next() }));
}

/** What a panel that lost events resumes from: the last broadcast state of the answer and its `seq`. */
export interface LiveAnswer {
  turn: Turn;
  seq: number;
}

/** The checkpointer of one answer ({@link createCheckpointer}). */
export interface Checkpointer {
  /** Called for every provider event: saves and broadcasts when due. */
  onEvent(event: unknown): void;
  /** Stores and broadcasts the final turn (see {@link createCheckpointer}). */
  final(turn: Turn, persist?: (turn: Turn) => Promise<unknown>): Promise<void>;
  /** The last broadcast state, or `undefined` before the first one. */
  live(): LiveAnswer | undefined;
}

/** What the checkpointer uses of the send pipeline's dependencies. */
export type CheckpointDeps = Pick<
  SendDeps,
  'store' | 'clock' | 'broadcast' | 'checkpointMs' | 'checkpointChars' | 'broadcastMs'
>;

/**
 * Persists snapshots at least every `checkpointMs` or `checkpointChars` (D1): a change that
 * arrives inside the window is saved when the window ends (a timer), so a stream that stalls
 * after a burst still has its latest text on disk. Broadcasts are throttled the same way.
 */
export function createCheckpointer(
  deps: CheckpointDeps,
  conversationId: string,
  snapshot: () => Turn | undefined,
): Checkpointer {
  const { store, clock, broadcast } = deps;
  const everyMs = deps.checkpointMs ?? 1000;
  const everyChars = deps.checkpointChars ?? 500;
  const broadcastMs = deps.broadcastMs ?? 100;
  let lastSave = clock.now();
  let lastBroadcast = 0;
  let chars = 0;
  let dirty = false;
  let finished = false;
  let timer: (() => void) | undefined;
  let saving: Promise<unknown> = Promise.resolve();
  // D2: a write refused because storage is full is remembered and reported when the answer ends;
  // the stream goes on (its text stays in the panel) and the stored turn keeps its last good state.
  let storageFull = false;
  const noteFailure = (e: unknown) => {
    if (isQuotaExceeded(e) || (e as { code?: unknown })?.code === 'storage_full') storageFull = true;
  };
  let seq = 0;
  let sentTurn: Turn | undefined;
  let sent: SentBlock[] = [];
  const remember = (turn: Turn) => {
    sentTurn = turn;
    sent = turn.blocks.map((b) => ({
      shape: shapeOf(b),
      length: b.type === 'text' || b.type === 'thinking' ? b.text.length : 0,
    }));
  };
  /** Broadcasts what changed since the last broadcast: deltas when they can say it, else the whole turn. */
  const publish = (turn: Turn) => {
    const deltas = sentTurn?.id === turn.id ? deltasTo(conversationId, turn, sent, () => ++seq) : undefined;
    if (deltas) for (const d of deltas) broadcast(d);
    else broadcast({ type: 'turnUpdated', conversationId, turn, seq: ++seq });
    remember(turn);
  };
  const save = (turn: Turn) => {
    saving = saving
      .then(() => store.putTurn(conversationId, turn, new Date(clock.now()).toISOString()))
      .catch(noteFailure);
    return saving;
  };
  const flush = () => {
    timer = undefined;
    if (!dirty || finished) return;
    const s = snapshot();
    if (!s) return;
    dirty = false;
    chars = 0;
    lastSave = clock.now();
    void save(s);
    publish(s);
    lastBroadcast = lastSave;
  };
  return {
    onEvent(event: unknown) {
      dirty = true;
      chars += JSON.stringify(event).length;
      const now = clock.now();
      if (now - lastSave >= everyMs || chars >= everyChars) {
        timer?.();
        flush();
        return;
      }
      if (now - lastBroadcast >= broadcastMs) {
        const s = snapshot();
        if (s) publish(s);
        lastBroadcast = now;
      }
      timer ??= clock.setTimer(flush, Math.max(0, everyMs - (now - lastSave)));
    },
    /**
     * Stores the final turn (with `persist`, e.g. together with its ledger record), then broadcasts
     * it. When any write of this answer failed for a full storage (D2), also broadcasts
     * `sendStateChanged` with a `storage_full` error, so the person learns the answer was not saved.
     */
    async final(turn: Turn, persist?: (turn: Turn) => Promise<unknown>) {
      finished = true;
      timer?.();
      if (persist) {
        await saving;
        await persist(turn).catch((e: unknown) => (noteFailure(e), save(turn)));
      } else await save(turn);
      broadcast({ type: 'turnUpdated', conversationId, turn, seq: ++seq });
      remember(turn);
      if (storageFull)
        broadcast({
          type: 'sendStateChanged',
          conversationId,
          state: 'idle',
          error: {
            code: 'storage_full',
            message:
              'Browser storage is full, so this answer was not saved completely. Copy what you need, delete old conversations and try again.',
          },
        });
      const rec = await store.getRecord(conversationId);
      if (rec) broadcast({ type: 'conversationUpdated', meta: metaOf(rec) });
    },
    live: () => (sentTurn ? { turn: sentTurn, seq } : undefined),
  };
}
