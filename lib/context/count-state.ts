/**
 * What the provider token-count endpoints may see, and what a preview says about its estimate
 * (docs/disclosure.md, "Token estimates per target": "A provider's token-count endpoint is used only for a
 * provider that has already received this conversation, since calling it discloses the
 * conversation"). Pure: the ledger records and turns come in as data.
 */
import { turnContentHash } from './hash';
import type { TokenizerFamily } from './types';
import type { Transcript, Turn, WireApi } from '../transcript/schema';

/** What receivedTurns reads of a disclosure-ledger record (the store's `LedgerRecord`). */
export interface LedgerReceipt {
  providerId: string;
  /** The endpoint origin the request went to. */
  endpoint: string;
  status: 'completed' | 'failed';
  /** `[turnId, contentHash]` of each turn sent. */
  turns: readonly (readonly [string, string])[];
  /** `[turnId, contentHash]` of the answer a completed send produced. */
  answer?: readonly [string, string] | undefined;
}

/**
 * How an estimate was made: `tokenizer` — counted exactly (OpenAI family); `estimate` — from
 * characters, not yet corrected; `corrected` — corrected by the usage this provider reported;
 * `provider-count` — calibrated by this provider's count of the turns of this conversation it
 * had already received (`countTokens`).
 */
export type EstimateSource = 'tokenizer' | 'estimate' | 'corrected' | 'provider-count';

/** A provider's own count of the turns it had already received (docs/disclosure.md, token-count endpoints). */
export interface ProviderCount {
  /** Input tokens the provider counted. */
  tokens: number;
  /** Turns in the counted request. */
  turns: number;
  model: string;
  /** ISO time of the count. */
  at: string;
}

/** A provider as the ledger names it: its id and the endpoint origin requests went to. */
export interface LedgerProvider {
  providerId: string;
  origin: string;
}

/**
 * The turns of `turns` that `provider` (id and endpoint origin) already knows exactly as they are
 * now: a completed ledger record of that provider lists the turn's id with its current content
 * hash, among the turns it sent or as the answer it produced. A turn edited since, a turn only
 * another provider (or the same provider at another origin) received or wrote, a turn of a failed
 * send, and a draft (never stored, so never in the ledger) are left out. Order is kept.
 * `hashOf`: a turn's content hash (default `turnContentHash`; a stand-in's comes from the path index).
 */
export function receivedTurns(
  records: readonly LedgerReceipt[],
  provider: LedgerProvider,
  turns: readonly Turn[],
  hashOf: (turn: Turn) => string = turnContentHash,
): Turn[] {
  const seen = new Set<string>();
  for (const r of records) {
    // A failed send may not have reached the provider: only completed sends prove receipt.
    if (r.providerId !== provider.providerId || r.endpoint !== provider.origin || r.status !== 'completed') continue;
    for (const [id, hash] of r.answer ? [...r.turns, r.answer] : r.turns) seen.add(`${id}\u0000${hash}`);
  }
  if (seen.size === 0) return [];
  return turns.filter((t) => seen.has(`${t.id}\u0000${hashOf(t)}`));
}

/** Top-level fields of Anthropic's count body (`MessageCountTokensParams`; https://docs.anthropic.com/en/api/messages-count-tokens). */
const ANTHROPIC_COUNT_FIELDS = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking'] as const;
/** Fields of a Gemini `GenerateContentRequest` that make up its input (https://ai.google.dev/api/tokens). */
const GEMINI_COUNT_FIELDS = ['contents', 'systemInstruction', 'tools', 'toolConfig'] as const;

/**
 * The count endpoint's body for a planned Messages or generateContent body (the converter's):
 * Anthropic keeps only what `count_tokens` accepts (no `max_tokens`, `stream`, `temperature`,
 * `metadata`: the endpoint refuses them); Gemini wraps the input fields as
 * `{generateContentRequest: {model: 'models/<model>', …}}` (generation settings do not change
 * the input count).
 * @throws Error for an API without a count endpoint (a programming error: check {@link hasCountApi} first).
 */
export function countRequestBody(
  api: WireApi,
  body: Readonly<Record<string, unknown>>,
  model: string,
): Record<string, unknown> {
  const pick = (fields: readonly string[]) =>
    Object.fromEntries(fields.filter((f) => body[f] !== undefined).map((f) => [f, body[f]]));
  if (api === 'anthropic-messages') return pick(ANTHROPIC_COUNT_FIELDS);
  if (api === 'gemini-generate-content')
    return {
      generateContentRequest: { model: `models/${model.replace(/^models\//, '')}`, ...pick(GEMINI_COUNT_FIELDS) },
    };
  throw new Error(`countRequestBody: ${api} has no token-count endpoint`);
}

/** Wire APIs with a token-count endpoint: Anthropic Messages and Gemini. OpenAI (exact tokenizer) and OpenAI-compatible endpoints have none. */
export function hasCountApi(api: WireApi): boolean {
  return api === 'anthropic-messages' || api === 'gemini-generate-content';
}

/** Key of a count in {@link CountMemory}: one conversation, one provider id at one origin. */
export function countKey(conversationId: string, provider: LedgerProvider): string {
  return `${conversationId}\u0000${provider.providerId}\u0000${provider.origin}`;
}

/** The last provider count per conversation and provider, for the life of the worker (as the token cache's corrections). */
export type CountMemory = Map<string, ProviderCount>;

/** What a preview says about its count: whether an exact count may be asked for, and where the estimate comes from. */
export interface CountInfo {
  /** The policy allows the target, its API has a count endpoint and it has received some of this conversation as it is now. */
  exactCountAvailable: boolean;
  estimateSource: EstimateSource;
  providerCount?: ProviderCount;
}

/**
 * @param allowed the policies allow the target (a forbidden provider is never asked).
 * @param received turns the target has received ({@link receivedTurns}).
 * @param corrected the token cache holds a correction for the target's provider (reported usage or a count).
 */
export function countInfo(input: {
  api: WireApi;
  tokenizer: TokenizerFamily;
  allowed: boolean;
  received: number;
  corrected: boolean;
  count?: ProviderCount | undefined;
}): CountInfo {
  const exactCountAvailable = input.allowed && hasCountApi(input.api) && input.received > 0;
  if (input.tokenizer === 'o200k' || input.tokenizer === 'cl100k')
    return { exactCountAvailable, estimateSource: 'tokenizer' };
  if (input.count) return { exactCountAvailable, estimateSource: 'provider-count', providerCount: input.count };
  return { exactCountAvailable, estimateSource: input.corrected ? 'corrected' : 'estimate' };
}

/** `transcript` with only `turns` (system prompt and tools kept: they went with every earlier request). */
export function withTurns(transcript: Transcript, turns: Turn[]): Transcript {
  return { ...transcript, turns };
}
