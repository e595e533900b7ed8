/**
 * "Ask <provider> for an exact count" in the expanded disclosure preview (docs/disclosure.md, token-count
 * endpoints): offered only when the preview says so (`exactCountAvailable`: Anthropic or Gemini,
 * and the provider has already received some of this conversation), it sends only those turns to
 * the provider's free token-count endpoint; afterwards the line says the estimate is calibrated
 * by that count. Errors are shown as sentences (lib/ui/error-text.ts).
 */
import { useId, useState } from 'preact/hooks';
import { isErrorCode } from '../../lib/messaging/client';
import type { DisclosurePreview } from '../../lib/messaging/disclosure-types';
import type { ProtocolError } from '../../lib/messaging/protocol';
import { formatTokens } from './disclosure-format';
import { ErrorNotice } from './error-notice';

export interface ExactCountProps {
  preview: DisclosurePreview;
  /** The provider's display name ("Anthropic"). */
  providerName: string;
  /** Asks for the count and shows the recomputed preview; rejects with the background's error. */
  onCount(): Promise<void>;
}

const turnsText = (n: number) => `${n} turn${n === 1 ? '' : 's'}`;

/** The calibration line ("Calibrated by Anthropic's count …"), or undefined when the estimate is not calibrated by a count. */
export function calibrationLine(p: DisclosurePreview, providerName: string): string | undefined {
  if (p.estimateSource !== 'provider-count' || !p.providerCount) return undefined;
  const c = p.providerCount;
  return `~${formatTokens(p.estimatedInputTokens)} tokens, calibrated by ${providerName}'s count of the ${turnsText(c.turns)} it has already seen (${c.tokens.toLocaleString('en')} tokens).`;
}

/** A rejected request as the protocol error it carries (a ClientError's code and message), else `internal`. */
function asProtocolError(e: unknown): ProtocolError {
  const { code, retryAfterSec } = (e ?? {}) as { code?: unknown; retryAfterSec?: unknown };
  const message = e instanceof Error ? e.message : String(e);
  if (!isErrorCode(code)) return { code: 'internal', message };
  return { code, message, ...(typeof retryAfterSec === 'number' ? { retryAfterSec } : {}) };
}

export function ExactCount({ preview, providerName, onCount }: ExactCountProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ProtocolError | undefined>(undefined);
  const hintId = useId();
  const calibrated = calibrationLine(preview, providerName);
  if (!preview.exactCountAvailable && !calibrated) return null;
  const ask = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onCount();
    } catch (e) {
      setError(asProtocolError(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="disclosure-count" data-exact-count={calibrated ? 'calibrated' : 'offered'}>
      {calibrated ? <p data-count-line="">{calibrated}</p> : null}
      {preview.exactCountAvailable ? (
        <>
          {/* One action, not a quiet toolbar control: drawn as a button (`outlined`), its hint as its description. */}
          <button
            type="button"
            class="mini outlined"
            disabled={busy}
            aria-busy={busy ? 'true' : 'false'}
            aria-describedby={hintId}
            onClick={() => void ask()}
          >
            {busy
              ? 'Counting…'
              : calibrated
                ? `Ask ${providerName} to count again`
                : `Ask ${providerName} for an exact count`}
          </button>
          <p class="hint" id={hintId}>
            Sends only the turns {providerName} has already received (never your draft) to its free token-count
            endpoint.
          </p>
        </>
      ) : null}
      {error ? <ErrorNotice error={error} live /> : null}
    </div>
  );
}
