/**
 * The model registry: context windows, output limits, capabilities and prices of the common
 * models of each provider, with aliases and dated snapshots, and conservative defaults for
 * unknown ids. (Data arrives in a later commit; this is the interface.)
 */
import type { ModelInfo } from './types';

/**
 * Looks a model up by id (an alias, a dated snapshot, or an OpenRouter-style `vendor/model` id).
 * Never throws: an unknown id gets conservative defaults with `known: false`.
 * @param id the model id as the user or provider spelt it.
 * @param provider the provider the request goes to, used for defaults of unknown ids.
 */
export function lookupModel(id: string, provider?: string): ModelInfo {
  return {
    id,
    provider: provider ?? 'unknown',
    apis: ['openai-chat'],
    known: false,
    contextWindow: 32_000,
    maxOutputTokens: 4_096,
    defaultOutputTokens: 4_096,
    vision: true,
    pdf: false,
    tools: true,
    thinking: 'none',
    reasoning: false,
    thoughtSignatures: 'none',
    functionResponseParts: false,
    canDisableThinking: false,
  };
}
