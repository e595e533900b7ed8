/**
 * The `countTokens` protocol handler (issue 6, provider token-count endpoints); `createHandlers`
 * spreads it in. The payload arrives parsed and sender-checked by the router.
 */
import type { Handlers } from './router';
import type { SendEngine } from './send';
import { countTokensFor, type CountDeps } from './token-count';

/** `countTokens`: the provider's count of what it has already received, and the recomputed preview. */
export function countHandlers(d: CountDeps & { engine: SendEngine }): Pick<Handlers, 'countTokens'> {
  return {
    countTokens: (p) =>
      countTokensFor(d, d.engine.discloser, {
        conversationId: p.conversationId,
        target: p.target,
        text: p.text,
        attachments: p.attachments,
        exclusions: { excludeTurns: p.excludeTurns, excludeBlocks: p.excludeBlocks },
        ...(p.resend ? { resend: p.resend } : {}),
      }),
  };
}
