/**
 * Protocol handlers of "summarise the earlier part" (docs/disclosure.md, "Fitting"): `previewSummary`,
 * `summariseEarlier`, `getSummary`, `clearSummary`; `createHandlers` spreads them in.
 *
 * `summariseEarlier` sends the summary request through the send engine's transport (the official
 * SDKs, Baton's bounded retries, P1) and stream assemblers, as the conversation's in-flight job
 * (`SendEngine.exclusive`). The turns left the browser either way, so every request that was made
 * gets a ledger record: with the stored summary in one transaction when it succeeded, alone
 * (`failed`) when it did not — then no summary is stored. Storing or clearing the summary
 * broadcasts `summaryUpdated`, so every open panel of the conversation refreshes.
 */
import type { ActiveSummary, SummaryView } from '../../messaging/summary-types';
import { WIRE_API_MODULES } from '../../providers';
import type { LedgerRecord } from '../../store/disclosures';
import type { Turn } from '../../transcript/schema';
import { costOf, confirmationOf, refuseUnconfirmed } from '../disclosure';
import { BatonError, toProtocolError } from '../../messaging/errors';
import type { BackgroundDeps } from '../core/deps';
import type { SendEngine } from '../send';
import { keyFor } from '../core/providers';
import type { Handlers } from '../core/router';
import { staleReason } from '../../context/summary-apply';
import { planSummaryRequest, toSummaryPreview, type PlannedSummary, type SummaryRequestInput } from './plan';
import { assertReachable, existingConversation } from '../core/guards';

/** Characters per output token a summary may have at most (≈ 4 for English prose; generous, so only a runaway answer is refused). */
export const MAX_SUMMARY_CHARS_PER_TOKEN = 16;

type SummaryHandlers = Pick<Handlers, 'previewSummary' | 'summariseEarlier' | 'getSummary' | 'clearSummary'>;
type Deps = BackgroundDeps & { engine: SendEngine };

/** The four summary handlers. */
export function summaryHandlers(d: Deps): SummaryHandlers {
  const ledger = () => d.engine.discloser.store;
  const plan = (
    p: Omit<SummaryRequestInput, 'exclusions'> & {
      excludeTurns?: string[] | undefined;
      excludeBlocks?: { turn: string; index: number }[] | undefined;
    },
  ) =>
    planSummaryRequest(
      { store: d.store, settings: d.settings, vault: d.vault, discloser: d.engine.discloser },
      {
        conversationId: p.conversationId,
        target: p.target,
        summariser: p.summariser,
        text: p.text,
        attachments: p.attachments,
        exclusions: { excludeTurns: p.excludeTurns, excludeBlocks: p.excludeBlocks },
      },
    );
  const exists = async (id: string) => {
    await existingConversation(d.store, id);
  };
  return {
    previewSummary: async (p) => toSummaryPreview(await plan(p), p.summariser.model),
    summariseEarlier: async (p) =>
      d.engine.exclusive(p.conversationId, async (signal, sleep) => {
        const planned = await plan(p);
        // The consent was given for exactly these turns: anything else is a stale request.
        if (planned.turnIds.length !== p.turnIds.length || planned.turnIds.some((id, i) => id !== p.turnIds[i]))
          throw new BatonError(
            'bad_request',
            `The turns to summarise have changed (now ${planned.turnIds.length}: ${planned.turnIds.slice(0, 5).join(', ')}${planned.turnIds.length > 5 ? ', …' : ''}); preview the summary again.`,
          );
        const req = planned.request.plan;
        if (!req.allowed)
          throw new BatonError(
            'policy_forbidden',
            req.forbidden?.message ?? 'The disclosure policy forbids this provider.',
          );
        if (!req.fits)
          throw new BatonError(
            'context_too_long',
            req.notFit?.message ?? 'The turns to summarise do not fit the summariser.',
          );
        // docs/disclosure.md: checked like sendMessage — a confirmation shown for one summariser (`confirmedFor`) cannot authorise another.
        refuseUnconfirmed(planned, planned.provider, confirmationOf(p));
        const provider = planned.provider;
        await assertReachable(provider, (o) => d.hasHostPermission(o));
        const key = await keyFor(provider, d.vault);
        return runSummary(d, {
          conversationId: p.conversationId,
          model: p.summariser.model,
          planned,
          key,
          signal,
          sleep,
        });
      }),
    getSummary: async ({ conversationId }) => {
      await exists(conversationId);
      const { summary } = await ledger().getConversationState(conversationId);
      if (!summary) return {};
      return {
        summary: {
          ...summary,
          stale: staleReason(await d.store.cachedTranscript(conversationId), summary) !== undefined,
        },
      };
    },
    clearSummary: async ({ conversationId }) => {
      await exists(conversationId);
      await ledger().clearSummary(conversationId);
      d.broadcast?.({ type: 'summaryUpdated', conversationId });
      return null;
    },
  };
}

interface Run {
  conversationId: string;
  model: string;
  planned: PlannedSummary;
  key: string;
  signal: AbortSignal;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Sends the summary request and collects the streamed answer's text; stores the summary and its
 * ledger record together, or a `failed` ledger record alone (none when it was stopped before the request left).
 * @throws BatonError the provider's error (its code); `provider_error` for an empty or runaway
 * summary; `network` ("stopped") after Stop.
 */
async function runSummary(d: Deps, r: Run): Promise<SummaryView> {
  const { provider, request } = r.planned;
  const module = WIRE_API_MODULES[provider.api];
  const at = d.now();
  const ctx = {
    provider: provider.originProvider,
    requestedModel: r.model,
    createdAt: at,
    ...(provider.endpoint ? { endpoint: provider.endpoint } : {}),
  };
  let assembler = module.createStreamAssembler(ctx);
  let received = 0;
  const record = (turn: Turn | undefined, status: LedgerRecord['status']): Omit<LedgerRecord, 'id'> => {
    const usage = turn?.usage;
    const cost = usage ? costOf(provider.api, r.model, provider.originProvider, usage) : undefined;
    const responseId = typeof turn?.meta?.responseId === 'string' ? turn.meta.responseId : undefined;
    return {
      conversationId: r.conversationId,
      at,
      providerId: provider.providerId,
      api: provider.api,
      model: r.model,
      endpoint: provider.origin,
      turns: r.planned.sent,
      estimatedInputTokens: request.estimatedInputTokens,
      ...(usage ? { usage } : {}),
      ...(cost !== undefined ? { costUsd: cost } : {}),
      ...(responseId ? { responseId } : {}),
      status,
      mode: 'snapshot',
      purpose: 'summary',
    };
  };
  const fail = async (error: BatonError, turn?: Turn): Promise<never> => {
    await d.engine.discloser.store.addRecord(record(turn, 'failed'));
    throw error;
  };
  let answer: Turn;
  // Whether a request was started: a summary stopped before that disclosed nothing, so it gets no
  // ledger record (docs/disclosure.md: the ledger lists what left the browser; a record would also spare the
  // next request to this provider its first-disclosure confirmation).
  let attempted = false;
  try {
    await d.transport.withRetries(
      async () => {
        if (r.signal.aborted) throw new DOMException('The summary was stopped', 'AbortError');
        attempted = true;
        assembler = module.createStreamAssembler(ctx);
        await d.transport.streamRequest(
          {
            providerId: provider.providerId,
            api: provider.api,
            apiKey: r.key,
            ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
          },
          request.plan.body,
          {
            model: r.model,
            signal: r.signal,
            onEvent: (event) => {
              received++;
              assembler.push(event);
            },
          },
        );
      },
      {
        sleep: r.sleep,
        signal: r.signal,
        shouldRetry: () => received === 0 && !r.signal.aborted,
        onRetry: () => undefined,
      },
    );
    answer = assembler.finish();
  } catch (e) {
    const err = toProtocolError(e, [r.key]);
    const error = new BatonError(
      r.signal.aborted ? 'network' : err.code,
      r.signal.aborted ? 'The summary was stopped; nothing was stored.' : err.message,
      err.retryAfterSec,
    );
    if (!attempted) throw error;
    return fail(error);
  }
  if (answer.status === 'error')
    return fail(
      new BatonError(
        'provider_error',
        `The summary request failed: ${answer.error?.message ?? 'the provider reported an error'}`,
      ),
      answer,
    );
  if (answer.status !== undefined && answer.status !== 'complete')
    return fail(new BatonError('provider_error', 'The summary was cut short; nothing was stored. Try again.'), answer);
  const text = answer.blocks
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n\n')
    .trim();
  if (!text)
    return fail(
      new BatonError('provider_error', 'The summariser returned an empty summary; nothing was stored.'),
      answer,
    );
  // docs/disclosure.md (a summary replaces turns to bound what is sent; N5 bounded context): an answer far
  // longer than the output reserve asked for allows is not a summary (a careless or hostile
  // endpoint); stored, it would ride along with every later send.
  const most = request.maxOutputTokens * MAX_SUMMARY_CHARS_PER_TOKEN;
  if (text.length > most)
    return fail(
      new BatonError(
        'provider_error',
        `The summariser's answer (${text.length.toLocaleString('en')} characters) is longer than the ${request.maxOutputTokens.toLocaleString('en')} output tokens asked for allow; nothing was stored.`,
      ),
      answer,
    );
  const summary: ActiveSummary = {
    id: d.newId(),
    replaces: r.planned.turnIds,
    hashes: r.planned.hashes,
    text,
    origin: answer.origin ?? {
      provider: provider.originProvider,
      api: provider.api,
      model: r.model,
      ...(provider.endpoint ? { endpoint: provider.endpoint } : {}),
    },
    at,
  };
  const rec = record(answer, 'completed');
  if (rec.usage) summary.usage = rec.usage;
  if (rec.costUsd !== undefined) summary.costUsd = rec.costUsd;
  await d.engine.discloser.store.saveSummary(r.conversationId, summary, rec);
  // Every open panel of the conversation refreshes its preview and summary notice (docs/disclosure.md).
  d.broadcast?.({ type: 'summaryUpdated', conversationId: r.conversationId });
  return { ...summary, stale: false };
}
