/**
 * `claude-code`: a Claude Code session file (`~/.claude/projects/<project>/<session>.jsonl`), one
 * JSON entry per line. User and assistant entries become turns (see `threadTurns`); summary
 * entries give the title; other entry types (file-history snapshots, system notices, progress) hold
 * no conversation and are counted in a warning.
 *
 * Sub-agent sidechains (`isSidechain: true`, the Task tool's own conversations) are kept apart from
 * the main thread: each becomes a conversation of its own, id
 * `claude-code:<sessionId>:sidechain:<agentId or root uuid>`, with `meta.sidechainOf` naming the
 * main conversation. They are counted among the imported conversations.
 */
import { TranscriptError } from '../transcript/codec';
import { threadTurns, type ClaudeCodeEntry } from './claude-code-thread';
import { Collector, contentHash, isRecord, stableId, str } from './common';
import { sessionTitle } from './session-title';
import { droppedKeysWarning, parseJsonLines } from './safe-json';
import type { ImportOptions, ImportResult } from './types';

function sidechainKey(e: ClaudeCodeEntry, byUuid: Map<string, ClaudeCodeEntry>): string {
  if (e.agentId !== undefined) return e.agentId;
  let root = e;
  const seen = new Set<ClaudeCodeEntry>();
  while (root.parentUuid !== undefined && !seen.has(root)) {
    seen.add(root);
    const parent = byUuid.get(root.parentUuid);
    if (!parent) break;
    root = parent;
  }
  return root.uuid ?? `line-${root.line}`;
}

/** The first sentence the person typed, never a `<command-…>` wrapper (docs/side-panel.md; session-title.ts). */
function userTitle(entries: readonly ClaudeCodeEntry[]): string | undefined {
  const messages: { text: string; meta?: boolean }[] = [];
  for (const e of entries) {
    if (e.role !== 'user') continue;
    const c = e.message.content;
    const text =
      typeof c === 'string'
        ? c
        : Array.isArray(c)
          ? c.map((b) => (isRecord(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('')
          : '';
    if (text.trim()) messages.push({ text, ...(e.isMeta ? { meta: true } : {}) });
  }
  return sessionTitle(messages);
}

/**
 * Imports one Claude Code session file: the main thread as `claude-code:<sessionId>` (source
 * `{kind: "claude-code", id: sessionId}`), each sidechain as its own conversation. Lines that are
 * not JSON objects, entries without a message object and entries the Anthropic reader rejects are
 * left out with a warning in `meta.importWarnings` naming the line.
 * @throws TranscriptError when the file holds no user or assistant entry at all.
 */
export function importClaudeCode(text: string, opts: ImportOptions = {}): ImportResult {
  const warnings: string[] = [];
  const entries: ClaudeCodeEntry[] = [];
  const summaries: { summary: string; leaf?: string }[] = [];
  const other = new Map<string, number>();
  let dropped = 0;
  let sessionId: string | undefined;
  const seen = new Set<string>();
  for (const l of parseJsonLines(text)) {
    if ('error' in l) {
      warnings.push(`line ${l.line}: ${l.error}`);
      continue;
    }
    dropped += l.droppedKeys;
    const v = l.value;
    if (!isRecord(v)) {
      warnings.push(`line ${l.line}: not a JSON object`);
      continue;
    }
    if (v.type === 'summary' && typeof v.summary === 'string') {
      summaries.push({ summary: v.summary, ...(str(v.leafUuid) ? { leaf: str(v.leafUuid)! } : {}) });
      continue;
    }
    if (v.type !== 'user' && v.type !== 'assistant') {
      const t = typeof v.type === 'string' ? v.type : 'untyped';
      other.set(t, (other.get(t) ?? 0) + 1);
      continue;
    }
    if (!isRecord(v.message)) {
      warnings.push(`line ${l.line}: ${v.type} entry without a message object`);
      continue;
    }
    const uuid = str(v.uuid);
    if (uuid !== undefined && seen.has(uuid)) {
      warnings.push(
        `line ${l.line}: repeats entry ${JSON.stringify(uuid)} (Claude Code copies history when a session is resumed): skipped`,
      );
      continue;
    }
    if (uuid !== undefined) seen.add(uuid);
    sessionId ??= str(v.sessionId);
    const e: ClaudeCodeEntry = {
      line: l.line,
      role: v.type,
      sidechain: v.isSidechain === true,
      isMeta: v.isMeta === true,
      message: v.message,
    };
    if (uuid !== undefined) e.uuid = uuid;
    if (str(v.parentUuid)) e.parentUuid = str(v.parentUuid)!;
    if (str(v.agentId)) e.agentId = str(v.agentId)!;
    if (str(v.timestamp)) e.timestamp = str(v.timestamp)!;
    entries.push(e);
  }
  if (!entries.length) throw new TranscriptError('', 'no Claude Code user or assistant entries in the file');
  if (other.size)
    warnings.push(
      `entries without conversation content skipped: ${[...other].map(([t, n]) => `${t} ×${n}`).join(', ')}`,
    );
  const sourceId = sessionId ?? `h${contentHash(text)}`;
  const collector = new Collector('claude-code', opts, droppedKeysWarning(dropped));
  const main = entries.filter((e) => !e.sidechain);
  const uuids = new Set(entries.map((e) => e.uuid));
  const title = summaries.find((s) => s.leaf !== undefined && uuids.has(s.leaf))?.summary ?? userTitle(main);
  collector.add({ sourceId, ...(title ? { title } : {}) }, () => {
    const w = [...warnings];
    const turns = threadTurns(main, w);
    return { sourceId, turns, warnings: w, ...(title ? { title } : {}) };
  });

  const byUuid = new Map(entries.filter((e) => e.uuid !== undefined).map((e) => [e.uuid!, e]));
  const sidechains = new Map<string, ClaudeCodeEntry[]>();
  for (const e of entries) {
    if (!e.sidechain) continue;
    const key = sidechainKey(e, byUuid);
    const list = sidechains.get(key) ?? [];
    list.push(e);
    sidechains.set(key, list);
  }
  for (const [key, list] of sidechains) {
    const sub = `${sourceId}:sidechain:${key}`;
    const subTitle = userTitle(list);
    const t = `Sub-agent: ${subTitle ?? key}`;
    collector.add({ sourceId: sub, title: t }, () => {
      const w: string[] = [];
      return {
        sourceId: sub,
        title: t,
        turns: threadTurns(list, w),
        warnings: w,
        meta: { sidechainOf: stableId('claude-code', sourceId) },
      };
    });
  }
  return collector.result();
}
