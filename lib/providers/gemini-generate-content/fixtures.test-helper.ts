/**
 * Test helper: loads the recorded Gemini traffic in `../shared/fixtures/recorded-streams/gemini/`
 * (see its SOURCES.md) as stream chunks, responses or cassette interactions. Test-only (reads files).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** `../shared/fixtures` next to the project. */
export const SHARED = path.resolve(PROJECT_ROOT, '../shared/fixtures');
/** The Gemini recordings folder. */
export const GEMINI_DIR = path.join(SHARED, 'recorded-streams/gemini');
/** True when the shared fixtures are present (tests skip visibly otherwise). */
export const hasShared = fs.existsSync(GEMINI_DIR);

/** File names in the Gemini recordings folder, sorted. */
export function listFixtures(): string[] {
  return fs.readdirSync(GEMINI_DIR).sort();
}

/** A `*.chunks.jsonl` file: one `GenerateContentResponse` per non-empty line. */
export function loadChunks(name: string): unknown[] {
  return fs
    .readFileSync(path.join(GEMINI_DIR, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** A `*.response.json` file. */
export function loadJson(name: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(GEMINI_DIR, name), 'utf8')) as unknown;
}

/** One recorded HTTP exchange of a cassette. */
export interface Interaction {
  /** The request URL (it names the model: `…/models/<model>:streamGenerateContent`). */
  uri: string;
  /** The parsed JSON request body. */
  request: unknown;
  /** The streamed chunks (the response body is Gemini's non-SSE JSON array). */
  events: unknown[];
}

/** A `llm-cassette-*.json` file → its interactions; the JSON-array stream body parsed into chunks. */
export function loadCassette(name: string): Interaction[] {
  const doc = JSON.parse(fs.readFileSync(path.join(GEMINI_DIR, name), 'utf8')) as {
    interactions: { request: { uri: string; body: string }; response: { body: string } }[];
  };
  return doc.interactions.map((i) => ({
    uri: i.request.uri,
    request: JSON.parse(i.request.body) as unknown,
    events: JSON.parse(i.response.body) as unknown[],
  }));
}

/** The model id named in a `…/models/<model>:<method>` URL. */
export function modelFromUri(uri: string): string {
  const m = /\/models\/([^/:]+):/.exec(uri);
  if (!m) throw new Error(`no model in ${uri}`);
  return m[1]!;
}

type Obj = Record<string, unknown>;

/**
 * Test oracle: the chunks `streamGenerateContent` would send for a complete response, shaped like
 * the recordings: unsigned text parts in several pieces, other parts (signed text, function
 * calls) whole, then a final chunk with an empty text part and the `finishReason`.
 */
export function responseToChunks(response: Obj): unknown[] {
  const { candidates, ...top } = response;
  const { content, finishReason, finishMessage, ...cand } = (candidates as Obj[])[0]!;
  const chunk = (parts: unknown[], extra: Obj = {}) => ({
    ...top,
    candidates: [{ ...cand, content: { role: 'model', parts }, ...extra }],
  });
  const chunks: unknown[] = [];
  for (const part of (content as { parts: Obj[] }).parts) {
    if (typeof part.text === 'string' && part.thoughtSignature === undefined) {
      const size = Math.max(1, Math.ceil(part.text.length / 3));
      for (let i = 0; i < part.text.length; i += size)
        chunks.push(chunk([{ ...part, text: part.text.slice(i, i + size) }]));
    } else chunks.push(chunk([part]));
  }
  chunks.push(chunk([{ text: '' }], { finishReason, ...(finishMessage !== undefined ? { finishMessage } : {}) }));
  return chunks;
}
