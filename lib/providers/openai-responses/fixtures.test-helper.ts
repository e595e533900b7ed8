/**
 * Test helper: the recorded Responses API traffic in `../shared/fixtures/recorded-streams/openai-responses`
 * as stream events (one list per response), response bodies and cassette request bodies. Loading
 * itself (JSONL, SSE, VCR cassettes) is shared with the openai-chat helper.
 */
import {
  HAS_SHARED,
  listFixtures,
  loadCassette,
  loadResponse,
  loadStreamEvents,
} from '../openai-chat/fixtures.test-helper';

export { HAS_SHARED, clone } from '../openai-chat/fixtures.test-helper';

/** The fixture folder name. */
export const RESPONSES_FIXTURES = 'openai-responses';

/** File names of the fixture folder (empty when the fixtures are absent). */
export function responsesFixtures(): string[] {
  return listFixtures(RESPONSES_FIXTURES);
}

/** Events of a `.chunks.jsonl` / `.sse` stream fixture. */
export function responsesEvents(name: string): unknown[] {
  return loadStreamEvents(RESPONSES_FIXTURES, name);
}

/** A `*.response.json` body. */
export function responsesBody(name: string): unknown {
  return loadResponse(RESPONSES_FIXTURES, name);
}

/** A cassette's interactions (request body, and stream events or a response body). */
export function responsesCassette(name: string): { request: unknown; events?: unknown[]; response?: unknown }[] {
  return loadCassette(RESPONSES_FIXTURES, name);
}

/** Splits a recorded event list into one list per response (at each `response.created`). */
export function splitResponses(events: unknown[]): unknown[][] {
  const out: unknown[][] = [];
  for (const e of events) {
    if ((e as { type?: string }).type === 'response.created' || out.length === 0) out.push([]);
    out[out.length - 1]!.push(e);
  }
  return out;
}

/** Every recorded stream of the API, one entry per response. */
export function allResponseStreams(): { name: string; events: unknown[] }[] {
  if (!HAS_SHARED) return [];
  const out: { name: string; events: unknown[] }[] = [];
  for (const f of responsesFixtures()) {
    if (f.endsWith('.chunks.jsonl') || f.endsWith('.sse'))
      splitResponses(responsesEvents(f)).forEach((events, i) => out.push({ name: `${f}#${i}`, events }));
    if (f.endsWith('.yaml'))
      responsesCassette(f).forEach((it, i) => {
        if (it.events) out.push({ name: `${f}#${i}`, events: it.events });
      });
  }
  return out;
}

/** The `response` object of the stream's terminal event. */
export function terminalResponse(events: unknown[]): Record<string, unknown> {
  const t = events.find((e) => /^response\.(completed|incomplete|failed)$/.test((e as { type?: string }).type ?? ''));
  return (t as { response: Record<string, unknown> }).response;
}
