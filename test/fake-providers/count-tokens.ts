/**
 * The fake token-count endpoints (docs/disclosure.md), judged the way the real APIs judge them:
 *
 * - Anthropic `POST /v1/messages/count_tokens` (https://docs.anthropic.com/en/api/messages-count-tokens):
 *   only the fields `MessageCountTokensParams` has (`model`, `messages`, `system`, `tools`,
 *   `tool_choice`, `thinking`, …); anything else — `max_tokens`, `stream`, `temperature`,
 *   `metadata` — is a 400 "<field>: Extra inputs are not permitted", as the real API answers.
 *   The messages are judged by the Messages contract validator. Answer `{input_tokens}`.
 * - Gemini `POST /{v1,v1beta}/models/<model>:countTokens` (https://ai.google.dev/api/tokens):
 *   `{contents}` or `{generateContentRequest}` (not both); a `generateContentRequest` needs
 *   `model: "models/<the URL's model>"` and is judged by the Gemini contract validator. Answer
 *   `{totalTokens}`.
 *
 * The count is deterministic: {@link fakeTokenCount} of the request's raw JSON text.
 */
import { validateRequest, type Violation } from '../contract';
import { errorBody } from './errors';
import type { Rejection } from './checks';
import type { Route } from './routes';
import type { FakeSettings } from './types';

/** Top-level fields Anthropic's count endpoint accepts (`MessageCountTokensParams`, SDK 1.14). */
export const ANTHROPIC_COUNT_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'cache_control',
  'output_config',
  'speed',
  'user_profile_id',
  'workspace_id',
]);
/** Fields of a Gemini `countTokens` body. */
const GEMINI_COUNT_FIELDS: ReadonlySet<string> = new Set(['contents', 'generateContentRequest']);

/** The fake's count for a request whose raw JSON text is `raw`: one token per 4 characters, at least 1. */
export function fakeTokenCount(raw: string): number {
  return Math.max(1, Math.ceil(raw.length / 4));
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Judges a count request. Returns the contract violations found (recorded) and, when the real
 * API would refuse it, the 400 in the provider's own error shape.
 */
export function checkCountRequest(
  route: Route,
  body: unknown,
  settings: FakeSettings,
): { violations: Violation[]; rejection?: Rejection } {
  const bad = (message: string): { violations: Violation[]; rejection: Rejection } => ({
    violations: [],
    rejection: { status: 400, body: errorBody(route.api, 400, message) },
  });
  if (!isRec(body)) return bad('request body must be a JSON object');
  let violations: Violation[];
  if (route.api === 'anthropic-count-tokens') {
    const extra = Object.keys(body).filter((k) => !ANTHROPIC_COUNT_FIELDS.has(k));
    if (extra.length) return bad(extra.map((k) => `${k}: Extra inputs are not permitted`).join('; '));
    // The Messages validator wants `max_tokens`, which this endpoint must not get: judge the rest.
    violations = validateRequest('anthropic-messages', { ...body, max_tokens: 1 }, { stream: false });
  } else {
    const extra = Object.keys(body).filter((k) => !GEMINI_COUNT_FIELDS.has(k));
    if (extra.length) return bad(`Invalid JSON payload received. Unknown name "${extra[0]}": Cannot find field.`);
    if (body.contents !== undefined && body.generateContentRequest !== undefined)
      return bad('contents and generateContentRequest cannot both be set');
    const request = body.generateContentRequest;
    if (request === undefined)
      violations = validateRequest('gemini-generate-content', { contents: body.contents }, { model: route.model! });
    else {
      if (!isRec(request)) return bad('generateContentRequest must be an object');
      if (request.model !== `models/${route.model}`)
        return bad(
          `generateContentRequest.model must be "models/${route.model}", got ${JSON.stringify(request.model)}`,
        );
      const { model: _m, ...rest } = request;
      violations = validateRequest('gemini-generate-content', rest, { model: route.model! });
    }
  }
  const blocking = violations.filter((v) => !settings.ignoreRules.includes(v.rule));
  if (!settings.validate || blocking.length === 0) return { violations };
  const ids = [...new Set(blocking.map((v) => v.rule))].join(', ');
  const details = blocking.map((v) => `${v.rule} at ${v.path || '(body)'}: ${v.message}`).join('; ');
  return {
    violations,
    rejection: { status: 400, body: errorBody(route.api, 400, `Request breaks ${ids}. ${details}`) },
  };
}

/** The successful answer: Anthropic `{input_tokens}`, Gemini `{totalTokens}`. */
export function countReply(route: Route, raw: string): Record<string, unknown> {
  const n = fakeTokenCount(raw);
  return route.api === 'anthropic-count-tokens' ? { input_tokens: n } : { totalTokens: n };
}
