/**
 * Content-level passes of the Gemini converter, run after every prepared turn is encoded:
 * empty contents removed and same-role neighbours merged (G-E1, G-R6), and Gemini 3's dummy
 * thought signature on the current turn's unsigned calls (G-K3, G-K4).
 */
import type { BlockRef, ReportBuilder } from '../../transcript/report';
import type { GeminiContent, GeminiPart } from './convert-to-gemini-generate-content-types';

/**
 * The documented dummy signature for calls Gemini did not sign (history from another model, or
 * calls made up by the client): accepted by the Gemini API and Vertex (G-K4, V-G1).
 * https://ai.google.dev/gemini-api/docs/thought-signatures (FAQ).
 */
export const DUMMY_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/** A content being built, with the input block each part stands for (parallel to `parts`). */
export interface DraftContent extends GeminiContent {
  refs: (BlockRef | undefined)[];
}

/**
 * Drops contents left without parts (G-E1: "contents.parts must not be empty") and merges
 * consecutive same-role contents (G-R6). This is how a function-response content and the user
 * content after it become one `user` content, function responses first, so roles alternate.
 * Parts are never merged (G-K2).
 */
export function mergeContents(drafts: DraftContent[]): DraftContent[] {
  const out: DraftContent[] = [];
  let owned = false; // the last content of `out` is a merge made here, whose arrays may be appended to
  for (const d of drafts) {
    if (d.parts.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === d.role) {
      if (owned) {
        for (const p of d.parts) last.parts.push(p);
        for (const r of d.refs) last.refs.push(r);
      } else {
        out[out.length - 1] = { role: d.role, parts: last.parts.concat(d.parts), refs: last.refs.concat(d.refs) };
        owned = true;
      }
    } else {
      out.push(d);
      owned = false;
    }
  }
  return out;
}

/** True for a user content holding text of the user's (not only function responses): it starts a new turn (G-K3). */
function isUserText(c: GeminiContent): boolean {
  return c.role === 'user' && c.parts.some((p) => typeof p.text === 'string' && p.thought !== true);
}

/**
 * Gemini 3 (`thoughtSignatures: 'enforced'`) rejects a step of the current turn whose first
 * `functionCall` part has no `thoughtSignature` (G-K1). The current turn is every model content
 * after the last user content holding text (G-K3). On each of its model contents whose first
 * functionCall part is unsigned, this puts {@link DUMMY_THOUGHT_SIGNATURE} on that part (a
 * sibling of `functionCall`, G-K1), never replacing a real signature, and reports it (G-K4).
 * Returns new contents; the input parts (possibly the transcript's own native parts) are not mutated.
 */
export function addDummySignatures(contents: DraftContent[], report: ReportBuilder): DraftContent[] {
  let start = 0;
  for (let i = contents.length - 1; i >= 0; i--)
    if (isUserText(contents[i]!)) {
      start = i + 1;
      break;
    }
  return contents.map((c, i) => {
    if (i < start || c.role !== 'model') return c;
    const at = c.parts.findIndex((p) => p.functionCall !== undefined);
    const first = c.parts[at];
    if (!first || first.thoughtSignature !== undefined) return c;
    const parts: GeminiPart[] = [...c.parts];
    parts[at] = { ...first, thoughtSignature: DUMMY_THOUGHT_SIGNATURE };
    const name = first.functionCall?.name ?? '?';
    const ref = c.refs[at];
    report.synthesize('dummy-signature', `${DUMMY_THOUGHT_SIGNATURE} on the unsigned call ${name}${ref ? ` (turn ${ref.turn})` : ''} of the current turn (G-K4)`);
    report.add(ref, 'converted', `dummy thoughtSignature ${DUMMY_THOUGHT_SIGNATURE} added: Gemini 3 requires one on the first call of each step (G-K1, G-K4)`);
    return { ...c, parts };
  });
}
