/**
 * The whitespace normalisation shared by the page readers (docs/side-panel.md#add-this-page): a
 * page's reader text (read-page.ts) and a PDF's text layer (pdf-text.ts) are both full of layout
 * whitespace. Its own module so the PDF reader (side panel) does not pull in Readability, which
 * only the injected page reader bundles.
 */

/**
 * Line endings become `\n`; on every line, runs of spaces, tabs and no-break spaces become one
 * space and the ends are trimmed; three or more line breaks become one blank line; the whole is
 * trimmed. Pure; never throws.
 */
export function normaliseText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
