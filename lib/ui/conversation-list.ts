/** Ordering and search for the side panel's conversation list. */
import type { ConversationMeta } from '../messaging/protocol';

/** Lowercased, accents removed, whitespace collapsed: what search compares. */
export function normalizeForSearch(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The list as shown: pinned first, then the rest, each newest first (`updatedAt`, ISO 8601),
 * keeping only titles that contain every word of `query` (case and accents ignored).
 */
export function arrangeConversations(list: readonly ConversationMeta[], query = ''): ConversationMeta[] {
  const words = normalizeForSearch(query).split(' ').filter(Boolean);
  const hit = (c: ConversationMeta) => {
    if (words.length === 0) return true;
    const title = normalizeForSearch(c.title || 'Untitled');
    return words.every((w) => title.includes(w));
  };
  const byTime = (a: ConversationMeta, b: ConversationMeta) =>
    a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0;
  const shown = list.filter(hit).sort(byTime);
  return [...shown.filter((c) => c.pinned), ...shown.filter((c) => !c.pinned)];
}
