/**
 * Gemini `generateContent`: a scripted answer as `GenerateContentResponse` chunks (one per SSE
 * `data:` line) and as one non-stream response. Thoughts are `{text, thought: true}` parts; the
 * signature rides on the first answer part (`thoughtSignature`, G-K1). Function calls arrive
 * whole, never as partial arguments. Shapes:
 * https://ai.google.dev/api/generate-content (and `recorded-streams/gemini/*.chunks.jsonl`).
 */
import { outputTokens, type Answer, type AnswerContext, type RenderedAnswer } from './answer-model';

/** Renders {@link Answer} for `models/<model>:streamGenerateContent` / `:generateContent`. */
export function geminiAnswer(answer: Answer, ctx: AnswerContext): RenderedAnswer {
  const responseId = `fakeResponse${ctx.seq}`;
  const chunk = (
    parts: Record<string, unknown>[],
    extra: Record<string, unknown> = {},
    top: Record<string, unknown> = {},
  ) => ({
    candidates: [{ content: { parts, role: 'model' }, index: 0, ...extra }],
    ...top,
    modelVersion: ctx.model,
    responseId,
  });
  const out = outputTokens(answer);
  const usageMetadata = {
    promptTokenCount: ctx.inputTokens,
    candidatesTokenCount: out,
    totalTokenCount: ctx.inputTokens + out,
    ...(answer.thinking ? { thoughtsTokenCount: 4 } : {}),
  };
  // The signature goes on the first answer part after the thought (G-K1), streamed or not.
  const signFirst = (list: Record<string, unknown>[]) => {
    const sig = answer.thinking?.signature;
    return list.map((p, i) => (sig !== undefined && i === 0 ? { ...p, thoughtSignature: sig } : p));
  };
  const thought = answer.thinking ? [{ text: answer.thinking.text, thought: true }] : [];
  const calls = answer.calls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.arguments } }));
  const streamedAnswer = signFirst([...answer.textChunks.map((text) => ({ text })), ...calls]);
  const streamed: Record<string, unknown>[][] = [
    ...thought.map((p) => [p]),
    ...streamedAnswer.slice(0, answer.textChunks.length).map((p) => [p]),
    ...(calls.length > 0 ? [streamedAnswer.slice(answer.textChunks.length)] : []),
  ];
  const text = answer.textChunks.join('');
  const parts = [...thought, ...signFirst([...(text ? [{ text }] : []), ...calls])];
  if (streamed.length === 0) streamed.push([{ text: '' }]);
  const events: unknown[] = streamed.map((p, i) =>
    i === streamed.length - 1
      ? chunk(p, { finishReason: 'STOP' }, { usageMetadata })
      : chunk(p, {}, { usageMetadata: { promptTokenCount: ctx.inputTokens, totalTokenCount: ctx.inputTokens } }),
  );
  const json = chunk(parts, { finishReason: 'STOP' }, { usageMetadata });
  return { events, json };
}
