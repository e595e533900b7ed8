/**
 * Turns and conversations as Markdown, for "Copy message" and "Copy conversation". Text blocks are
 * kept as written (assistant text is Markdown already); other blocks become short labelled
 * sections, and code is fenced with a fence longer than any backtick run inside it.
 */
import type { ProviderStatus } from '../messaging/protocol';
import type { Block, Turn } from '../transcript/schema';
import { originLabel } from './turns';

/** A fenced block whose fence cannot be closed by the content. */
export function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text.replace(/\n$/, '')}\n${f}`;
}

function json(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}

function blockMarkdown(b: Block): string | undefined {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'thinking':
    case 'redacted_thinking':
      return undefined;
    case 'tool_call':
      return `**Tool call: ${b.name}**\n\n${fence(json(b.input), 'json')}`;
    case 'tool_result': {
      const body =
        typeof b.content === 'string'
          ? b.content
          : b.content
              .map((c) => (c.type === 'text' ? c.text : c.url ? `[Image: ${c.url}]` : `[Image: ${c.mediaType}]`))
              .join('\n');
      return `**Tool result${b.isError ? ' (error)' : ''} for ${b.callId}**\n\n${fence(body)}`;
    }
    case 'image':
      return b.url ? `[Image: ${b.url}]` : `[Image attached: ${b.mediaType}]`;
    case 'document':
      return b.url ? `[Document: ${b.url}]` : `[Document attached: ${b.title ?? b.mediaType}]`;
    case 'provider_item':
      return b.text ? `**Provider item (${b.api})**\n\n${fence(b.text)}` : undefined;
    default: {
      const _exhaustive: never = b;
      return _exhaustive;
    }
  }
}

/** One turn's content as Markdown (what "Copy" on a message puts on the clipboard). */
export function turnMarkdown(turn: Turn): string {
  return turn.blocks
    .map(blockMarkdown)
    .filter((s): s is string => s !== undefined && s.trim() !== '')
    .join('\n\n');
}

const ROLE: Record<Turn['role'], string> = { user: 'You', assistant: 'Assistant', tool: 'Tool' };

/**
 * The whole conversation as Markdown: a title, its `instructions` (the transcript `system`) when
 * it has any, labelled as the export labels them (lib/export/markdown.ts), then one section per
 * turn naming who wrote it.
 */
export function conversationMarkdown(
  title: string,
  turns: readonly Turn[],
  providers: readonly ProviderStatus[] = [],
  instructions = '',
): string {
  const parts = [`# ${title.replace(/\s+/g, ' ').trim() || 'Conversation'}`];
  // docs/side-panel.md#instructions: what every answer was asked under belongs with the answers.
  if (instructions.trim()) parts.push(`**Instructions** (system prompt)\n\n${fence(instructions, 'text')}`);
  for (const t of turns) {
    const who =
      t.role === 'assistant' && t.origin ? `${ROLE[t.role]} (${originLabel(t.origin, providers)})` : ROLE[t.role];
    const body = turnMarkdown(t);
    const status = t.status && t.status !== 'complete' ? `\n\n_(${t.status})_` : '';
    parts.push(`## ${who}\n\n${body || '_(no text)_'}${status}`);
  }
  return `${parts.join('\n\n')}\n`;
}
