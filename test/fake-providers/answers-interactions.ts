/**
 * Gemini Interactions: a scripted answer as SSE events (`interaction.created` →
 * `interaction.status_update` → `step.start`/`step.delta`/`step.stop` per step →
 * `interaction.completed`) and as one non-stream Interaction object, shaped like
 * `recorded-streams/gemini-interactions/*` (provider-rules-2026-gemini.md §9, GI-S1–GI-S3). A
 * thought step always carries a signature (GI-K1); function calls stream their arguments as one
 * `arguments_delta` JSON string; a `function_call` step.start carries `"signature": ""` as the
 * recordings do (GI-K4). A stateless request (`store: false`) gets `id: ""` (GI-P2).
 */
import { outputTokens, type Answer, type AnswerContext, type RenderedAnswer } from './answer-model';

/** Renders {@link Answer} for `POST /v1beta/interactions` (streaming or not); `ctx.interactionId` defaults to `""`. */
export function interactionsAnswer(answer: Answer, ctx: AnswerContext): RenderedAnswer {
  const id = ctx.interactionId ?? '';
  const out = outputTokens(answer);
  const usage = {
    total_tokens: ctx.inputTokens + out + (answer.thinking ? 4 : 0),
    total_input_tokens: ctx.inputTokens,
    total_cached_tokens: 0,
    total_output_tokens: out,
    total_tool_use_tokens: 0,
    total_thought_tokens: answer.thinking ? 4 : 0,
  };
  const status = answer.calls.length > 0 ? 'requires_action' : 'completed';
  const base = { id, object: 'interaction', model: ctx.model };
  const signature = answer.thinking?.signature ?? `ZmFrZS1zaWduYXR1cmUt${ctx.seq}`;
  const summary = answer.thinking?.text ? [{ type: 'text', text: answer.thinking.text }] : undefined;
  const text = answer.textChunks.join('');
  const steps: Record<string, unknown>[] = [
    ...(answer.thinking ? [{ type: 'thought', signature, ...(summary ? { summary } : {}) }] : []),
    ...(text ? [{ type: 'model_output', content: [{ type: 'text', text }] }] : []),
    ...answer.calls.map((c) => ({ type: 'function_call', id: c.id, name: c.name, arguments: c.arguments })),
  ];
  if (steps.length === 0) steps.push({ type: 'model_output', content: [{ type: 'text', text: ' ' }] });

  const events: unknown[] = [
    { event_type: 'interaction.created', interaction: { ...base, status: 'in_progress' } },
    { event_type: 'interaction.status_update', interaction_id: id, status: 'in_progress' },
  ];
  steps.forEach((step, index) => {
    if (step.type === 'thought') {
      events.push({ event_type: 'step.start', index, step: { type: 'thought' } });
      if (summary)
        events.push({ event_type: 'step.delta', index, delta: { type: 'thought_summary', content: summary[0] } });
      events.push({ event_type: 'step.delta', index, delta: { type: 'thought_signature', signature } });
    } else if (step.type === 'model_output') {
      events.push({ event_type: 'step.start', index, step: { type: 'model_output' } });
      const chunks = answer.textChunks.length ? answer.textChunks : [' '];
      for (const t of chunks) events.push({ event_type: 'step.delta', index, delta: { type: 'text', text: t } });
    } else {
      events.push({
        event_type: 'step.start',
        index,
        step: { id: step.id, signature: '', type: 'function_call', name: step.name, arguments: {} },
      });
      events.push({
        event_type: 'step.delta',
        index,
        delta: { type: 'arguments_delta', arguments: JSON.stringify(step.arguments) },
      });
    }
    events.push({ event_type: 'step.stop', index });
  });
  const done = { ...base, status, usage, service_tier: 'standard' };
  events.push({ event_type: 'interaction.completed', interaction: done });
  return { events, json: { ...done, steps } };
}
