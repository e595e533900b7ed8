/**
 * Form helpers for the disclosure policies (docs/disclosure.md, "Policies, global and per conversation"):
 * the limit fields are typed as text, read here into the numbers `disclosurePolicySchema`
 * (lib/messaging/disclosure-types.ts) accepts, with a sentence for the person when they are not.
 */
import type { DisclosurePolicy } from '../messaging/disclosure-types';

/** Upper bounds of `disclosurePolicySchema`: turns, and tokens. */
export const LIMIT_MAX = { maxTurns: 1_000_000, maxTokens: 100_000_000 } as const;

export type LimitField = keyof typeof LIMIT_MAX;

/** A limit field read: `value` undefined means "no limit" (an empty field). */
export type LimitRead = { ok: true; value: number | undefined } | { ok: false; error: string };

/**
 * Reads one limit field. Empty (or blanks) → no limit; otherwise a positive whole number up to
 * {@link LIMIT_MAX} (digits only, thousands separators `,` `_` and spaces allowed).
 * @param label the field's name in the sentence ("Max turns").
 */
export function readLimit(field: LimitField, text: string, label: string): LimitRead {
  const t = text.trim();
  if (t === '') return { ok: true, value: undefined };
  const digits = t.replace(/[\s,_]/g, '');
  if (!/^\d+$/.test(digits))
    return {
      ok: false,
      error: `${label}: enter a whole number of ${field === 'maxTurns' ? 'turns' : 'tokens'}, or leave it empty for no limit.`,
    };
  const n = Number(digits);
  if (n < 1) return { ok: false, error: `${label}: must be at least 1, or empty for no limit.` };
  if (n > LIMIT_MAX[field]) return { ok: false, error: `${label}: at most ${LIMIT_MAX[field].toLocaleString('en')}.` };
  return { ok: true, value: n };
}

/** The text shown in a limit field for a stored value (empty for no limit). */
export function limitText(value: number | undefined): string {
  return value === undefined ? '' : String(value);
}

/** Both limit fields as typed. */
export interface LimitTexts {
  maxTurns: string;
  maxTokens: string;
}

/**
 * Reads both limit fields: the numbers to store, or every error sentence (nothing is saved then).
 * @param labels the fields' names in the sentences.
 */
export function readLimits(
  texts: LimitTexts,
  labels: Record<LimitField, string>,
):
  | { ok: true; limits: Pick<DisclosurePolicy, LimitField> }
  | { ok: false; errors: Partial<Record<LimitField, string>> } {
  const errors: Partial<Record<LimitField, string>> = {};
  const limits: Pick<DisclosurePolicy, LimitField> = {};
  for (const f of ['maxTurns', 'maxTokens'] as const) {
    const r = readLimit(f, texts[f], labels[f]);
    if (!r.ok) errors[f] = r.error;
    else if (r.value !== undefined) limits[f] = r.value;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, limits };
}

/**
 * A policy without its unset fields and with an empty `neverProviders` removed, so the stored
 * record holds only what the person chose.
 */
export function cleanPolicy(p: DisclosurePolicy): DisclosurePolicy {
  const out = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as DisclosurePolicy;
  if (out.neverProviders?.length === 0) delete out.neverProviders;
  return out;
}

/**
 * The providers offered as checkboxes: the configured ones, then any id a stored policy names
 * that is no longer configured (so saving never silently drops it).
 */
export function providerChoices(
  configured: readonly { id: string; name: string }[],
  named: readonly string[] = [],
): { id: string; name: string }[] {
  const out = configured.map((p) => ({ id: p.id, name: p.name }));
  for (const id of named) if (!out.some((p) => p.id === id)) out.push({ id, name: `${id} (not configured)` });
  return out;
}
