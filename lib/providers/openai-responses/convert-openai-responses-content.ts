/**
 * Block helpers for the OpenAI Responses converter: user content parts (R-1, R-I1), tool results
 * and the entry list every item is built into before the request-level checks run.
 * Pure; provider-rules.md §3.
 */
import type { BlockRef, ReportBuilder } from '../../transcript/report';
import type { DocumentBlock, ImageBlock, ToolResultBlock } from '../../transcript/schema';
import { fenced, isBlank } from '../../transcript/text';
import type {
  AssistantMessageItem,
  FunctionCallOutputItem,
  InputFilePart,
  InputImagePart,
  InputTextPart,
  ResponsesInputItem,
  UserMessageItem,
} from './convert-openai-responses-types';

/** One input item on its way into the body, with the input blocks it stands for. */
export interface Entry {
  item: ResponsesInputItem;
  /** The input blocks this item carries (for fates recorded by later checks). */
  refs: BlockRef[];
  /** Index of the prepared turn it belongs to. */
  turn: number;
  /** Role of that turn: where a fallback text goes (assistant → assistant message, else user message). */
  role: 'user' | 'assistant' | 'tool';
  /** For replayed provider items: a readable rendering, sent instead when the item can't be replayed. */
  text?: string;
  /** For assistant messages rebuilt from text blocks: the message id they came from (`''` for none), to group parts of one message. */
  messageKey?: string;
  /** Why the item cannot be sent as it is: the request-level check sends `text` instead (or drops it) and reports this. */
  invalid?: string;
}

/** `input_text` part. */
export function inputText(text: string): InputTextPart {
  return { type: 'input_text', text };
}

/** R-I1: `input_image` with the URL as given, or a `data:` URL built from base64 `data`. */
export function inputImage(b: ImageBlock): InputImagePart {
  return { type: 'input_image', image_url: b.url ?? `data:${b.mediaType};base64,${b.data ?? ''}`, detail: 'auto' };
}

/**
 * `input_file` for a document the pre-pass let through (PDF on models with `pdf`): a `file_url`,
 * or `file_data` as a `data:` URL with a filename (the title, else `document.pdf`).
 */
export function inputFile(b: DocumentBlock): InputFilePart {
  if (b.url !== undefined) return { type: 'input_file', file_url: b.url };
  const filename =
    b.title && !isBlank(b.title) ? b.title : b.mediaType === 'application/pdf' ? 'document.pdf' : 'document';
  return { type: 'input_file', filename, file_data: `data:${b.mediaType};base64,${b.data ?? ''}` };
}

/** A user message item holding `parts`. */
export function userMessage(parts: UserMessageItem['content']): UserMessageItem {
  return { type: 'message', role: 'user', content: parts };
}

/** An assistant message item of one `output_text` part, without id (foreign or synthesised text). */
export function assistantText(text: string): AssistantMessageItem {
  return { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] };
}

/** The prefix that marks a failed tool result: Responses has no `is_error` (R-2; as C-T7). */
export const ERROR_PREFIX = 'Error:';

/** What an empty tool result is sent as: never an empty text (X4). */
export const EMPTY_OUTPUT = '(no output)';

/**
 * A `tool_result` (call id already mapped, X2) → `function_call_output`. The output is a
 * string, or — when the result holds images — a list of `input_text` / `input_image` parts.
 * Text parts of a result without images are joined with newlines; blank text parts are left out
 * and an empty result becomes {@link EMPTY_OUTPUT} (X4). A failure gets the `Error:` prefix
 * (R-2, C-T7). Every such change is reported against the block.
 */
export function functionCallOutput(
  b: ToolResultBlock,
  ref: BlockRef | undefined,
  report: ReportBuilder,
): FunctionCallOutputItem {
  // The usual result, a non-blank string of a call that did not fail, goes as it is.
  if (typeof b.content === 'string' && !b.isError && !isBlank(b.content))
    return { type: 'function_call_output', call_id: b.callId, output: b.content };
  const item = (output: FunctionCallOutputItem['output']): FunctionCallOutputItem => ({
    type: 'function_call_output',
    call_id: b.callId,
    output,
  });
  if (b.isError)
    report.add(
      ref,
      'converted',
      `failure marked with an "${ERROR_PREFIX}" prefix: Responses has no is_error (R-2, C-T7)`,
    );
  const prefix = (s: string): string => (b.isError ? (isBlank(s) ? ERROR_PREFIX : `${ERROR_PREFIX} ${s}`) : s);
  const text = (s: string): string => {
    if (!isBlank(prefix(s))) return prefix(s);
    report.add(ref, 'converted', `empty result sent as "${EMPTY_OUTPUT}" (X4)`);
    return EMPTY_OUTPUT;
  };
  if (typeof b.content === 'string') return item(text(b.content));
  const parts = b.content.filter((c) => c.type !== 'text' || !isBlank(c.text));
  if (parts.length < b.content.length) report.add(ref, 'converted', 'empty text parts of the result left out (X4)');
  if (!parts.some((c) => c.type === 'image'))
    return item(text(parts.map((c) => (c.type === 'text' ? c.text : '')).join('\n')));
  const out: (InputTextPart | InputImagePart)[] = parts.map((c) =>
    c.type === 'text' ? inputText(c.text) : inputImage(c),
  );
  if (b.isError) {
    const first = out[0];
    if (first?.type === 'input_text') out[0] = inputText(prefix(first.text));
    else out.unshift(inputText(ERROR_PREFIX));
  }
  return item(out);
}

/**
 * The item that stands in for a provider item that cannot be replayed: its readable text, fenced
 * and labelled, as an assistant message (assistant turns) or a user message (others); undefined
 * when there is no text to send.
 */
export function fallbackText(entry: Entry, type: string): ResponsesInputItem | undefined {
  if (entry.text === undefined || isBlank(entry.text)) return undefined;
  const text = fenced(`[openai-responses ${type} item, as text]`, entry.text);
  return entry.role === 'assistant' ? assistantText(text) : userMessage([inputText(text)]);
}
