/** `gemini-generate-content`: native Gemini generateContent request bodies (`{systemInstruction?, contents, tools?, model?}`), read by `readGeminiGenerateContentHistory`. */
import { readGeminiGenerateContentHistory } from '../providers/gemini-generate-content/read-gemini-generate-content';
import { importNativeHistories } from './native-history';
import type { ImportOptions, ImportResult } from './types';

/**
 * Imports one body, a JSON array of bodies, or JSONL of bodies (see `importNativeHistories`).
 * Assistant turns keep the reader's origin (the usual provider of `gemini-generate-content`, the body's model)
 * and `native` content, so same-origin replay stays lossless.
 * @throws TranscriptError when the text is neither JSON nor JSONL.
 */
export function importGeminiGenerateContent(text: string, opts: ImportOptions = {}): ImportResult {
  return importNativeHistories('gemini-generate-content', readGeminiGenerateContentHistory, text, opts);
}
