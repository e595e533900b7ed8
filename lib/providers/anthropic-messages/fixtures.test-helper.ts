/**
 * Test helper: loads the recorded Anthropic Messages traffic in `../shared/fixtures/recorded-streams/anthropic/`
 * (see its SOURCES.md) as stream events, responses or cassette interactions. Test-only (reads files).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** `../shared/fixtures` next to the project. */
export const SHARED = path.resolve(PROJECT_ROOT, '../shared/fixtures');
/** The Anthropic recordings folder. */
export const ANTHROPIC_DIR = path.join(SHARED, 'recorded-streams/anthropic');
/** True when the shared fixtures are present (tests skip visibly otherwise). */
export const hasShared = fs.existsSync(ANTHROPIC_DIR);

/** File names in the Anthropic recordings folder, sorted. */
export function listFixtures(): string[] {
  return fs.readdirSync(ANTHROPIC_DIR).sort();
}

/** A `*.chunks.jsonl` file: one event (the JSON of one SSE `data:` line) per non-empty line. */
export function loadChunks(name: string): unknown[] {
  return fs
    .readFileSync(path.join(ANTHROPIC_DIR, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** A `*.response.json` file. */
export function loadJson(name: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(ANTHROPIC_DIR, name), 'utf8')) as unknown;
}

/** Raw SSE text → the parsed JSON of each event's `data:` lines (multi-line data joined with `\n`; `[DONE]` skipped). */
export function parseSse(text: string): unknown[] {
  const events: unknown[] = [];
  for (const chunk of text.split(/\r?\n\r?\n/)) {
    const data = chunk
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''));
    if (data.length === 0) continue;
    const payload = data.join('\n');
    if (payload.trim() === '[DONE]') continue;
    events.push(JSON.parse(payload) as unknown);
  }
  return events;
}

/** One recorded HTTP exchange of a VCR cassette. */
export interface Interaction {
  /** The parsed JSON request body. */
  request: unknown;
  /** Stream events when the response was SSE, else undefined. */
  events?: unknown[];
  /** The parsed JSON response body when it was not SSE. */
  response?: unknown;
}

/** A `llm-cassette-*.yaml` file → its interactions, request and response bodies parsed. */
export function loadCassette(name: string): Interaction[] {
  const doc = parseYaml(fs.readFileSync(path.join(ANTHROPIC_DIR, name), 'utf8')) as {
    interactions: { request: { body: string }; response: { body: { string: string } } }[];
  };
  return doc.interactions.map((i) => {
    const body = i.response.body.string;
    const request = JSON.parse(i.request.body) as unknown;
    return /^\s*(event|data):/.test(body)
      ? { request, events: parseSse(body) }
      : { request, response: JSON.parse(body) as unknown };
  });
}

/** Splits a string into `n` roughly equal pieces (at least one, possibly empty). */
function pieces(text: string, n = 3): string[] {
  if (text.length === 0) return [''];
  const size = Math.ceil(text.length / n);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

type Obj = Record<string, unknown>;

/**
 * Test oracle: the stream events the Messages API would send for a complete response, built the
 * way the streaming docs describe (https://docs.anthropic.com/en/api/messages-streaming): empty
 * blocks on `content_block_start`, text/thinking in several deltas, `signature_delta`, one
 * `citations_delta` per citation, tool input as `input_json_delta` fragments, `compaction_delta`
 * with the whole summary; other blocks arrive whole in `content_block_start`.
 */
export function responseToEvents(response: Obj): unknown[] {
  const { content, stop_reason, stop_sequence, stop_details, usage, context_management, container, ...rest } = response;
  const events: unknown[] = [
    {
      type: 'message_start',
      message: {
        ...rest,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...(usage as Obj), output_tokens: 1 },
      },
    },
  ];
  (content as Obj[]).forEach((block, index) => {
    const start = (content_block: Obj) => events.push({ type: 'content_block_start', index, content_block });
    const delta = (d: Obj) => events.push({ type: 'content_block_delta', index, delta: d });
    switch (block.type) {
      case 'text': {
        const { text, citations, ...other } = block;
        start({ ...other, ...(Array.isArray(citations) ? { citations: [] } : {}), text: '' });
        if (Array.isArray(citations)) for (const citation of citations) delta({ type: 'citations_delta', citation });
        for (const t of pieces(text as string)) delta({ type: 'text_delta', text: t });
        break;
      }
      case 'thinking':
        start({ type: 'thinking', thinking: '', signature: '' });
        for (const t of pieces(block.thinking as string)) delta({ type: 'thinking_delta', thinking: t });
        delta({ type: 'signature_delta', signature: block.signature });
        break;
      case 'tool_use':
      case 'server_tool_use':
      case 'mcp_tool_use':
        start({ ...block, input: {} });
        for (const t of pieces(JSON.stringify(block.input))) delta({ type: 'input_json_delta', partial_json: t });
        break;
      case 'compaction': {
        const { content: summary, encrypted_content, ...other } = block;
        start({ ...other, content: null });
        delta({
          type: 'compaction_delta',
          content: summary,
          ...(encrypted_content !== undefined ? { encrypted_content } : {}),
        });
        break;
      }
      default:
        start(block);
    }
    events.push({ type: 'content_block_stop', index });
  });
  const d: Obj = { stop_reason, stop_sequence };
  if (stop_details !== undefined) d.stop_details = stop_details;
  if (container !== undefined) d.container = container;
  events.push({
    type: 'message_delta',
    delta: d,
    usage,
    ...(context_management !== undefined ? { context_management } : {}),
  });
  events.push({ type: 'message_stop' });
  return events;
}
