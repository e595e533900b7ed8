/**
 * Transports (layer 3): the only way the background calls providers. Official SDKs with SDK
 * retries off, redirects refused, keys in their own headers; typed errors; Baton's retry policy.
 */
export type { ProviderConnection, StreamRequestOptions, ListModelsOptions, ListedModel } from './types';
export { streamRequest, DEFAULT_FIRST_BYTE_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS } from './stream';
export { listModels, DEFAULT_LIST_TIMEOUT_MS } from './models';
export { countTokens, hasCountEndpoint, DEFAULT_COUNT_TIMEOUT_MS, type CountTokensOptions } from './count';
export {
  TransportError,
  classifyError,
  parseRetryAfter,
  isAbortError,
  RETRY_AFTER_CAP_MS,
  type ClassifyOptions,
  type TransportErrorInit,
} from './errors';
export { redactSecrets, cleanErrorText, MAX_ERROR_MESSAGE_CHARS } from './redact';
export {
  withRetries,
  retryDelayMs,
  defaultSleep,
  MAX_RETRIES,
  BACKOFF_BASE_MS,
  type RetryOptions,
  type RetryInfo,
} from './retry';
export { noRedirectFetch, makeNoRedirectFetch, type FetchLike } from './fetch';
export { DEFAULT_BASE_URLS, GEMINI_API_VERSION } from './clients';
