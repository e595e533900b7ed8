/**
 * The request body `convertToGeminiInteractions` produces: the JSON sent to `POST
 * /v1beta/interactions` (provider-rules-2026-gemini.md §9, docs/provider-rules.md#9-gemini-interactions-api-gemini-interactions-2026).
 *
 * Field names are the API's own snake_case (GI-R1). Written from `@google/genai` 3.3.0
 * (`CreateModelInteraction`, `Step`, `Content_2`, `FunctionT`, `GenerationConfig_2`); typed here
 * rather than imported because the SDK's types are open unions (`(string & {})`) and the body
 * must be exact.
 */

/** A content block inside `user_input` / `model_output` (GI-R4); base64 without a `data:` prefix. */
export type InteractionsContent =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio' | 'document' | 'video'; data?: string; uri?: string; mime_type?: string };

/** `user_input`: the person's turn (GI-R3). */
export interface UserInputStep {
  type: 'user_input';
  content: InteractionsContent[];
}

/** `model_output`: the model's visible answer (GI-R3). */
export interface ModelOutputStep {
  type: 'model_output';
  content: InteractionsContent[];
}

/** `thought`: same-origin only, always signed (GI-K1, GI-K3); `summary` replayed as received (GI-K2). */
export interface ThoughtStep {
  type: 'thought';
  signature: string;
  summary?: InteractionsContent[];
}

/** `function_call`: `arguments` is always an object (GI-T4). */
export interface FunctionCallStep {
  type: 'function_call';
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** `function_result`: a step of its own, `name` always set (GI-T1, GI-T2, GI-T3). */
export interface FunctionResultStep {
  type: 'function_result';
  call_id: string;
  name: string;
  result: string | InteractionsContent[] | Record<string, unknown>;
  is_error?: boolean;
}

/** One step of `input` (GI-R3). A same-origin built-in tool step is replayed as an object of its own type. */
export type InteractionsStep =
  | UserInputStep
  | ModelOutputStep
  | ThoughtStep
  | FunctionCallStep
  | FunctionResultStep
  | ({ type: string } & Record<string, unknown>);

/** A flat function tool (GI-R6). */
export interface InteractionsFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

/** `thinking_level` values (GI-R7). */
export type InteractionsThinkingLevel = 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

/** `generation_config` (GI-R7): `tool_choice` lives here; never `temperature` or `top_p`. */
export interface InteractionsGenerationConfig {
  max_output_tokens: number;
  thinking_level?: InteractionsThinkingLevel;
  thinking_summaries?: 'auto' | 'none';
  tool_choice?: 'auto' | 'any' | 'none' | 'validated';
}

/** The streaming `interactions.create` body, without credentials (GI-R1, GI-R2, GI-R8). */
export interface GeminiInteractionsBody {
  model: string;
  /** Always an array of steps (GI-R2): the whole history, or only the new steps when chained (GI-P1). */
  input: InteractionsStep[];
  /** A plain string (GI-R5). */
  system_instruction?: string;
  tools?: InteractionsFunctionTool[];
  generation_config: InteractionsGenerationConfig;
  /** Only on a chained request, and then `store` is true (GI-P1). */
  previous_interaction_id?: string;
  store: boolean;
  stream: true;
}
