/**
 * Stream checkpoints of the send pipeline (D1): an answer in flight is persisted at least every
 * second or 500 characters, and its `turnUpdated` broadcasts are throttled.
 */
import { metaOf } from '../../store/conversations';
import { isQuotaExceeded } from '../../store/quota';
import type { Turn } from '../../transcript/schema';
import type { SendDeps } from '../core/deps';

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
export function createCheckpointer(deps: CheckpointDeps, conversationId: string, snapshot: () => Turn | undefined) {
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
    broadcast({ type: 'turnUpdated', conversationId, turn: s });
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
        if (s) broadcast({ type: 'turnUpdated', conversationId, turn: s });
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
      broadcast({ type: 'turnUpdated', conversationId, turn });
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
  };
}
