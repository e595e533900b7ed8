/**
 * `chatgpt-export`: ChatGPT's data export (`conversations.json`, or the export zip holding it) or
 * one backend-api conversation object (security-requirements.md I3; export schema:
 * mohamed-chs/convoviz `docs/dev/data-schema.md`).
 */
import { TranscriptError } from '../transcript/codec';
import { branchToTurns } from './chatgpt-turns';
import { selectBranch } from './chatgpt-tree';
import { Collector, contentHash, isoFromSeconds, isRecord, str } from './common';
import { droppedKeysWarning, parseJsonSafe } from './safe-json';
import type { ImportOptions, ImportResult } from './types';

/** The conversation list of a ChatGPT export document: an array, `{conversations: [...]}`, or one conversation. */
function conversationList(doc: unknown): unknown[] {
  if (Array.isArray(doc)) return doc;
  if (isRecord(doc) && Array.isArray(doc.conversations)) return doc.conversations;
  if (isRecord(doc) && ('mapping' in doc || 'current_node' in doc)) return [doc];
  throw new TranscriptError(
    '',
    'expected a ChatGPT export: an array of conversations, {"conversations": [...]}, or one conversation with a "mapping"',
  );
}

/**
 * Imports a ChatGPT export. Per conversation: the `current_node` branch (see `selectBranch`:
 * cycles skip the conversation, dangling parents and unknown `current_node` are repaired with a
 * warning), mapped by `branchToTurns`; `source = {kind: "chatgpt-export", id: <conversation
 * id>}`, id `chatgpt-export:<conversation id>`, `title`, `createdAt` from `create_time`.
 * Assistant turns have origin `{provider: "chatgpt-web", api: "web", model: <model_slug> or
 * "chatgpt"}`. A conversation without an id gets a content hash as its source id.
 * @throws TranscriptError when the text is not JSON or not an export shape at all.
 */
export function importChatGPTExport(text: string, opts: ImportOptions = {}): ImportResult {
  const { value, droppedKeys } = parseJsonSafe(text);
  const list = conversationList(value);
  const collector = new Collector('chatgpt-export', opts, droppedKeysWarning(droppedKeys));
  list.forEach((c, i) => {
    if (!isRecord(c)) return collector.skip({}, `conversations[${i}]: expected an object`);
    const sourceId = str(c.id) ?? str(c.conversation_id) ?? `h${contentHash(JSON.stringify(c))}`;
    const title = typeof c.title === 'string' ? c.title : undefined;
    const info = { sourceId, ...(title !== undefined ? { title } : {}) };
    collector.add(info, () => {
      const branch = selectBranch(c.mapping, c.current_node);
      const warnings = [...branch.warnings];
      const turns = branchToTurns(branch.nodes, warnings);
      const createdAt = isoFromSeconds(c.create_time);
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
