import { useEffect, useState } from 'preact/hooks';
import type { Connector } from '../../lib/messaging/client';
import type { DisclosurePolicy } from '../../lib/messaging/disclosure-types';
import type { ProviderStatus } from '../../lib/messaging/protocol';
import type { Note } from '../../lib/ui/options-model';
import { cleanPolicy, limitText, providerChoices, readLimits, type LimitField } from '../../lib/ui/policy-fields';
import { NoteLine } from './note-line';
import './disclosure-policy.css';

export interface DisclosurePolicySectionProps {
  connector: Connector;
  /** The configured providers (settings), offered as "never send to" checkboxes. */
  providers: readonly ProviderStatus[];
}

const LABELS: Record<LimitField, string> = { maxTurns: 'Max turns', maxTokens: 'Max tokens' };

interface Form {
  maxTurns: string;
  maxTokens: string;
  foreignReasoning: 'drop' | 'text';
  images: 'send' | 'omit';
  prefixMismatch: 'drop_block' | 'error';
  never: string[];
}

function toForm(p: DisclosurePolicy): Form {
  return {
    maxTurns: limitText(p.maxTurns),
    maxTokens: limitText(p.maxTokens),
    foreignReasoning: p.foreignReasoning ?? 'drop',
    images: p.images ?? 'send',
    prefixMismatch: p.prefixMismatchBehavior ?? 'drop_block',
    never: p.neverProviders ?? [],
  };
}

/**
 * The global disclosure policy (docs/disclosure.md, "Policies, global and per conversation"): the most turns
 * and tokens any send discloses (empty: no limit), reasoning from another model dropped or sent as
 * labelled text, images sent or omitted, what Anthropic does with Claude's earlier thinking when the
 * conversation before it changed (drop the block and say so, the default; or fail the send: A-B3),
 * and providers that never receive any conversation.
 * Loads with `getDisclosurePolicy {}` and saves with `setDisclosurePolicy {policy}`; fields it
 * does not show (`lockedProvider`, `delivery`) are kept as stored. Invalid limits are explained
 * inline and nothing is saved.
 */
export function DisclosurePolicySection({ connector, providers }: DisclosurePolicySectionProps) {
  const [stored, setStored] = useState<DisclosurePolicy | undefined>();
  const [form, setForm] = useState<Form | undefined>();
  const [errors, setErrors] = useState<Partial<Record<LimitField, string>>>({});
  const [note, setNote] = useState<Note | undefined>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    connector.request('getDisclosurePolicy', {}).then(
      (r) => {
        if (!live) return;
        setStored(r.global);
        setForm(toForm(r.global));
      },
      (e: Error) => live && setNote({ kind: 'error', text: `Could not load the disclosure policy: ${e.message}` }),
    );
    return () => {
      live = false;
    };
  }, [connector]);

  if (!form || !stored) return <NoteLine note={note} />;
  const edit = (patch: Partial<Form>) => {
    setForm({ ...form, ...patch });
    setNote(undefined);
  };

  const save = async () => {
    const read = readLimits(form, LABELS);
    if (!read.ok) {
      setErrors(read.errors);
      setNote({ kind: 'error', text: 'Not saved: correct the fields marked above.' });
      return;
    }
    setErrors({});
    const { maxTurns: _t, maxTokens: _k, prefixMismatchBehavior: _b, ...kept } = stored;
    const policy = cleanPolicy({
      ...kept,
      ...read.limits,
      foreignReasoning: form.foreignReasoning,
      images: form.images,
      // A-B3: dropping is the default, so only "fail" is stored.
      ...(form.prefixMismatch === 'error' ? { prefixMismatchBehavior: 'error' as const } : {}),
      neverProviders: form.never,
    });
    setSaving(true);
    try {
      await connector.request('setDisclosurePolicy', { policy });
      setStored(policy);
      setForm(toForm(policy));
      setNote({ kind: 'ok', text: 'Disclosure policy saved.' });
    } catch (e) {
      setNote({ kind: 'error', text: `Not saved: ${(e as Error).message}` });
    } finally {
      setSaving(false);
    }
  };

  const limit = (f: LimitField, hint: string) => (
    <div class="policy-field">
      <label for={`policy-${f}`}>{LABELS[f]}</label>
      <input
        id={`policy-${f}`}
        type="text"
        inputMode="numeric"
        autocomplete="off"
        placeholder="No limit"
        value={form[f]}
        aria-invalid={errors[f] ? 'true' : 'false'}
        aria-describedby={`policy-${f}-hint${errors[f] ? ` policy-${f}-error` : ''}`}
        onInput={(e) => edit({ [f]: e.currentTarget.value })}
      />
      <span id={`policy-${f}-hint`} class="hint">
        {hint}
      </span>
      {errors[f] ? (
        <span id={`policy-${f}-error`} class="policy-error" role="alert">
          {errors[f]}
        </span>
      ) : null}
    </div>
  );
  const choices = providerChoices(providers, form.never);

  return (
    <form
      class="disclosure-policy"
      aria-label="Disclosure policy"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <p class="hint">
        Applies to every conversation; a conversation can narrow it further in the side panel's disclosure details.
      </p>
      {limit('maxTurns', 'The newest turns sent at most, per send. Empty: no limit.')}
      {limit('maxTokens', 'The estimated input tokens sent at most, per send. Empty: only the model’s context window.')}
      <fieldset>
        <legend>Reasoning from another model</legend>
        <label>
          <input
            type="radio"
            name="policy-reasoning"
            value="drop"
            checked={form.foreignReasoning === 'drop'}
            onChange={() => edit({ foreignReasoning: 'drop' })}
          />{' '}
          Drop it
        </label>
        <label>
          <input
            type="radio"
            name="policy-reasoning"
            value="text"
            checked={form.foreignReasoning === 'text'}
            onChange={() => edit({ foreignReasoning: 'text' })}
          />{' '}
          Send it as labelled text
        </label>
      </fieldset>
      <fieldset>
        <legend>Images</legend>
        <label>
          <input
            type="radio"
            name="policy-images"
            value="send"
            checked={form.images === 'send'}
            onChange={() => edit({ images: 'send' })}
          />{' '}
          Send them
        </label>
        <label>
          <input
            type="radio"
            name="policy-images"
            value="omit"
            checked={form.images === 'omit'}
            onChange={() => edit({ images: 'omit' })}
          />{' '}
          Omit them
        </label>
      </fieldset>
      <fieldset aria-describedby="policy-binding-hint">
        <legend>Claude's earlier thinking when the conversation before it changed</legend>
        <label>
          <input
            type="radio"
            name="policy-binding"
            value="drop_block"
            checked={form.prefixMismatch === 'drop_block'}
            onChange={() => edit({ prefixMismatch: 'drop_block' })}
          />{' '}
          Let Anthropic drop it and report what it dropped
        </label>
        <label>
          <input
            type="radio"
            name="policy-binding"
            value="error"
            checked={form.prefixMismatch === 'error'}
            onChange={() => edit({ prefixMismatch: 'error' })}
          />{' '}
          Fail the send
        </label>
        <span id="policy-binding-hint" class="hint">
          After an edit or a left-out turn, Anthropic no longer accepts the thinking that came after it. Dropping it
          costs reasoning tokens again; failing lets you change the send instead.
        </span>
      </fieldset>
      <fieldset>
        <legend>Never send any conversation to</legend>
        {choices.length === 0 ? <p class="hint">No providers configured.</p> : null}
        {choices.map((p) => (
          <label key={p.id}>
            <input
              type="checkbox"
              checked={form.never.includes(p.id)}
              onChange={(e) =>
                edit({ never: e.currentTarget.checked ? [...form.never, p.id] : form.never.filter((x) => x !== p.id) })
              }
            />{' '}
            {p.name}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={saving}>
        Save disclosure policy
      </button>
      <NoteLine note={note} />
    </form>
  );
}
