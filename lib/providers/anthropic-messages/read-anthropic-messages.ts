/**
 * Readers for the Anthropic Messages API (`anthropic-messages`): native history → transcript,
 * complete response → turn, stream events → turn(s). Pure and synchronous, no fetch
 * (DESIGN.md, "One module per wire API"; transcript-v1.md, `baton read`).
 *
 * - {@link readAnthropicMessagesHistory}`(body, opts?) → Transcript`
 * - {@link readAnthropicMessagesResponse}`(response, ctx) → Turn`
 * - {@link createAnthropicMessagesStreamAssembler}`(ctx) → StreamAssembler`
 * - {@link readAnthropicMessagesStreamEvents}`(events, ctx) → Turn[]`
 */
export { readAnthropicMessagesHistory } from './read-anthropic-messages-history';
export { readAnthropicMessagesResponse } from './read-anthropic-messages-response';
export {
  createAnthropicMessagesStreamAssembler,
  readAnthropicMessagesStreamEvents,
} from './read-anthropic-messages-stream';
export { mapAnthropicStopReason, readAnthropicUsage } from './read-anthropic-messages-content';
