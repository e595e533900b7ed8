/**
 * Error bodies in each provider's own shape, and the in-stream error events.
 *
 * Shapes: Anthropic `{type:'error', error:{type, message}}`
 * (https://docs.anthropic.com/en/api/errors), OpenAI `{error:{message, type, param, code}}`
 * (https://platform.openai.com/docs/guides/error-codes), Gemini
 * `{error:{code, message, status}}` (https://ai.google.dev/gemini-api/docs/troubleshooting).
 */
import type { FakeApi } from './types';

/** Which error family an endpoint uses. */
export type ErrorFamily = 'anthropic' | 'openai' | 'gemini';

/** The error family of an endpoint. */
export function errorFamily(api: FakeApi | 'unknown'): ErrorFamily {
  if (api === 'anthropic-messages' || api === 'anthropic-models' || api === 'anthropic-count-tokens')
    return 'anthropic';
  if (
    api === 'gemini-generate-content' ||
    api === 'gemini-interactions' ||
    api === 'gemini-models' ||
    api === 'gemini-count-tokens'
  )
    return 'gemini';
  return 'openai';
}

const ANTHROPIC_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const OPENAI_TYPES: Record<number, [type: string, code: string | null]> = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  403: ['invalid_request_error', 'unsupported_country_region_territory'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['requests', 'rate_limit_exceeded'],
  500: ['server_error', null],
  503: ['server_error', null],
};

const GEMINI_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  408: 'DEADLINE_EXCEEDED',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/**
 * The body a provider sends with an HTTP error `status`.
 * @param message human text; default a short one naming the status.
 * @param type overrides the error type (Anthropic `error.type`, OpenAI `error.type`, Gemini `error.status`).
 * @param code OpenAI only: `error.code` (e.g. `insufficient_quota`).
 */
export function errorBody(
  api: FakeApi | 'unknown',
  status: number,
  message?: string,
  type?: string,
  code?: string | null,
): Record<string, unknown> {
  const text = message ?? `fake provider error (HTTP ${status})`;
  switch (errorFamily(api)) {
    case 'anthropic':
      return {
        type: 'error',
        error: {
          type: type ?? ANTHROPIC_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
          message: text,
        },
      };
    case 'gemini':
      return {
        error: {
          code: status,
          message: text,
          status: type ?? GEMINI_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION'),
        },
      };
    case 'openai': {
      const [defType, defCode] = OPENAI_TYPES[status] ?? [
        status >= 500 ? 'server_error' : 'invalid_request_error',
        null,
      ];
      return {
        error: { message: text, type: type ?? defType, param: null, code: code === undefined ? defCode : code },
      };
    }
  }
}

/** The 401 a provider sends for a wrong or missing key. OpenAI echoes the key it got, as the real one does (partly); here in full, so redaction is tested for the worst case (S4). */
export function authErrorBody(api: FakeApi | 'unknown', received: string | undefined): Record<string, unknown> {
  switch (errorFamily(api)) {
    case 'anthropic':
      return errorBody(api, 401, received ? 'invalid x-api-key' : 'x-api-key header is required');
    case 'gemini':
      return errorBody(
        api,
        401,
        received
          ? `API key not valid. Please pass a valid API key. (got ${received})`
          : "Method doesn't allow unregistered callers. Please use an API key (x-goog-api-key).",
      );
    case 'openai':
      return errorBody(
        api,
        401,
        received
          ? `Incorrect API key provided: ${received}. You can find your API key at https://platform.openai.com/account/api-keys.`
          : "You didn't provide an API key.",
        'invalid_request_error',
        received ? 'invalid_api_key' : null,
      );
  }
}

/**
 * The default mid-stream error event of each wire API (P3): Anthropic `event: error`
 * `overloaded_error`, Chat `data: {"error": …}`, Responses `event: error`, Gemini a chunk with
 * `error.code: 503`.
 */
export function defaultErrorEvent(api: FakeApi | 'unknown'): Record<string, unknown> {
  switch (api) {
    case 'anthropic-messages':
      return { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    case 'openai-responses':
      return {
        type: 'error',
        code: 'server_error',
        message: 'The server had an error while processing your request.',
        param: null,
      };
    case 'gemini-generate-content':
      return {
        error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
      };
    case 'gemini-interactions':
      // GI-E1: an SSE error event, its code a URI string (the exact URI is not documented).
      return {
        event_type: 'error',
        error: {
          code: 'type.googleapis.com/google.rpc.UNAVAILABLE',
          message: 'The model is overloaded. Please try again later.',
        },
      };
    default:
      return {
        error: {
          message: 'The server had an error while processing your request.',
          type: 'server_error',
          param: null,
          code: null,
        },
      };
  }
}
