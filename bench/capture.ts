/**
 * Network interception for the peers (bench/README.md: "building the same provider request through their
 * public API with the network call intercepted"). {@link installCaptureFetch} replaces
 * `globalThis.fetch` for the whole benchmark process: every request any library makes is
 * captured — its URL, its serialised body and the moment `fetch` was called — and answered with a
 * 400 JSON error, which no SDK retries, so the library's call ends quickly. Nothing ever reaches
 * the network.
 */

/** One intercepted request. */
export interface Capture {
  url: string;
  /** The request body exactly as the library serialised it. */
  body: string;
  /** `performance.now()` when `fetch` was called (ms). */
  at: number;
}

type Waiter = (capture: Capture) => void;
let waiter: Waiter | undefined;
let installed = false;
let count = 0;

const REFUSAL = JSON.stringify({
  type: 'error',
  error: { type: 'invalid_request_error', message: 'captured by the Baton benchmark; never sent' },
});

function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  if (body instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(body));
  throw new TypeError(`bench capture: unsupported request body type ${Object.prototype.toString.call(body)}`);
}

/**
 * The capturing `fetch`: records the request for the pending {@link captureOne} and answers
 * 400 with a JSON error. Pass it as a library's `fetch` option where there is one.
 */
export const captureFetch = (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const at = performance.now();
  count += 1;
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const body =
    init?.body !== undefined && init.body !== null
      ? bodyText(init.body)
      : input instanceof Request
        ? await input.text()
        : '';
  const w = waiter;
  waiter = undefined;
  w?.({ url, body, at });
  return new Response(REFUSAL, { status: 400, headers: { 'content-type': 'application/json' } });
}) as typeof fetch;

/** Replaces `globalThis.fetch` with {@link captureFetch} for the rest of the process (idempotent), so no library can reach the network. */
export function installCaptureFetch(): void {
  if (installed) return;
  installed = true;
  globalThis.fetch = captureFetch;
}

/** How many requests were intercepted so far (a sanity check that nothing was retried). */
export function captureCount(): number {
  return count;
}

/**
 * Runs `start` (which must make exactly one request) and resolves with that request once `start`'s
 * own promise has settled. `elapsedMs` runs from just before `start` to the moment `fetch` was
 * called, i.e. building and serialising the request and nothing after it.
 * @throws Error when `start` settles without making a request.
 */
export async function captureOne(start: () => Promise<unknown>): Promise<{ capture: Capture; elapsedMs: number }> {
  let got: Capture | undefined;
  waiter = (c) => {
    got = c;
  };
  const t0 = performance.now();
  try {
    await start();
  } catch {
    // The 400 reply makes some libraries throw; the capture is what counts.
  }
  waiter = undefined;
  if (!got) throw new Error('bench capture: the library made no request');
  return { capture: got, elapsedMs: got.at - t0 };
}
