/**
 * The allowlist mapper (docs/security.md#sync, "What syncs"): the one place that decides what of
 * Baton's stored data becomes a sync document. It builds each document from named fields only —
 * anything not listed here never syncs — and then scrubs every string: a saved key (the vault's
 * secrets, passed in) or anything shaped like a provider key is replaced by {@link KEY_REMOVED}, and
 * vault-shaped fields (`secret`, `apiKey`, `ciphertext`, `passphrase`…) are dropped wherever they
 * appear in a free-form value. Keys, vault records, the vault passphrase and the sync passphrase are
 * never an input of this module.
 */
import type { LedgerRecord } from '../../store/disclosures';
import type { ConversationRecord, TurnRecord } from '../../store/db';
import type { ProviderSettings } from '../../store/settings';
import { turnSchema, type Turn } from '../../transcript/schema';
import type { LedgerDoc, TurnDoc } from './model';

/** What replaces a key found in synced text. */
export const KEY_REMOVED = '[key removed]';

/**
 * Shapes of provider keys and bearer secrets (OpenAI `sk-`/`sk-proj-`, Anthropic `sk-ant-`, Google
 * `AIza`, xAI `xai-`, Groq `gsk_`, OpenRouter `sk-or-`, Hugging Face `hf_`, GitHub tokens, a JWT).
 */
export const KEY_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\bxai-[A-Za-z0-9_-]{20,}/g,
  /\bgsk_[A-Za-z0-9]{20,}/g,
  /\bhf_[A-Za-z0-9]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
];

/** Object keys that only vault-like data has; dropped wherever they appear in a synced value. */
const VAULT_FIELDS =
  /^(secret|secrets|apiKey|api_key|apikey|password|passphrase|ciphertext|sealed|vault|authorization)$/i;

/** `text` with every saved key and key-shaped token replaced by {@link KEY_REMOVED}. */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 8 && out.includes(s)) out = out.split(s).join(KEY_REMOVED);
  for (const p of KEY_PATTERNS) out = out.replace(p, KEY_REMOVED);
  return out;
}

/**
 * A deep copy of JSON value `v` with every string scrubbed ({@link scrubText}) and, with
 * `dropVaultFields`, every vault-shaped object key removed. Non-JSON values (functions, undefined
 * members) are dropped, as `JSON.stringify` would.
 */
export function scrub(v: unknown, secrets: readonly string[], dropVaultFields = true): unknown {
  if (typeof v === 'string') return scrubText(v, secrets);
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map((x) => scrub(x, secrets, dropVaultFields) ?? null);
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (dropVaultFields && VAULT_FIELDS.test(k)) continue;
      const y = scrub(x, secrets, dropVaultFields);
      if (y !== undefined) out[k] = y;
    }
    return out;
  }
  return undefined;
}

/** Picks the named fields of `obj` that are set. */
function pick(obj: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of names) if (obj[n] !== undefined) out[n] = obj[n];
  return out;
}

/** The meta entries of a conversation record that sync: its disclosure policy and active summary. */
const CONVERSATION_META_FIELDS = ['disclosurePolicy', 'activeSummary'] as const;

/**
 * The synced fields of a conversation record: title, creation time, pin, last target, source,
 * system prompt, tools, active leaf, and its policy and summary. Not synced: counters and caches the
 * receiving device recomputes (`nextSeq`, `turnCount`, `preview`, `updatedAt`) and the delivery
 * receipt (provider state bound to this device's last request).
 */
export function conversationFields(rec: ConversationRecord, secrets: readonly string[]): Record<string, unknown> {
  const base = pick(rec as unknown as Record<string, unknown>, [
    'title',
    'createdAt',
    'pinned',
    'lastTarget',
    'source',
    'system',
    'tools',
    'activeLeaf',
  ]);
  const meta = rec.meta ? pick(rec.meta, CONVERSATION_META_FIELDS) : {};
  for (const [k, v] of Object.entries(meta)) base[`meta.${k}`] = v;
  // Tools carry JSON Schemas whose property names are the tool's own: keep their keys.
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(base)) out[k] = scrub(v, secrets, k !== 'tools');
  return out;
}

// Read on first use, so loading this module does not build the schema (docs/architecture.md#the-service-workers-start-up).
let turnFields: string[] | undefined;

/**
 * The turn document of a stored turn, or undefined while it is still streaming (it becomes
 * immutable once final). The turn is rebuilt from the schema's fields, scrubbed, and checked by the
 * schema again, so no field outside the transcript format reaches a document.
 */
export function turnDoc(r: TurnRecord, secrets: readonly string[]): TurnDoc | undefined {
  if (r.turn.status === 'streaming') return undefined;
  // Provider payloads (`native`) keep their own keys; strings are scrubbed all the same.
  const picked = pick(r.turn as unknown as Record<string, unknown>, (turnFields ??= Object.keys(turnSchema.shape)));
  const scrubbed: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(picked)) scrubbed[k] = scrub(v, secrets, k !== 'native' && k !== 'blocks');
  const turn: Turn = turnSchema.parse(scrubbed);
  return { k: 'turn', cid: r.conversationId, parent: r.parentId, seq: r.seq, turn };
}

const LEDGER_FIELDS = [
  'conversationId',
  'at',
  'providerId',
  'api',
  'model',
  'endpoint',
  'turns',
  'estimatedInputTokens',
  'usage',
  'costUsd',
  'responseId',
  'status',
  'mode',
  'answer',
  'purpose',
  'dropped',
] as const;

/** The ledger document of a disclosure record (its local auto-increment id is not synced). */
export function ledgerDoc(rec: LedgerRecord, secrets: readonly string[]): LedgerDoc {
  return {
    k: 'ledger',
    cid: rec.conversationId,
    rec: scrub(pick(rec as unknown as Record<string, unknown>, LEDGER_FIELDS), secrets) as Record<string, unknown>,
  };
}

/** A stable fingerprint of a ledger record (its document id's natural id): when and where it was sent. */
export function ledgerFingerprint(rec: Pick<LedgerRecord, 'at' | 'providerId' | 'model' | 'turns'>): string {
  return [rec.at, rec.providerId, rec.model, rec.turns.map((t) => t.join('=')).join(',')].join('|');
}

/**
 * The synced settings the person chose: custom endpoints (name, base URL, flavour, default model —
 * an endpoint record holds no key), non-default base URLs, the default target and the global
 * disclosure policy. Not synced: which keys a provider refused (`invalidKeys`, about this device's keys).
 */
export function settingsFields(
  providers: ProviderSettings,
  disclosurePolicy: unknown,
  secrets: readonly string[],
): Record<string, unknown> {
  const endpoints = providers.endpoints.map((e) =>
    pick(e as unknown as Record<string, unknown>, ['id', 'name', 'baseUrl', 'flavor', 'defaultModel']),
  );
  const out: Record<string, unknown> = {
    endpoints,
    baseUrls: providers.baseUrls,
    ...(providers.defaultTarget !== undefined ? { defaultTarget: providers.defaultTarget } : {}),
    ...(disclosurePolicy !== undefined ? { disclosurePolicy } : {}),
  };
  for (const [k, v] of Object.entries(out)) out[k] = scrub(v, secrets);
  return out;
}
