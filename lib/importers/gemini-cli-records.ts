/**
 * The message list of a Gemini CLI chat recording
 * (`~/.gemini/tmp/<project>/chats/session-*.json[l]`, gemini-cli
 * `core/src/services/chatRecordingService.ts`), in either format:
 * - legacy: one JSON object `{sessionId, projectHash, startTime, lastUpdated, messages: [...]}`;
 * - JSONL: a header line, then message records (a record whose `id` was seen before replaces it:
 *   the file is an upsert log), `{"$set": {...}}` metadata patches (`$set.messages` replaces the
 *   list) and `{"$rewindTo": id}` markers that drop that message and everything after it.
 */
import { TranscriptError } from '../transcript/codec';
import { isRecord, str, type JsonObject } from './common';
import { parseJsonLines, parseJsonSafe } from './safe-json';

/** Header fields used by the importer. */
export interface GeminiCliSession {
  sessionId?: string;
  startTime?: string;
  summary?: string;
  messages: JsonObject[];
  warnings: string[];
  droppedKeys: number;
}

function header(v: JsonObject, into: GeminiCliSession): void {
  // Only known scalar fields are copied: nothing merges raw objects (I2).
  if (str(v.sessionId)) into.sessionId = str(v.sessionId)!;
  if (str(v.startTime)) into.startTime = str(v.startTime)!;
  if (str(v.summary)) into.summary = str(v.summary)!;
}

/**
 * Reads either format into the final message list.
 * @throws TranscriptError when the text is neither a legacy recording nor JSONL with messages.
 */
export function readGeminiCliSession(text: string): GeminiCliSession {
  const out: GeminiCliSession = { messages: [], warnings: [], droppedKeys: 0 };
  try {
    const { value, droppedKeys } = parseJsonSafe(text);
    if (isRecord(value) && Array.isArray(value.messages)) {
      header(value, out);
      out.droppedKeys = droppedKeys;
      out.messages = value.messages.filter(isRecord);
      if (out.messages.length !== value.messages.length)
        out.warnings.push(
          `${value.messages.length - out.messages.length} messages entries were not objects and were ignored`,
        );
      return out;
    }
  } catch {
    // not one JSON document: JSONL below
  }
  const order: string[] = [];
  const byId = new Map<string, JsonObject>();
  const replace = (list: unknown[]) => {
    order.length = 0;
    byId.clear();
    for (const m of list) if (isRecord(m)) upsert(m);
  };
  const upsert = (m: JsonObject) => {
    const id = str(m.id)!;
    if (!byId.has(id)) order.push(id);
    byId.set(id, m);
  };
  let records = 0;
  for (const l of parseJsonLines(text)) {
    if ('error' in l) {
      out.warnings.push(`line ${l.line}: ${l.error}`);
      continue;
    }
    out.droppedKeys += l.droppedKeys;
    const v = l.value;
    if (!isRecord(v)) {
      out.warnings.push(`line ${l.line}: not a JSON object`);
      continue;
    }
    records++;
    if (typeof v.$rewindTo === 'string') {
      const at = order.indexOf(v.$rewindTo);
      if (at < 0)
        out.warnings.push(`line ${l.line}: $rewindTo names unknown message ${JSON.stringify(v.$rewindTo)}: ignored`);
      else for (const id of order.splice(at)) byId.delete(id);
    } else if (isRecord(v.$set)) {
      if (Array.isArray(v.$set.messages)) replace(v.$set.messages);
      header(v.$set, out);
    } else if (str(v.id) && str(v.type)) {
      upsert(v);
    } else if (str(v.sessionId)) {
      header(v, out);
    } else {
      out.warnings.push(`line ${l.line}: unrecognised record ignored`);
    }
  }
  if (!records)
    throw new TranscriptError(
      '',
      'expected a Gemini CLI chat recording (a JSON object with "messages", or JSONL records)',
    );
  out.messages = order.map((id) => byId.get(id)!);
  return out;
}
