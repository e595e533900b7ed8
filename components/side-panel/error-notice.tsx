import type { ProtocolError } from '../../lib/messaging/protocol';
import { describeError } from '../../lib/ui/error-text';

export interface ErrorNoticeProps {
  error: ProtocolError;
  /** Opens the options page; offered for key and permission errors. */
  openOptions?: (() => void) | undefined;
  /** Announce it (the current failure), or not (an old failure in the history). */
  live?: boolean;
}

/** An error as a sentence a person can act on, plus a plain-text detail; never HTML (R1). */
export function ErrorNotice({ error, openOptions, live = false }: ErrorNoticeProps) {
  const t = describeError(error);
  return (
    <div class="error-notice" role={live ? 'alert' : undefined} data-error-code={error.code}>
      <p class="error-sentence">{t.sentence}</p>
      {t.detail ? <p class="error-detail">Details: {t.detail}</p> : null}
      {t.action === 'options' && openOptions ? (
        <button type="button" class="link-button" onClick={() => openOptions()}>
          Open options
        </button>
      ) : null}
    </div>
  );
}
