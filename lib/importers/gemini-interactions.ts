/** `gemini-interactions`: native Gemini Interactions request bodies (`{model?, input, system_instruction?, tools?}`), read by `readGeminiInteractionsHistory`. */
import { readGeminiInteractionsHistory } from '../providers/gemini-interactions/read-gemini-interactions';
import { importNativeHistories } from './native-history';
import type { ImportOptions, ImportResult } from './types';

/**
 * Imports one body, a JSON array of bodies, or JSONL of bodies (see `importNativeHistories`).
 * Assistant turns keep the reader's origin (`google`, `gemini-interactions`, the body's model) and
 * their steps as `native`, so same-origin replay stays lossless.
 * @throws TranscriptError when the text is neither JSON nor JSONL.
 */
export function importGeminiInteractions(text: string, opts: ImportOptions = {}): ImportResult {
  return importNativeHistories('gemini-interactions', readGeminiInteractionsHistory, text, opts);
}
