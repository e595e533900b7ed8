/**
 * The request body a Baton converter sends to the OpenAI Responses API (`POST /v1/responses`,
 * streaming), as precise interfaces. Written by hand rather than taken from `openai`'s
 * `ResponseCreateParamsStreaming` because the SDK's input types describe *output* items (they
 * require `status` and reasoning `id`), while a stateless replay must leave `status` out (R-K4)
 * and may leave ids out (R-T2, R-K2). Field names follow the SDK (`openai` 7.59
 * `resources/responses/responses.d.ts`) and provider-rules.md §3.
 */

/** `input_text` content part (user messages, tool outputs). */
export interface InputTextPart {
  type: 'input_text';
  text: string;
}

/** `input_image` content part (R-I1): `image_url` is an https URL or a `data:` URL. */
export interface InputImagePart {
  type: 'input_image';
  image_url: string;
  detail: 'auto' | 'low' | 'high';
}

/** `input_file` content part: a PDF as a `data:` URL plus a filename, or a `file_url`. */
export type InputFilePart =
  { type: 'input_file'; filename: string; file_data: string } | { type: 'input_file'; file_url: string };

export type UserContentPart = InputTextPart | InputImagePart | InputFilePart;

/** A user message item. */
export interface UserMessageItem {
  type: 'message';
  role: 'user';
  content: UserContentPart[];
}

/** R-K9: the stable system prompt as the first input item (GPT-6.2+); never carries `phase` (R-P1). */
export interface DeveloperMessageItem {
  type: 'message';
  role: 'developer';
  content: InputTextPart[];
}

/** `output_text` part of an assistant message; `annotations` only when replayed from the same origin. */
export interface OutputTextPart {
  type: 'output_text';
  text: string;
  annotations?: unknown[];
}

/** `refusal` part of an assistant message (same origin only). */
export interface RefusalPart {
  type: 'refusal';
  refusal: string;
}

/** An assistant message item; `id` (`msg_…`) only for the target's own origin. */
export interface AssistantMessageItem {
  type: 'message';
  role: 'assistant';
  id?: string;
  /**
   * `commentary` / `final_answer` on models that label their messages: resent on every replayed
   * same-origin assistant message, never invented for another origin's (R-P1).
   */
  phase?: string;
  content: (OutputTextPart | RefusalPart)[];
}

/** A `function_call` item: `arguments` is a JSON string; `id` only when it begins with `fc` (R-T2). */
export interface FunctionCallItem {
  type: 'function_call';
  id?: string;
  call_id: string;
  name: string;
  arguments: string;
}

/** A `function_call_output` item: a string, or text and image parts. */
export interface FunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  output: string | (InputTextPart | InputImagePart)[];
}

/** A `reasoning` item replayed statelessly (R-K2, R-K4): summary and `encrypted_content`, never `content`. */
export interface ReasoningItem {
  type: 'reasoning';
  id?: string;
  summary: { type: 'summary_text'; text: string }[];
  encrypted_content: string;
}

/** Any other item the API accepts as input (same-origin provider items, replayed as received). */
export interface OtherInputItem {
  type: string;
  [key: string]: unknown;
}

export type ResponsesInputItem =
  | UserMessageItem
  | DeveloperMessageItem
  | AssistantMessageItem
  | FunctionCallItem
  | FunctionCallOutputItem
  | ReasoningItem
  | OtherInputItem;

/** A function tool (R-T4 names); `strict: false` because Baton does not rewrite schemas for strict mode. */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict: false;
}

/** `reasoning` request parameter (reasoning models only). */
export interface ResponsesReasoningParam {
  effort: 'none' | 'minimal' | 'low' | 'medium' | 'high';
  summary?: 'auto';
}

/**
 * The JSON body of a streaming `POST /v1/responses` request, without credentials.
 * `max_output_tokens` is in tokens.
 */
export interface OpenAIResponsesBody {
  model: string;
  input: ResponsesInputItem[];
  instructions?: string;
  stream: true;
  /** Always false: Baton replays statelessly, so nothing is stored or referenced by id (R-K2). */
  store: false;
  include?: ['reasoning.encrypted_content'];
  max_output_tokens: number;
  tools?: ResponsesFunctionTool[];
  tool_choice?: 'none';
  reasoning?: ResponsesReasoningParam;
}
