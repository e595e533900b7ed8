/**
 * Disclosure policies (docs/disclosure.md, "Policies, global and per conversation"): merging, validation
 * and the provider check.
 */
import { TranscriptError } from '../transcript/codec';
import type { ForbiddenReason, Policy } from './types';

/**
 * Merges the global policy with a conversation's. The stricter limit wins for `maxTurns` and
 * `maxTokens` (the smaller); the conversation's choice wins for `foreignReasoning`,
 * `prefixMismatchBehavior`, `images` and `lockedProvider`; `neverProviders`, `excludeTurns` and `excludeBlocks` are unions
 * (global first, duplicates removed). Neither input is changed.
 * @throws TranscriptError (path `global.<field>` / `conversation.<field>`) for an invalid policy.
 */
export function mergePolicies(global: Policy = {}, conversation: Policy = {}): Policy {
  validatePolicy(global, 'global');
  validatePolicy(conversation, 'conversation');
  const out: Policy = {};
  const maxTurns = minDefined(global.maxTurns, conversation.maxTurns);
  if (maxTurns !== undefined) out.maxTurns = maxTurns;
  const maxTokens = minDefined(global.maxTokens, conversation.maxTokens);
  if (maxTokens !== undefined) out.maxTokens = maxTokens;
  const foreignReasoning = conversation.foreignReasoning ?? global.foreignReasoning;
  if (foreignReasoning !== undefined) out.foreignReasoning = foreignReasoning;
  const binding = conversation.prefixMismatchBehavior ?? global.prefixMismatchBehavior;
  if (binding !== undefined) out.prefixMismatchBehavior = binding;
  const images = conversation.images ?? global.images;
  if (images !== undefined) out.images = images;
  const locked = conversation.lockedProvider ?? global.lockedProvider;
  if (locked !== undefined) out.lockedProvider = locked;
  const never = union(global.neverProviders, conversation.neverProviders, (p) => p);
  if (never) out.neverProviders = never;
  const turns = union(global.excludeTurns, conversation.excludeTurns, (t) => t);
  if (turns) out.excludeTurns = turns;
  const blocks = union(global.excludeBlocks, conversation.excludeBlocks, (b) => `${b.index}\u0000${b.turn}`);
  if (blocks) out.excludeBlocks = blocks.map((b) => ({ turn: b.turn, index: b.index }));
  return out;
}

/**
 * Checks a policy's fields (types, positive integer limits, known enum values).
 * @param root the path prefix for errors (`policy`, `global`, `conversation`).
 * @throws TranscriptError naming the field.
 */
export function validatePolicy(policy: Policy, root = 'policy'): void {
  if (policy === null || typeof policy !== 'object') throw new TranscriptError(root, 'expected a policy object');
  for (const key of ['maxTurns', 'maxTokens'] as const) {
    const v = policy[key];
    if (v !== undefined && !(Number.isSafeInteger(v) && v > 0))
      throw new TranscriptError(`${root}.${key}`, `expected a positive integer, got ${String(v)}`);
  }
  if (policy.foreignReasoning !== undefined && policy.foreignReasoning !== 'drop' && policy.foreignReasoning !== 'text')
    throw new TranscriptError(
      `${root}.foreignReasoning`,
      `expected "drop" or "text", got ${JSON.stringify(policy.foreignReasoning)}`,
    );
  if (
    policy.prefixMismatchBehavior !== undefined &&
    policy.prefixMismatchBehavior !== 'drop_block' &&
    policy.prefixMismatchBehavior !== 'error'
  )
    throw new TranscriptError(
      `${root}.prefixMismatchBehavior`,
      `expected "drop_block" or "error", got ${JSON.stringify(policy.prefixMismatchBehavior)}`,
    );
  if (policy.images !== undefined && policy.images !== 'send' && policy.images !== 'omit')
    throw new TranscriptError(`${root}.images`, `expected "send" or "omit", got ${JSON.stringify(policy.images)}`);
  if (
    policy.lockedProvider !== undefined &&
    (typeof policy.lockedProvider !== 'string' || policy.lockedProvider === '')
  )
    throw new TranscriptError(`${root}.lockedProvider`, 'expected a provider id');
  for (const key of ['neverProviders', 'excludeTurns'] as const) {
    const list = policy[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new TranscriptError(`${root}.${key}`, 'expected an array of strings');
    list.forEach((v, i) => {
      if (typeof v !== 'string') throw new TranscriptError(`${root}.${key}[${i}]`, 'expected a string');
    });
  }
  if (policy.excludeBlocks !== undefined) {
    if (!Array.isArray(policy.excludeBlocks))
      throw new TranscriptError(`${root}.excludeBlocks`, 'expected an array of {turn, index}');
    policy.excludeBlocks.forEach((b, i) => {
      if (
        b === null ||
        typeof b !== 'object' ||
        typeof b.turn !== 'string' ||
        !(Number.isSafeInteger(b.index) && b.index >= 0)
      )
        throw new TranscriptError(
          `${root}.excludeBlocks[${i}]`,
          'expected {turn: string, index: non-negative integer}',
        );
    });
  }
}

/**
 * Whether the policy lets `provider` receive the conversation: undefined when it may, else the
 * reason (a conversation locked to another provider, or a provider on the never list).
 */
export function forbiddenReason(policy: Policy, provider: string): ForbiddenReason | undefined {
  if (policy.neverProviders?.includes(provider))
    return { kind: 'never', provider, message: `this conversation must never be sent to ${provider}` };
  if (policy.lockedProvider !== undefined && policy.lockedProvider !== provider)
    return {
      kind: 'locked',
      provider,
      lockedProvider: policy.lockedProvider,
      message: `this conversation is locked to ${policy.lockedProvider}; ${provider} may not receive it`,
    };
  return undefined;
}

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

function union<T>(a: readonly T[] | undefined, b: readonly T[] | undefined, key: (v: T) => string): T[] | undefined {
  if (a === undefined && b === undefined) return undefined;
  const seen = new Set<string>();
  const out: T[] = [];
  for (const v of [...(a ?? []), ...(b ?? [])]) {
    const k = key(v);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(v);
  }
  return out;
}
