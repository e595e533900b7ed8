/**
 * A conversation preview (the first text of its last turn, flattened to one line by the store)
 * without markdown syntax: the list shows "Where the trip stands The weather tool says Lisbon…",
 * not "## Where the trip stands … **Lisbon**…". Display only; the stored preview is unchanged.
 */

/**
 * `text` with markdown markers removed: headings (`#`–`######` before a space), images and links
 * (their words kept), bold/italic markers, inline code and fence backticks, a leading list or
 * quote marker, table pipes and separator rows. Words that merely contain `#`, `*` or `_`
 * (`C#`, `#12`, `snake_case`, `2 * 3`) are kept.
 */
export function plainPreview(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/```[\w+#.-]*/g, ' ')
    .replace(/`+([^`]+)`+/g, '$1')
    .replace(/(^|\s)#{1,6}(?=\s)/g, '$1')
    .replace(/\|?(?:\s*:?-{3,}:?\s*\|)+(?:\s*:?-{3,}:?\s*)?/g, ' ')
    .replace(/\s*\|\s*/g, ' ')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[\s(])([*_])(?=\S)([^*_]+?)(?<=\S)\2(?=[\s).,;:!?…]|$)/g, '$1$3')
    .replace(/^\s*(?:[-*+>]\s+)+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}
