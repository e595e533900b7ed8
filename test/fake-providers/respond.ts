/**
 * Sends a reply: a stream of SSE frames (with pacing, a stall, a cut or an error event), a JSON
 * body, or an HTTP error. Stops writing as soon as the client goes away.
 */
import type { ServerResponse } from 'node:http';
import { ID_PREFIX, renderAnswer } from './answers';
import { toAnswer, type AnswerContext } from './answer-model';
import { defaultErrorEvent, errorBody } from './errors';
import { closingFrames, frameEvent, loadFixture, type Frame } from './frames';
import type { FakeApi, Reply, StreamSource } from './types';
import type { ContractApi } from '../contract';

/** What the responder needs to know about the request. */
export interface RespondContext {
  api: FakeApi;
  stream: boolean;
  answer: AnswerContext;
  defaultText: string;
  fixturesDir: string;
  /** Aborted when the client closes the connection. */
  closed: AbortSignal;
  /** Marks a socket the server destroys on purpose (not a client disconnect). */
  markCut(): void;
}

/** A stream source resolved to frames, or to a JSON body for a non-stream request. */
type Resolved = { type: 'frames'; frames: Frame[]; delayMs: number } | { type: 'json'; body: unknown };

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
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

/** A test set the fake up wrongly (e.g. a chunks fixture for a non-stream request). */
export class FakeConfigError extends Error {}

function resolveSource(source: StreamSource, ctx: RespondContext): Resolved {
  const { api } = ctx;
  const delayMs = source.delayMs ?? 0;
  if (source.kind === 'fixture') {
    const loaded = loadFixture(ctx.fixturesDir, source.file, api, source.interaction);
    if (loaded.type === 'frames') {
      if (!ctx.stream) throw new FakeConfigError(`fixture ${source.file} is a stream but the request is not streaming`);
      return { type: 'frames', frames: loaded.frames, delayMs };
    }
    if (ctx.stream)
      throw new FakeConfigError(`fixture ${source.file} is a non-stream body but the request is streaming`);
    return loaded;
  }
  if (source.kind === 'events') {
    if (!ctx.stream) throw new FakeConfigError('an events reply needs a streaming request');
    const closing = source.done === false ? [] : closingFrames(api);
    return { type: 'frames', frames: [...source.events.map((e) => frameEvent(api, e)), ...closing], delayMs };
  }
  if (!isContractApi(api)) throw new FakeConfigError(`a ${source.kind} reply needs a generation endpoint, not ${api}`);
  const rendered = renderAnswer(api, toAnswer(source, ctx.defaultText, ID_PREFIX[api], ctx.answer.seq), ctx.answer);
  if (!ctx.stream) return { type: 'json', body: rendered.json };
  return {
    type: 'frames',
    frames: [...rendered.events.map((e) => frameEvent(api, e)), ...closingFrames(api)],
    delayMs,
  };
}

/** Sends a JSON body with `status`. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function startStream(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-request-id': 'req_fake',
  });
  res.flushHeaders();
}

interface StreamPlan {
  frames: Frame[];
  delayMs: number;
  /** Pause before frame index `at`; `at: -1` pauses before the response headers. */
  stall?: { at: number; ms: number };
  /** Destroy the socket once this many frames are out. */
  cutAfter?: number;
}

async function writeFrames(res: ServerResponse, plan: StreamPlan, ctx: RespondContext): Promise<void> {
  if (plan.stall && plan.stall.at < 0) await pause(plan.stall.ms, ctx.closed);
  if (ctx.closed.aborted) return;
  startStream(res);
  for (let i = 0; i < plan.frames.length; i++) {
    if (plan.cutAfter !== undefined && i >= plan.cutAfter) break;
    if (plan.stall && plan.stall.at === i) await pause(plan.stall.ms, ctx.closed);
    else if (i > 0 && plan.delayMs > 0) await pause(plan.delayMs, ctx.closed);
    if (ctx.closed.aborted) return;
    res.write(plan.frames[i]);
  }
  if (plan.cutAfter !== undefined) {
    ctx.markCut();
    // Let the written frames reach the client before the socket goes.
    await new Promise((r) => setTimeout(r, 10));
    res.socket?.destroy();
    return;
  }
  res.end();
}

/**
 * Answers one request with `reply`.
 * @throws FakeConfigError when the reply cannot serve this request (the caller answers 500).
 */
export async function respond(res: ServerResponse, reply: Reply, ctx: RespondContext): Promise<void> {
  switch (reply.kind) {
    case 'error': {
      const headers = { ...(reply.headers ?? {}) };
      const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
      let text: string;
      if (typeof reply.body === 'string') {
        text = reply.body;
        if (!lower['content-type']) headers['content-type'] = 'text/html';
      } else {
        const body =
          reply.body !== undefined
            ? reply.body
            : reply.status >= 300 && reply.status < 400
              ? undefined
              : errorBody(ctx.api, reply.status);
        text = body === undefined ? '' : JSON.stringify(body);
        if (!lower['content-type'] && body !== undefined) headers['content-type'] = 'application/json';
      }
      res.writeHead(reply.status, { ...headers, 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
      return;
    }
    case 'json':
      sendJson(res, reply.status ?? 200, reply.body);
      return;
    case 'cut':
    case 'error-event':
    case 'stall': {
      const resolved = resolveSource(reply.source ?? { kind: 'text' }, ctx);
      if (resolved.type === 'json') {
        if (reply.kind === 'stall') {
          await pause(reply.ms, ctx.closed);
          if (!ctx.closed.aborted) sendJson(res, 200, resolved.body);
        } else if (reply.kind === 'cut') {
          ctx.markCut();
          res.socket?.destroy();
        } else throw new FakeConfigError('an error-event reply needs a streaming request');
        return;
      }
      const { frames, delayMs } = resolved;
      if (reply.kind === 'cut') return writeFrames(res, { frames, delayMs, cutAfter: reply.afterEvents }, ctx);
      if (reply.kind === 'stall')
        return writeFrames(res, { frames, delayMs, stall: { at: reply.afterEvents ?? -1, ms: reply.ms } }, ctx);
      const errorFrame = frameEvent(ctx.api, reply.event ?? defaultErrorEvent(ctx.api));
      return writeFrames(res, { frames: [...frames.slice(0, reply.afterEvents), errorFrame], delayMs }, ctx);
    }
    default: {
      const resolved = resolveSource(reply, ctx);
      if (resolved.type === 'json') return sendJson(res, 200, resolved.body);
      return writeFrames(res, { frames: resolved.frames, delayMs: resolved.delayMs }, ctx);
    }
  }
}

/**
 * Answers a model-list or token-count request with `list` (its JSON answer) by default (or for a `text` reply), or the queued
 * `error` / `json` / `stall` (then the list) / `cut`.
 * @throws FakeConfigError for a reply that only makes sense on a generation endpoint.
 */
export async function respondModelList(
  res: ServerResponse,
  reply: Reply | undefined,
  list: unknown,
  ctx: RespondContext,
): Promise<void> {
  if (!reply || reply.kind === 'text') return sendJson(res, 200, list);
  if (reply.kind === 'error' || reply.kind === 'json') return respond(res, reply, ctx);
  if (reply.kind === 'stall') {
    await pause(reply.ms, ctx.closed);
    if (!ctx.closed.aborted) sendJson(res, 200, list);
    return;
  }
  if (reply.kind === 'cut') {
    ctx.markCut();
    res.socket?.destroy();
    return;
  }
  throw new FakeConfigError(`a ${reply.kind} reply cannot answer a model list`);
}
