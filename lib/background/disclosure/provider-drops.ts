/**
 * What a provider reported it dropped from one request, for the ledger record of that send
 * (docs/disclosure.md, "What the provider dropped"). Pure.
 *
 * Anthropic: under the thinking-binding beta every answer lists in `input_transformations` the
 * thinking blocks the API left out of the request, each as a `thinking_dropped` entry with the path
 * `messages.i.content.j` into the request body and a reason (A-B3, A-B5); the reader keeps that list
 * in the answer's `meta.inputTransformations`. The body sent is at hand, so each path is looked up
 * in it and the block found there is matched to the transcript turn it came from by its signature
 * (or, for `redacted_thinking`, its data), which the converter copies unchanged.
 *
 * OpenAI drops reasoning items silently after a prefix edit (R-K7) and reports nothing in the
 * answer or its usage that names them, so nothing is recorded for it.
 */
import type { ProviderDrop } from '../../messaging/disclosure-types';
import type { Transcript, Turn } from '../../transcript/schema';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

const PATH = /^messages\.(\d+)\.content\.(\d+)$/;

/** The opaque value that identifies a thinking block in a request body and in the transcript. */
function bodyKey(block: unknown): string | undefined {
  if (!isRec(block)) return undefined;
  if (block.type === 'thinking' && typeof block.signature === 'string') return `t\u0000${block.signature}`;
  if (block.type === 'redacted_thinking' && typeof block.data === 'string') return `r\u0000${block.data}`;
  return undefined;
}

/** A thinking block of the transcript the provider reported it dropped (A-B5), placed exactly. */
export interface DroppedThinkingRef {
  /** The transcript turn that holds the block. */
  turn: string;
  /** The block's index in that turn. */
  index: number;
  /** The provider's reason code (`unspecified` when it gave none). */
  reason: string;
}

/**
 * The thinking blocks of `transcript` that the provider reported it dropped from the request
 * `body` (A-B5), each placed by looking its path up in the body sent and matching the block found
 * there to the transcript by signature (or `redacted_thinking` data). Unlike a path, a placed block
 * stays right whatever turns the person left out of that send, so the converter can keep it out of
 * every later request (stored on the answer as `meta.droppedThinking`).
 * @returns the placed blocks, in transcript order; empty when the provider reported none or the
 *   API reports no drops.
 */
export function droppedThinkingRefs(
  api: string,
  body: unknown,
  transcript: Transcript,
  answer: Turn,
): DroppedThinkingRef[] {
  const { wanted } = reportedDrops(api, body, answer);
  const refs: DroppedThinkingRef[] = [];
  for (const t of transcript.turns) {
    if (t.id === answer.id) continue;
    t.blocks.forEach((b, index) => {
      const reason = wanted.get(blockKey(b) ?? '');
      if (reason !== undefined) refs.push({ turn: t.id, index, reason });
    });
  }
  return refs;
}

/** The `thinking_dropped` entries of an answer, and the body blocks they name by key → reason. */
function reportedDrops(api: string, body: unknown, answer: Turn): { dropped: Rec[]; wanted: Map<string, string> } {
  const wanted = new Map<string, string>();
  if (api !== 'anthropic-messages') return { dropped: [], wanted };
  const list = answer.meta?.inputTransformations;
  if (!Array.isArray(list)) return { dropped: [], wanted };
  const dropped = list.filter((e): e is Rec => isRec(e) && e.type === 'thinking_dropped');
  const messages = isRec(body) && Array.isArray(body.messages) ? body.messages : [];
  for (const e of dropped) {
    const reason = typeof e.reason === 'string' ? e.reason : 'unspecified';
    const m = typeof e.path === 'string' ? PATH.exec(e.path) : null;
    const message: unknown = m ? messages[Number(m[1])] : undefined;
    const content = isRec(message) && Array.isArray(message.content) ? message.content : [];
    const key = m ? bodyKey(content[Number(m[2])]) : undefined;
    if (key) wanted.set(key, reason);
  }
  return { dropped, wanted };
}

/**
 * The drop the provider reported for the request `body` that produced `answer`, or undefined when it
 * reported none.
 * @param api the request's API (`anthropic-messages` is the only one that reports drops).
 * @param body the exact JSON body sent.
 * @param transcript the transcript planned for the send (the turns the body was made from).
 * @param answer the answer turn, with the reader's `meta.inputTransformations` (A-B5).
 * @returns the block count (every `thinking_dropped` entry), the turns Baton could place (a path
 *   that names no thinking block of the body, or a block no turn holds, still counts as a block),
 *   and the provider's reason codes.
 */
export function providerDropOf(
  api: string,
  body: unknown,
  transcript: Transcript,
  answer: Turn,
): ProviderDrop | undefined {
  const { dropped } = reportedDrops(api, body, answer);
  if (dropped.length === 0) return undefined;
  const reasons: string[] = [];
  for (const e of dropped) {
    const reason = typeof e.reason === 'string' ? e.reason : 'unspecified';
    if (!reasons.includes(reason)) reasons.push(reason);
  }
  const turns = [...new Set(droppedThinkingRefs(api, body, transcript, answer).map((r) => r.turn))];
  return { what: 'reasoning', blocks: dropped.length, turns, reasons };
}

function blockKey(b: Turn['blocks'][number]): string | undefined {
  if (b.type === 'thinking' && b.signature !== undefined) return `t\u0000${b.signature}`;
  if (b.type === 'redacted_thinking') return `r\u0000${b.data}`;
  return undefined;
}
