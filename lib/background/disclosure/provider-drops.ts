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
  if (api !== 'anthropic-messages') return undefined;
  const list = answer.meta?.inputTransformations;
  if (!Array.isArray(list)) return undefined;
  const dropped = list.filter((e): e is Rec => isRec(e) && e.type === 'thinking_dropped');
  if (dropped.length === 0) return undefined;
  const messages = isRec(body) && Array.isArray(body.messages) ? body.messages : [];
  const wanted = new Set<string>();
  const reasons: string[] = [];
  for (const e of dropped) {
    const reason = typeof e.reason === 'string' ? e.reason : 'unspecified';
    if (!reasons.includes(reason)) reasons.push(reason);
    const m = typeof e.path === 'string' ? PATH.exec(e.path) : null;
    const message: unknown = m ? messages[Number(m[1])] : undefined;
    const content = isRec(message) && Array.isArray(message.content) ? message.content : [];
    const key = m ? bodyKey(content[Number(m[2])]) : undefined;
    if (key) wanted.add(key);
  }
  const turns = transcript.turns
    .filter((t) => t.id !== answer.id && t.blocks.some((b) => wanted.has(blockKey(b) ?? '')))
    .map((t) => t.id);
  return { what: 'reasoning', blocks: dropped.length, turns, reasons };
}

function blockKey(b: Turn['blocks'][number]): string | undefined {
  if (b.type === 'thinking' && b.signature !== undefined) return `t\u0000${b.signature}`;
  if (b.type === 'redacted_thinking') return `r\u0000${b.data}`;
  return undefined;
}
