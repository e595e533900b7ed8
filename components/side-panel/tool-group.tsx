/**
 * Tool calls, calm (docs/side-panel.md): one compact group per assistant turn. Each call is one line — a
 * status mark (ok / error / no result), the tool's name and a one-line summary of its arguments —
 * with its result folded under it; the call id and the full JSON only when the line is expanded.
 */
import type { ToolCallBlock, ToolResultBlock, Turn } from '../../lib/transcript/schema';
import { toolNamesLine } from './disclosure-format';
import { ImageThumb } from './image-view';

export { toolNamesLine };

/** Each tool result of `turns`, keyed by the id of the call it answers (the last one wins). */
export function toolResultIndex(turns: readonly Turn[]): Map<string, ToolResultBlock> {
  const out = new Map<string, ToolResultBlock>();
  for (const t of turns) for (const b of t.blocks) if (b.type === 'tool_result') out.set(b.callId, b);
  return out;
}

/** Ids of every tool call in `turns`. */
export function toolCallIds(turns: readonly Turn[]): Set<string> {
  const out = new Set<string>();
  for (const t of turns) for (const b of t.blocks) if (b.type === 'tool_call') out.add(b.id);
  return out;
}

/** Argument keys that say best what a call does, in order of preference. */
const TELLING_KEYS = [
  'command',
  'cmd',
  'file_path',
  'path',
  'filePath',
  'pattern',
  'query',
  'q',
  'url',
  'city',
  'location',
  'description',
  'prompt',
  'code',
  'text',
  'name',
];

/** One line about a call's input: its most telling argument, else compact JSON; at most `max` characters. */
export function argumentSummary(input: unknown, max = 90): string {
  let line: string;
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    const o = input as Record<string, unknown>;
    const key =
      TELLING_KEYS.find((k) => typeof o[k] === 'string' && (o[k] as string).trim()) ??
      Object.keys(o).find((k) => typeof o[k] === 'string' && (o[k] as string).trim());
    line = key ? String(o[key]) : compact(input);
    if (key && Object.keys(o).length > 1 && !TELLING_KEYS.includes(key)) line = `${key}: ${line}`;
  } else line = typeof input === 'string' ? input : compact(input);
  line = line.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function compact(v: unknown): string {
  try {
    const s = JSON.stringify(v);
    return s === undefined || s === '{}' ? '' : s;
  } catch {
    return String(v);
  }
}

function pretty(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}

/** What became of a call. */
export type CallStatus = 'ok' | 'error' | 'none' | 'running';
const MARK: Record<CallStatus, string> = { ok: '✓', error: '✕', none: '–', running: '…' };
const STATUS_WORDS: Record<CallStatus, string> = { ok: 'ok', error: 'error', none: 'no result', running: 'running' };

export function callStatus(result: ToolResultBlock | undefined, streaming: boolean): CallStatus {
  if (!result) return streaming ? 'running' : 'none';
  return result.isError ? 'error' : 'ok';
}

/** A result's content: text as text (never HTML), images as thumbnails from their bytes. */
export function ToolResultContent({ result }: { result: ToolResultBlock }) {
  if (typeof result.content === 'string')
    return <pre class="block-code tool-result-text">{result.content || '(empty result)'}</pre>;
  return (
    <div class="tool-result-parts">
      {result.content.map((c, i) =>
        c.type === 'text' ? (
          <pre key={i} class="block-code tool-result-text">
            {c.text}
          </pre>
        ) : (
          <ImageThumb key={i} image={c} what="Image from the tool" />
        ),
      )}
    </div>
  );
}

export interface ToolGroupProps {
  calls: readonly ToolCallBlock[];
  /** The result of each call, in the same order (undefined: none seen). */
  results: readonly (ToolResultBlock | undefined)[];
  /** The turn is still streaming (a call without a result is running, not failed). */
  streaming: boolean;
}

/** Groups longer than this start folded (their names still show in the summary). */
const OPEN_UP_TO = 8;

/** The calls of one assistant turn as one group. */
export function ToolGroup({ calls, results, streaming }: ToolGroupProps) {
  const statuses = calls.map((_, i) => callStatus(results[i], streaming));
  const errors = statuses.filter((s) => s === 'error').length;
  const title = `${calls.length === 1 ? '1 tool call' : `${calls.length} tool calls`}: ${toolNamesLine(calls.map((c) => c.name))}`;
  return (
    <details class="tool-group" data-tool-group="" open={calls.length <= OPEN_UP_TO}>
      <summary>
        <span class="tool-group-title">{title}</span>
        {errors ? <span class="tool-group-errors"> · {errors === 1 ? '1 failed' : `${errors} failed`}</span> : null}
      </summary>
      <ul class="tool-calls">
        {calls.map((c, i) => {
          const r = results[i];
          const s = statuses[i]!;
          const args = argumentSummary(c.input);
          return (
            <li key={c.id}>
              <details class="tool-call" data-block="tool_call" data-status={s}>
                <summary>
                  <span class={`tool-mark tool-${s}`} aria-hidden="true">
                    {MARK[s]}
                  </span>
                  <span class="visually-hidden">{STATUS_WORDS[s]}: </span>
                  <span class="tool-name">{c.name}</span>
                  {args ? <span class="tool-args"> {args}</span> : null}
                </summary>
                <pre class="block-code">{pretty(c.input)}</pre>
                {r ? (
                  <div class="tool-result" data-block="tool_result">
                    <p class="tool-result-head">{r.isError ? 'Error' : 'Result'}</p>
                    <ToolResultContent result={r} />
                  </div>
                ) : (
                  <p class="tool-result-head">
                    {s === 'running' ? 'Waiting for the result…' : 'No result was recorded for this call.'}
                  </p>
                )}
                <p class="tool-id">Call id: {c.id}</p>
              </details>
            </li>
          );
        })}
      </ul>
    </details>
  );
}
