/**
 * The side panel's state for "summarise the earlier part" (docs/disclosure.md, "Fitting"): the dialog (which
 * summariser, what the summary request would disclose and cost, the consent, busy and error) and
 * the active summary's text on request. Talks to the background only through the connector.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import type { ProtocolError, ProviderStatus, SendTarget } from '../../lib/messaging/protocol';
import type { SummaryPreview, SummaryView } from '../../lib/messaging/summary-types';
import type { PendingAttachment } from '../../lib/ui/attachments';
import { defaultSummariser } from '../../lib/ui/summary';
import type { BlockRef } from './disclosure-hooks';

export interface SummaryDialogInputs {
  conversationId: string | undefined;
  /** Where the conversation is being sent (its drops are what is summarised). */
  target: SendTarget | undefined;
  draft: string;
  /** Files attached to the draft: part of the send, so they count towards what it drops (docs/disclosure.md). */
  attachments?: readonly PendingAttachment[] | undefined;
  excludeTurns: readonly string[];
  excludeBlocks: readonly BlockRef[];
  providers: readonly ProviderStatus[];
}

export interface SummaryDialog {
  open: boolean;
  summariser: SendTarget | undefined;
  preview: SummaryPreview | undefined;
  /** The preview is being fetched. */
  loading: boolean;
  /** The summary request is running. */
  busy: boolean;
  error: ProtocolError | undefined;
  start(): void;
  setSummariser(t: SendTarget): void;
  /** The person's consent: asks for the summary of exactly the previewed turns, confirmed for the previewed summariser only (`confirmedFor`). */
  submit(): Promise<void>;
  /** Closes the dialog; sends nothing. */
  cancel(): void;
}

const asError = (e: unknown): ProtocolError => {
  const x = e as { code?: ProtocolError['code']; message?: string; retryAfterSec?: number };
  return {
    code: x.code ?? 'internal',
    message: x.message ?? String(e),
    ...(x.retryAfterSec !== undefined ? { retryAfterSec: x.retryAfterSec } : {}),
  };
};

/**
 * @param onDone called after a summary was stored (the panel refreshes its preview).
 * @param delayMs debounce of the preview while the model id is typed, in ms.
 */
export function useSummaryDialog(
  connector: Connector,
  inputs: SummaryDialogInputs,
  onDone: () => void,
  delayMs = 250,
): SummaryDialog {
  const [open, setOpen] = useState(false);
  const [summariser, setSummariser] = useState<SendTarget | undefined>(undefined);
  const [preview, setPreview] = useState<SummaryPreview | undefined>(undefined);
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ProtocolError | undefined>(undefined);
  const { conversationId, target, draft } = inputs;
  const attachments = inputs.attachments ?? [];
  const ask = () => ({
    conversationId: conversationId!,
    target: target!,
    summariser: summariser!,
    ...(draft.trim() ? { text: draft } : {}),
    // The same wire form the send and the bar's preview carry.
    ...(attachments.length ? { attachments: attachments.map(({ id: _id, bytes: _bytes, ...a }) => a) } : {}),
    ...(inputs.excludeTurns.length ? { excludeTurns: [...inputs.excludeTurns] } : {}),
    ...(inputs.excludeBlocks.length ? { excludeBlocks: [...inputs.excludeBlocks] } : {}),
  });
  const key = JSON.stringify([
    open,
    conversationId,
    target,
    summariser,
    draft,
    attachments.map((a) => a.id),
    inputs.excludeTurns,
    inputs.excludeBlocks,
  ]);
  const keyRef = useRef(key);
  keyRef.current = key;

  useEffect(() => {
    setPreview(undefined);
    if (!open || !conversationId || !target || !summariser?.model.trim()) return;
    const asked = key;
    setLoading(true);
    const t = setTimeout(() => {
      connector
        .request('previewSummary', ask())
        .then((p) => keyRef.current === asked && (setPreview(p), setError(undefined)))
        .catch((e: unknown) => keyRef.current === asked && setError(asError(e)))
        .finally(() => keyRef.current === asked && setLoading(false));
    }, delayMs);
    return () => clearTimeout(t);
  }, [connector, key]);

  return {
    open,
    summariser,
    preview,
    loading,
    busy,
    error,
    start: () => {
      setSummariser(defaultSummariser(target, inputs.providers));
      setError(undefined);
      setOpen(true);
    },
    setSummariser: (t) => setSummariser(t),
    submit: async () => {
      if (!preview || busy) return;
      setBusy(true);
      setError(undefined);
      try {
        // docs/disclosure.md: the confirmation names the summariser the dialog showed, so it cannot authorise another one.
        const confirmed = preview.needsConfirmation
          ? {
              confirmedDisclosure: true,
              confirmedFor: { providerId: preview.summariser.providerId, origin: preview.summariser.origin },
            }
          : {};
        await connector.request('summariseEarlier', { ...ask(), turnIds: preview.turnIds, ...confirmed });
        setOpen(false);
        onDone();
      } catch (e) {
        setError(asError(e));
      } finally {
        setBusy(false);
      }
    },
    cancel: () => {
      if (busy) return;
      setOpen(false);
      setError(undefined);
    },
  };
}

/** The active summary's text, loaded when `open` (for "View summary"). */
export function useSummaryText(
  connector: Connector,
  conversationId: string | undefined,
  open: boolean,
  version: string,
): SummaryView | undefined {
  const [summary, setSummary] = useState<SummaryView | undefined>(undefined);
  useEffect(() => {
    if (!open || !conversationId) {
      setSummary(undefined);
      return;
    }
    let live = true;
    connector
      .request('getSummary', { conversationId })
      .then((r) => live && setSummary(r.summary))
      .catch(() => live && setSummary(undefined));
    return () => {
      live = false;
    };
  }, [connector, conversationId, open, version]);
  return summary;
}
