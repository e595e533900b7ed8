/**
 * The fetch every SDK gets: redirects refused (`redirect: 'error'`, security-requirements.md
 * N3 — `x-api-key` and `x-goog-api-key` are not stripped by Fetch on a cross-origin redirect),
 * and, per call, a tap that remembers the response status and headers and copies the raw SSE
 * `data:` payloads as they pass (for `@google/genai`, whose errors carry no headers and whose
 * chunk objects are re-mapped by the SDK).
 */

/** A fetch implementation (the global one's signature). */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Wraps `base` (default: the global fetch, looked up at call time) so that every request is
 * sent with `redirect: 'error'`: a 3xx makes the fetch reject and the redirect target receives
 * nothing (N3).
 */
export function makeNoRedirectFetch(base?: FetchLike): FetchLike {
  return (input, init) => (base ?? globalThis.fetch)(input, { ...init, redirect: 'error' });
}

/** The global fetch with redirects refused (N3). Pass it to every SDK as its `fetch`. */
export const noRedirectFetch: typeof fetch = makeNoRedirectFetch() as typeof fetch;

/** What a {@link tapFetch} saw of the last response. */
export interface ResponseTap {
  status?: number;
  headers?: Headers;
  /** Raw JSON payloads of the SSE `data:` lines read so far, oldest first (when `captureSse`). */
  events: unknown[];
}

/** Options of {@link tapFetch}. */
export interface TapOptions {
  /** Copy the SSE `data:` payloads of a successful body into `tap.events`. */
  captureSse?: boolean;
  /** Called for every chunk of a successful body as it arrives (keep-alive pings included). */
  onActivity?: () => void;
}

/** Parses SSE text incrementally into the JSON of each event's `data:` lines. */
function sseParser(onData: (json: unknown) => void): { push(text: string): void; end(): void } {
  let buffer = '';
  const emit = (block: string) => {
    const data = block
      .split(/\r\n|\r|\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (!data || data === '[DONE]') return;
    try {
      onData(JSON.parse(data));
    } catch {
      // Not JSON: the SDK reports it; nothing to copy.
    }
  };
  return {
    push(text) {
      buffer += text;
      for (;;) {
        const m = /\r\n\r\n|\n\n|\r\r/.exec(buffer);
        if (!m) break;
        emit(buffer.slice(0, m.index));
        buffer = buffer.slice(m.index + m[0].length);
      }
    },
    end() {
      if (buffer.trim()) emit(buffer);
      buffer = '';
    },
  };
}

/**
 * Wraps `base` to record the response into `tap`. A successful body passes through unchanged;
 * with `captureSse` its SSE `data:` payloads are parsed into `tap.events` — before the SDK sees
 * the same bytes, so the copy of event k exists when the SDK yields event k — and `onActivity`
 * hears about every chunk.
 */
export function tapFetch(base: FetchLike, tap: ResponseTap, opts: TapOptions = {}): FetchLike {
  return async (input, init) => {
    const res = await base(input, init);
    tap.status = res.status;
    tap.headers = res.headers;
    if (!(opts.captureSse || opts.onActivity) || !res.ok || !res.body) return res;
    const decoder = new TextDecoder();
    const parser = opts.captureSse ? sseParser((json) => tap.events.push(json)) : undefined;
    const copy = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        opts.onActivity?.();
        parser?.push(decoder.decode(chunk, { stream: true }));
        controller.enqueue(chunk);
      },
      flush() {
        parser?.push(decoder.decode());
        parser?.end();
      },
    });
    return new Response(res.body.pipeThrough(copy), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}
