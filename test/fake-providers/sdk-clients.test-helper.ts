/** The three real SDKs pointed at a running fake-provider server (retries off), for the tests. */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { FakeProviders } from './types';

/**
 * An Anthropic client for `fake` (default: its expected key). SDK 1.x sends the key as
 * `Authorization: Bearer`; N2 binds it to `x-api-key`, so the header is swapped here the same
 * way `lib/transports` does.
 */
export function anthropicClient(fake: FakeProviders, apiKey = fake.keys.anthropic): Anthropic {
  return new Anthropic({
    apiKey,
    baseURL: fake.url,
    maxRetries: 0,
    logLevel: 'off',
    defaultHeaders: { Authorization: null, 'x-api-key': apiKey },
  });
}

/** An OpenAI client for `fake` (default: its expected OpenAI key, base `/v1`). */
export function openaiClient(fake: FakeProviders, apiKey = fake.keys.openai, baseURL = fake.openaiBaseUrl): OpenAI {
  return new OpenAI({ apiKey, baseURL, organization: null, project: null, maxRetries: 0, logLevel: 'off' });
}

/** A Gemini client for `fake` (default: its expected key, `v1beta`). */
export function geminiClient(fake: FakeProviders, apiKey = fake.keys.google, apiVersion = 'v1beta'): GoogleGenAI {
  return new GoogleGenAI({ apiKey, httpOptions: { baseUrl: fake.url, apiVersion } });
}

/** A minimal valid Anthropic Messages body. */
export const ANTHROPIC_BODY = {
  model: 'claude-sonnet-4-6',
  max_tokens: 256,
  messages: [{ role: 'user' as const, content: 'Say hello.' }],
};
/** A minimal valid Chat Completions body. */
export const CHAT_BODY = { model: 'gpt-4.1-mini', messages: [{ role: 'user' as const, content: 'Say hello.' }] };
/** A minimal valid Responses body. */
export const RESPONSES_BODY = { model: 'gpt-5.5', input: [{ role: 'user' as const, content: 'Say hello.' }] };
/** Minimal valid Gemini contents. */
export const GEMINI_CONTENTS = [{ role: 'user', parts: [{ text: 'Say hello.' }] }];
