/**
 * Conservative capabilities for model ids the registry does not know, refined by what the id's
 * family pattern makes safe to assume.
 */
import { apisForProvider } from './data/define';
import { bareModelName, hasVendorPrefix } from './normalize';
import type { ModelInfo, ThinkingControl } from './types';

/** Window assumed for an unknown model, in tokens. */
export const UNKNOWN_CONTEXT_WINDOW = 32_768;
/** Output limit assumed for an unknown model, in tokens. */
export const UNKNOWN_MAX_OUTPUT = 4_096;

/** The provider a bare model name belongs to, when its family says so. */
export function inferProvider(bare: string): string | undefined {
  if (bare.startsWith('claude-')) return 'anthropic';
  if (bare.startsWith('gemini-')) return 'google';
  if (/^(o\d|gpt-|chatgpt-)/.test(bare) && !bare.startsWith('gpt-oss')) return 'openai';
  if (bare.startsWith('deepseek-')) return 'deepseek';
  if (/^(mistral|codestral|magistral|ministral|devstral|pixtral|open-mistral|open-mixtral)/.test(bare))
    return 'mistral';
  return undefined;
}

/**
 * Thinking control of a Claude id by its version: adaptive from 4.6 (and the Fable/Mythos
 * lines), extended-thinking budget from 3.7, none before or when the version cannot be read.
 */
function claudeThinking(bare: string): ThinkingControl {
  if (/^claude-(fable|mythos)-/.test(bare)) return 'adaptive';
  const named = /^claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?=-|$)/.exec(bare);
  const legacy = /^claude-(\d+)-(\d{1,2})-/.exec(bare);
  const m = named ?? legacy;
  if (!m?.[1]) return 'none';
  const version = Number(m[1]) + Number(m[2] ?? 0) / 10;
  if (version >= 4.6) return 'adaptive';
  if (version >= 3.7) return 'budget';
  return 'none';
}

/**
 * Defaults for an unknown id (`known: false`): a 32,768-token window, 4,096 output tokens,
 * tools on, no vision, PDF or thinking — then, by the id's family (after removing a `models/`
 * prefix, a Bedrock wrapper, an OpenRouter `vendor/` prefix and `:variant`):
 * - `claude-*`: Anthropic Messages, 200,000-token window and 8,192 output tokens (every Claude
 *   model since Claude 3 has at least that), images and PDFs, thinking by version (adaptive
 *   from 4.6, budget from 3.7).
 * - `gemini-*`: images and PDFs; Gemini 3 and later: `thoughtSignatures: 'enforced'` (G-K1),
 *   `functionResponseParts` (G-I3), thinking `level`; Gemini 2.5: signatures `optional`,
 *   thinking `budget`.
 * - `o<digit>*`, `gpt-5*` … `gpt-9*` (not `*-chat`/`*-chat-latest`): OpenAI reasoning model,
 *   thinking `effort`, `minReasoningEffort: 'low'` (the lowest effort every such model
 *   accepts).
 * - `gpt-5.4*` and later, `gpt-6*` … `gpt-9*`: the 2026 rules at their safest (C-T9 tools only on
 *   Responses, C-S1/R-S1 sampling only at effort `none`); from `gpt-6.2` also R-K9 (`instructions`
 *   after `input`).
 * - `gemini-3.5*` and later: G-G1 thinking levels LOW to HIGH (MINIMAL is not taken everywhere).
 * - `gpt-4o*`, `gpt-4.1*`, `gpt-5*` … `gpt-9*`: images and PDFs.
 * The provider is the one given, else `openrouter` for a `vendor/model` id, else the family's
 * (`anthropic`, `google`, `openai`, `deepseek`, `mistral`), else `unknown`; `apis` follow it.
 */
export function unknownModel(id: string, provider?: string): ModelInfo {
  const bare = bareModelName(id);
  const family = inferProvider(bare);
  const prov = provider ?? (hasVendorPrefix(id) ? 'openrouter' : family) ?? 'unknown';
  const info: ModelInfo = {
    id,
    provider: prov,
    apis: apisForProvider(prov) ?? apisForProvider(family ?? '') ?? ['openai-chat'],
    known: false,
    contextWindow: UNKNOWN_CONTEXT_WINDOW,
    maxOutputTokens: UNKNOWN_MAX_OUTPUT,
    defaultOutputTokens: UNKNOWN_MAX_OUTPUT,
    vision: false,
    pdf: false,
    tools: true,
    thinking: 'none',
    reasoning: false,
    thoughtSignatures: 'none',
    functionResponseParts: false,
    canDisableThinking: false,
  };
  if (bare.startsWith('claude-')) {
    Object.assign(info, {
      contextWindow: 200_000,
      maxOutputTokens: 8_192,
      defaultOutputTokens: 8_192,
      vision: true,
      pdf: true,
    });
    info.thinking = claudeThinking(bare);
  } else if (bare.startsWith('gemini-')) {
    Object.assign(info, { vision: true, pdf: true });
    const major = Number(/^gemini-(\d+)/.exec(bare)?.[1] ?? 0);
    if (major >= 3) {
      Object.assign(info, {
        thoughtSignatures: 'enforced',
        functionResponseParts: true,
        thinking: 'level',
        thinkingAlwaysOn: true,
      });
      if (versionOf(bare, 'gemini') >= 3.5) info.thinkingLevels = ['LOW', 'MEDIUM', 'HIGH']; // G-G1
    } else if (bare.startsWith('gemini-2.5')) {
      Object.assign(info, { thoughtSignatures: 'optional', thinking: 'budget' });
    }
  } else if (/^(o\d|gpt-[5-9])/.test(bare) && !/-chat(-latest)?$/.test(bare)) {
    Object.assign(info, { reasoning: true, thinking: 'effort', minReasoningEffort: 'low', thinkingAlwaysOn: true });
  }
  if (/^gpt-(4o|4\.1|[5-9])/.test(bare)) Object.assign(info, { vision: true, pdf: true });
  const gpt = /^gpt-[5-9]/.test(bare) && !/-chat(-latest)?$/.test(bare) ? versionOf(bare, 'gpt') : 0;
  if (gpt >= 5.4) Object.assign(info, { chatTools: 'responses', samplingNeedsEffortNone: true }); // C-T9, C-S1
  if (gpt >= 6.2) info.instructionsAfterInput = true; // R-K9
  return info;
}

/** `major.minor` of a `gpt-6.2-…` / `gemini-3.5-…` id (minor 0 when absent), 0 when unreadable. */
function versionOf(bare: string, family: 'gpt' | 'gemini'): number {
  const m = new RegExp(`^${family}-(\\d+)(?:\\.(\\d+))?`).exec(bare);
  return m ? Number(m[1]) + Number(m[2] ?? 0) / 10 : 0;
}
