/**
 * The side panel's disclosure state (issue 6): the preview of the next send, refreshed (debounced)
 * when the target, the draft, the turns or the person's exclusions change; the exclusions; and the
 * first-disclosure confirmation around a send. Talks to the background only through the connector.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import type { DisclosureLedger, DisclosurePolicy, DisclosurePreview } from '../../lib/messaging/disclosure-types';
import type { SendTarget } from '../../lib/messaging/protocol';
import type { PendingAttachment } from '../../lib/ui/attachments';
import type { SendExtras } from '../../lib/ui/chat-model';

export interface BlockRef {
  turn: string;
  index: number;
}

export interface DisclosureInputs {
  conversationId: string | undefined;
  /** Undefined when no provider/model is chosen, or for the on-device model (nothing leaves the device). */
  target: SendTarget | undefined;
  draft: string;
  /** Files attached to the draft (previewed as they will be sent). */
  attachments?: readonly PendingAttachment[] | undefined;
  /** Changes whenever the stored turns change (e.g. ids and statuses joined). */
  turnsKey: string;
}

export interface Disclosure {
  preview: DisclosurePreview | undefined;
  excludeTurns: string[];
  excludeBlocks: BlockRef[];
  toggleTurn(id: string): void;
  toggleBlock(ref: BlockRef): void;
  /** The preview awaiting the person's confirmation (the dialog is open). */
  confirming: DisclosurePreview | undefined;
  /** Sends through `doSend`, after the confirmation when this provider has not received the conversation. */
  send(): Promise<void>;
  confirm(): void;
  cancel(): void;
  /**
   * Issue 9: whether the per-turn list or the request is shown (the line is expanded). Collapsed,
   * the preview is asked with `summary` (counts only: for a long conversation the list and the
   * body are megabytes); expanding asks at once for the whole preview.
   */
  setDetailed(open: boolean): void;
}

/**
 * @param doSend sends the draft with the given extras (the panel model's `send`).
 * @param delayMs debounce of the preview refresh, in ms.
 */
export function useDisclosure(connector: Connector, inputs: DisclosureInputs, doSend: (extra: SendExtras) => Promise<unknown>, delayMs = 300): Disclosure {
  const [preview, setPreview] = useState<{ key: string; value: DisclosurePreview } | undefined>(undefined);
  const [excludeTurns, setExcludeTurns] = useState<string[]>([]);
  const [excludeBlocks, setExcludeBlocks] = useState<BlockRef[]>([]);
  const [confirming, setConfirming] = useState<DisclosurePreview | undefined>(undefined);
  const [detailed, setDetailed] = useState(false);
  const { conversationId, target, draft, turnsKey } = inputs;
  const attachments = inputs.attachments ?? [];
  const hasDraft = draft.trim() !== '' || attachments.length > 0;

  // Exclusions belong to one conversation.
  useEffect(() => {
    setExcludeTurns([]);
    setExcludeBlocks([]);
  }, [conversationId]);

  const key = JSON.stringify([conversationId ?? null, target ?? null, draft, attachments.map((a) => a.id), turnsKey, excludeTurns, excludeBlocks, detailed]);
  const keyRef = useRef(key);
  keyRef.current = key;
  // Expanded while only the summary is shown: ask for the whole preview without the debounce.
  const detailNow = useRef(false);
  detailNow.current = detailed && preview?.value.summaryOnly === true;
  // A conversation just opened (or a new chat): nothing is being typed, so no reason to wait.
  const previewed = useRef<string | null | undefined>(undefined);

  /** Asks for the preview of the current inputs: only the summary unless `full` (default: when expanded). */
  const fetchPreview = useCallback(async (full = detailed): Promise<DisclosurePreview | undefined> => {
    if (!target || (!conversationId && !hasDraft)) return undefined;
    const asked = key;
    try {
      const value = await connector.request('previewSend', {
        target,
        ...(conversationId ? { conversationId } : {}),
        ...(draft.trim() ? { text: draft } : {}),
        ...(attachments.length ? { attachments: attachments.map(({ id: _id, bytes: _bytes, ...a }) => a) } : {}),
        ...(excludeTurns.length ? { excludeTurns } : {}),
        ...(excludeBlocks.length ? { excludeBlocks } : {}),
        ...(full ? {} : { summary: true }),
      });
      if (keyRef.current === asked) setPreview({ key: asked, value });
      return value;
    } catch {
      // No preview (an older background, an unknown endpoint): the send itself still goes through the planner.
      return undefined;
    }
  }, [connector, key]);

  useEffect(() => {
    if (!target || (!conversationId && !hasDraft)) {
      setPreview(undefined);
      return;
    }
    const switched = previewed.current !== (conversationId ?? null);
    previewed.current = conversationId ?? null;
    const t = setTimeout(() => void fetchPreview(), detailNow.current || switched ? 0 : delayMs);
    return () => clearTimeout(t);
  }, [fetchPreview, delayMs]);

  const extras = (): SendExtras => ({
    ...(excludeTurns.length ? { excludeTurns } : {}),
    ...(excludeBlocks.length ? { excludeBlocks } : {}),
  });

  return {
    preview: preview?.value,
    excludeTurns,
    excludeBlocks,
    toggleTurn: (id) => setExcludeTurns((xs) => (xs.includes(id) ? xs.filter((x) => x !== id) : [...xs, id])),
    toggleBlock: (ref) =>
      setExcludeBlocks((xs) => (xs.some((x) => x.turn === ref.turn && x.index === ref.index) ? xs.filter((x) => !(x.turn === ref.turn && x.index === ref.index)) : [...xs, ref])),
    confirming,
    send: async () => {
      if (!target) {
        await doSend({});
        return;
      }
      // Decide on a preview of exactly what is about to be sent.
      const current = preview?.key === key ? preview.value : await fetchPreview();
      if (current?.needsConfirmation) {
        // The confirmation lists the turns: it needs the whole preview.
        setConfirming(current.summaryOnly ? ((await fetchPreview(true)) ?? current) : current);
        return;
      }
      await doSend(extras());
    },
    confirm: () => {
      setConfirming(undefined);
      void doSend({ ...extras(), confirmedDisclosure: true });
    },
    cancel: () => setConfirming(undefined),
    setDetailed,
  };
}

/** The conversation's ledger, loaded when `open` and reloaded when the turns change. */
export function useLedger(connector: Connector, conversationId: string | undefined, open: boolean, turnsKey: string): DisclosureLedger | undefined {
  const [ledger, setLedger] = useState<DisclosureLedger | undefined>(undefined);
  useEffect(() => {
    if (!open || !conversationId) {
      setLedger(undefined);
      return;
    }
    let live = true;
    connector
      .request('listDisclosures', { conversationId })
      .then((l) => live && setLedger(l))
      .catch(() => live && setLedger(undefined));
    return () => {
      live = false;
    };
  }, [connector, conversationId, open, turnsKey]);
  return ledger;
}

/**
 * The conversation's delivery policy (issue 6, "Snapshot or delta"): `stateful` lets an OpenAI
 * Responses target keep the conversation server-side and receive only new turns. Off by default.
 * Also the whole conversation policy (`policy`, `save`) for the "This conversation" group.
 * `version` changes after every change, so the preview can refresh.
 */
export function useDeliveryPolicy(
  connector: Connector,
  conversationId: string | undefined,
): { stateful: boolean; version: number; setStateful(on: boolean): void; policy: DisclosurePolicy | undefined; save(next: DisclosurePolicy): Promise<void> } {
  const [state, setState] = useState<{ id: string | undefined; policy: DisclosurePolicy | undefined; version: number }>({ id: undefined, policy: undefined, version: 0 });
  useEffect(() => {
    if (!conversationId) return;
    let live = true;
    connector
      .request('getDisclosurePolicy', { conversationId })
      .then((r) => live && setState((s) => ({ id: conversationId, policy: r.conversation ?? {}, version: s.version })))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [connector, conversationId]);
  const policy = state.id === conversationId ? state.policy : undefined;
  // One writer for the whole conversation policy, so the delivery toggle and the policy group
  // ("This conversation") never overwrite each other's fields. Rejects with the background's error.
  const save = async (next: DisclosurePolicy): Promise<void> => {
    if (!conversationId) return;
    await connector.request('setDisclosurePolicy', { conversationId, policy: next });
    setState((s) => ({ id: conversationId, policy: next, version: s.version + 1 }));
  };
  return {
    stateful: policy?.delivery === 'stateful',
    version: state.version,
    policy,
    save,
    setStateful: (on) => void save({ ...policy, delivery: on ? 'stateful' : 'snapshot' }).catch(() => undefined),
  };
}
