/**
 * SSE framing of each wire API, and recorded fixtures turned into frames or JSON.
 *
 * Framing: Anthropic and Responses send `event: <type>` plus `data: <json>` (the Anthropic SDK
 * ignores frames without an event name); Chat sends `data: <json>` and ends with
 * `data: [DONE]`; Gemini (`alt=sse`) sends `data: <json>` frames separated by CRLF CRLF.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { FakeApi } from './types';

/** One complete SSE frame, blank-line terminated, ready to write. */
export type Frame = string;

/** The SSE frame of one event object in `api`'s framing. */
export function frameEvent(api: FakeApi | 'unknown', event: unknown): Frame {
  const data = JSON.stringify(event);
  if (api === 'anthropic-messages' || api === 'openai-responses') {
    const type =
      typeof event === 'object' && event !== null && typeof (event as { type?: unknown }).type === 'string'
        ? (event as { type: string }).type
        : undefined;
    return type ? `event: ${type}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
  }
  if (api === 'gemini-generate-content') return `data: ${data}\r\n\r\n`;
  return `data: ${data}\n\n`;
}

/** The closing frame of a complete stream (`data: [DONE]` for Chat; none elsewhere). */
export function closingFrames(api: FakeApi | 'unknown'): Frame[] {
  return api === 'openai-chat' ? ['data: [DONE]\n\n'] : [];
}

/** Splits raw SSE text into frames (each re-terminated with a blank line). */
export function splitSse(raw: string): Frame[] {
  return raw
    .split(/\r?\n\r?\n/)
    .filter((f) => f.trim().length > 0)
    .map((f) => `${f}\n\n`);
}

/** A fixture ready to send: stream frames, or a JSON body. */
export type LoadedFixture = { type: 'frames'; frames: Frame[] } | { type: 'json'; body: unknown };

/**
 * Loads `file` (relative to `dir`, the `recorded-streams/` folder) for `api`.
 * @throws Error when the file is missing, unknown, or has no interaction `interaction`.
 */
export function loadFixture(dir: string, file: string, api: FakeApi | 'unknown', interaction = 0): LoadedFixture {
  const full = path.resolve(dir, file);
  if (!full.startsWith(path.resolve(dir) + path.sep)) throw new Error(`fixture ${file} is outside ${dir}`);
  const text = fs.readFileSync(full, 'utf8');
  if (file.endsWith('.chunks.jsonl')) {
    const events = text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as unknown);
    return { type: 'frames', frames: [...events.map((e) => frameEvent(api, e)), ...closingFrames(api)] };
  }
  if (file.endsWith('.sse')) return { type: 'frames', frames: splitSse(text) };
  if (file.endsWith('.response.json')) return { type: 'json', body: JSON.parse(text) };
  if (/\.ya?ml$/.test(file) || /llm-cassette-.*\.json$/.test(file)) {
    const doc = (file.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as {
      interactions?: { response?: { body?: unknown } }[];
    };
    const body = doc.interactions?.[interaction]?.response?.body;
    const raw =
      typeof body === 'string'
        ? body
        : typeof body === 'object' && body !== null
          ? (body as { string?: unknown }).string
          : undefined;
    if (typeof raw !== 'string') throw new Error(`fixture ${file}: interaction ${interaction} has no response body`);
    const trimmed = raw.trimStart();
    if (trimmed.startsWith('event:') || trimmed.startsWith('data:')) return { type: 'frames', frames: splitSse(raw) };
    const json = JSON.parse(raw) as unknown;
    // Gemini's non-SSE stream is a JSON array of responses: replay it as SSE chunks.
    if (Array.isArray(json) && api === 'gemini-generate-content')
      return { type: 'frames', frames: json.map((e) => frameEvent(api, e)) };
    return { type: 'json', body: json };
  }
  throw new Error(`fixture ${file}: unknown kind (want .chunks.jsonl, .sse, .response.json or a cassette)`);
}
