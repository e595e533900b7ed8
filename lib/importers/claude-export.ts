/**
 * `claude-export`: the claude.ai data export (`conversations.json`, or the export zip holding it).
 * Each conversation's `chat_messages` (sender `human` / `assistant`, `content` blocks and/or
 * `text`, attachments and files) become turns; when messages carry `parent_message_uuid` links the
 * latest branch is followed.
 */
import { TranscriptError } from '../transcript/codec';
import type { Turn } from '../transcript/schema';
import { claudeMessageTurns } from './claude-export-message';
import { Collector, contentHash, isoFromString, isRecord, str, type JsonObject } from './common';
import { droppedKeysWarning, parseJsonSafe } from './safe-json';
import type { ImportOptions, ImportResult } from './types';

export { CLAUDE_WEB_ORIGIN } from './claude-export-message';

function conversationList(doc: unknown): unknown[] {
  if (Array.isArray(doc)) return doc;
  if (isRecord(doc) && Array.isArray(doc.conversations)) return doc.conversations;
  if (isRecord(doc) && 'chat_messages' in doc) return [doc];
  throw new TranscriptError('', 'expected a Claude export: an array of conversations with "chat_messages"');
}

const time = (m: JsonObject): number => {
  const t = typeof m.created_at === 'string' ? Date.parse(m.created_at) : NaN;
  return Number.isFinite(t) ? t : -Infinity;
};

/**
 * The messages to import, in order. Without `parent_message_uuid` links: the array order. With
 * them: the path from the conversation's `current_leaf_message_uuid` (when known) or else the
 * latest leaf (largest `created_at`, later in the array on ties) up to the root; the walk stops at
 * a parent that is not in the conversation (the root sentinel) and refuses cycles.
 */
export function claudeBranch(conv: JsonObject, warnings: string[]): JsonObject[] {
  if (!Array.isArray(conv.chat_messages))
    throw new TranscriptError('chat_messages', 'missing: the conversation has no messages');
  const messages = conv.chat_messages.filter(isRecord);
  if (messages.length !== conv.chat_messages.length)
    warnings.push(
      `${conv.chat_messages.length - messages.length} chat_messages entries were not objects and were ignored`,
    );
  const byId = new Map<string, JsonObject>();
  for (const m of messages) {
    const id = str(m.uuid);
    if (id !== undefined && !byId.has(id)) byId.set(id, m);
  }
  const linked = messages.some((m) => {
    const p = str(m.parent_message_uuid);
    return p !== undefined && byId.has(p);
  });
  if (!linked) return messages;
  let leaf =
    str(conv.current_leaf_message_uuid) !== undefined ? byId.get(str(conv.current_leaf_message_uuid)!) : undefined;
  if (!leaf) {
    const parents = new Set(
      messages.map((m) => str(m.parent_message_uuid)).filter((p): p is string => p !== undefined),
    );
    for (const m of messages) {
      const id = str(m.uuid);
      if (id !== undefined && parents.has(id)) continue;
      if (!leaf || time(m) >= time(leaf)) leaf = m;
    }
  }
  const path: JsonObject[] = [];
  const seen = new Set<JsonObject>();
  for (let m: JsonObject | undefined = leaf; m;) {
    if (seen.has(m))
      throw new TranscriptError('chat_messages', `cycle: message ${JSON.stringify(str(m.uuid))} is its own ancestor`);
    seen.add(m);
    path.push(m);
    const p = str(m.parent_message_uuid);
    m = p !== undefined ? byId.get(p) : undefined;
  }
  const branches = messages.length - path.length;
  if (branches > 0)
    warnings.push(`${branches} message(s) on other branches (edits, retries) not imported: followed the latest branch`);
  return path.reverse();
}

/**
 * Imports a claude.ai export: per conversation `source = {kind: "claude-export", id: uuid}`, id
 * `claude-export:<uuid>`, title from `name`, `createdAt`; assistant turns with origin
 * {@link CLAUDE_WEB_ORIGIN}. A conversation without `chat_messages` or without any importable
 * message is skipped with the reason.
 * @throws TranscriptError when the text is not JSON or not an export shape.
 */
export function importClaudeExport(text: string, opts: ImportOptions = {}): ImportResult {
  const { value, droppedKeys } = parseJsonSafe(text);
  const collector = new Collector('claude-export', opts, droppedKeysWarning(droppedKeys));
  conversationList(value).forEach((c, i) => {
    if (!isRecord(c)) return collector.skip({}, `conversations[${i}]: expected an object`);
    const sourceId = str(c.uuid) ?? `h${contentHash(JSON.stringify(c))}`;
    const title = typeof c.name === 'string' ? c.name : undefined;
    const info = { sourceId, ...(title !== undefined ? { title } : {}) };
    collector.add(info, () => {
      const warnings: string[] = [];
      const turns: Turn[] = [];
      const used = new Set<string>();
      claudeBranch(c, warnings).forEach((m, j) => turns.push(...claudeMessageTurns(m, j, used, warnings)));
      const createdAt = isoFromString(c.created_at);
      return {
        sourceId,
        turns,
        warnings,
        ...(title !== undefined ? { title } : {}),
        ...(createdAt ? { createdAt } : {}),
      };
    });
  });
  return collector.result();
}
