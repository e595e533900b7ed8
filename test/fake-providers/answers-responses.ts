/**
 * OpenAI Responses: a scripted answer as `response.*` stream events (with `sequence_number`)
 * and as the non-stream `response` object. Reasoning is a `reasoning` item whose
 * `encrypted_content` is the signature. Shapes:
 * https://platform.openai.com/docs/api-reference/responses-streaming (and
 * `recorded-streams/openai-responses/`).
 */
import { outputTokens, type Answer, type AnswerContext, type RenderedAnswer } from './answer-model';

/** Renders {@link Answer} for `POST /v1/responses`. */
export function responsesAnswer(answer: Answer, ctx: AnswerContext): RenderedAnswer {
  const id = `resp_fake${ctx.seq}`;
  const createdAt = Math.floor(Date.now() / 1000);
  const base = (status: string, output: unknown[], usage: unknown) => ({
    id,
    object: 'response',
    created_at: createdAt,
    status,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: ctx.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    usage,
    metadata: {},
  });
  const raw: Record<string, unknown>[] = [];
  const output: Record<string, unknown>[] = [];
  raw.push({ type: 'response.created', response: base('in_progress', [], null) });
  raw.push({ type: 'response.in_progress', response: base('in_progress', [], null) });

  if (answer.thinking) {
    const output_index = output.length;
    const itemId = `rs_fake${ctx.seq}`;
    const enc = answer.thinking.signature !== undefined ? { encrypted_content: answer.thinking.signature } : {};
    const text = answer.thinking.text;
    raw.push({
      type: 'response.output_item.added',
      output_index,
      item: { id: itemId, type: 'reasoning', summary: [], ...enc },
    });
    raw.push({
      type: 'response.reasoning_summary_part.added',
      item_id: itemId,
      output_index,
      summary_index: 0,
      part: { type: 'summary_text', text: '' },
    });
    raw.push({
      type: 'response.reasoning_summary_text.delta',
      item_id: itemId,
      output_index,
      summary_index: 0,
      delta: text,
    });
    raw.push({ type: 'response.reasoning_summary_text.done', item_id: itemId, output_index, summary_index: 0, text });
    raw.push({
      type: 'response.reasoning_summary_part.done',
      item_id: itemId,
      output_index,
      summary_index: 0,
      part: { type: 'summary_text', text },
    });
    const item = { id: itemId, type: 'reasoning', summary: [{ type: 'summary_text', text }], ...enc };
    raw.push({ type: 'response.output_item.done', output_index, item });
    output.push(item);
  }
  if (answer.textChunks.length > 0) {
    const output_index = output.length;
    const itemId = `msg_fake${ctx.seq}`;
    const text = answer.textChunks.join('');
    raw.push({
      type: 'response.output_item.added',
      output_index,
      item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    });
    raw.push({
      type: 'response.content_part.added',
      item_id: itemId,
      output_index,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    });
    for (const delta of answer.textChunks)
      raw.push({
        type: 'response.output_text.delta',
        item_id: itemId,
        output_index,
        content_index: 0,
        delta,
        logprobs: [],
      });
    raw.push({
      type: 'response.output_text.done',
      item_id: itemId,
      output_index,
      content_index: 0,
      text,
      logprobs: [],
    });
    const part = { type: 'output_text', text, annotations: [], logprobs: [] };
    raw.push({ type: 'response.content_part.done', item_id: itemId, output_index, content_index: 0, part });
    const item = { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [part] };
    raw.push({ type: 'response.output_item.done', output_index, item });
    output.push(item);
  }
  answer.calls.forEach((call, i) => {
    const output_index = output.length;
    const itemId = `fc_fake${ctx.seq}x${i}`;
    const args = JSON.stringify(call.arguments);
    raw.push({
      type: 'response.output_item.added',
      output_index,
      item: {
        id: itemId,
        type: 'function_call',
        status: 'in_progress',
        arguments: '',
        call_id: call.id,
        name: call.name,
      },
    });
    raw.push({ type: 'response.function_call_arguments.delta', item_id: itemId, output_index, delta: args });
    raw.push({ type: 'response.function_call_arguments.done', item_id: itemId, output_index, arguments: args });
    const item = {
      id: itemId,
      type: 'function_call',
      status: 'completed',
      arguments: args,
      call_id: call.id,
      name: call.name,
    };
    raw.push({ type: 'response.output_item.done', output_index, item });
    output.push(item);
  });
  const out = outputTokens(answer);
  const usage = {
    input_tokens: ctx.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: out,
    output_tokens_details: { reasoning_tokens: answer.thinking ? 4 : 0 },
    total_tokens: ctx.inputTokens + out,
  };
  const json = base('completed', output, usage);
  raw.push({ type: 'response.completed', response: json });
  const events = raw.map((e, sequence_number) => ({ ...e, sequence_number }));
  return { events, json };
}
