/**
 * Readers for the Gemini `generateContent` API (`gemini-generate-content`): native history →
 * transcript, complete response → turn, stream chunks → turn(s). Pure and synchronous, no fetch
 * (DESIGN.md, "One module per wire API"; transcript-v1.md, `baton read`).
 *
 * - {@link readGeminiGenerateContentHistory}`(body, opts?) → Transcript`
 * - {@link readGeminiGenerateContentResponse}`(response, ctx) → Turn`
 * - {@link createGeminiGenerateContentStreamAssembler}`(ctx) → StreamAssembler`
 * - {@link readGeminiGenerateContentStreamEvents}`(events, ctx) → Turn[]`
 */
export { readGeminiGenerateContentHistory } from './read-gemini-generate-content-history';
export { readGeminiGenerateContentResponse } from './read-gemini-generate-content-response';
export {
  createGeminiGenerateContentStreamAssembler,
  readGeminiGenerateContentStreamEvents,
} from './read-gemini-generate-content-stream';
export { mapGeminiFinishReason, readGeminiUsage } from './read-gemini-generate-content-parts';
