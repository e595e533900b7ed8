/**
 * Anthropic prompt caching for long conversations (docs/disclosure.md, "Anthropic prompt caching"):
 * `cache_control: {type: 'ephemeral'}` on the stable prefix of a Messages request body.
 *
 * Rules (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching): at most 4
 * breakpoints per request; the prefix is tools → system → messages, so a breakpoint on the
 * system prompt caches the tool definitions too; thinking blocks and empty text blocks cannot
 * carry `cache_control`; a prefix shorter than the model's minimum (1,024 tokens for most
 * models, more for some) is simply not cached. A breakpoint also looks back up to 20 blocks for an
 * earlier cache entry, so the previous request's entry is found from the one placed here.
 */
import { TranscriptError } from '../transcript/codec';
import type { Plan } from './types';

/** Anthropic's limit on `cache_control` breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;
/** Below this estimated input (tokens) no breakpoints are added: no model caches a prefix shorter than 1,024 tokens. */
export const MIN_CACHEABLE_TOKENS = 1_024;
/** Block types that may carry `cache_control` (thinking, redacted thinking and empty text may not). */
const CACHEABLE = new Set(['text', 'image', 'document', 'tool_use', 'tool_result']);
const EPHEMERAL = { type: 'ephemeral' } as const;

type Json = Record<string, unknown>;

/**
 * Returns a copy of an Anthropic Messages body with cache breakpoints, in this order of priority
 * and within the 4-breakpoint limit (breakpoints already in the body count):
 * 1. the system prompt (turned into one text block), or the last tool definition when there is
 *    no system prompt — the prefix shared by every request of the conversation;
 * 2. the last cacheable block of the message before the newest user message — what the previous
 *    request sent and the reply it got, stable from now on;
 * 3. the last cacheable block of the newest user message, so the next request reads it.
 * The body is returned unchanged (same object) when the plan's estimate is under
 * {@link MIN_CACHEABLE_TOKENS}, or when it already holds a 1-hour breakpoint (A-S2: these 5-minute
 * ones would come before it). The input body is never modified.
 * @param body an `anthropic-messages` request body (e.g. `plan.body`).
 * @param plan the plan the body was made for.
 * @throws TranscriptError when the plan is not for `anthropic-messages` or the body has no `messages` array.
 */
export function addCacheBreakpoints<B extends Json>(body: B, plan: Pick<Plan, 'target' | 'estimatedInputTokens'>): B {
  if (plan.target.api !== 'anthropic-messages')
    throw new TranscriptError(
      'plan.target.api',
      `cache breakpoints are for anthropic-messages, not ${plan.target.api}`,
    );
  if (body === null || typeof body !== 'object' || !Array.isArray(body.messages))
    throw new TranscriptError('body.messages', 'expected an Anthropic Messages body with a messages array');
  if (plan.estimatedInputTokens < MIN_CACHEABLE_TOKENS) return body;
  // A-S2: a 1h entry may not follow a 5m one. Replayed 1h breakpoints are left to do the caching.
  if (hasOneHourBreakpoint(body)) return body;

  let free = MAX_CACHE_BREAKPOINTS - countBreakpoints(body);
  const out: Json = { ...body };
  const messages = (body.messages as unknown[]).slice();
  out.messages = messages;

  // 1. System prompt, else the last tool.
  if (free > 0) {
    if (typeof body.system === 'string' && body.system.trim() !== '') {
      out.system = [{ type: 'text', text: body.system, cache_control: EPHEMERAL }];
      free--;
    } else if (
      Array.isArray(body.system) &&
      body.system.length > 0 &&
      markLast(body.system, (blocks) => (out.system = blocks))
    ) {
      free--;
    } else if (Array.isArray(body.tools) && body.tools.length > 0) {
      const tools = body.tools.slice() as Json[];
      const last = tools[tools.length - 1]!;
      if (!last.cache_control) {
        tools[tools.length - 1] = { ...last, cache_control: EPHEMERAL };
        out.tools = tools;
        free--;
      }
    }
  }

  // 2. and 3. The message before the newest user message, then the newest user message.
  let newest = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (isObject(messages[i]) && (messages[i] as Json).role === 'user') {
      newest = i;
      break;
    }
  }
  for (const i of [newest - 1, newest]) {
    if (free <= 0 || i < 0) continue;
    const m = messages[i];
    if (!isObject(m) || !Array.isArray(m.content)) continue;
    if (markLast(m.content, (content) => (messages[i] = { ...m, content }))) free--;
  }
  return out as B;
}

/** Marks the last cacheable block (not already marked); calls `set` with the new block list. */
function markLast(blocks: unknown[], set: (blocks: unknown[]) => void): boolean {
  for (let k = blocks.length - 1; k >= 0; k--) {
    const b = blocks[k];
    if (!isObject(b) || typeof b.type !== 'string' || !CACHEABLE.has(b.type)) continue;
    if (b.type === 'text' && (typeof b.text !== 'string' || b.text.trim() === '')) continue;
    if (b.cache_control) return false;
    const copy = blocks.slice();
    copy[k] = { ...b, cache_control: EPHEMERAL };
    set(copy);
    return true;
  }
  return false;
}

/** `cache_control` markers already in the body (system blocks, tools, message blocks). */
function countBreakpoints(body: Json): number {
  let n = 0;
  const scan = (list: unknown) => {
    if (Array.isArray(list)) for (const b of list) if (isObject(b) && b.cache_control) n++;
  };
  scan(body.system);
  scan(body.tools);
  for (const m of body.messages as unknown[]) if (isObject(m)) scan(m.content);
  return n;
}

/** True when the body already holds a `cache_control` with `ttl: "1h"` (replayed from a history). */
function hasOneHourBreakpoint(body: Json): boolean {
  const has = (list: unknown) =>
    Array.isArray(list) && list.some((b) => isObject(b) && isObject(b.cache_control) && b.cache_control.ttl === '1h');
  return has(body.system) || has(body.tools) || (body.messages as unknown[]).some((m) => isObject(m) && has(m.content));
}

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
