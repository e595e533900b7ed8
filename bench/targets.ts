/**
 * The five conversion targets of the benchmark: one model per wire API, the same for Baton and
 * for the peers, each known to Baton's registry and to pi-ai's. The anthropic target equals the
 * generated Anthropic origin's requested model, so those turns replay their signatures.
 */
import type { WireApi } from '../lib/transcript/schema';
import type { ConvertTarget } from '../lib/transcript/target';

export const BENCH_APIS: readonly WireApi[] = [
  'anthropic-messages',
  'openai-responses',
  'openai-chat',
  'gemini-generate-content',
  'gemini-interactions',
];

/** Output limit every candidate asks for (tokens), so no one pays for a registry lookup the others skip. */
const MAX_OUTPUT_TOKENS = 8192;

export const TARGETS: Readonly<Record<WireApi, ConvertTarget & { maxOutputTokens: number }>> = {
  'anthropic-messages': { api: 'anthropic-messages', model: 'claude-sonnet-4-5', maxOutputTokens: MAX_OUTPUT_TOKENS },
  'openai-responses': { api: 'openai-responses', model: 'gpt-5.1', maxOutputTokens: MAX_OUTPUT_TOKENS },
  'openai-chat': { api: 'openai-chat', model: 'gpt-4.1', maxOutputTokens: MAX_OUTPUT_TOKENS },
  'gemini-generate-content': {
    api: 'gemini-generate-content',
    model: 'gemini-2.5-pro',
    maxOutputTokens: MAX_OUTPUT_TOKENS,
  },
  'gemini-interactions': { api: 'gemini-interactions', model: 'gemini-2.5-pro', maxOutputTokens: MAX_OUTPUT_TOKENS },
};

/** Short labels for the table. */
export const API_LABEL: Readonly<Record<WireApi, string>> = {
  'anthropic-messages': 'anthropic',
  'openai-responses': 'responses',
  'openai-chat': 'chat',
  'gemini-generate-content': 'gemini',
  'gemini-interactions': 'interactions',
};

/** Chromium targets of bench/README.md ("Storage and rendering"), in ms or bytes. */
export const CHROMIUM_TARGETS = {
  /** Append one turn to a 10,000-turn conversation (median, ms). */
  appendMs: 5,
  /** Open a 10,000-turn conversation: load + first paint of the newest 50 turns (median, ms). */
  openMs: 150,
  /** Disclosure preview of a 10,000-turn conversation right after the worker started, counts stored (median, ms). */
  coldPreviewMs: 300,
  /** List 5,000 conversations (median, ms). */
  listMs: 100,
  /** Main-thread time per streamed chunk (median, ms). */
  chunkMs: 2,
  /** JS heap of the side panel with a 10,000-turn conversation open (bytes). */
  heapBytes: 150 * 1024 * 1024,
  /** Service worker cold start, seeded database: background.js evaluated (every listener registered), ms on the worker clock. */
  evaluatedMs: 50,
  /** Same: `batonReady` resolved (database open, recovery done). */
  readyMs: 100,
} as const;
