/**
 * Model lists from each provider's models endpoint — also Baton's cheap key test (a 401 here
 * means the key is wrong). OpenAI and compatible: `GET {base}/models`; Anthropic:
 * `GET /v1/models` (paginated); Gemini: `GET /v1beta/models` (paginated, only models that
 * support `generateContent` are kept when the provider says which).
 */
import { boundedCall } from './bounded-call';
import { TransportError } from './errors';
import { createAnthropicClient, createGeminiClient, createOpenAIClient } from './clients';
import type { ListedModel, ListModelsOptions, ProviderConnection } from './types';

/** Most models read from one list (guards against a runaway paginator). */
const MAX_MODELS = 2_000;
/** Default whole-call limit, in ms. */
export const DEFAULT_LIST_TIMEOUT_MS = 30_000;

async function collect<T>(items: AsyncIterable<T>, map: (item: T) => ListedModel | undefined): Promise<ListedModel[]> {
  const out: ListedModel[] = [];
  for await (const item of items) {
    const m = map(item);
    if (m) out.push(m);
    if (out.length >= MAX_MODELS) break;
  }
  return out;
}

/**
 * Lists the models `conn` can use.
 * @returns `{id, displayName?}` in the provider's order.
 * @throws TransportError (`invalid_key` for a 401, `timeout` after `opts.timeoutMs`, default
 *   30 s, …; see `classifyError`); an `AbortError` when `opts.signal` aborts.
 */
export async function listModels(conn: ProviderConnection, opts: ListModelsOptions = {}): Promise<ListedModel[]> {
  return boundedCall(
    conn,
    {
      signal: opts.signal,
      timeoutMs: opts.timeoutMs ?? DEFAULT_LIST_TIMEOUT_MS,
      fetch: opts.fetch,
      timeoutMessage: 'The provider did not list its models in time',
    },
    async (fetch, signal) => {
      switch (conn.api) {
        case 'openai-responses':
        case 'openai-chat':
          return await collect(createOpenAIClient(conn, fetch).models.list({ signal }), (m) => ({ id: m.id }));
        case 'anthropic-messages':
          return await collect(createAnthropicClient(conn, fetch).models.list({ limit: 1000 }, { signal }), (m) => ({
            id: m.id,
            displayName: m.display_name,
          }));
        case 'gemini-generate-content':
        case 'gemini-interactions': {
          // Interactions has no model list of its own: the Gemini API's lists the same models.
          const pager = await createGeminiClient(conn, fetch).models.list({
            config: { pageSize: 1000, abortSignal: signal },
          });
          return await collect(pager, (m) => {
            if (!m.name) return undefined;
            if (m.supportedActions && !m.supportedActions.includes('generateContent')) return undefined;
            return { id: m.name.replace(/^models\//, ''), ...(m.displayName ? { displayName: m.displayName } : {}) };
          });
        }
        default:
          throw new TransportError('internal', `no model list for API ${String(conn.api)}`);
      }
    },
  );
}
