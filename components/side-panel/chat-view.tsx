import type { ProtocolError, ProviderStatus } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { turnError } from '../../lib/ui/error-text';
import { providerName, providerSwitches, retryOffer, type RetryOffer } from '../../lib/ui/turns';
import { ErrorNotice } from './error-notice';
import { TurnView } from './turn-view';

export interface ChatViewProps {
  turns: readonly Turn[];
  busy: boolean;
  providers: readonly ProviderStatus[];
  /** The last answer's failure as reported live (has `retryAfterSec`), else read from the turn. */
  answerError?: ProtocolError | undefined;
  /** Retry is possible (a provider and a model are chosen). */
  canRetry: boolean;
  onRetry(): void;
  openOptions?: (() => void) | undefined;
}

/** The turns of the open conversation, with provider-switch markers and the retry offer. */
export function ChatView(p: ChatViewProps) {
  if (p.turns.length === 0) return <p class="empty">Write a message below to start.</p>;
  const switches = providerSwitches(p.turns);
  const offer = retryOffer(p.turns, p.busy);
  const lastId = p.turns[p.turns.length - 1]!.id;
  return (
    <>
      <ol class="turns" aria-label="Chat">
        {p.turns.map((t) => {
          const prev = switches.get(t.id);
          return (
            <li key={t.id}>
              {prev && t.origin ? (
                <p class="provider-switch" data-provider-switch="">
                  Switched from {providerName(prev.provider, p.providers)} to {providerName(t.origin.provider, p.providers)}
                </p>
              ) : null}
              <TurnView turn={t} providers={p.providers} showError={t.id !== lastId} />
            </li>
          );
        })}
      </ol>
      {offer.kind === 'retry' ? <RetryBar offer={offer} {...p} /> : null}
    </>
  );
}

function RetryBar({ offer, answerError, canRetry, onRetry, openOptions }: ChatViewProps & { offer: Extract<RetryOffer, { kind: 'retry' }> }) {
  return (
    <div class="retry-bar" data-retry-reason={offer.reason}>
      {offer.reason === 'error' && offer.turn ? (
        <ErrorNotice error={answerError ?? turnError(offer.turn)} openOptions={openOptions} live />
      ) : (
        <p role="status">
          {offer.reason === 'interrupted'
            ? 'Response interrupted.'
            : offer.reason === 'stopped'
              ? 'Response interrupted: you stopped it.'
              : 'No answer was received.'}
        </p>
      )}
      <button type="button" onClick={onRetry} disabled={!canRetry} title={canRetry ? undefined : 'Choose a provider and a model first'}>
        Retry
      </button>
    </div>
  );
}
