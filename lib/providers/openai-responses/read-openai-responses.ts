/**
 * Readers for the OpenAI Responses API (`openai-responses`): native request histories, complete
 * responses and streams → Baton transcript turns, losslessly (DESIGN.md, "One module per wire
 * API"; transcript-v1.md). Pure and synchronous.
 */
export { readOpenAIResponsesHistory, DEFAULT_RESPONSES_PROVIDER } from './read-openai-responses-history';
export { readOpenAIResponsesResponse } from './read-openai-responses-response';
export { createOpenAIResponsesStreamAssembler, readOpenAIResponsesStreamEvents } from './read-openai-responses-stream';
