/**
 * The side panel's disclosure state (docs/disclosure.md): the preview of the next send, refreshed (debounced)
 * when the target, the draft, the turns or the person's exclusions change; the exclusions; and the
 * first-disclosure confirmation around a send. Talks to the background only through the connector.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import type { DisclosureLedger, DisclosurePolicy, DisclosurePreview } from '../../lib/messaging/disclosure-types';
import type { SendTarget } from '../../lib/messaging/protocol';
import type { PendingAttachment } from '../../lib/ui/attachments';
import type { RefusedSend, SendExtras } from '../../lib/ui/chat-model';

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
  /** The send goes to several models (docs/side-panel.md#ask-several-models-at-once): previewed as that send plans it. */
  compare?: boolean | undefined;
}

export interface Disclosure {
  /**
   * The latest preview asked for the target's provider and model (it may lag the draft by the
   * debounce); undefined while none is, e.g. just after the provider or model changed.
   */
  preview: DisclosurePreview | undefined;
  excludeTurns: string[];
  excludeBlocks: BlockRef[];
  /**
   * docs/security.md ("Hostile providers and files"): the person chose to send the provider state
   * of an imported file (the preview and the send carry `replayImportedState`). Off by default and
   * for every other conversation.
   */
  replayImportedState: boolean;
  setReplayImportedState(on: boolean): void;
  toggleTurn(id: string): void;
  toggleBlock(ref: BlockRef): void;
  /**
   * How many left-out turns and blocks the last preview reported as no longer existing
   * (`unknownExclusions`); they were dropped from `excludeTurns`/`excludeBlocks`. Undefined when none.
   */
  staleExclusions: { turns: number; blocks: number } | undefined;
  /** The preview awaiting the person's confirmation (the dialog is open). */
  confirming: DisclosurePreview | undefined;
  /**
   * Sends through `doSend`, after the confirmation when this provider has not received the
   * conversation: asked from the preview, or — when the preview was stale or missing and the
   * background refuses with `confirmation_required` — from a fresh preview of exactly that send.
   * Should that fresh preview need no confirmation (another window sent the conversation to that
   * provider meanwhile), the same send goes again once, claiming no confirmation (see `sendChecked`).
   */
  send(): Promise<void>;
  /** Sends with `confirmedDisclosure` for the provider the dialog showed (`confirmedFor`); nothing when the conversation changed meanwhile. */
  confirm(): void;
  /** Closes the dialog: nothing is sent, the draft stays. */
  cancel(): void;
  /**
   * Asks the target provider to count what it has already received of this conversation
   * (`countTokens`, docs/disclosure.md) and shows the preview recomputed with that count.
   * @throws ClientError (e.g. `not_received`, `rate_limited`) — the preview stays as it was.
   */
  countExact(): Promise<void>;
  /**
   * docs/architecture.md#long-conversations-and-speed: whether the per-turn list or the request is shown (the line is expanded). Collapsed,
   * the preview is asked with `countsOnly` (for a long conversation the list and the body are
   * megabytes); expanding asks at once for the whole preview.
   */
  setDetailed(open: boolean): void;
}

/** `doSend`: the panel model's `send` (it calls `askToConfirm` when the background refuses an unconfirmed first disclosure). */
export type DoSend = (extra: SendExtras, askToConfirm: (refused: RefusedSend) => Promise<boolean>) => Promise<unknown>;

interface Confirming {
  preview: DisclosurePreview;
  /** The conversation the send went to (undefined: a new chat not created yet). */
  conversationId: string | undefined;
}

/**
 * @param doSend sends the draft with the given extras (the panel model's `send`).
 * @param delayMs debounce of the preview refresh, in ms.
 */
export function useDisclosure(
  connector: Connector,
  inputs: DisclosureInputs,
  doSend: DoSend,
  delayMs = 300,
): Disclosure {
  // `asked`: the provider and model the preview was asked for (it is shown only while they are the target's).
  const [preview, setPreview] = useState<
    { key: string; value: DisclosurePreview; asked: { providerId: string; model: string } } | undefined
  >(undefined);
  const [excludeTurns, setExcludeTurns] = useState<string[]>([]);
  const [excludeBlocks, setExcludeBlocks] = useState<BlockRef[]>([]);
  const [replayImportedState, setReplayImportedState] = useState(false);
  const [stale, setStale] = useState<{ turns: number; blocks: number } | undefined>(undefined);
  const [confirming, setConfirming] = useState<Confirming | undefined>(undefined);
  const [detailed, setDetailed] = useState(false);
  const { conversationId, target, draft, turnsKey } = inputs;
  const attachments = inputs.attachments ?? [];
  const hasDraft = draft.trim() !== '' || attachments.length > 0;

  // Exclusions belong to one conversation.
  useEffect(() => {
    setExcludeTurns([]);
    setExcludeBlocks([]);
    setReplayImportedState(false);
    setStale(undefined);
  }, [conversationId]);

  const key = JSON.stringify([
    conversationId ?? null,
    target ?? null,
    draft,
    attachments.map((a) => a.id),
    turnsKey,
    excludeTurns,
    excludeBlocks,
    replayImportedState,
    detailed,
    inputs.compare === true,
  ]);
  const keyRef = useRef(key);
  keyRef.current = key;
  // Expanded while only the counts are shown: ask for the whole preview without the debounce.
  const detailNow = useRef(false);
  detailNow.current = detailed && preview?.value.countsOnly === true;
  // A conversation just opened (or a new chat): nothing is being typed, so no reason to wait.
  const previewed = useRef<string | null | undefined>(undefined);
  // What the composer would send now (compared only when a refused send might go again).
  const latest = useRef({ conversationId, target, draft, attachments });
  latest.current = { conversationId, target, draft, attachments };

  const extras = (): SendExtras => ({
    ...(excludeTurns.length ? { excludeTurns } : {}),
    ...(excludeBlocks.length ? { excludeBlocks } : {}),
    ...(replayImportedState ? { replayImportedState: true } : {}),
  });

  // The same inputs for the preview and for an exact count.
  const payload = (t: SendTarget) => ({
    target: t,
    ...(conversationId ? { conversationId } : {}),
    ...(draft.trim() ? { text: draft } : {}),
    ...(attachments.length ? { attachments: attachments.map(({ id: _id, bytes: _bytes, ...a }) => a) } : {}),
    ...extras(),
    ...(inputs.compare ? { compare: true as const } : {}),
  });

  /** Asks for the preview of the current inputs: only the counts unless `full` (default: when expanded). */
  const fetchPreview = useCallback(
    async (full = detailed): Promise<DisclosurePreview | undefined> => {
      if (!target || (!conversationId && !hasDraft)) return undefined;
      const asked = key;
      try {
        const value = await connector.request('previewSend', {
          ...payload(target),
          ...(full ? {} : { countsOnly: true }),
        });
        if (keyRef.current === asked) {
          setPreview({ key: asked, value, asked: target });
          // docs/disclosure.md: toggles of turns or blocks that no longer exist are dropped (and said so), so they do not linger.
          const u = value.unknownExclusions;
          if (u && u.turns.length + u.blocks.length > 0) {
            setExcludeTurns((xs) => xs.filter((x) => !u.turns.includes(x)));
            setExcludeBlocks((xs) => xs.filter((x) => !u.blocks.some((b) => b.turn === x.turn && b.index === x.index)));
            setStale({ turns: u.turns.length, blocks: u.blocks.length });
          }
        }
        return value;
      } catch {
        // No preview (an older background, an unknown endpoint): the send itself still goes through the planner.
        return undefined;
      }
    },
    [connector, key],
  );

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

  /**
   * Sends `sent` through `doSend`. When the background refuses it for want of a confirmation
   * (docs/disclosure.md), the preview of exactly that send (with the exclusions it carried) decides:
   * - it needs the confirmation: the dialog opens with it (its words are then true);
   * - it does not — another window sent the conversation to that provider between this send and
   *   the refusal — and `again`: the same send goes once more, without any confirmation, since the
   *   person was never asked (so the background still refuses a first disclosure), provided the
   *   composer still holds exactly that send; otherwise nothing is sent and the draft stays;
   * - no preview can be had, or it is the second refusal: the refusal is shown as an error.
   */
  const sendChecked = async (sent: SendExtras, asked: string, again = true): Promise<void> => {
    let resend: SendExtras | undefined;
    await doSend(sent, async (refused: RefusedSend): Promise<boolean> => {
      const { confirmedDisclosure: _c, confirmedFor: _f, ...exclusions } = sent;
      let fresh: DisclosurePreview;
      try {
        fresh = await connector.request('previewSend', {
          conversationId: refused.conversationId,
          target: refused.target,
          ...(refused.text.trim() ? { text: refused.text } : {}),
          ...(refused.attachments.length ? { attachments: refused.attachments } : {}),
          ...(exclusions.excludeTurns?.length ? { excludeTurns: exclusions.excludeTurns } : {}),
          ...(exclusions.excludeBlocks?.length ? { excludeBlocks: exclusions.excludeBlocks } : {}),
          ...(exclusions.replayImportedState ? { replayImportedState: true } : {}),
        });
      } catch {
        return false;
      }
      // Still the panel's send as it stands: the fresh preview replaces the stale one, so the bar and the next Send know.
      if (keyRef.current === asked && refused.conversationId === conversationId)
        setPreview({ key: asked, value: fresh, asked: refused.target });
      if (fresh.needsConfirmation) {
        setConfirming({ preview: fresh, conversationId: refused.conversationId });
        return true;
      }
      if (!again) return false;
      if (isSameSend(refused, latest.current)) resend = exclusions;
      return true;
    });
    if (resend) await sendChecked(resend, asked, false);
  };

  const toggled = () => setStale(undefined);
  // A preview asked for another provider or model is not shown while the new one is on its way: the
  // line names the target's provider, so an older preview would read as a pair that is not a target.
  const shown =
    preview && target && preview.asked.providerId === target.providerId && preview.asked.model === target.model
      ? preview.value
      : undefined;
  return {
    preview: shown,
    excludeTurns,
    excludeBlocks,
    replayImportedState,
    setReplayImportedState,
    staleExclusions: stale,
    toggleTurn: (id) => {
      toggled();
      setExcludeTurns((xs) => (xs.includes(id) ? xs.filter((x) => x !== id) : [...xs, id]));
    },
    toggleBlock: (ref) => {
      toggled();
      setExcludeBlocks((xs) =>
        xs.some((x) => x.turn === ref.turn && x.index === ref.index)
          ? xs.filter((x) => !(x.turn === ref.turn && x.index === ref.index))
          : [...xs, ref],
      );
    },
    confirming: confirming?.preview,
    send: async () => {
      if (!target) {
        await doSend({}, async () => false);
        return;
      }
      // Decide on a preview of exactly what is about to be sent.
      const current = preview?.key === key ? preview.value : await fetchPreview();
      if (current?.needsConfirmation) {
        // The confirmation lists the turns: it needs the whole preview.
        setConfirming({
          preview: current.countsOnly ? ((await fetchPreview(true)) ?? current) : current,
          conversationId,
        });
        return;
      }
      await sendChecked(extras(), key);
    },
    confirm: () => {
      const c = confirming;
      setConfirming(undefined);
      // The dialog is modal; should the conversation have changed anyway, nothing is sent.
      if (!c || (c.conversationId !== undefined && c.conversationId !== conversationId)) return;
      // Named, so this confirmation cannot authorise another provider (should the target have changed, the background asks again).
      void sendChecked(
        {
          ...extras(),
          confirmedDisclosure: true,
          confirmedFor: { providerId: c.preview.target.providerId, origin: c.preview.target.origin },
        },
        key,
      );
    },
    cancel: () => setConfirming(undefined),
    setDetailed,
    countExact: async () => {
      if (!target) return;
      const asked = key;
      const { preview: value } = await connector.request('countTokens', payload(target));
      if (keyRef.current === asked) setPreview({ key: asked, value, asked: target });
    },
  };
}

/** Whether the composer (`now`) still holds exactly the send that was refused: same conversation, target, text and files. */
function isSameSend(
  refused: RefusedSend,
  now: {
    conversationId: string | undefined;
    target: SendTarget | undefined;
    draft: string;
    attachments: readonly PendingAttachment[];
  },
): boolean {
  const wire = now.attachments.map(({ id: _id, bytes: _bytes, ...a }) => a);
  return (
    now.conversationId === refused.conversationId &&
    JSON.stringify(now.target) === JSON.stringify(refused.target) &&
    now.draft === refused.text &&
    JSON.stringify(wire) === JSON.stringify(refused.attachments)
  );
}

/** The conversation's ledger, loaded when `open` and reloaded when the turns change. */
export function useLedger(
  connector: Connector,
  conversationId: string | undefined,
  open: boolean,
  turnsKey: string,
): DisclosureLedger | undefined {
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
 * The conversation's delivery policy (docs/disclosure.md, "Snapshot or delta"): `stateful` lets an OpenAI
 * Responses target keep the conversation server-side and receive only new turns. Off by default.
 * Also the whole conversation policy (`policy`, `save`) for the "This conversation" group.
 * `version` changes after every change, so the preview can refresh.
 */
export function useDeliveryPolicy(
  connector: Connector,
  conversationId: string | undefined,
): {
  stateful: boolean;
  version: number;
  setStateful(on: boolean): void;
  policy: DisclosurePolicy | undefined;
  save(next: DisclosurePolicy): Promise<void>;
} {
  const [state, setState] = useState<{ id: string | undefined; policy: DisclosurePolicy | undefined; version: number }>(
    { id: undefined, policy: undefined, version: 0 },
  );
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
