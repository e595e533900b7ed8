/**
 * Test helper: loads recorded provider traffic from `../shared/fixtures/recorded-streams`
 * (SOURCES.md formats: `*.chunks.jsonl`, `*.response.json`, raw `*.sse`, VCR `llm-cassette-*.yaml`
 * whose bodies may be gzip-compressed) into stream events or response bodies. Test-only: uses
 * `node:fs` and `node:zlib`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parse as parseYaml } from 'yaml';

/** The project root (three levels above this folder). */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** `../shared/fixtures` next to the project. */
export const SHARED_FIXTURES = path.resolve(PROJECT_ROOT, '../shared/fixtures');
/** Whether the shared fixtures are present (tests skip with a message when not). */
export const HAS_SHARED = fs.existsSync(SHARED_FIXTURES);

/** Absolute path of `recorded-streams/<api>/<name>`. */
export function fixturePath(api: string, name: string): string {
  return path.join(SHARED_FIXTURES, 'recorded-streams', api, name);
}

/** File names in `recorded-streams/<api>/` (empty when the fixtures are absent). */
export function listFixtures(api: string): string[] {
  const dir = path.join(SHARED_FIXTURES, 'recorded-streams', api);
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
}

/** One event per non-empty line. */
export function readJsonl(file: string): unknown[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);
}

/**
 * Raw SSE text → the payload of each event (`data:` lines of one event joined with `\n`, parsed
 * as JSON); a `[DONE]` payload is kept as the string `"[DONE]"`. `event:` lines are ignored
 * (every payload carries its own `type`).
 */
export function parseSse(text: string): unknown[] {
  const out: unknown[] = [];
  for (const chunk of text.replace(/\r\n/g, '\n').split(/\n\n+/)) {
    const data = chunk
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''));
    if (data.length === 0) continue;
    const payload = data.join('\n');
    out.push(payload.trim() === '[DONE]' ? '[DONE]' : (JSON.parse(payload) as unknown));
  }
  return out;
}

/** One recorded HTTP exchange of a VCR cassette. */
export interface CassetteInteraction {
  /** The parsed JSON request body. */
  request: unknown;
  /** The response body as text (gzip decoded). */
  body: string;
  /** Whether the body is an SSE stream. */
  isStream: boolean;
}

/** A VCR (pytest-recording) cassette → its interactions, bodies decoded. */
export function readCassette(file: string): CassetteInteraction[] {
  const doc = parseYaml(fs.readFileSync(file, 'utf8')) as {
    interactions: {
      request: { body: string };
      response: { body: { string: string | Uint8Array }; headers: Record<string, string[]> };
    }[];
  };
  return doc.interactions.map((it) => {
    const raw = it.response.body.string;
    const body = typeof raw === 'string' ? raw : gunzipSync(raw).toString('utf8');
    const type = Object.entries(it.response.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1]?.[0] ?? '';
    return { request: JSON.parse(it.request.body) as unknown, body, isStream: type.includes('text/event-stream') };
  });
}

/** Events of a stream fixture (`.chunks.jsonl` or `.sse`). */
export function loadStreamEvents(api: string, name: string): unknown[] {
  const file = fixturePath(api, name);
  if (name.endsWith('.jsonl')) return readJsonl(file);
  if (name.endsWith('.sse')) return parseSse(fs.readFileSync(file, 'utf8'));
  throw new Error(`not a stream fixture: ${name}`);
}

/** A `*.response.json` body. */
export function loadResponse(api: string, name: string): unknown {
  return JSON.parse(fs.readFileSync(fixturePath(api, name), 'utf8')) as unknown;
}

/** Cassette interactions with each response as stream events or a parsed body. */
export function loadCassette(
  api: string,
  name: string,
): { request: unknown; events?: unknown[]; response?: unknown }[] {
  return readCassette(fixturePath(api, name)).map((it) =>
    it.isStream
      ? { request: it.request, events: parseSse(it.body) }
      : { request: it.request, response: JSON.parse(it.body) as unknown },
  );
}

/** Deep copy through JSON (fixtures are JSON). */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
