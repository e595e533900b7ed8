/**
 * One Claude Code thread (the main session, or one sub-agent sidechain) → turns. Each entry's
 * `message` is in Anthropic Messages shape, so it is read by `readAnthropicMessagesHistory`:
 * tool_use / tool_result stay tool calls and results, thinking keeps its signature, and assistant
 * turns get origin `{provider: "anthropic", api: "anthropic-messages", model: message.model}`
 * plus `native` content for same-origin replay. Claude Code writes one streamed assistant message
 * as several entries with the same `message.id`; they are merged back into one turn.
 */
import {
  mapAnthropicStopReason,
  readAnthropicMessagesHistory,
  readAnthropicUsage,
} from '../providers/anthropic-messages/read-anthropic-messages';
import type { Turn } from '../transcript/schema';
import { isoFromString, reasonOf, str, type JsonObject } from './common';

/** A user or assistant entry of a Claude Code session file. */
export interface ClaudeCodeEntry {
  /** 1-based line number in the file. */
  line: number;
  uuid?: string;
  parentUuid?: string;
  sidechain: boolean;
  agentId?: string;
  /** The entry's `type`: who wrote the message. */
  role: 'user' | 'assistant';
  isMeta: boolean;
  timestamp?: string;
  message: JsonObject;
}

interface Group {
  role: 'user' | 'assistant';
  id?: string;
  model?: string;
  content: unknown;
  entries: ClaudeCodeEntry[];
}

/** Claude Code's own notices (API errors, "no response requested") carry this model: not model output. */
const SYNTHETIC_MODEL = '<synthetic>';

function groups(entries: readonly ClaudeCodeEntry[]): Group[] {
  const out: Group[] = [];
  for (const e of entries) {
    const role = e.role;
    const content = e.message.content;
    const id = str(e.message.id);
    const last = out[out.length - 1];
    if (
      role === 'assistant' &&
      last?.role === 'assistant' &&
      id !== undefined &&
      last.id === id &&
      Array.isArray(last.content) &&
      Array.isArray(content)
    ) {
      last.content = [...last.content, ...content];
      last.entries.push(e);
      continue;
    }
    const g: Group = { role, content: Array.isArray(content) ? [...content] : content, entries: [e] };
    if (id !== undefined) g.id = id;
    const model = str(e.message.model);
    if (model !== undefined) g.model = model;
    out.push(g);
  }
  return out;
}

/**
 * Turns of one thread, in file order. An entry the reader rejects (no content, a malformed block)
 * and Claude Code's synthetic notices are left out with a warning naming the line; turn ids are the
 * entries' `uuid`s (`#2`, `#3` … for the further turns one entry yields, or for a repeated uuid).
 */
export function threadTurns(entries: readonly ClaudeCodeEntry[], warnings: string[]): Turn[] {
  const turns: Turn[] = [];
  const used = new Set<string>();
  for (const g of groups(entries)) {
    const first = g.entries[0]!;
    const last = g.entries[g.entries.length - 1]!;
    if (g.model === SYNTHETIC_MODEL) {
      warnings.push(
        `line ${first.line}: Claude Code's own notice (model "${SYNTHETIC_MODEL}") is not model output and was left out`,
      );
      continue;
    }
    let read: Turn[];
    try {
      read = readAnthropicMessagesHistory(
        { messages: [{ role: g.role, content: g.content }] },
        { model: g.model ?? 'unknown' },
      ).turns;
    } catch (e) {
      warnings.push(`line ${first.line}: ${g.role} message left out: ${reasonOf(e)}`);
      continue;
    }
    read.forEach((turn, k) => {
      const base = first.uuid ?? `line-${first.line}`;
      let id = k === 0 ? base : `${base}#${k + 1}`;
      for (let n = k + 2; used.has(id); n++) id = `${base}#${n}`;
      used.add(id);
      const out: Turn = { ...turn, id };
      const createdAt = isoFromString(first.timestamp);
      if (createdAt) out.createdAt = createdAt;
      if (turn.role === 'assistant') {
        const usage = readAnthropicUsage(last.message.usage);
        if (usage) out.usage = usage;
        const stop = str(last.message.stop_reason);
        if (stop) {
          out.stopReason = mapAnthropicStopReason(stop);
          if (out.stopReason === 'other') out.meta = { ...(out.meta ?? {}), rawStopReason: stop };
        }
      }
      turns.push(out);
    });
  }
  return turns;
}
