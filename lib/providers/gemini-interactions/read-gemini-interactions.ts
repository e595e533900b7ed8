/**
 * Readers for the Gemini Interactions API (`gemini-interactions`): native history → transcript,
 * complete Interaction → turn, SSE events → turn(s). Pure and synchronous, no fetch (DESIGN.md,
 * "One module per wire API"; transcript-v1.md, `baton read`).
 *
 * - {@link readGeminiInteractionsHistory}`(body, opts?) → Transcript`
 * - {@link readGeminiInteractionsResponse}`(response, ctx) → Turn`
 * - {@link createGeminiInteractionsStreamAssembler}`(ctx) → StreamAssembler`
 * - {@link readGeminiInteractionsStreamEvents}`(events, ctx) → Turn[]`
 */
export { readGeminiInteractionsHistory } from './read-gemini-interactions-history';
export { readGeminiInteractionsResponse } from './read-gemini-interactions-response';
export {
  createGeminiInteractionsStreamAssembler,
  readGeminiInteractionsStreamEvents,
} from './read-gemini-interactions-stream';
export { mapInteractionStatus, readInteractionsUsage } from './read-gemini-interactions-steps';
