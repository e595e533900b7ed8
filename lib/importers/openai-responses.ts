/** `openai-responses`: native Responses request bodies (`{instructions?, input, tools?, model?}`), read by `readOpenAIResponsesHistory`. */
import { readOpenAIResponsesHistory } from '../providers/openai-responses/read-openai-responses';
import { importNativeHistories } from './native-history';
import type { ImportOptions, ImportResult } from './types';

/**
 * Imports one body, a JSON array of bodies, or JSONL of bodies (see `importNativeHistories`).
 * Assistant turns keep the reader's origin (the usual provider of `openai-responses`, the body's model)
 * and `native` content, so same-origin replay stays lossless.
 * @throws TranscriptError when the text is neither JSON nor JSONL.
 */
export function importOpenAIResponses(text: string, opts: ImportOptions = {}): ImportResult {
  return importNativeHistories('openai-responses', readOpenAIResponsesHistory, text, opts);
}
