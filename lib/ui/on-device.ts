/**
 * Chrome's built-in model through the Prompt API (`LanguageModel`), which extension pages can
 * use but the service worker cannot: the side panel runs on-device answers itself, with the
 * conversation converted by the background (`startOnDevice`). Nothing leaves the device.
 * (https://developer.chrome.com/docs/ai/prompt-api)
 */
import type { OnDeviceStart, ProviderStatus } from '../messaging/protocol';

/** The picker's id for the on-device provider (not a stored provider: it needs no key). */
export const ON_DEVICE_ID = 'on-device';
export const ON_DEVICE_MODEL = 'gemini-nano';

/** `LanguageModel.availability()` results. */
export type OnDeviceAvailability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

/** The part of a Prompt API session Baton uses. */
export interface PromptSession {
  promptStreaming(input: string, options?: { signal?: AbortSignal }): AsyncIterable<string> | ReadableStream<string>;
  destroy?(): void;
}

/** The part of the `LanguageModel` global Baton uses. */
export interface PromptApi {
  availability(options?: unknown): Promise<string>;
  create(options: {
    initialPrompts?: OnDeviceStart['body']['initialPrompts'];
    signal?: AbortSignal;
    expectedInputs?: unknown;
    expectedOutputs?: unknown;
  }): Promise<PromptSession>;
}

/** Output languages the Prompt API accepts today (Chrome asks for one to be named). */
export const ON_DEVICE_LANGUAGES: readonly string[] = ['en', 'de', 'es', 'fr', 'ja'];

/** The person's first browser language the model supports, else English. */
export function onDeviceLanguage(
  languages: readonly string[] = (globalThis as { navigator?: { languages?: readonly string[] } }).navigator
    ?.languages ?? [],
): string {
  for (const l of languages) {
    const base = l.toLowerCase().split('-')[0]!;
    if (ON_DEVICE_LANGUAGES.includes(base)) return base;
  }
  return 'en';
}

function textIo() {
  const languages = [onDeviceLanguage()];
  return { expectedInputs: [{ type: 'text', languages }], expectedOutputs: [{ type: 'text', languages }] };
}

/** The page's `LanguageModel`, or undefined where the Prompt API is missing. */
export function promptApi(scope: object = globalThis): PromptApi | undefined {
  const lm = (scope as { LanguageModel?: unknown }).LanguageModel;
  return lm && typeof (lm as PromptApi).availability === 'function' && typeof (lm as PromptApi).create === 'function'
    ? (lm as PromptApi)
    : undefined;
}

/** Whether the on-device model can be used (`unavailable` when the API is missing or fails). */
export async function onDeviceAvailability(api: PromptApi | undefined = promptApi()): Promise<OnDeviceAvailability> {
  if (!api) return 'unavailable';
  try {
    const a = await api.availability(textIo());
    return a === 'available' || a === 'downloadable' || a === 'downloading' ? a : 'unavailable';
  } catch {
    return 'unavailable';
  }
}

/** True when the picker should offer the on-device provider. */
export function onDeviceUsable(a: OnDeviceAvailability | undefined): boolean {
  return a === 'available' || a === 'downloadable' || a === 'downloading';
}

/**
 * The picker entry. `api` is required by `ProviderStatus` but means nothing here (on-device
 * answers never go through a wire API); the model is fixed.
 */
export const ON_DEVICE_PROVIDER: ProviderStatus = {
  id: ON_DEVICE_ID,
  name: 'On-device (no key)',
  api: 'openai-chat',
  hasKey: true,
  defaultModel: ON_DEVICE_MODEL,
};

/**
 * Adds a streamed chunk. Current Chrome streams deltas; early versions streamed the whole text so
 * far, so a chunk that repeats the text already received replaces it.
 */
export function appendChunk(acc: string, chunk: string): string {
  return acc && chunk.length >= acc.length && chunk.startsWith(acc) ? chunk : acc + chunk;
}

async function* chunksOf(stream: AsyncIterable<string> | ReadableStream<string>): AsyncIterable<string> {
  if (Symbol.asyncIterator in stream) {
    yield* stream as AsyncIterable<string>;
    return;
  }
  const reader = (stream as ReadableStream<string>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Runs one on-device answer: a session with the history, then the prompt, streamed. `onText` gets
 * the whole text so far after each chunk. Resolves with the full text.
 * @throws whatever the Prompt API throws (an `AbortError` when `signal` aborts).
 */
export async function streamOnDevice(
  api: PromptApi,
  body: OnDeviceStart['body'],
  onText: (text: string) => void,
  signal: AbortSignal,
): Promise<string> {
  const session = await api.create({ initialPrompts: body.initialPrompts, signal, ...textIo() });
  try {
    let text = '';
    for await (const chunk of chunksOf(session.promptStreaming(body.prompt, { signal }))) {
      text = appendChunk(text, chunk);
      onText(text);
    }
    return text;
  } finally {
    session.destroy?.();
  }
}
