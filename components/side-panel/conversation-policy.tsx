/**
 * "This conversation" in the expanded disclosure preview (docs/disclosure.md, "Policies, global and per
 * conversation"): lock the conversation to the current target's provider, providers that must
 * never receive it, max turns / max tokens (the smaller of this and the options' limit applies)
 * and images sent or omitted. Saving goes through `onSave` (setDisclosurePolicy with the
 * conversationId), which refreshes the preview line. Fields it does not show (`delivery`,
 * `foreignReasoning`) are kept as stored.
 */
import { useState } from 'preact/hooks';
import type { DisclosurePolicy } from '../../lib/messaging/disclosure-types';
import { cleanPolicy, limitText, providerChoices, readLimits, type LimitField } from '../../lib/ui/policy-fields';
import '../options/disclosure-policy.css';

export interface ConversationPolicyProps {
  /** The stored conversation policy (undefined while loading). */
  policy: DisclosurePolicy | undefined;
  /** The provider the next send goes to (the one "lock" locks to). */
  targetProviderId: string;
  /** Display names of the configured providers, in their order. */
  providerNames: Readonly<Record<string, string>>;
  /** Stores the whole conversation policy; rejects with the background's error. */
  onSave(policy: DisclosurePolicy): Promise<void>;
  /** Start with the form shown (the disclosure sheet's Policy tab, docs/side-panel.md). */
  initiallyOpen?: boolean | undefined;
}

const LABELS: Record<LimitField, string> = {
  maxTurns: 'Max turns for this conversation',
  maxTokens: 'Max tokens for this conversation',
};

/** The collapsible group; the form inside restarts from the stored policy whenever it changes. */
export function ConversationPolicy(p: ConversationPolicyProps) {
  const [open, setOpen] = useState(p.initiallyOpen === true);
  // The note outlives the form, which restarts when the saved policy comes back.
  const [note, setNote] = useState<{ key: string; kind: 'ok' | 'error'; text: string } | undefined>();
  const key = JSON.stringify(p.policy ?? null);
  const shown = note?.key === key ? note : undefined;
  return (
    <div class="conversation-policy">
      <button
        type="button"
        class="mini"
        aria-expanded={open ? 'true' : 'false'}
        aria-controls="baton-conversation-policy"
        onClick={() => setOpen(!open)}
      >
        This conversation’s policy
      </button>
      {open && p.policy ? (
        <>
          <PolicyForm
            key={key}
            {...p}
            policy={p.policy}
            onNote={(kind, text, savedKey) => setNote(kind ? { key: savedKey ?? key, kind, text } : undefined)}
          />
          <p class={`note note-${shown?.kind ?? 'none'}`} role="status">
            {shown?.text ?? ''}
          </p>
        </>
      ) : null}
    </div>
  );
}

type OnNote = (kind: 'ok' | 'error' | undefined, text: string, savedKey?: string) => void;

function PolicyForm({
  policy,
  targetProviderId,
  providerNames,
  onSave,
  onNote,
}: ConversationPolicyProps & { policy: DisclosurePolicy; onNote: OnNote }) {
  const [lock, setLock] = useState(policy.lockedProvider ?? '');
  const [never, setNever] = useState<string[]>(policy.neverProviders ?? []);
  const [limits, setLimits] = useState({
    maxTurns: limitText(policy.maxTurns),
    maxTokens: limitText(policy.maxTokens),
  });
  const [images, setImages] = useState(policy.images ?? '');
  const [errors, setErrors] = useState<Partial<Record<LimitField, string>>>({});
  const name = (id: string) => providerNames[id] ?? id;
  const configured = Object.entries(providerNames).map(([id, n]) => ({ id, name: n }));
  const choices = providerChoices(configured, never);
  const lockChoices = [...new Set([targetProviderId, ...(policy.lockedProvider ? [policy.lockedProvider] : [])])];

  const save = async () => {
    const read = readLimits(limits, LABELS);
    if (!read.ok) {
      setErrors(read.errors);
      onNote('error', 'Not saved: correct the fields marked above.');
      return;
    }
    setErrors({});
    const { maxTurns: _t, maxTokens: _k, lockedProvider: _l, neverProviders: _n, images: _i, ...kept } = policy;
    const next = cleanPolicy({
      ...kept,
      ...read.limits,
      ...(lock ? { lockedProvider: lock } : {}),
      neverProviders: never,
      ...(images === 'send' || images === 'omit' ? { images } : {}),
    });
    try {
      onNote(undefined, '');
      await onSave(next);
      onNote('ok', 'Saved for this conversation.', JSON.stringify(next));
    } catch (e) {
      onNote('error', `Not saved: ${(e as Error).message}`);
    }
  };

  const limit = (f: LimitField, short: string) => (
    <div class="policy-field">
      <label for={`conv-policy-${f}`}>{short}</label>
      <input
        id={`conv-policy-${f}`}
        type="text"
        inputMode="numeric"
        autocomplete="off"
        placeholder="As in options"
        aria-label={LABELS[f]}
        aria-invalid={errors[f] ? 'true' : 'false'}
        value={limits[f]}
        onInput={(e) => {
          setLimits({ ...limits, [f]: e.currentTarget.value });
          onNote(undefined, '');
        }}
      />
      {errors[f] ? (
        <span class="policy-error" role="alert">
          {errors[f]}
        </span>
      ) : null}
    </div>
  );

  return (
    <form
      id="baton-conversation-policy"
      class="disclosure-policy"
      aria-label="This conversation’s policy"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div class="policy-field">
        <label for="conv-policy-lock">Lock to one provider</label>
        <select id="conv-policy-lock" value={lock} onChange={(e) => setLock(e.currentTarget.value)}>
          <option value="">Off</option>
          {lockChoices.map((id) => (
            <option key={id} value={id}>
              {name(id)}
            </option>
          ))}
        </select>
      </div>
      <fieldset>
        <legend>Never send this conversation to</legend>
        {choices.map((c) => (
          <label key={c.id}>
            <input
              type="checkbox"
              checked={never.includes(c.id)}
              onChange={(e) => setNever(e.currentTarget.checked ? [...never, c.id] : never.filter((x) => x !== c.id))}
            />{' '}
            {c.name}
          </label>
        ))}
      </fieldset>
      {limit('maxTurns', 'Max turns')}
      {limit('maxTokens', 'Max tokens')}
      <p class="hint">Empty: as in the options. The smaller limit applies.</p>
      <div class="policy-field">
        <label for="conv-policy-images">Images</label>
        <select id="conv-policy-images" value={images} onChange={(e) => setImages(e.currentTarget.value)}>
          <option value="">As in options</option>
          <option value="send">Send</option>
          <option value="omit">Omit</option>
        </select>
      </div>
      <button type="submit" class="mini">
        Save for this conversation
      </button>
    </form>
  );
}
