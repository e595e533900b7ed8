/**
 * The fake providers: one Node HTTP server on 127.0.0.1 that the real SDKs (`openai`,
 * `@anthropic-ai/sdk`, `@google/genai`) can talk to. It records every request, checks the key
 * binding (N2) and the key (401), judges bodies with the contract validators (400 in the
 * provider's own error shape naming the rule ids), and answers with queued replies or a
 * scripted text answer. See `types.ts` for the reply kinds and `routes.ts` for the endpoints.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContractApi } from '../contract';
import { checkAnthropicVersion, checkAuth, checkContract, findKeyViolations, type Rejection } from './checks';
import { checkCountRequest, countReply } from './count-tokens';
import { errorBody } from './errors';
import { modelList } from './model-lists';
import { FakeConfigError, respond, respondModelList, sendJson, type RespondContext } from './respond';
import { richReply } from './rich';
import { matchRoute, type Route } from './routes';
import { betasOf, THINKING_BINDING_BETA, ThinkingBindings } from './thinking-binding';
import type {
  FakeApi,
  FakeKeys,
  FakeProviders,
  FakeProvidersOptions,
  FakeSettings,
  RecordedRequest,
  Reply,
  StoredInteraction,
} from './types';

/** Keys the server expects unless told otherwise (printed by `npm run fake-providers`). */
export const DEFAULT_FAKE_KEYS: FakeKeys = {
  openai: 'sk-fake-openai-0123456789abcdef',
  anthropic: 'sk-ant-fake-0123456789abcdef',
  google: 'AIzaFakeGoogle0123456789abcdef',
  compat: 'sk-fake-compat-0123456789abcdef',
};

/** `<project>/../shared/fixtures/recorded-streams`. */
export const DEFAULT_FIXTURES_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../shared/fixtures/recorded-streams',
);

const DEFAULT_SETTINGS: FakeSettings = {
  validate: true,
  ignoreRules: [],
  chatProvider: 'openai',
  defaultText: 'Hello from the fake provider.',
  rich: false,
  slow: false,
  models: {
    openai: ['gpt-5.5', 'gpt-4.1-mini'],
    anthropic: ['claude-sonnet-4-6', 'claude-haiku-4-5'],
    google: ['gemini-2.5-flash', 'gemini-3-pro-preview'],
  },
};

const MAX_BODY_BYTES = 64 * 1024 * 1024;

function flattenHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) reject(new Error('request body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function isContractApi(api: FakeApi): api is ContractApi {
  return (
    api === 'anthropic-messages' ||
    api === 'openai-chat' ||
    api === 'openai-responses' ||
    api === 'gemini-generate-content' ||
    api === 'gemini-interactions'
  );
}

/**
 * Starts the fake providers on 127.0.0.1.
 * @param opts port (default 0: a free one), keys, fixtures folder and initial settings.
 * @returns the running server; call `close()` when done.
 */
export async function startFakeProviders(opts: FakeProvidersOptions = {}): Promise<FakeProviders> {
  const keys: FakeKeys = { ...DEFAULT_FAKE_KEYS, ...opts.keys };
  const settings: FakeSettings = {
    ...DEFAULT_SETTINGS,
    ...Object.fromEntries(Object.entries(opts).filter(([k, v]) => k in DEFAULT_SETTINGS && v !== undefined)),
  };
  const fixturesDir = opts.fixturesDir ?? DEFAULT_FIXTURES_DIR;
  const requests: RecordedRequest[] = [];
  const bindings = new ThinkingBindings();
  const stored = new Map<string, StoredInteraction>();
  let storedSeq = 0;
  const queues = new Map<FakeApi, Reply[]>();
  const sockets = new Set<Socket>();
  let disconnects = 0;
  let seq = 0;
  let waiters: { count: number; resolve(): void }[] = [];

  const noteDisconnect = (record: RecordedRequest) => {
    record.disconnected = true;
    disconnects++;
    waiters = waiters.filter((w) => (disconnects >= w.count ? (w.resolve(), false) : true));
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const headers = flattenHeaders(req.headers);
    const method = req.method ?? 'GET';
    const route = matchRoute(method, url.pathname, headers);
    const record: RecordedRequest = {
      api: route?.api ?? 'unknown',
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: undefined,
      at: Date.now(),
      violations: [],
      keyViolations: [],
      ...(route?.model !== undefined ? { model: route.model } : {}),
      ...(route?.flavour !== undefined ? { flavour: route.flavour } : {}),
    };
    requests.push(record);
    const closed = new AbortController();
    let cutByServer = false;
    res.on('close', () => {
      if (!res.writableEnded && !cutByServer) noteDisconnect(record);
      closed.abort();
    });
    res.on('finish', () => {
      record.status = res.statusCode;
    });

    const raw = await readBody(req).catch(() => '');
    let body: unknown = undefined;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    record.body = body;
    record.keyViolations = findKeyViolations(keys, route, headers, record.query, raw);

    const api = route?.api ?? 'unknown';
    const reject = (r: Rejection) => sendJson(res, r.status, r.body);
    if (!route)
      return reject({
        status: 404,
        body: errorBody(api, 404, `fake providers: no endpoint ${method} ${url.pathname}`),
      });
    // N2: a key never travels in the query string.
    if ('key' in record.query)
      return reject({ status: 400, body: errorBody(api, 400, 'N2: API keys must be sent in a header, not as ?key=') });
    const preflight = checkAnthropicVersion(route, headers) ?? checkAuth(keys, route, headers);
    if (preflight) return reject(preflight);

    const stream = streaming(route, body);
    let transformations: unknown[] | undefined;
    if (isContractApi(route.api)) {
      if (typeof body !== 'object' || body === null)
        return reject({ status: 400, body: errorBody(api, 400, 'request body must be a JSON object') });
      const betas = route.api === 'anthropic-messages' ? betasOf(headers) : undefined;
      const revision = route.api === 'gemini-interactions' ? (headers['api-revision'] ?? null) : undefined;
      const { violations, rejection } = checkContract(route.api, route, body, stream, settings, betas, revision);
      record.violations = violations;
      if (rejection) return reject(rejection);
      if (betas) {
        // A-B1, A-B2, A-B3: thinking this fake minted is checked against its model and prefix.
        const verdict = bindings.check(body as Record<string, unknown>, betas);
        if (verdict.rejection) return reject({ status: 400, body: errorBody(api, 400, verdict.rejection) });
        if (betas.includes(THINKING_BINDING_BETA)) transformations = verdict.dropped;
      }
    }
    const counting = route.api === 'anthropic-count-tokens' || route.api === 'gemini-count-tokens';
    if (counting) {
      const { violations, rejection } = checkCountRequest(route, body, settings);
      record.violations = violations;
      if (rejection) return reject(rejection);
    }

    let interactionId: string | undefined;
    if (route.api === 'gemini-interactions') {
      const chain = chainInteraction(body as Record<string, unknown>, stored, ++storedSeq);
      if ('rejection' in chain) return reject(chain.rejection);
      interactionId = chain.id;
    }
    const reply = queues.get(route.api)?.shift();
    const obj = (typeof body === 'object' && body !== null ? body : {}) as {
      model?: unknown;
      stream_options?: { include_usage?: unknown };
    };
    // A-B2: a thinking block the fake answers with is bound to this model and this request.
    if (
      route.api === 'anthropic-messages' &&
      reply?.kind === 'thinking' &&
      reply.signature &&
      typeof obj.model === 'string'
    )
      bindings.mint(reply.signature, obj.model, obj as Record<string, unknown>);
    const ctx: RespondContext = {
      api: route.api,
      stream,
      defaultText: settings.defaultText,
      fixturesDir,
      closed: closed.signal,
      markCut: () => (cutByServer = true),
      answer: {
        model: route.model ?? (typeof obj.model === 'string' ? obj.model : 'fake-model'),
        inputTokens: Math.max(1, Math.ceil(raw.length / 4)),
        includeUsage: Boolean(obj.stream_options?.include_usage),
        seq: ++seq,
        ...(transformations ? { inputTransformations: transformations } : {}),
        ...(interactionId !== undefined ? { interactionId } : {}),
      },
    };
    try {
      if (isContractApi(route.api))
        await respond(
          res,
          reply ?? (settings.rich ? richReply(route.api, body, { slow: settings.slow }) : { kind: 'text' }),
          ctx,
        );
      else if (counting) await respondModelList(res, reply, countReply(route, raw), ctx);
      else await respondModelList(res, reply, modelList(route.api, settings.models), ctx);
    } catch (e) {
      const message =
        e instanceof FakeConfigError
          ? `fake providers misconfigured: ${e.message}`
          : `fake providers failed: ${(e as Error).message}`;
      console.error(message);
      if (!res.headersSent) reject({ status: 500, body: errorBody(api, 500, message) });
      else res.destroy();
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      console.error('fake providers:', e);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    port,
    keys,
    requests,
    get disconnects() {
      return disconnects;
    },
    interactions: stored,
    enqueue(api, ...replies) {
      const q = queues.get(api) ?? [];
      q.push(...replies);
      queues.set(api, q);
    },
    configure(partial) {
      Object.assign(settings, partial);
    },
    reset() {
      requests.length = 0;
      bindings.reset();
      stored.clear();
      storedSeq = 0;
      queues.clear();
      disconnects = 0;
      seq = 0;
    },
    waitForDisconnects(count, timeoutMs = 2000) {
      if (disconnects >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`fake providers: ${disconnects} of ${count} disconnects after ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Whether the request asked for a stream: `stream: true` in the body, or Gemini's `:streamGenerateContent`. */
function streaming(route: Route, body: unknown): boolean {
  if (route.api === 'gemini-generate-content') return route.geminiStream === true;
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}

/**
 * Gemini Interactions server state (GI-P1, GI-P2): a request with `store: false` gets the empty id
 * `""` and is not stored; any other request is stored under a new `v1_fake…` id, its input appended
 * to the chain it continues. `previous_interaction_id` must name a stored interaction (404
 * otherwise; the combination with `store: false` is the validator's GI-P1 400).
 */
function chainInteraction(
  body: Record<string, unknown>,
  stored: Map<string, StoredInteraction>,
  seq: number,
): { id: string } | { rejection: Rejection } {
  const prevId = body.previous_interaction_id;
  const prev = typeof prevId === 'string' ? stored.get(prevId) : undefined;
  if (typeof prevId === 'string' && !prev)
    return {
      rejection: {
        status: 404,
        body: errorBody('gemini-interactions', 404, `Interaction ${prevId} was not found.`),
      },
    };
  if (body.store === false) return { id: '' };
  const id = `v1_fake${seq}`;
  const input = Array.isArray(body.input) ? body.input : [body.input];
  stored.set(id, {
    id,
    model: typeof body.model === 'string' ? body.model : 'fake-model',
    input: [...(prev?.input ?? []), ...input],
  });
  return { id };
}
