/**
 * claude.ai chat pages (`/chat/<id>`): a person's messages are `[data-testid="user-message"]`,
 * answers `.font-claude-response` (older pages: `.font-user-message` / `.font-claude-message`).
 * An answer's text is in its `.standard-markdown` / `.progressive-markdown` blocks; tool-use
 * status lines ("Created a file…") are left out; an artifact card becomes a labelled line (its
 * content is not on the page). The page numbers nothing, so partial loading cannot be detected.
 */
import { readParts } from './dom-markdown';
import type { CapturedConversation, CapturedMessage, CapturedPart } from './types';

const USER = '[data-testid="user-message"], .font-user-message';
const ASSISTANT = '.font-claude-response, .font-claude-message';
const CONTENT = '.standard-markdown, .progressive-markdown, .artifact-block-cell';

function artifactLabel(card: Element): string {
  const lines = Array.from(card.querySelectorAll('.leading-tight, .text-xs'))
    .map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  const [title, kind] = lines.length ? lines : [(card.textContent ?? '').replace(/\s+/g, ' ').trim()];
  return `[Artifact: ${title || 'untitled'}${kind ? ` (${kind})` : ''}; its content is not on the page and was not captured]`;
}

function assistantParts(el: Element, baseUrl: string): CapturedPart[] {
  const blocks = Array.from(el.querySelectorAll(CONTENT)).filter((b) => !b.parentElement?.closest(CONTENT));
  if (!blocks.length) return readParts(el, { baseUrl });
  const parts: CapturedPart[] = [];
  for (const b of blocks) {
    if (b.matches('.artifact-block-cell')) parts.push({ type: 'text', text: artifactLabel(b) });
    else parts.push(...readParts(b, { baseUrl }));
  }
  // Adjacent text parts join into one, as on the page.
  return parts.reduce<CapturedPart[]>((acc, p) => {
    const last = acc[acc.length - 1];
    if (last?.type === 'text' && p.type === 'text')
      acc[acc.length - 1] = { type: 'text', text: `${last.text}\n\n${p.text}` };
    else acc.push(p);
    return acc;
  }, []);
}

/** Reads a claude.ai page. */
export function readClaude(doc: Document, url: string): CapturedConversation {
  const messages: CapturedMessage[] = [];
  for (const el of Array.from(doc.querySelectorAll(`${USER}, ${ASSISTANT}`))) {
    if (el.parentElement?.closest(`${USER}, ${ASSISTANT}`)) continue;
    const role = el.matches(USER) ? 'user' : 'assistant';
    const parts = role === 'user' ? readParts(el, { baseUrl: url }) : assistantParts(el, url);
    if (parts.length) messages.push({ role, parts });
  }
  const title = (
    doc.querySelector('[data-testid="chat-title-button"]')?.textContent ??
    doc.title.replace(/\s*[-|]\s*Claude\s*$/i, '')
  )
    .replace(/\s+/g, ' ')
    .trim();
  return {
    site: 'claude',
    url,
    ...(title && title !== 'Claude' ? { title } : {}),
    messages,
    partial: false,
    partialReason: 'claude.ai shows no marker of turns it has not loaded, so a partial page cannot be detected.',
  };
}
