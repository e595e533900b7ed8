/**
 * The provider SDKs' constructors, reached through functions so a build can defer the SDKs'
 * module code to the first call (docs/architecture.md#the-service-workers-start-up).
 *
 * This file is what Node (CLI, tests, bench) runs: plain imports, evaluated with the module. The
 * extension build replaces it (`scripts/lazy-modules.ts`) with a module that defines the same three
 * functions, each holding its SDK bundled into the function body: the worker's top level then only
 * defines them, and an SDK's module code runs once, on the first send, model list or count that
 * needs it. The service worker cannot `import()`, so this is how the worker loads an SDK on demand.
 * Callers use only these functions; types come from `import type`. The Chromium build goes further:
 * each SDK is a script of its own, imported at install by {@link keepSdkScripts} and again on first
 * use in later lives of the worker.
 */
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { AnthropicClient } from './anthropic-client';

/** The `openai` SDK's client class (Responses and Chat Completions). */
export function loadOpenAI(): typeof OpenAI {
  return OpenAI;
}

/** Baton's `@anthropic-ai/sdk` client class: the SDK's base client with only the resources Baton calls. */
export function loadAnthropic(): typeof AnthropicClient {
  return AnthropicClient;
}

/** The `@google/genai` client class. */
export function loadGemini(): typeof GoogleGenAI {
  return GoogleGenAI;
}

/**
 * Called once at the worker's top level, after its listeners are registered. Here (Node) and in the
 * Firefox build it does nothing; the Chromium build replaces it with one that imports the SDKs'
 * scripts while the worker is evaluated for installation, so that Chromium lets the loaders import
 * them again on demand later (scripts/lazy-modules.ts).
 */
export function keepSdkScripts(): void {}
