/**
 * The disclosure ledger, disclosure policies and delivery receipts in IndexedDB (docs/disclosure.md).
 *
 * - Ledger: one `disclosures` record per completed or failed send, written in the same
 *   transaction as the answer turn it produced ({@link DisclosureStore.finishSend}, D4).
 * - Global policy: the `settings` record `disclosurePolicy`.
 * - Per-conversation policy and the delivery receipt: in the conversation record's `meta`
 *   (`disclosurePolicy`, `deliveryReceipt`), so deleting the conversation removes them and an
 *   export (which never includes the record's `meta`) never carries a receipt.
 * - The active summary ("summarise the earlier part"): `meta.activeSummary`, written in the same
 *   transaction as the summariser's ledger record ({@link DisclosureStore.saveSummary}).
 */
import type { DeliveryReceipt } from '../context/delivery';
import type { ConversationMeta } from '../messaging/protocol';
import type { DisclosureEntry, DisclosurePolicy, ProviderDrop } from '../messaging/disclosure-types';
import type { ActiveSummary } from '../messaging/summary-types';
import type { Turn } from '../transcript/schema';
import { metaOf, NotFoundError, replaceTurnIn } from './conversations';
import { tx, type BatonDb, type ConversationRecord, type DisclosureRecord } from './db';
import { transcriptCacheFor, withReplaced } from './transcript-cache';
import { putConversation } from './list-pages';
import { together } from './together';

const GLOBAL_POLICY_KEY = 'disclosurePolicy';
const POLICY_META = 'disclosurePolicy';
const RECEIPT_META = 'deliveryReceipt';
const SUMMARY_META = 'activeSummary';

/** A ledger record as Baton writes it: the stored shape plus how the send ended and how it was delivered. */
export interface LedgerRecord extends DisclosureRecord {
  status: 'completed' | 'failed';
  mode: 'snapshot' | 'delta';
  /**
   * `[turnId, contentHash]` of the answer a completed send produced, as stored: the provider wrote
   * it, so it knows it (a provider's token-count endpoint may count it, docs/disclosure.md). Internal, never
   * listed; absent on failed sends and on records written before it existed.
   */
  answer?: [string, string];
  /** `summary`: the request asked for a summary of earlier turns (no answer turn); absent for a send. */
  purpose?: 'summary';
  /**
   * What the provider reported it dropped from this request (A-B5, docs/disclosure.md "What the
   * provider dropped"). Optional: records written before it existed, and sends where nothing was
   * reported dropped, have none.
   */
  dropped?: ProviderDrop;
  /**
   * The request asked the provider to keep it (`store: true` of a stateful Responses or Gemini
   * Interactions send, docs/disclosure.md "Snapshot or delta"): the provider holds these turns
   * server-side, which "Who has seen this" says. Absent: not kept (and on older records).
   */
  stored?: true;
  /**
   * Fingerprint of the instructions the request sent (lib/context/prefix-binding.ts `systemHash`:
   * '' for none), never their text (docs/disclosure.md#instructions). Internal, never listed;
   * absent on records written before it existed.
   */
  system?: string;
}

/** What {@link DisclosureStore.finishSend} writes with the answer turn. */
export interface FinishedSend {
  record: Omit<LedgerRecord, 'id'>;
  /** The new receipt (stateful delivery), `null` to clear the old one, undefined to leave it. */
  receipt?: DeliveryReceipt | null;
}

export class DisclosureStore {
  constructor(readonly db: BatonDb) {}

  async getGlobalPolicy(): Promise<DisclosurePolicy> {
    const rec = await this.db.get('settings', GLOBAL_POLICY_KEY);
    return (rec?.value as DisclosurePolicy | undefined) ?? {};
  }

  async setGlobalPolicy(policy: DisclosurePolicy): Promise<void> {
    await tx(this.db, ['settings'], 'readwrite', async (t) => {
      await t.objectStore('settings').put({ key: GLOBAL_POLICY_KEY, value: policy });
    });
  }

  /** The conversation's policy, internal delivery receipt and active summary. @throws NotFoundError */
  async getConversationState(
    conversationId: string,
  ): Promise<{ policy: DisclosurePolicy; receipt?: DeliveryReceipt; summary?: ActiveSummary }> {
    const rec = await this.db.get('conversations', conversationId);
    if (!rec) throw new NotFoundError(`conversation ${conversationId} not found`);
    const policy = (rec.meta?.[POLICY_META] as DisclosurePolicy | undefined) ?? {};
    const receipt = rec.meta?.[RECEIPT_META] as DeliveryReceipt | undefined;
    const summary = rec.meta?.[SUMMARY_META] as ActiveSummary | undefined;
    return { policy, ...(receipt ? { receipt } : {}), ...(summary ? { summary } : {}) };
  }

  /**
   * Stores `summary` as the conversation's active summary (replacing any) and the summariser's
   * ledger record in ONE transaction, so the ledger never misses a summary in use, or the reverse.
   * @throws NotFoundError when the conversation is gone (nothing is written).
   */
  async saveSummary(conversationId: string, summary: ActiveSummary, record: Omit<LedgerRecord, 'id'>): Promise<void> {
    await tx(this.db, ['conversations', 'disclosures', 'summaries'], 'readwrite', async (t) => {
      const rec = await t.objectStore('conversations').get(conversationId);
      if (!rec) throw new NotFoundError(`conversation ${conversationId} not found`);
      await t.objectStore('disclosures').add(record as DisclosureRecord);
      await putConversation(t, { ...rec, meta: { ...rec.meta, [SUMMARY_META]: summary } });
    });
  }

  /** Removes the active summary (nothing else changes). @throws NotFoundError */
  async clearSummary(conversationId: string): Promise<void> {
    await tx(this.db, ['conversations', 'summaries'], 'readwrite', async (t) => {
      const rec = await t.objectStore('conversations').get(conversationId);
      if (!rec) throw new NotFoundError(`conversation ${conversationId} not found`);
      const meta: Record<string, unknown> = { ...rec.meta };
      delete meta[SUMMARY_META];
      await putConversation(t, { ...rec, meta });
    });
  }

  /** Adds one ledger record on its own (a failed summary request: the turns left the browser, nothing else is stored). @throws NotFoundError */
  async addRecord(record: Omit<LedgerRecord, 'id'>): Promise<void> {
    await tx(this.db, ['conversations', 'disclosures'], 'readwrite', async (t) => {
      if (!(await t.objectStore('conversations').get(record.conversationId)))
        throw new NotFoundError(`conversation ${record.conversationId} not found`);
      await t.objectStore('disclosures').add(record as DisclosureRecord);
    });
  }

  /** @throws NotFoundError */
  async setConversationPolicy(conversationId: string, policy: DisclosurePolicy): Promise<void> {
    await tx(this.db, ['conversations', 'summaries'], 'readwrite', async (t) => {
      const rec = await t.objectStore('conversations').get(conversationId);
      if (!rec) throw new NotFoundError(`conversation ${conversationId} not found`);
      await putConversation(t, { ...rec, meta: { ...rec.meta, [POLICY_META]: policy } });
    });
  }

  /** The conversation's ledger, oldest first. */
  async list(conversationId: string): Promise<LedgerRecord[]> {
    const all = (await this.db.getAllFromIndex('disclosures', 'byConversation', conversationId)) as LedgerRecord[];
    return all.sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
  }

  /** Whether `providerId` at `endpoint` (an origin) has received any of this conversation. */
  async hasReceived(conversationId: string, providerId: string, endpoint: string): Promise<boolean> {
    return (await this.list(conversationId)).some((r) => r.providerId === providerId && r.endpoint === endpoint);
  }

  /**
   * Stores the final answer turn, its ledger record and the receipt change in ONE transaction
   * (D4), so the ledger never lists a send whose answer is missing, or the reverse.
   * @throws NotFoundError when the turn or conversation is gone (nothing is written).
   */
  async finishSend(conversationId: string, turn: Turn, now: string, done: FinishedSend): Promise<ConversationMeta> {
    // The cached transcript (lib/store/transcript-cache.ts) gets the final turn, so the next preview need not read everything again.
    return transcriptCacheFor(this.db).write(
      conversationId,
      () => this.finishTx(conversationId, turn, now, done),
      (t) => withReplaced(t, turn),
    );
  }

  private finishTx(conversationId: string, turn: Turn, now: string, done: FinishedSend): Promise<ConversationMeta> {
    return tx(
      this.db,
      ['conversations', 'turns', 'disclosures', 'search', 'paths', 'summaries'],
      'readwrite',
      async (t) => {
        const withReceipt = (rec: ConversationRecord): ConversationRecord => {
          const meta: Record<string, unknown> = { ...rec.meta };
          if (done.receipt === null) delete meta[RECEIPT_META];
          else if (done.receipt) meta[RECEIPT_META] = done.receipt;
          return { ...rec, meta };
        };
        // The ledger record needs nothing of the turn's replacement: issued together with it
        // (lib/store/together.ts). Should the turn be missing, the NotFoundError aborts the
        // transaction, so the record is not kept either.
        const [next] = await together([
          () => replaceTurnIn(t, conversationId, turn, now, withReceipt),
          () => t.objectStore('disclosures').add(done.record as DisclosureRecord),
        ]);
        return metaOf(next);
      },
    );
  }
}

/** A ledger record as listed: no internal fields. */
export function toEntry(r: LedgerRecord): DisclosureEntry {
  return {
    id: r.id ?? 0,
    at: r.at,
    providerId: r.providerId,
    api: r.api,
    model: r.model,
    endpoint: r.endpoint,
    status: r.status,
    mode: r.mode,
    turns: r.turns,
    ...(r.estimatedInputTokens !== undefined ? { estimatedInputTokens: r.estimatedInputTokens } : {}),
    ...(r.usage ? { usage: r.usage } : {}),
    ...(r.costUsd !== undefined ? { costUsd: r.costUsd } : {}),
    ...(r.responseId ? { responseId: r.responseId } : {}),
    ...(r.purpose ? { purpose: r.purpose } : {}),
    ...(r.dropped ? { dropped: r.dropped } : {}),
    ...(r.stored ? { stored: true as const } : {}),
  };
}
