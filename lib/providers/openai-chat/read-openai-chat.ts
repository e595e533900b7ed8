/**
 * Readers for the OpenAI Chat Completions API (`openai-chat`): native request histories,
 * complete responses and streams → Baton transcript turns, losslessly (DESIGN.md, "One module
 * per wire API"; transcript-v1.md). Pure and synchronous.
 */
export { readOpenAIChatHistory, DEFAULT_CHAT_PROVIDER } from './read-openai-chat-history';
export { readOpenAIChatResponse } from './read-openai-chat-response';
export { createOpenAIChatStreamAssembler, readOpenAIChatStreamEvents } from './read-openai-chat-stream';
