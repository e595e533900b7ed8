/**
 * Anthropic Messages: a scripted answer as stream events (`message_start`, `ping`,
 * `content_block_start/delta/stop`, `message_delta`, `message_stop`) and as the non-stream
 * `message` object. Shapes: https://docs.anthropic.com/en/docs/build-with-claude/streaming
 * (and `recorded-streams/anthropic/*.chunks.jsonl`).
 */
import { outputTokens, type Answer, type AnswerContext, type RenderedAnswer } from './answer-model';

/** Renders {@link Answer} for `POST /v1/messages`. */
export function anthropicAnswer(answer: Answer, ctx: AnswerContext): RenderedAnswer {
  const id = `msg_fake${ctx.seq}`;
  const usageStart = {
    input_tokens: ctx.inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: 1,
  };
  const output = outputTokens(answer);
  const stopReason = answer.calls.length > 0 ? 'tool_use' : 'end_turn';
  // A-B5: under the thinking-binding beta the list is final in message_start (and in the JSON answer).
  const transformations = ctx.inputTransformations ? { input_transformations: ctx.inputTransformations } : {};
  const events: unknown[] = [
    {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: ctx.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: usageStart,
        ...transformations,
      },
    },
    { type: 'ping' },
  ];
  const content: Record<string, unknown>[] = [];
  let index = 0;
  if (answer.thinking) {
    const { text, signature } = answer.thinking;
    events.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    events.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: text } });
    if (signature !== undefined)
      events.push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } });
    events.push({ type: 'content_block_stop', index });
    content.push({ type: 'thinking', thinking: text, signature: signature ?? '' });
    index++;
  }
  if (answer.textChunks.length > 0) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const chunk of answer.textChunks)
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: chunk } });
    events.push({ type: 'content_block_stop', index });
    content.push({ type: 'text', text: answer.textChunks.join('') });
    index++;
  }
  for (const call of answer.calls) {
    const json = JSON.stringify(call.arguments);
    const half = Math.floor(json.length / 2);
    events.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    });
    events.push({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: json.slice(0, half) },
    });
    events.push({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: json.slice(half) },
    });
    events.push({ type: 'content_block_stop', index });
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
    index++;
  }
  events.push({
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: output },
  });
  events.push({ type: 'message_stop' });
  const json = {
    id,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: ctx.inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: output,
    },
    ...transformations,
  };
  return { events, json };
}
