/**
 * Chat Completions: a scripted answer as `chat.completion.chunk` objects and as the non-stream
 * `chat.completion`. Reasoning goes out as `reasoning_content` deltas (the DeepSeek / OpenRouter
 * style; OpenAI itself sends no reasoning on this wire). Shapes:
 * https://platform.openai.com/docs/api-reference/chat-streaming (and
 * `recorded-streams/openai-chat/*.chunks.jsonl`).
 */
import { outputTokens, type Answer, type AnswerContext, type RenderedAnswer } from './answer-model';

/** Renders {@link Answer} for `POST /v1/chat/completions`. */
export function chatAnswer(answer: Answer, ctx: AnswerContext): RenderedAnswer {
  const id = `chatcmpl-fake${ctx.seq}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: ctx.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const finish = answer.calls.length > 0 ? 'tool_calls' : 'stop';
  const usage = {
    prompt_tokens: ctx.inputTokens,
    completion_tokens: outputTokens(answer),
    total_tokens: ctx.inputTokens + outputTokens(answer),
  };
  const events: unknown[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  if (answer.thinking) events.push(chunk({ reasoning_content: answer.thinking.text }));
  for (const text of answer.textChunks) events.push(chunk({ content: text }));
  answer.calls.forEach((call, index) => {
    const json = JSON.stringify(call.arguments);
    const half = Math.floor(json.length / 2);
    events.push(
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    events.push(chunk({ tool_calls: [{ index, function: { arguments: json.slice(0, half) } }] }));
    events.push(chunk({ tool_calls: [{ index, function: { arguments: json.slice(half) } }] }));
  });
  events.push(chunk({}, finish));
  if (ctx.includeUsage)
    events.push({ id, object: 'chat.completion.chunk', created, model: ctx.model, choices: [], usage });

  const message: Record<string, unknown> = {
    role: 'assistant',
    content: answer.textChunks.length > 0 ? answer.textChunks.join('') : null,
    refusal: null,
  };
  if (answer.thinking) message.reasoning_content = answer.thinking.text;
  if (answer.calls.length > 0) {
    message.tool_calls = answer.calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.arguments) },
    }));
  }
  const json = {
    id,
    object: 'chat.completion',
    created,
    model: ctx.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
    usage,
  };
  return { events, json };
}
