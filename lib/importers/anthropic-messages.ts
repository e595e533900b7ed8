/** `anthropic-messages`: native Anthropic Messages request bodies (`{system?, messages, tools?, model?}`), read by `readAnthropicMessagesHistory`. */
import { readAnthropicMessagesHistory } from '../providers/anthropic-messages/read-anthropic-messages';
import { importNativeHistories } from './native-history';
import type { ImportOptions, ImportResult } from './types';

/**
 * Imports one body, a JSON array of bodies, or JSONL of bodies (see `importNativeHistories`).
 * Assistant turns keep the reader's origin (the usual provider of `anthropic-messages`, the body's model)
 * and `native` content, so same-origin replay stays lossless.
 * @throws TranscriptError when the text is neither JSON nor JSONL.
 */
export function importAnthropicMessages(text: string, opts: ImportOptions = {}): ImportResult {
  return importNativeHistories('anthropic-messages', readAnthropicMessagesHistory, text, opts);
}
