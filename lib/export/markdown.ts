/**
 * Markdown export of Baton transcripts (docs/architecture.md#the-background-by-feature, "Export"): readable, not lossless (the Baton
 * transcript JSON is the lossless export). Pure: transcripts in, text out.
 *
 * Layout: `# title`, a one-line italic header (source, creation time, how many other versions of
 * messages exist beside the active path it writes), the system prompt and the
 * offered tools if any, then one `## <who>` section per turn. Text blocks are kept as written
 * (assistant text is Markdown already); thinking, tool calls, tool results and provider items are
 * labelled sections with their content fenced (a fence longer than any backtick run inside, so
 * content can never close it); images and documents become labelled placeholders (no bytes).
 * Opaque provider state (signatures, `native`, redacted thinking data) is never written out.
 */
import type { Block, Transcript, Turn } from '../transcript/schema';
import { otherVersionCount } from '../transcript/versions';

/** A fenced block whose fence cannot be closed by its content (one backtick longer than its longest run, at least 3). */
export function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text.replace(/\n$/, '')}\n${f}`;
}

/** One line, for headings and labels: whitespace runs collapsed. */
function line(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Inline code whose delimiters cannot be closed by the content. */
function code(s: string): string {
  const v = line(s);
  const longest = Math.max(0, ...[...v.matchAll(/`+/g)].map((m) => m[0].length));
  const d = '`'.repeat(longest + 1);
  return longest ? `${d} ${v} ${d}` : `${d}${v}${d}`;
}

function json(v: unknown): string {
  return JSON.stringify(v, null, 2) ?? 'null';
}

/** Approximate decoded size of base64 data, in bytes. */
function base64Bytes(data: string): number {
  const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - pad);
}

function media(
  kind: 'Image' | 'Document',
  b: { mediaType: string; data?: string; url?: string; title?: string },
): string {
  const name = b.title ? `${line(b.title)}, ` : '';
  if (b.url) return `_[${kind}: ${name}${b.mediaType}, ${code(b.url)}]_`;
  return `_[${kind}: ${name}${b.mediaType}, ${base64Bytes(b.data ?? '')} bytes, not included in this export]_`;
}

function resultContent(content: Extract<Block, { type: 'tool_result' }>['content']): string {
  if (typeof content === 'string') return fenced(content, 'text');
  return content.map((c) => (c.type === 'text' ? fenced(c.text, 'text') : media('Image', c))).join('\n\n');
}

/** One block as Markdown, or undefined when it has nothing readable (an empty signed text part). */
export function blockToMarkdown(b: Block): string | undefined {
  switch (b.type) {
    case 'text':
      return b.text.trim() ? b.text : undefined;
    case 'thinking':
      return b.text.trim()
        ? `**Thinking**\n\n${fenced(b.text, 'text')}`
        : '**Thinking** _(no readable text; opaque to other providers)_';
    case 'redacted_thinking':
      return '**Thinking** _(redacted by the provider; not readable)_';
    case 'tool_call':
      return `**Tool call** ${code(b.name)} (id ${code(b.id)})\n\n${fenced(json(b.input), 'json')}`;
    case 'tool_result':
      return `**Tool result** for ${code(b.callId)}${b.isError ? ' (error)' : ''}\n\n${resultContent(b.content)}`;
    case 'image':
      return media('Image', b);
    case 'document':
      return media('Document', b);
    case 'provider_item':
      return b.text?.trim()
        ? `**Provider item** (${b.api})\n\n${fenced(b.text, 'text')}`
        : `_[Provider item (${b.api}) with no readable text]_`;
    default: {
      const _exhaustive: never = b;
      return _exhaustive;
    }
  }
}

/**
 * Names people gave to where answers came from (docs/side-panel.md: a custom endpoint is named by its name,
 * not by its internal id): `byEndpoint` keyed by an origin's `endpoint` (the base URL's origin),
 * `byProvider` by `origin.provider`. Unnamed origins keep their stored provider id.
 */
export interface OriginNames {
  byEndpoint?: Readonly<Record<string, string>>;
  byProvider?: Readonly<Record<string, string>>;
}

/** Who wrote a turn: `You`, `Tool`, or `Assistant · <model> (<provider or endpoint name>)`. */
export function turnHeading(turn: Turn, names?: OriginNames): string {
  if (turn.role === 'user') return 'You';
  if (turn.role === 'tool') return 'Tool';
  const o = turn.origin;
  if (!o) return 'Assistant';
  const who =
    (o.endpoint !== undefined ? names?.byEndpoint?.[o.endpoint] : undefined) ??
    names?.byProvider?.[o.provider] ??
    o.provider;
  return `Assistant · ${line(o.model)} (${line(who)})`;
}

/** One turn as a `## ` section: heading, blocks, then its status and error when not complete. */
export function turnToMarkdown(turn: Turn, names?: OriginNames): string {
  const parts = turn.blocks.map(blockToMarkdown).filter((s): s is string => s !== undefined);
  if (turn.status && turn.status !== 'complete') parts.push(`_(${turn.status})_`);
  if (turn.error) parts.push(`**Error** (${line(turn.error.type)}): ${line(turn.error.message)}`);
  if (!parts.length) parts.push('_(empty)_');
  return `## ${turnHeading(turn, names)}\n\n${parts.join('\n\n')}`;
}

/** One conversation as a Markdown document (ends with a newline). */
export function transcriptToMarkdown(t: Transcript, names?: OriginNames): string {
  const head: string[] = [`# ${line(t.title ?? '') || 'Conversation'}`];
  const others = otherVersionCount(t);
  const facts = [
    t.source
      ? `from ${t.source.kind}${t.source.id ? ` ${code(t.source.id)}` : ''}${t.source.url ? ` (${code(t.source.url)})` : ''}`
      : '',
    t.createdAt ? `created ${t.createdAt}` : '',
    `${t.turns.length} turn${t.turns.length === 1 ? '' : 's'}`,
    // docs/transcript.md#versions-and-branches: the active path only; say what else exists.
    others
      ? `the selected version of each message; ${others} other version${others === 1 ? '' : 's'} not shown (the Baton JSON export keeps them)`
      : '',
  ].filter(Boolean);
  head.push(`_${facts.join(' · ')}_`);
  // docs/side-panel.md#instructions: the conversation's instructions (its system prompt), as the side panel names them.
  if (t.system?.trim()) head.push(`**Instructions** (system prompt)\n\n${fenced(t.system, 'text')}`);
  if (t.tools?.length) head.push(`**Tools offered:** ${t.tools.map((x) => code(x.name)).join(', ')}`);
  return `${[...head, ...t.turns.map((turn) => turnToMarkdown(turn, names))].join('\n\n')}\n`;
}

/** Separator between conversations in a many-conversation export (a thematic break between blank lines). */
export const CONVERSATION_SEPARATOR = '\n---\n\n';

/** Several conversations as one Markdown file, separated by {@link CONVERSATION_SEPARATOR}. */
export function transcriptsToMarkdown(ts: readonly Transcript[], names?: OriginNames): string {
  return ts.map((t) => transcriptToMarkdown(t, names)).join(CONVERSATION_SEPARATOR);
}
