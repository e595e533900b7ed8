/**
 * chatgpt.com conversation pages (`/c/<id>`): each message is an element with
 * `data-message-author-role` (`user` / `assistant`) and, for answers, `data-message-model-slug`;
 * answers hold their Markdown in `.markdown`, a person's text is in `.whitespace-pre-wrap`.
 * Fallback: `article[data-turn]` turns. Turns carry `data-testid="conversation-turn-<n>"`, so a
 * page whose first turn is not turn 1 shows only part of the conversation.
 */
import { preText, readParts } from './dom-markdown';
import type { CapturedConversation, CapturedMessage, CapturedPart } from './types';

const ROLES = new Set(['user', 'assistant']);

function messageElements(doc: Document): { el: Element; role: string }[] {
  const byRole = Array.from(doc.querySelectorAll('[data-message-author-role]'))
    // A nested role element (rare) belongs to its outer message.
    .filter((el) => !el.parentElement?.closest('[data-message-author-role]'))
    .map((el) => ({ el, role: el.getAttribute('data-message-author-role') ?? '' }));
  if (byRole.length) return byRole;
  return Array.from(doc.querySelectorAll('article[data-turn]')).map((el) => ({
    el,
    role: el.getAttribute('data-turn') ?? '',
  }));
}

function userParts(el: Element, baseUrl: string): CapturedPart[] {
  const plain = el.querySelector('.whitespace-pre-wrap');
  if (!plain) return readParts(el, { baseUrl });
  // Uploaded images sit outside the text bubble; the text keeps its own line breaks.
  const images = readParts(el, { baseUrl, skip: (x) => x === plain }).filter((p) => p.type === 'image');
  const text = preText(plain);
  return [...images, ...(text ? [{ type: 'text' as const, text }] : [])];
}

/** Reads a chatgpt.com page. */
export function readChatgpt(doc: Document, url: string): CapturedConversation {
  const messages: CapturedMessage[] = [];
  for (const { el, role } of messageElements(doc)) {
    if (!ROLES.has(role)) continue;
    const parts =
      role === 'user' ? userParts(el, url) : readParts(el.querySelector('.markdown') ?? el, { baseUrl: url });
    if (!parts.length) continue;
    const model = el.getAttribute('data-message-model-slug') ?? undefined;
    messages.push({ role: role as CapturedMessage['role'], parts, ...(model ? { model } : {}) });
  }
  const first = doc.querySelector('[data-testid^="conversation-turn-"]')?.getAttribute('data-testid');
  const n = first ? Number(first.slice('conversation-turn-'.length)) : NaN;
  const partial = Number.isInteger(n) && n > 1;
  const title = doc.title.replace(/\s*[-|]\s*ChatGPT\s*$/i, '').trim();
  return {
    site: 'chatgpt',
    url,
    ...(title && title !== 'ChatGPT' ? { title } : {}),
    messages,
    partial,
    partialReason: Number.isInteger(n)
      ? partial
        ? `The page starts at turn ${n}: earlier turns are not loaded.`
        : 'The page shows the conversation from its first turn.'
      : 'The page numbers no turns, so hidden earlier turns cannot be detected.',
  };
}
