/**
 * `pi`: a pi coding-agent session (`~/.pi/agent/sessions/--<path>--/<time>_<uuid>.jsonl`,
 * badlogic/pi-mono `packages/coding-agent/docs/session.md`): a `session` header line, then
 * `message` entries (user, assistant, toolResult, bashExecution) and settings entries
 * (`model_change`, `thinking_level_change`, …). Sessions whose entries carry `id` / `parentId`
 * (the tree format) are read along the branch that ends at the last entry.
 */
import { TranscriptError } from '../transcript/codec';
import type { Turn } from '../transcript/schema';
import { Collector, contentHash, firstUserText, isoFromString, isRecord, str, type JsonObject } from './common';
import { sessionTitleOf } from './session-title';
import { piTurn } from './pi-message';
import { droppedKeysWarning, parseJsonLines } from './safe-json';
import type { ImportOptions, ImportResult } from './types';

interface Entry {
  line: number;
  value: JsonObject;
}

/** The entries to read: all, in order; or, in the tree format, the branch ending at the last entry. */
function branch(entries: Entry[], warnings: string[]): Entry[] {
  const tree = entries.some(
    (e) => str(e.value.id) !== undefined && 'parentId' in e.value && e.value.type !== 'session',
  );
  if (!tree) return entries;
  const byId = new Map<string, Entry>();
  for (const e of entries) if (str(e.value.id) && e.value.type !== 'session') byId.set(str(e.value.id)!, e);
  const path: Entry[] = [];
  const seen = new Set<Entry>();
  let e: Entry | undefined = [...entries].reverse().find((x) => byId.get(str(x.value.id) ?? '') === x);
  while (e && !seen.has(e)) {
    seen.add(e);
    path.push(e);
    const parent = str(e.value.parentId);
    e = parent !== undefined ? byId.get(parent) : undefined;
  }
  if (e) throw new TranscriptError('', `cycle in the session tree at entry ${JSON.stringify(str(e.value.id))}`);
  const others = byId.size - path.length;
  if (others > 0)
    warnings.push(
      `${others} entr${others === 1 ? 'y' : 'ies'} on other branches not imported: followed the branch of the last entry`,
    );
  return path.reverse();
}

/**
 * Imports one pi session as `pi:<session id>` (source `{kind: "pi", id}`). Tool calls and results
 * stay `tool_call` / `tool_result`; see `piTurn` for the mapping and origins.
 * @throws TranscriptError when the file holds no message entries.
 */
export function importPi(text: string, opts: ImportOptions = {}): ImportResult {
  const warnings: string[] = [];
  const entries: Entry[] = [];
  let sessionId: string | undefined;
  let createdAt: string | undefined;
  let dropped = 0;
  for (const l of parseJsonLines(text)) {
    if ('error' in l) {
      warnings.push(`line ${l.line}: ${l.error}`);
      continue;
    }
    dropped += l.droppedKeys;
    if (!isRecord(l.value)) {
      warnings.push(`line ${l.line}: not a JSON object`);
      continue;
    }
    if (l.value.type === 'session') {
      sessionId ??= str(l.value.id);
      createdAt ??= isoFromString(l.value.timestamp);
      continue;
    }
    entries.push({ line: l.line, value: l.value });
  }
  if (!entries.some((e) => e.value.type === 'message'))
    throw new TranscriptError('', 'no pi message entries in the file');
  const sourceId = sessionId ?? `h${contentHash(text)}`;
  const collector = new Collector('pi', opts, droppedKeysWarning(dropped));
  collector.add({ sourceId }, () => {
    const w = [...warnings];
    const turns: Turn[] = [];
    const used = new Set<string>();
    branch(entries, w).forEach((e, i) => {
      if (e.value.type !== 'message') return;
      if (!isRecord(e.value.message)) return void w.push(`line ${e.line}: message entry without a message object`);
      let id = str(e.value.id) ?? `m${i + 1}`;
      while (used.has(id)) id += '_';
      used.add(id);
      const turn = piTurn(e.value.message, id, `line ${e.line}`, w);
      if (!turn) return;
      const prev = turns[turns.length - 1];
      // Parallel calls' results arrive one message each: one tool turn holds them all.
      if (turn.role === 'tool' && prev?.role === 'tool') prev.blocks.push(...turn.blocks);
      else turns.push(turn);
    });
    const title = sessionTitleOf(firstUserText(turns));
    return { sourceId, turns, warnings: w, ...(title ? { title } : {}), ...(createdAt ? { createdAt } : {}) };
  });
  return collector.result();
}
