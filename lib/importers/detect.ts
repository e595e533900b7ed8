/**
 * Telling an import file's kind from its content, for an `importFile` request without `kind`.
 * Looks only at the start of the text (the first line of JSONL, the first 64 KiB of JSON) and
 * never guesses between look-alikes: an undecidable file is an error asking for the kind.
 */
import { TranscriptError } from '../transcript/codec';
import type { ImportKind } from './types';

const HEAD_CHARS = 64 * 1024;

/** The first few lines of JSONL that parse as JSON objects (none for pretty-printed JSON). */
function firstRecords(text: string, max = 5): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const raw of text.split('\n', max)) {
    const line = raw.trim();
    if (!line.startsWith('{') || !line.endsWith('}')) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) out.push(v as Record<string, unknown>);
    } catch {
      // not a JSONL record (a line of pretty-printed JSON)
    }
  }
  return out;
}

/** The agent-session kind one JSONL record shows, if any. */
function recordKind(r: Record<string, unknown>): ImportKind | undefined {
  if (r.format === 'baton.transcript') return 'baton';
  if (r.type === 'session_meta') return 'codex';
  if (r.type === 'session' && typeof r.id === 'string') return 'pi';
  if (typeof r.sessionId === 'string' && 'projectHash' in r) return 'gemini-cli';
  if (typeof r.sessionId === 'string' && ('uuid' in r || 'parentUuid' in r)) return 'claude-code';
  // Claude Code sessions may open with summary records.
  if (r.type === 'summary' && 'leafUuid' in r) return 'claude-code';
  return undefined;
}

const has = (s: string, key: string) => new RegExp(`"${key}"\\s*:`).test(s);

/**
 * The kind of an import file's text (a zip's `conversations.json` for zips).
 *
 * JSONL by its first records (up to 5): Baton `format: "baton.transcript"`, Codex
 * `type: "session_meta"`, pi `type: "session"`, Gemini CLI `sessionId` + `projectHash`, Claude
 * Code `sessionId` + `uuid`/`parentUuid` (or a leading `type: "summary"` record). JSON by
 * its keys: Baton `format: "baton.transcript"`, ChatGPT `mapping`, Claude export `chat_messages`,
 * Gemini CLI `projectHash`, native histories `contents` (Gemini), `input` (Responses),
 * `messages` with Anthropic blocks (`tool_use`, `tool_result`, top-level `system`) or Chat
 * fields (`tool_calls`, a `system`/`developer`/`tool` role).
 * @throws TranscriptError when the kind cannot be told (the person picks it).
 */
export function detectImportKind(text: string): ImportKind {
  const head = text.slice(0, HEAD_CHARS);
  for (const r of firstRecords(head)) {
    const k = recordKind(r);
    if (k) return k;
  }
  if (/"format"\s*:\s*"baton\.transcript"/.test(head)) return 'baton';
  if (has(head, 'mapping') && (has(head, 'current_node') || has(head, 'create_time'))) return 'chatgpt-export';
  if (has(head, 'chat_messages')) return 'claude-export';
  if (has(head, 'sessionId') && has(head, 'projectHash')) return 'gemini-cli';
  if (has(head, 'contents')) return 'gemini-generate-content';
  // Interactions steps (GI-R3) before Responses: both bodies hold `input`.
  if (has(head, 'input') && /"type"\s*:\s*"(user_input|model_output|thought|function_result)"/.test(head))
    return 'gemini-interactions';
  if (has(head, 'input') && !has(head, 'messages')) return 'openai-responses';
  if (has(head, 'messages')) {
    const anthropic = /"type"\s*:\s*"(tool_use|tool_result|thinking)"/.test(head) || /^\s*\{\s*"system"\s*:/.test(head);
    const chat = has(head, 'tool_calls') || /"role"\s*:\s*"(system|developer|tool)"/.test(head);
    if (anthropic !== chat) return anthropic ? 'anthropic-messages' : 'openai-chat';
  }
  throw new TranscriptError('', 'could not tell what kind of file this is: choose its kind and import it again');
}
