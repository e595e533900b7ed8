/**
 * The `countTokens` protocol handler (docs/disclosure.md, provider token-count endpoints); `createHandlers`
 * spreads it in. The payload arrives parsed and sender-checked by the router.
 */
import { previewInputOf } from './engine';
import type { Handlers } from '../core/router';
import type { DisclosingEngine } from './handlers';
import { countTokensFor, type CountDeps } from './token-count';

/** `countTokens`: the provider's count of what it has already received, and the recomputed preview. */
export function countHandlers(
  d: CountDeps & { engine: Pick<DisclosingEngine, 'discloser'> },
): Pick<Handlers, 'countTokens'> {
  return {
    countTokens: (p) => {
      // The count always answers with the whole preview.
      const { countsOnly: _countsOnly, ...input } = previewInputOf(p);
      return countTokensFor(d, d.engine.discloser, input);
    },
  };
}
