/** The send pipeline's {@link Transport}, backed by the SDK transports of `lib/transports`. */
import { countTokens, listModels, streamRequest, TransportError, withRetries } from '../../transports';
import type { Transport } from './transport';

/** Official SDKs, SDK retries off, Baton's own bounded retry policy (P1). */
export const sdkTransport: Transport = {
  streamRequest: (conn, body, opts) => streamRequest(conn, body, opts),
  withRetries: (attempt, opts) =>
    withRetries(
      async () => {
        try {
          return await attempt();
        } catch (e) {
          // Once content has streamed (or the person stopped), a retry would duplicate or override it.
          if (e instanceof TransportError && !opts.shouldRetry()) e.retryable = false;
          throw e;
        }
      },
      {
        sleep: opts.sleep,
        signal: opts.signal,
        onRetry: (info) => opts.onRetry({ attempt: info.attempt, delayMs: info.delayMs }),
      },
    ),
  listModels: (conn) => listModels(conn),
  countTokens: (conn, body, opts) => countTokens(conn, body, opts),
};
