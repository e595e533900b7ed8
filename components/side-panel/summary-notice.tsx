/**
 * Above the chat, when the conversation has an active summary (docs/disclosure.md, "Fitting"): "Earlier N
 * turns are sent as a summary written by <model> · View summary · Stop using it", or why a stale
 * summary is not sent. "Stop using it" goes back to dropping the oldest turns.
 */
import { useState } from 'preact/hooks';
import type { PreviewSummary } from '../../lib/messaging/disclosure-types';
import type { ProtocolError } from '../../lib/messaging/protocol';
import type { SummaryView } from '../../lib/messaging/summary-types';
import { summaryNoticeText } from '../../lib/ui/summary';
import { ErrorNotice } from './error-notice';

export interface SummaryNoticeProps {
  summary: PreviewSummary;
  /** The summary's text, once loaded (after `onView(true)`). */
  text: SummaryView | undefined;
  onView(open: boolean): void;
  /** Stops using the summary; rejects with the background's error. */
  onStop(): Promise<void>;
}

/** The active (or stale) summary above the chat, with its text on request and "Stop using it". */
export function SummaryNotice({ summary, text, onView, onStop }: SummaryNoticeProps) {
  const [open, setOpen] = useState(false);
  const [stopping, setStopping] = useState(false);
  const [error, setError] = useState<ProtocolError | undefined>(undefined);
  return (
    <section class="summary-notice" aria-label="Summary of earlier turns" data-summary-state={summary.state}>
      <p>
        <span>{summaryNoticeText(summary)}</span>
        {' · '}
        <button
          type="button"
          class="link-button"
          aria-expanded={open ? 'true' : 'false'}
          aria-controls="baton-summary-text"
          onClick={() => {
            setOpen(!open);
            onView(!open);
          }}
        >
          {open ? 'Hide summary' : 'View summary'}
        </button>
        {' · '}
        <button
          type="button"
          class="link-button"
          disabled={stopping}
          onClick={() => {
            setStopping(true);
            setError(undefined);
            onStop()
              .catch((e: { code?: ProtocolError['code']; message?: string }) =>
                setError({ code: e.code ?? 'internal', message: e.message ?? '' }),
              )
              .finally(() => setStopping(false));
          }}
        >
          Stop using it
        </button>
      </p>
      {open ? (
        <div id="baton-summary-text" class="summary-text" tabIndex={0} aria-label="Summary text">
          {text ? (
            <>
              <p class="hint">
                Written by {text.origin.provider}/{text.origin.model} at {text.at.slice(0, 16).replace('T', ' ')}
                {text.costUsd !== undefined ? `, cost $${text.costUsd.toFixed(4)}` : ''}, for {text.replaces.length}{' '}
                turns.
              </p>
              <p class="summary-body">{text.text}</p>
            </>
          ) : (
            <p class="hint">Loading…</p>
          )}
        </div>
      ) : null}
      {error ? <ErrorNotice error={error} live /> : null}
    </section>
  );
}
