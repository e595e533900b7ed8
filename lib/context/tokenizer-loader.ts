/**
 * `gpt-tokenizer`'s `GptEncoding`, reached through a function so the extension build can defer the
 * library's module code to the first OpenAI count of a worker's life
 * (docs/architecture.md#the-service-workers-start-up): at load it compiles its pre-tokenisation
 * regular expressions (Unicode property classes) and builds its model tables, the largest part of
 * the worker's top level when it ran at every start. Node runs this file as it is; the extension
 * build replaces it (`scripts/lazy-modules.ts`) by a loader that holds the library in its body.
 */
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';

/** `gpt-tokenizer`'s `GptEncoding` class. */
export function loadGptEncoding(): typeof GptEncoding {
  return GptEncoding;
}
