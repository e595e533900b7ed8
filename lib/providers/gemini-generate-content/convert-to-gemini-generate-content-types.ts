/**
 * The request body `convertToGeminiGenerateContent` produces: the JSON `@google/genai` sends to
 * `models/{model}:streamGenerateContent` (the model and streaming live in the URL, not the body).
 *
 * Parts use the SDK's own `Part` type (`import type` only); the request-level fields are typed
 * here precisely, because the SDK types them with enums (`ThinkingLevel.HIGH`,
 * `FunctionCallingConfigMode.NONE`) whose wire spelling we write as plain strings.
 * Source: googleapis/js-genai `src/types.ts` (`Content`, `Part`, `FunctionDeclaration`,
 * `ThinkingConfig`, `ToolConfig`); provider-rules.md §4.
 */
import type { Part } from '@google/genai';

/** One Gemini part (text, inlineData, functionCall, functionResponse, …; `thoughtSignature` is a sibling, G-K1). */
export type GeminiPart = Part;

/** One content of `contents`: role `user` or `model` only (G-R1), never an empty `parts` (G-E1). */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** A function declaration; `parametersJsonSchema` is the tool's JSON Schema as given (G-T4 names come portable from the pre-pass). */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parametersJsonSchema: Record<string, unknown>;
}

/**
 * `generationConfig.thinkingConfig`. `thinkingBudget` is in tokens (`-1` dynamic, `0` off on
 * models that allow it); `thinkingLevel` is Gemini 3's control.
 */
export interface GeminiThinkingConfig {
  includeThoughts?: boolean;
  thinkingBudget?: number;
  /** Gemini 3 (`LOW`/`HIGH`); Gemini 3.5+ takes the model's levels, never a budget (G-G1). */
  thinkingLevel?: 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';
}

/** `generationConfig`: the output limit in tokens, and thinking. */
export interface GeminiGenerationConfig {
  maxOutputTokens: number;
  thinkingConfig?: GeminiThinkingConfig;
}

/** The streaming `generateContent` request body, without credentials. */
export interface GeminiGenerateContentBody {
  contents: GeminiContent[];
  /** The system prompt (G-R1): a Content with text parts and no role. */
  systemInstruction?: { parts: { text: string }[] };
  tools?: { functionDeclarations: GeminiFunctionDeclaration[] }[];
  /** `mode: 'NONE'` when the history's tools are stubs Baton cannot run (X8). */
  toolConfig?: { functionCallingConfig: { mode: 'NONE' } };
  generationConfig: GeminiGenerationConfig;
}
