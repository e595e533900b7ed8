/**
 * Stream checkpoints of the send pipeline (D1): an answer in flight is persisted at least every
 * second or 500 characters, and its `turnUpdated` broadcasts are throttled.
 */
import { metaOf } from '../store/conversations';
import type { Turn } from '../transcript/schema';
import type { SendDeps } from './send';

/** What the checkpointer uses of the send pipeline's dependencies. */
export type CheckpointDeps = Pick<SendDeps, 'store' | 'clock' | 'broadcast' | 'checkpointMs' | 'checkpointChars' | 'broadcastMs'>;

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
  const save = (turn: Turn) => {
    saving = saving.then(() => store.putTurn(conversationId, turn, new Date(clock.now()).toISOString())).catch(() => undefined);
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
    /** Stores the final turn (with `persist`, e.g. together with its ledger record), then broadcasts it. */
    async final(turn: Turn, persist?: (turn: Turn) => Promise<unknown>) {
      finished = true;
      timer?.();
      if (persist) {
        await saving;
        await persist(turn).catch(() => save(turn));
      } else await save(turn);
      broadcast({ type: 'turnUpdated', conversationId, turn });
      const rec = await store.getRecord(conversationId);
      if (rec) broadcast({ type: 'conversationUpdated', meta: metaOf(rec) });
    },
  };
}
