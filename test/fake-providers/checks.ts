/**
 * The checks every request passes before it gets an answer: key binding (N2), the key itself
 * (401), and the contract validators (400 naming the violated rules).
 */
import { validateRequest, type ContractApi, type Violation } from '../contract';
import { API_TEXT_RULES } from '../contract/anthropic-2026';
import { authErrorBody, errorBody } from './errors';
import { presentedKey, type Route } from './routes';
import type { FakeKeys, FakeSettings, KeyOwner } from './types';

/** A rejection: HTTP status and provider-shaped body. */
export interface Rejection {
  status: number;
  body: Record<string, unknown>;
}

/**
 * N2: every place a configured key appears outside its own header on its own endpoint: another
 * header, another provider's endpoint, the query string (`?key=`), or the body.
 * @param route undefined for a path the fake does not serve (then every key found is a leak).
 */
export function findKeyViolations(
  keys: FakeKeys,
  route: Route | undefined,
  headers: Record<string, string>,
  query: Record<string, string>,
  rawBody: string,
): string[] {
  const out: string[] = [];
  if ('key' in query) out.push('N2: API key sent as ?key= query parameter');
  const owners = Object.keys(keys) as KeyOwner[];
  for (const owner of owners) {
    const key = keys[owner];
    // Two owners configured with the same key cannot be told apart: the route's owner wins.
    const sameAsRouteKey = route !== undefined && keys[route.owner] === key;
    for (const [name, value] of Object.entries(headers)) {
      if (!value.includes(key)) continue;
      const allowed = route !== undefined && name === route.keyHeader && (owner === route.owner || sameAsRouteKey);
      if (!allowed)
        out.push(
          `N2: ${owner} key found in header ${name} of a request to ${route ? route.api : 'an unknown endpoint'}`,
        );
    }
    for (const [name, value] of Object.entries(query)) {
      if (value.includes(key)) out.push(`N2: ${owner} key found in query parameter ${name}`);
    }
    if (rawBody.includes(key)) out.push(`N2: ${owner} key found in the request body`);
  }
  return out;
}

/** 401 when the route's header does not carry exactly the expected key; undefined when it does. */
export function checkAuth(keys: FakeKeys, route: Route, headers: Record<string, string>): Rejection | undefined {
  const got = presentedKey(route, headers);
  if (got === keys[route.owner]) return undefined;
  return { status: 401, body: authErrorBody(route.api, got) };
}

/** Anthropic requires `anthropic-version` (https://docs.anthropic.com/en/api/versioning). */
export function checkAnthropicVersion(route: Route, headers: Record<string, string>): Rejection | undefined {
  if (
    (route.api === 'anthropic-messages' ||
      route.api === 'anthropic-models' ||
      route.api === 'anthropic-count-tokens') &&
    !headers['anthropic-version']
  ) {
    return { status: 400, body: errorBody(route.api, 400, 'anthropic-version: header is required') };
  }
  return undefined;
}

/** A validator path (`messages[1].content[0]`) in the API's own form (`messages.1.content.0`); `''` for the body. */
function apiPath(path: string): string {
  return path.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
}

/**
 * Runs the contract validator of `api` on `body`.
 * @param stream whether the request asked for a stream (the validators demand `stream: true` only then).
 * @param anthropicBetas the request's `anthropic-beta` values (A-B3, A-P2 need them).
 * @param apiRevision Gemini Interactions: the request's `Api-Revision` header, `null` when absent (GI-R1).
 * @returns every violation (for the record) and, when some are not ignored and validation is on,
 *   the 400: the real API's own text when a violation carries it (`apiMessage`, e.g. C-T9,
 *   G-T7, G-K12), else a message naming the rule ids.
 */
export function checkContract(
  api: ContractApi,
  route: Route,
  body: unknown,
  stream: boolean,
  settings: FakeSettings,
  anthropicBetas?: readonly string[],
  apiRevision?: string | null,
): { violations: Violation[]; rejection?: Rejection } {
  const provider = route.flavour !== undefined ? route.flavour : settings.chatProvider;
  let violations: Violation[];
  try {
    violations = validateRequest(api, body, {
      stream,
      model: route.model,
      provider,
      ...(anthropicBetas ? { anthropicBetas } : {}),
      ...(apiRevision !== undefined ? { apiRevision } : {}),
    });
  } catch (e) {
    violations = [{ rule: `${api}-VALIDATOR`, path: '', message: `validator threw: ${(e as Error).message}` }];
  }
  const blocking = violations.filter((v) => !settings.ignoreRules.includes(v.rule));
  if (!settings.validate || blocking.length === 0) return { violations };
  const exact = blocking.find((v) => v.apiMessage !== undefined)?.apiMessage;
  if (exact !== undefined) return { violations, rejection: { status: 400, body: errorBody(api, 400, exact) } };
  // The 2026 Anthropic rules answer with the API's own 400 text (`messages.1.content.0: …`).
  const own = api === 'anthropic-messages' ? blocking.find((v) => API_TEXT_RULES.has(v.rule)) : undefined;
  if (own)
    return {
      violations,
      rejection: { status: 400, body: errorBody(api, 400, `${apiPath(own.path)}: ${own.message}`) },
    };
  const ids = [...new Set(blocking.map((v) => v.rule))].join(', ');
  const details = blocking.map((v) => `${v.rule} at ${v.path || '(body)'}: ${v.message}`).join('; ');
  return { violations, rejection: { status: 400, body: errorBody(api, 400, `Request breaks ${ids}. ${details}`) } };
}
