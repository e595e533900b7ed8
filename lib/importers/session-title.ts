/**
 * Titles of imported agent sessions (docs/side-panel.md, item 8): the first sentence the person wrote, never
 * the markup agent CLIs wrap around commands and context (`<command-message>`, `<command-name>`,
 * `<system-reminder>`, `<environment_context>`…). Kept apart from `titleFrom` (common.ts), which
 * still does the final cut to a title's length.
 */
import { titleFrom } from './common';

/** Wrappers agent CLIs put into user messages; removed with their content (what the CLI wrote, not the person). */
const WRAPPERS = [
  'command-message',
  'command-name',
  'command-args',
  'command-contents',
  'local-command-stdout',
  'local-command-stderr',
  'bash-input',
  'bash-stdout',
  'bash-stderr',
  'system-reminder',
  'user-prompt-submit-hook',
  'environment_context',
  'user_instructions',
  'INSTRUCTIONS',
];
const WRAPPED = new RegExp(String.raw`<(${WRAPPERS.join('|')})(?:\s[^>]*)?>[\s\S]*?</\1\s*>`, 'g');
/** An opening or closing wrapper left without its pair (a cut-off message). */
const STRAY = new RegExp(String.raw`</?(?:${WRAPPERS.join('|')})(?:\s[^>]*)?>`, 'g');
/** Lines the CLI writes in the person's place. */
const NOT_TYPED = /^\s*\[Request interrupted by user[^\]]*\]\s*$/;

/** A user message's parts: the prose the person typed (first non-blank line) and the slash command, if any. */
export function humanParts(text: string): { prose?: string; command?: string } {
  const name = /<command-name>\s*([^<]*?)\s*<\/command-name>/.exec(text)?.[1];
  const args = /<command-args>\s*([^<]*?)\s*<\/command-args>/.exec(text)?.[1];
  const command = name ? `${name.startsWith('/') ? '' : '/'}${name}${args ? ` ${args}` : ''}` : undefined;
  const rest = text.replace(WRAPPED, '\n').replace(STRAY, '\n');
  const prose = rest
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !NOT_TYPED.test(l));
  return { ...(prose ? { prose } : {}), ...(command ? { command } : {}) };
}

/** The first sentence of a line: up to the first `.`, `!` or `?` followed by a space or the end, or the first `。`, `！`, `？`. */
export function firstSentence(line: string): string {
  const m = /^(.+?(?:[.!?](?=\s|$)|[。！？]))/u.exec(line);
  return (m?.[1] ?? line).trim();
}

/**
 * A session's title from its user messages in order (`meta`: written by the CLI for the person,
 * e.g. a slash command's expanded prompt): the first sentence the person typed; else the first slash
 * command, followed by the first sentence of the prompt it expanded to when there is one; else
 * undefined. Never markup.
 */
export function sessionTitle(messages: Iterable<{ text: string; meta?: boolean }>): string | undefined {
  let command: string | undefined;
  let expanded: string | undefined;
  for (const m of messages) {
    const parts = humanParts(m.text);
    if (!m.meta && parts.prose) return titleFrom(firstSentence(parts.prose));
    command ??= parts.command;
    if (m.meta && parts.prose) expanded ??= firstSentence(parts.prose);
  }
  if (command) return titleFrom(expanded ? `${command}: ${expanded}` : command);
  return expanded ? titleFrom(expanded) : undefined;
}

/** {@link sessionTitle} of one first user message (undefined → undefined). */
export function sessionTitleOf(text: string | undefined): string | undefined {
  return text === undefined ? undefined : sessionTitle([{ text }]);
}
