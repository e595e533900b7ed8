/**
 * Google Gemini models. Sources (stored copies, late 2026):
 * - https://ai.google.dev/gemini-api/docs/models (input limit 1,048,576, output 65,536 for 2.5
 *   and 3.x; 8,192 output for 2.0 Flash) and https://ai.google.dev/gemini-api/docs/pricing
 *   (Pro tiers: prompts over 200K tokens cost more; Gemini 3.8 Flash introductory price
 *   through 2026-12-31, $1.50/$7.50 from 2027)
 * - https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/guides/gemini-3-5-flash
 *   (thinking levels of 3.5 Flash, 3.1 Pro, 3.1 Flash-Lite)
 * - models.dev `providers/google/models/*.toml`.
 * Gemini 3.x: `thoughtSignature` is mandatory on function calls (provider-rules.md G-K1) and
 * images may travel in `functionResponse.parts` (G-I3); thinking is set by `thinkingLevel`
 * and cannot be switched off. Gemini 2.5: signatures optional, `thinkingBudget`; Flash and
 * Flash-Lite accept `thinkingBudget: 0`, 2.5 Pro does not.
 */
import { google, type ModelSpec } from './define';
import type { ModelInfo, ModelPrice } from '../types';

const WINDOW = 1_048_576;
const OUT = 65_536;

function p(input: number, output: number, cacheRead: number): ModelPrice {
  return { inputPerMTok: input, outputPerMTok: output, cacheReadPerMTok: cacheRead };
}

/** A Gemini 3.x model (G-K1 enforced signatures, G-I3 function-response parts). */
/**
 * The models listed here were launched on `generateContent` and are served by both APIs: a
 * conversation keeps `generateContent` unless the person picks Interactions in the panel. Models
 * added from now on leave `apis` out (Interactions first, `apisForProvider`).
 */
const BOTH_APIS = ['gemini-generate-content', 'gemini-interactions'] as const;

function gemini3(s: Omit<ModelSpec, 'contextWindow' | 'maxOutputTokens'>): ModelInfo {
  return google({
    apis: BOTH_APIS,
    contextWindow: WINDOW,
    maxOutputTokens: OUT,
    thinking: 'level',
    thinkingAlwaysOn: true,
    thoughtSignatures: 'enforced',
    functionResponseParts: true,
    canDisableThinking: false,
    ...s,
  });
}

/** A Gemini 2.5 model (optional signatures, `thinkingBudget`). */
function gemini25(
  s: Omit<ModelSpec, 'contextWindow' | 'maxOutputTokens'> & { canDisableThinking: boolean },
): ModelInfo {
  return google({
    apis: BOTH_APIS,
    contextWindow: WINDOW,
    maxOutputTokens: OUT,
    thinking: 'budget',
    thoughtSignatures: 'optional',
    ...(s.canDisableThinking ? {} : { thinkingAlwaysOn: true }),
    ...s,
  });
}

/**
 * G-G1: Gemini 3.5+ Flash takes `thinkingLevel` from MINIMAL up (never `thinkingBudget`); Vertex
 * Flash and the Pro models reject MINIMAL ("Thinking level is unsupported: THINKING_LEVEL_MINIMAL").
 */
const FLASH_LEVELS = ['MINIMAL', 'LOW', 'MEDIUM', 'HIGH'] as const;

const PRO_TIER = { thresholdInputTokens: 200_000, inputPerMTok: 4, outputPerMTok: 18, cacheReadPerMTok: 0.4 };

/** Google's entries; built on the registry's first lookup, not when the worker starts (docs/architecture.md#the-service-workers-start-up). */
export const googleModels = (): readonly ModelInfo[] => [
  gemini3({
    id: 'gemini-3.8-flash',
    name: 'Gemini 3.8 Flash',
    price: p(0.75, 3.75, 0.075),
    thinkingLevels: FLASH_LEVELS,
  }),
  gemini3({ id: 'gemini-3.7-flash', name: 'Gemini 3.7 Flash', price: p(1.5, 7.5, 0.15), thinkingLevels: FLASH_LEVELS }),
  gemini3({
    id: 'gemini-3.5-flash',
    name: 'Gemini 3.5 Flash',
    price: p(1.5, 9, 0.15),
    status: 'deprecated',
    thinkingLevels: FLASH_LEVELS,
  }),
  gemini3({
    id: 'gemini-3.1-pro-preview',
    name: 'Gemini 3.1 Pro (preview)',
    price: p(2, 12, 0.2),
    longContextPrice: PRO_TIER,
  }),
  gemini3({
    id: 'gemini-3.1-flash-lite',
    name: 'Gemini 3.1 Flash-Lite',
    aliases: ['gemini-3.1-flash-lite-preview'],
    price: p(0.25, 1.5, 0.025),
    endOfLife: '2027-05-07',
  }),
  gemini3({
    id: 'gemini-3-pro-preview',
    name: 'Gemini 3 Pro (preview)',
    price: p(2, 12, 0.2),
    longContextPrice: PRO_TIER,
    endOfLife: '2026-03-09',
  }),
  gemini3({ id: 'gemini-3-flash-preview', name: 'Gemini 3 Flash (preview)', price: p(0.5, 3, 0.05) }),
  gemini25({
    id: 'gemini-2.5-pro',
    name: 'Gemini 2.5 Pro',
    canDisableThinking: false,
    price: p(1.25, 10, 0.125),
    endOfLife: '2026-12-01',
    longContextPrice: { thresholdInputTokens: 200_000, inputPerMTok: 2.5, outputPerMTok: 15, cacheReadPerMTok: 0.25 },
  }),
  gemini25({
    id: 'gemini-2.5-flash',
    name: 'Gemini 2.5 Flash',
    canDisableThinking: true,
    price: p(0.3, 2.5, 0.03),
    endOfLife: '2026-12-01',
  }),
  gemini25({
    id: 'gemini-2.5-flash-lite',
    name: 'Gemini 2.5 Flash-Lite',
    canDisableThinking: true,
    price: p(0.1, 0.4, 0.01),
  }),
  google({
    id: 'gemini-2.0-flash',
    name: 'Gemini 2.0 Flash',
    aliases: ['gemini-2.0-flash-001'],
    // Retired before the Interactions API was generally available.
    apis: ['gemini-generate-content'],
    contextWindow: WINDOW,
    maxOutputTokens: 8_192,
    price: p(0.1, 0.4, 0.025),
    endOfLife: '2026-06-01',
  }),
];
