/**
 * The exact count (docs/disclosure.md, "Token estimates per target"): asks Anthropic's or Gemini's
 * token-count endpoint to count what that provider has already received of a conversation, and
 * calibrates the estimates with it.
 *
 * Privacy rule (docs/disclosure.md: "A provider's token-count endpoint is used only for a provider that has
 * already received this conversation, since calling it discloses the conversation"): the count
 * request carries only stored turns the ledger lists as received by this provider id at this
 * endpoint origin with their current content hash (`receivedTurns`), never the draft, never a
 * turn only another provider received, never an edited turn. It is planned by the send's own
 * planner (`planSend`: policies, the person's exclusions, the converter) and cut to the count
 * endpoint's fields, so the estimate compared with the count is the estimate of that very body.
 */
import { providerSessionKey } from '../../context/delivery';
import { recordUsage } from '../../context/token-cache';
import type { CountTokensResult } from '../../messaging/disclosure-types';
import type { ConversationStore } from '../../store/conversations';
import type { SettingsStore } from '../../store/settings';
import type { Vault } from '../../vault/vault';
import { countKey, countRequestBody, hasCountApi, receivedTurns, withTurns } from '../../context/count-state';
import { previewSend, type Discloser, type PreviewSendInput } from './engine';
import { planSend } from './sendable';
import { BatonError } from '../../messaging/errors';
import { BUILTIN, convertTargetFor, isBuiltin, keyFor, markKeyInvalid, resolveProvider } from '../core/providers';
import type { Transport } from '../core/transport';
import { assertReachable, existingConversation } from '../core/guards';

export interface CountDeps {
  store: ConversationStore;
  settings: SettingsStore;
  vault: Vault;
  transport: Transport;
  /** Whether the extension holds a host permission for `origin` (N1). */
  hasHostPermission(origin: string): Promise<boolean>;
  /** ISO time now. */
  now(): string;
}

/** The inputs of `previewSend`; the count uses the conversation, the target and the exclusions, the refreshed preview all of them. */
export type CountInput = Omit<PreviewSendInput, 'countsOnly'>;

/**
 * Counts, with the target provider's token-count endpoint, the turns of the conversation it has
 * already received; records the count against the uncorrected estimate of the same body
 * (`recordUsage` on the Discloser's cache, so every later estimate for that provider is
 * corrected), and returns the preview of `input` recomputed with it.
 * @returns `countedTokens` (tokens, the provider's count), `countedTurns` (turns in the count request), `preview`.
 * @throws BatonError, each before any request: `bad_request` (no conversation given, or the
 *   target's API has no count endpoint: OpenAI is counted exactly, OpenAI-compatible endpoints
 *   have none; any preview input `previewSend` refuses), `not_found` (conversation, endpoint, edited turn), `not_received` (the provider has received
 *   none of the conversation as it is now), `policy_forbidden`, `endpoint_not_permitted`, `no_key`,
 *   `locked`. `provider_error` for a count of 0 tokens (nothing is recorded). A TransportError from the provider (`invalid_key`, `rate_limited`, `timeout`, …),
 *   its message free of the key; an `invalid_key` also marks the key invalid, as a send does.
 */
export async function countTokensFor(
  deps: CountDeps,
  discloser: Discloser,
  input: CountInput,
): Promise<CountTokensResult> {
  const { store, settings, vault, transport } = deps;
  const provider = resolveProvider(input.target.providerId, await settings.get(), input.target);
  const name = isBuiltin(provider.providerId) ? BUILTIN[provider.providerId].name : provider.providerId;
  if (!hasCountApi(provider.api))
    throw new BatonError(
      'bad_request',
      provider.api === 'openai-chat'
        ? `${name} (an OpenAI-compatible endpoint) has no token-count endpoint.`
        : `${name} needs no count: its models are counted exactly with their tokenizer.`,
    );
  const conversationId = input.conversationId;
  if (!conversationId)
    throw new BatonError(
      'bad_request',
      'A new chat has not been sent anywhere: there is nothing a provider may count.',
    );
  await existingConversation(store, conversationId);
  // Bad input for the refreshed preview (a retry with nothing to retry, an edit of an unknown
  // turn, a draft with a regenerate) is refused here, before the count request discloses anything
  // or the count changes an estimate (docs/disclosure.md; bad input → a clear error, nothing changed).
  await previewSend(deps, discloser, input);
  const stored = await store.cachedTranscript(conversationId);
  const received = receivedTurns(await discloser.store.list(conversationId), provider, stored.turns);
  if (received.length === 0)
    throw new BatonError(
      'not_received',
      `${name} at ${provider.origin} has not received any of this conversation as it is now, so it is not asked to count it (that would disclose it). Nothing was sent.`,
    );

  const global = await discloser.store.getGlobalPolicy();
  const { policy } = await discloser.store.getConversationState(conversationId);
  const target = convertTargetFor(provider, input.target);
  const planned = planSend({
    transcript: withTurns(stored, received),
    target,
    global,
    conversation: policy,
    exclusions: input.exclusions ?? {},
    cache: discloser.cache,
    // The session key only matters for a stateful Responses delta, which never has a count endpoint.
    sessionKey: providerSessionKey(target, ''),
  });
  if (!planned.plan.allowed)
    throw new BatonError(
      'policy_forbidden',
      planned.plan.forbidden?.message ?? 'The disclosure policy forbids this provider.',
    );
  if (planned.plan.included.length === 0)
    throw new BatonError(
      'not_received',
      `Every turn ${name} has received is left out of this send: there is nothing to count. Nothing was sent.`,
    );

  await assertReachable(provider, (o) => deps.hasHostPermission(o));
  const key = await keyFor(provider, vault);
  const body = countRequestBody(provider.api, planned.body, input.target.model);
  let counted: number;
  try {
    counted = await transport.countTokens(
      {
        providerId: provider.providerId,
        api: provider.api,
        apiKey: key,
        ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
      },
      body,
      { model: input.target.model },
    );
  } catch (e) {
    // P1: a 401 marks the key invalid until it is saved again or passes "Test key", as a send does.
    if ((e as { code?: unknown }).code === 'invalid_key') await markKeyInvalid(settings, provider.providerId, true);
    throw e;
  }
  // docs/disclosure.md: the count request carries at least one received turn, so 0 tokens is not a count (a
  // careless or hostile endpoint); recorded, it would pull every later estimate down to the bound.
  if (counted < 1)
    throw new BatonError(
      'provider_error',
      `${name} counted 0 tokens for ${planned.plan.included.length} turns: that is not a count. Nothing was changed.`,
    );
  // The count is of the body planned above, so it corrects exactly that body's uncorrected estimate.
  recordUsage(discloser.cache, provider.originProvider, planned.plan.uncorrectedInputTokens, counted);
  const countedTurns = planned.plan.included.length;
  discloser.counts.set(countKey(conversationId, provider), {
    tokens: counted,
    turns: countedTurns,
    model: input.target.model,
    at: deps.now(),
  });
  const preview = await previewSend(deps, discloser, input);
  return { countedTokens: counted, countedTurns, preview };
}
