/**
 * A captured page stored as a NEW conversation (docs/architecture.md#the-background-by-feature): its metadata and every turn in one
 * transaction (security-requirements.md D4), so a failed write leaves nothing behind. Captures are
 * never deduplicated: capturing the same page twice makes two conversations.
 */
import type { ConversationMeta, SendTarget } from '../messaging/protocol';
import type { Source, Turn } from '../transcript/schema';
import { metaOf, previewOf } from './conversations';
import { tx, type BatonDb, type ConversationRecord } from './db';
import { chainedRecords } from './turn-tree';
import { indexTitle, indexTurns } from './search-index';
import { rebuildPathIndex } from './path-index';
import { addConversation } from './list-pages';

/** What {@link storeCapturedConversation} writes. */
export interface CapturedRecord {
  id: string;
  title: string;
  /** ISO 8601 time of the capture. */
  now: string;
  source: Source;
  turns: Turn[];
  /** The target the person chose in the menu: the side panel preselects it. */
  lastTarget?: SendTarget;
}

/** Writes a new conversation with all its turns in one transaction. @throws when the id exists or storage fails (nothing written). */
export async function storeCapturedConversation(db: BatonDb, c: CapturedRecord): Promise<ConversationMeta> {
  let preview = '';
  for (const t of c.turns) preview = previewOf(t) || preview;
  const rec: ConversationRecord = {
    id: c.id,
    title: c.title,
    createdAt: c.now,
    updatedAt: c.now,
    turnCount: c.turns.length,
    preview,
    nextSeq: c.turns.length,
    ...(c.turns.length ? { activeLeaf: c.turns.at(-1)!.id } : {}),
    source: c.source,
    ...(c.lastTarget ? { lastTarget: c.lastTarget } : {}),
  };
  await tx(
    db,
    ['conversations', 'turns', 'search', 'paths', 'summaries'],
    'readwrite',
    async (t) => {
      await addConversation(t, rec);
      const turns = t.objectStore('turns');
      // docs/side-panel.md#search: indexed in the same transaction.
      const search = t.objectStore('search');
      await indexTitle(search, c.id, rec.title);
      const records = chainedRecords(c.id, c.turns);
      for (const r of records) {
        await turns.add(r);
        await indexTurns(search, [r]);
      }
      // docs/architecture.md#the-path-index: the captured turns are the active path.
      await rebuildPathIndex(t.objectStore('paths'), c.id, undefined, records);
    },
    'strict',
  );
  return metaOf(rec);
}
