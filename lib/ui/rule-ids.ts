/**
 * Internal rule ids ("(A-K1)", "(X4, A-E1)", "(I3)") in text shown to people (docs/side-panel.md, item 8).
 * The ids name rules of docs/provider-rules.md and docs/security.md: useful in
 * code, logs and the request view's details, noise in a sentence a person reads. Converters and
 * the background keep writing them; the pages remove them where they show such text.
 */

/** One rule id: `X4`, `A-K1`, `R-K6`, `C-T6`, `G-I3`, `M-3`, `V-G1`, `I3`, `N1`, `A-T9b`. */
const ID = String.raw`(?:[A-Z]{1,2}-[A-Z]{0,2}\d+[a-z]?|[A-Z]\d+[a-z]?)`;
/** A parenthesised list made only of rule ids, with the space before it. */
const LIST = new RegExp(String.raw`\s*\(${ID}(?:\s*,\s*${ID})*\)`, 'g');

/** `text` without parenthesised rule-id lists: "empty text (X4, A-E1)" → "empty text". Other parentheses stay. */
export function withoutRuleIds(text: string): string {
  return text.replace(LIST, '');
}
