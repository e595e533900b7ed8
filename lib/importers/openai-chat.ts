/** `openai-chat`: native Chat Completions request bodies (`{messages, tools?, model?}`), read by `readOpenAIChatHistory`. */
import { readOpenAIChatHistory } from '../providers/openai-chat/read-openai-chat';
import { importNativeHistories } from './native-history';
import type { ImportOptions, ImportResult } from './types';

/**
 * Imports one body, a JSON array of bodies, or JSONL of bodies (see `importNativeHistories`).
 * Assistant turns keep the reader's origin (the usual provider of `openai-chat`, the body's model)
 * and `native` content, so same-origin replay stays lossless.
 * @throws TranscriptError when the text is neither JSON nor JSONL.
 */
export function importOpenAIChat(text: string, opts: ImportOptions = {}): ImportResult {
  return importNativeHistories('openai-chat', readOpenAIChatHistory, text, opts);
}
