/**
 * The first-disclosure confirmation (docs/disclosure.md): before a conversation goes to a provider (id and
 * endpoint) that has not received it, what will be disclosed. Cancel (or Escape) sends nothing.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { DisclosurePreview } from '../../lib/messaging/disclosure-types';
import { formatCost, formatTokens } from './disclosure-format';

export interface DisclosureConfirmProps {
  preview: DisclosurePreview;
  providerName: string;
  onConfirm(): void;
  onCancel(): void;
}

export function DisclosureConfirm({ preview, providerName, onConfirm, onCancel }: DisclosureConfirmProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  // The safe choice has the focus.
  useEffect(() => cancel.current?.focus(), []);
  const earlier = preview.perTurn.filter((t) => t.included && !t.draft).length;
  // Retry and Regenerate send no new message: only the conversation's turns.
  const hasDraft = preview.perTurn.some((t) => t.draft);
  const cost = formatCost(preview.estimatedCostUsd);
  const dropped = preview.turns - preview.includedTurns;
  return (
    <div class="disclosure-backdrop">
      <div
        class="disclosure-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="baton-disclosure-title"
        aria-describedby="baton-disclosure-what"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onCancel();
          }
        }}
      >
        <h2 id="baton-disclosure-title">Send this conversation to {providerName}?</h2>
        <div id="baton-disclosure-what">
          <p>{providerName} has not received this conversation before. It will receive:</p>
          <ul>
            <li>
              {hasDraft
                ? `${earlier} earlier ${earlier === 1 ? 'turn' : 'turns'} and your new message (${preview.includedTurns} of ${preview.turns} turns)`
                : `${preview.includedTurns} of ${preview.turns} turns of this conversation, to answer again`}
            </li>
            <li>
              ~{formatTokens(preview.estimatedInputTokens)} tokens{cost ? `, about ${cost}` : ''}, model{' '}
              {preview.target.model}
            </li>
            <li>at {preview.target.origin}</li>
            {dropped ? (
              <li>
                {dropped} {dropped === 1 ? 'turn is' : 'turns are'} left out
              </li>
            ) : null}
            {preview.thinkingDropped ? (
              <li>
                {preview.thinkingDropped} thinking {preview.thinkingDropped === 1 ? 'block' : 'blocks'} dropped
              </li>
            ) : null}
            {preview.imagesOmitted ? (
              <li>
                {preview.imagesOmitted} {preview.imagesOmitted === 1 ? 'image' : 'images'} omitted
              </li>
            ) : null}
          </ul>
        </div>
        <div class="composer-actions">
          <button type="button" ref={cancel} onClick={onCancel}>
            Cancel
          </button>
          <button type="button" class="primary" onClick={onConfirm}>
            Disclose and send
          </button>
        </div>
      </div>
    </div>
  );
}
