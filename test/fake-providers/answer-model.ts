/**
 * The neutral model of a scripted answer (reasoning, text chunks, function calls) that
 * `answers.ts` renders as each wire API's stream events and non-stream JSON.
 */
import type { ScriptedCall, TextReply, ThinkingReply, ToolCallReply } from './types';

/** A function call with its id settled. */
export interface AnswerCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** What the model "says", independent of the wire. */
export interface Answer {
  thinking?: { text: string; signature?: string };
  /** Text deltas in order (may be empty). */
  textChunks: string[];
  calls: AnswerCall[];
}

/** Facts about the request an answer echoes. */
export interface AnswerContext {
  model: string;
  /** A rough input token count (request bytes / 4). */
  inputTokens: number;
  /** Chat: `stream_options.include_usage` was set, so a usage chunk closes the stream. */
  includeUsage: boolean;
  /** A per-request counter for unique ids. */
  seq: number;
  /** Anthropic, under the thinking-binding beta: the answer's `input_transformations` (A-B5). */
  inputTransformations?: unknown[];
  /** Gemini Interactions: the interaction id, `v1_…` when stored, `""` when `store: false` (GI-P2). */
  interactionId?: string;
}

/** A rendered answer: the events of a stream and the equivalent non-stream body. */
export interface RenderedAnswer {
  events: unknown[];
  json: unknown;
}

/** Splits text into up to 4 deltas on word boundaries (never empty pieces). */
export function splitText(text: string): string[] {
  if (text.length === 0) return [];
  const words = text.match(/\S+\s*|\s+/g) ?? [text];
  const per = Math.max(1, Math.ceil(words.length / 4));
  const out: string[] = [];
  for (let i = 0; i < words.length; i += per) out.push(words.slice(i, i + per).join(''));
  return out;
}

/** The neutral answer of a scripted reply. `idPrefix` is the API's tool-call id style. */
export function toAnswer(
  reply: TextReply | ToolCallReply | ThinkingReply,
  defaultText: string,
  idPrefix: string,
  seq: number,
): Answer {
  const settle = (calls: ScriptedCall[] | undefined): AnswerCall[] =>
    (calls ?? []).map((c, i) => ({ id: c.id ?? `${idPrefix}fake${seq}x${i}`, name: c.name, arguments: c.arguments }));
  switch (reply.kind) {
    case 'text':
      return { textChunks: reply.chunks ?? splitText(reply.text ?? defaultText), calls: [] };
    case 'tool-call':
      return { textChunks: reply.text ? splitText(reply.text) : [], calls: settle(reply.calls) };
    case 'thinking':
      return {
        thinking: { text: reply.thinking, ...(reply.signature !== undefined ? { signature: reply.signature } : {}) },
        textChunks: reply.chunks ?? splitText(reply.text),
        calls: settle(reply.calls),
      };
  }
}

/** Output token count of an answer: one per chunk plus calls (the fake's own rough measure). */
export function outputTokens(answer: Answer): number {
  return answer.textChunks.length + answer.calls.length * 8 + (answer.thinking ? 4 : 0) || 1;
}
