/**
 * How an assistant turn ended, as a distinct, labelled state a person understands
 * (security-requirements.md P4), read from `turn.stopReason`, `turn.meta.rawStopReason`,
 * `turn.status` and `turn.error`. Also covers the answers that would otherwise be an empty bubble.
 *
 * Raw values come from the readers in `lib/providers/*`: Gemini `finishReason` (`SAFETY`,
 * `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`, `IMAGE_*`, `MAX_TOKENS`, `OTHER`, …)
 * and `promptFeedback.blockReason` (stored as `error.message = "prompt blocked: <reason>"`);
 * OpenAI Chat `finish_reason` (`content_filter`, `length`); Responses `incomplete_details.reason`
 * (`max_output_tokens`, `content_filter`); Anthropic `stop_reason` (`refusal`, `max_tokens`,
 * `model_context_window_exceeded`, `pause_turn`).
 */
import type { Turn } from '../transcript/schema';

/** The distinct finish states (P4), plus `empty` for an answer with nothing to show. */
export type FinishKind =
  | 'prompt_blocked'
  | 'safety'
  | 'recitation'
  | 'blocklist'
  | 'prohibited'
  | 'spii'
  | 'content_filter'
  | 'refusal'
  | 'max_tokens'
  | 'context_window'
  | 'paused'
  | 'other'
  | 'empty';

export interface FinishState {
  kind: FinishKind;
  /** A short label, e.g. `prompt blocked: SAFETY`, `Cut off`. */
  label: string;
  /** What happened and what to do, in a sentence or two. */
  sentence: string;
  /** The provider's own value, when known. */
  raw?: string;
}

const PROMPT_BLOCKED = /^prompt blocked: ([A-Z_]+)/;

/** True when the turn has something to show (text, thinking, a tool call, an image…). */
export function hasVisibleContent(turn: Pick<Turn, 'blocks'>): boolean {
  return turn.blocks.some((b) => b.type !== 'text' || b.text.trim().length > 0);
}

function filtered(raw: string | undefined): FinishState {
  const r = raw ?? 'content_filter';
  const with_ = ` (${r})`;
  switch (r.replace(/^IMAGE_/, '')) {
    case 'SAFETY':
      return {
        kind: 'safety',
        label: 'Stopped by a safety filter',
        sentence: `The provider's content filter stopped this answer${with_}. Rephrase the request, or try another model.`,
        raw: r,
      };
    case 'RECITATION':
      return {
        kind: 'recitation',
        label: 'Stopped: recitation',
        sentence: `The provider stopped this answer because it was repeating existing text, such as copyrighted material${with_}. Ask for a summary or a different wording.`,
        raw: r,
      };
    case 'BLOCKLIST':
      return {
        kind: 'blocklist',
        label: 'Stopped: blocked term',
        sentence: `The provider stopped this answer because it contained a term on a block list${with_}.`,
        raw: r,
      };
    case 'PROHIBITED_CONTENT':
      return {
        kind: 'prohibited',
        label: 'Stopped: prohibited content',
        sentence: `The provider stopped this answer as prohibited content${with_}.`,
        raw: r,
      };
    case 'SPII':
      return {
        kind: 'spii',
        label: 'Stopped: personal information',
        sentence: `The provider stopped this answer because it could reveal sensitive personal information${with_}.`,
        raw: r,
      };
    default:
      return {
        kind: 'content_filter',
        label: 'Stopped by a content filter',
        sentence: `The provider's content filter stopped this answer${with_}. Rephrase the request, or try another model.`,
        raw: r,
      };
  }
}

/**
 * The turn's finish state, or undefined for a normal end (or a user/tool turn, or an answer still
 * streaming). Errors other than a blocked prompt are not finish states: `error-text.ts` names them.
 */
export function finishState(turn: Turn): FinishState | undefined {
  if (turn.role !== 'assistant') return undefined;
  const raw = typeof turn.meta?.rawStopReason === 'string' ? turn.meta.rawStopReason : undefined;
  const blocked = turn.error ? PROMPT_BLOCKED.exec(turn.error.message) : null;
  if (blocked) {
    // Gemini promptFeedback.blockReason (P4): the prompt itself was refused, there is no answer.
    return {
      kind: 'prompt_blocked',
      label: `prompt blocked: ${blocked[1]}`,
      sentence:
        'The provider refused the prompt itself, so there is no answer. Rephrase your last message, or send it to another provider.',
      raw: blocked[1]!,
    };
  }
  switch (turn.stopReason) {
    case 'content_filter':
      return filtered(raw);
    case 'refusal':
      return {
        kind: 'refusal',
        label: 'Declined',
        sentence: `The model declined to answer${raw ? ` (${raw})` : ''}. Rephrase the request, or try another model.`,
        ...(raw ? { raw } : {}),
      };
    case 'max_tokens':
      if (raw === 'model_context_window_exceeded')
        return {
          kind: 'context_window',
          label: 'Context window full',
          sentence: `The answer stopped because the conversation filled the model's context window (${raw}). Start a new chat, or pick a model with a larger window.`,
          raw,
        };
      return {
        kind: 'max_tokens',
        label: 'Cut off',
        sentence: `The answer was cut off: the model reached its output limit${raw ? ` (${raw})` : ''}. Ask it to continue.`,
        ...(raw ? { raw } : {}),
      };
    case 'pause_turn':
      return {
        kind: 'paused',
        label: 'Paused',
        sentence: `The provider paused this answer${raw ? ` (${raw})` : ''}. Send “continue” to let it go on.`,
        ...(raw ? { raw } : {}),
      };
    case 'other':
      if (raw) return { kind: 'other', label: 'Ended early', sentence: `The answer ended early (${raw}).`, raw };
      break;
    default:
      break;
  }
  if ((turn.status === undefined || turn.status === 'complete') && !hasVisibleContent(turn))
    return {
      kind: 'empty',
      label: 'Empty answer',
      sentence: 'The model returned an empty answer. Try again, or try another model.',
    };
  return undefined;
}
