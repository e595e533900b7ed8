/**
 * OpenAI's 2026 request rules for Chat Completions and Responses, written from
 * ../shared/docs/provider-rules-2026-anthropic-openai.md §2a and §3a only (imports nothing from
 * `lib/`): C-S1 / R-S1 sampling parameters, C-T9 function tools with a reasoning effort, effort
 * `none` where the model refuses it, R-P1 `phase`, R-X1 `compaction_trigger`.
 */
import { isRecord, type Sink } from './common';

/** `major.minor` of a `gpt-…` id (`gpt-5.5-2026-04-23` → 5.5, `gpt-6-sol` → 6), 0 for other ids and `-chat` models. */
export function gptVersion(model: string): number {
  const bare = model.slice(model.lastIndexOf('/') + 1);
  if (/-chat(-latest)?$/.test(bare)) return 0;
  const m = /^gpt-(\d+)(?:\.(\d+))?(?=-|$)/.exec(bare);
  return m ? Number(m[1]) + Number(m[2] ?? 0) / 10 : 0;
}

/** GPT-5.4 and later, GPT-5.6, GPT-6.x: the C-S1 / C-T9 / R-S1 models. */
export function isRestrictedModel(model: string): boolean {
  return gptVersion(model) >= 5.4;
}

/** C-T9, C-S1: GPT-6 Astra, GPT-6.1 Sol and GPT-6.2+ take no tool calling on Chat and no effort `none`. */
export function isResponsesOnlyForTools(model: string): boolean {
  const bare = model.slice(model.lastIndexOf('/') + 1);
  const v = gptVersion(bare);
  return v >= 6.2 || /^gpt-6-astra/.test(bare) || /^gpt-6\.1-sol/.test(bare);
}

const SAMPLING_CHAT = ['temperature', 'top_p', 'top_logprobs', 'logprobs'];
const SAMPLING_RESPONSES = ['temperature', 'top_p', 'top_logprobs'];

/** Effort `none` refused (C-S1: "`gpt-6-astra` and `gpt-6.1-sol` (and GPT-6.2) do not accept `none` at all"). */
function checkEffortNone(effort: unknown, model: string, path: (string | number)[], sink: Sink, rule: string): void {
  if (effort === 'none' && isResponsesOnlyForTools(model)) {
    sink.add(
      rule,
      path,
      `${model} does not accept reasoning effort none`,
      `Unsupported value: 'reasoning_effort' does not support 'none' with this model.`,
    );
  }
}

/**
 * Chat Completions on OpenAI (provider `openai` only): C-S1 no `temperature`, `top_p`,
 * `top_logprobs` or `logprobs` unless `reasoning_effort` is `none` (absent counts as `none`, these
 * models' default); C-T9 no function tools with another effort, and none at all on the models that
 * need Responses for tool calling, with the API's 400 text.
 */
export function checkChat2026(body: Record<string, unknown>, sink: Sink): void {
  const model = typeof body.model === 'string' ? body.model : '';
  if (!isRestrictedModel(model)) return;
  const effort = body.reasoning_effort ?? 'none';
  checkEffortNone(body.reasoning_effort, model, ['reasoning_effort'], sink, 'C-S1');
  if (effort !== 'none') {
    for (const key of SAMPLING_CHAT)
      if (body[key] !== undefined)
        sink.add(
          'C-S1',
          [key],
          `${key} is not supported when reasoning_effort is not none`,
          `Unsupported parameter: '${key}' is not supported with this model.`,
        );
  }
  const tools = Array.isArray(body.tools) ? body.tools.filter((t) => isRecord(t) && t.type === 'function') : [];
  if (tools.length === 0) return;
  if (isResponsesOnlyForTools(model)) {
    sink.add(
      'C-T9',
      ['tools'],
      `${model} needs /v1/responses for tool calling`,
      `Function tools are not supported for ${model} in /v1/chat/completions. To use function tools, use /v1/responses.`,
    );
  } else if (effort !== 'none') {
    sink.add(
      'C-T9',
      ['tools'],
      `function tools with reasoning_effort ${String(effort)}`,
      `Function tools with reasoning_effort are not supported for ${model} in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.`,
    );
  }
}

/**
 * Responses: R-S1 (sampling parameters and the `message.output_text.logprobs` include only at
 * effort `none` on the restricted models), effort `none` where refused, R-P1 (`phase` only on
 * assistant messages, `commentary` or `final_answer`), R-X1 (a `compaction_trigger` is the final
 * input item).
 */
export function checkResponses2026(body: Record<string, unknown>, items: unknown[], sink: Sink): void {
  const model = typeof body.model === 'string' ? body.model : '';
  if (isRestrictedModel(model)) {
    const reasoning = isRecord(body.reasoning) ? body.reasoning : {};
    checkEffortNone(reasoning.effort, model, ['reasoning', 'effort'], sink, 'R-S1');
    if ((reasoning.effort ?? 'none') !== 'none') {
      for (const key of SAMPLING_RESPONSES)
        if (body[key] !== undefined)
          sink.add(
            'R-S1',
            [key],
            `${key} is not supported when reasoning.effort is not none`,
            `Unsupported parameter: '${key}' is not supported with this model.`,
          );
      if (Array.isArray(body.include) && body.include.includes('message.output_text.logprobs'))
        sink.add(
          'R-S1',
          ['include'],
          'message.output_text.logprobs is not supported when reasoning.effort is not none',
        );
    }
  }
  items.forEach((item, i) => {
    if (!isRecord(item)) return;
    const isMessage = item.type === 'message' || (item.type === undefined && item.role !== undefined);
    if (isMessage && item.phase !== undefined) {
      if (item.role !== 'assistant')
        sink.add('R-P1', ['input', i, 'phase'], `phase belongs on assistant messages only, not ${String(item.role)}`);
      else if (item.phase !== 'commentary' && item.phase !== 'final_answer')
        sink.add('R-P1', ['input', i, 'phase'], 'phase is commentary or final_answer');
    }
    if (item.type === 'compaction_trigger' && i !== items.length - 1) {
      sink.add(
        'R-X1',
        ['input', i],
        'a compaction_trigger must be the final input item',
        'compaction_trigger must be the final input item.',
      );
    }
  });
}
