/**
 * Content-level passes of the Gemini converter, run after every prepared turn is encoded:
 * empty contents removed and same-role neighbours merged (G-E1, G-R6), and Gemini 3's dummy
 * thought signature on every step's unsigned first call (G-K3, G-K4, X9).
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
 * Parts are never merged (G-K2). `out`: contents merged so far, appended to.
 */
export function mergeContents(drafts: DraftContent[], out: DraftContent[] = []): DraftContent[] {
  // `out` given: a fold resumed from its state (docs/architecture.md#incremental-conversion); its contents are never mutated.
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

/**
 * Gemini 3 (`thoughtSignatures: 'enforced'`) rejects a step of the current turn whose first
 * `functionCall` part has no `thoughtSignature` (G-K1, G-K3). This puts
 * {@link DUMMY_THOUGHT_SIGNATURE} on the first functionCall part of **every** model content whose
 * first call is unsigned (a sibling of `functionCall`, G-K1), never replacing a real signature,
 * and reports it (G-K4). Every step, not only the current turn's: whether a step is "current"
 * changes when a user message is appended, and the bytes of earlier contents must not (X9).
 * Returns new contents; the input parts (possibly the transcript's own native parts) are not mutated.
 */
export function addDummySignatures(contents: DraftContent[], report: ReportBuilder): DraftContent[] {
  return contents.map((c) => {
    if (c.role !== 'model') return c;
    const at = c.parts.findIndex((p) => p.functionCall !== undefined);
    const first = c.parts[at];
    if (!first || first.thoughtSignature !== undefined) return c;
    const parts: GeminiPart[] = [...c.parts];
    parts[at] = { ...first, thoughtSignature: DUMMY_THOUGHT_SIGNATURE };
    const name = first.functionCall?.name ?? '?';
    const ref = c.refs[at];
    report.synthesize(
      'dummy-signature',
      `${DUMMY_THOUGHT_SIGNATURE} on the unsigned call ${name}${ref ? ` (turn ${ref.turn})` : ''} (G-K4, X9)`,
    );
    report.add(
      ref,
      'converted',
      `dummy thoughtSignature ${DUMMY_THOUGHT_SIGNATURE} added: Gemini 3 requires one on the first call of each step (G-K1, G-K4)`,
    );
    return { ...c, parts };
  });
}
