/**
 * One pi coding-agent message (`@mariozechner/pi-ai` types: UserMessage, AssistantMessage,
 * ToolResultMessage; coding-agent `bashExecution`) → a Baton turn. Assistant turns get their
 * origin from the message's own `provider`, `api` and `model`, and their opaque state where the
 * API has one: Anthropic thinking signatures (redacted thinking as `redacted_thinking`), the
 * Responses reasoning item's `encrypted_content`, Gemini thought signatures on text, thinking and
 * tool calls.
 */
import type { Block, OriginApi, Turn, Usage } from '../transcript/schema';
import { fenced } from '../transcript/text';
import { isoFromMs, isRecord, str, type JsonObject } from './common';
import { parseJsonSafe } from './safe-json';

/** pi's `api` ids → Baton origin APIs; anything else has no replayable Baton equivalent (`web`). */
export function piApi(api: string | undefined): OriginApi {
  switch (api) {
    case 'anthropic-messages':
      return 'anthropic-messages';
    case 'openai-responses':
    case 'azure-openai-responses':
    case 'openai-codex-responses':
      return 'openai-responses';
    case 'openai-completions':
      return 'openai-chat';
    case 'google-generative-ai':
    case 'google-gemini-cli':
    case 'google-vertex':
      return 'gemini-generate-content';
    default:
      return 'web';
  }
}

const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

function usageOf(u: unknown): Usage | undefined {
  if (!isRecord(u)) return undefined;
  const out: Usage = {};
  const set = (k: keyof Usage, v: unknown) => {
    if (n(v) !== undefined) out[k] = n(v)!;
  };
  set('inputTokens', u.input);
  set('outputTokens', u.output);
  set('cacheReadTokens', u.cacheRead);
  set('cacheWriteTokens', u.cacheWrite);
  return Object.keys(out).length ? out : undefined;
}

function mediaBlock(b: JsonObject): Block | undefined {
  if (b.type === 'text' && typeof b.text === 'string')
    return b.text.trim() ? { type: 'text', text: b.text } : undefined;
  if (b.type === 'image' && str(b.data))
    return { type: 'image', mediaType: str(b.mimeType) ?? 'image/png', data: str(b.data)! };
  return undefined;
}

/** A thinking block: its signature is kept only where the origin API has one. */
function thinkingBlock(b: JsonObject, api: OriginApi): Block | undefined {
  const text = typeof b.thinking === 'string' ? b.thinking : '';
  const sig = str(b.thinkingSignature);
  if (b.redacted === true && sig && api === 'anthropic-messages') return { type: 'redacted_thinking', data: sig };
  if (api === 'openai-responses' && sig) {
    // pi stores the whole reasoning item as JSON; its encrypted_content is the replayable state (R-K3).
    try {
      const { value } = parseJsonSafe(sig);
      if (isRecord(value)) {
        const block: Block = { type: 'thinking', text };
        if (str(value.encrypted_content)) block.signature = str(value.encrypted_content)!;
        if (str(value.id)) block.meta = { itemId: str(value.id)! };
        return block.signature || text.trim() ? block : undefined;
      }
    } catch {
      // a bare item id: kept in meta below
    }
    return text.trim() ? { type: 'thinking', text, meta: { itemId: sig } } : undefined;
  }
  if (!text.trim() && !(sig && (api === 'anthropic-messages' || api === 'gemini-generate-content'))) return undefined;
  const block: Block = { type: 'thinking', text };
  if (sig && (api === 'anthropic-messages' || api === 'gemini-generate-content')) block.signature = sig;
  else if (sig) block.meta = { piSignature: sig };
  return block;
}

function assistantBlocks(m: JsonObject, api: OriginApi, where: string, warnings: string[]): Block[] {
  const out: Block[] = [];
  for (const b of Array.isArray(m.content) ? m.content : []) {
    if (!isRecord(b)) continue;
    if (b.type === 'text' && typeof b.text === 'string') {
      const sig = str(b.textSignature);
      if (!b.text.trim() && !(sig && api === 'gemini-generate-content')) continue;
      const block: Block = { type: 'text', text: b.text };
      if (sig && api === 'gemini-generate-content') block.signature = sig;
      else if (sig && api === 'openai-responses') block.meta = { itemId: sig };
      out.push(block);
    } else if (b.type === 'thinking') {
      const t = thinkingBlock(b, api);
      if (t) out.push(t);
    } else if (b.type === 'toolCall' && str(b.id) && str(b.name)) {
      const block: Block = {
        type: 'tool_call',
        id: str(b.id)!,
        name: str(b.name)!,
        input: b.arguments === undefined || b.arguments === null ? {} : (b.arguments as object),
      };
      if (str(b.thoughtSignature) && api === 'gemini-generate-content') block.signature = str(b.thoughtSignature)!;
      out.push(block);
    } else if (b.type === 'image') {
      const img = mediaBlock(b);
      if (img) out.push(img);
    } else warnings.push(`${where}: assistant content of type ${JSON.stringify(b.type)} not imported`);
  }
  return out;
}

/**
 * The turn for one message, or undefined (with a warning) for a role Baton has no turn for.
 * `id` must be unique in the conversation.
 */
export function piTurn(m: JsonObject, id: string, where: string, warnings: string[]): Turn | undefined {
  const createdAt = isoFromMs(m.timestamp);
  const stamp = (t: Turn): Turn => (createdAt ? { ...t, createdAt } : t);
  switch (m.role) {
    case 'user': {
      const blocks =
        typeof m.content === 'string'
          ? m.content.trim()
            ? [{ type: 'text', text: m.content } as Block]
            : []
          : (Array.isArray(m.content) ? m.content : [])
              .filter(isRecord)
              .map(mediaBlock)
              .filter((b): b is Block => b !== undefined);
      return blocks.length ? stamp({ id, role: 'user', blocks }) : undefined;
    }
    case 'assistant': {
      const api = piApi(str(m.api));
      if (api === 'web')
        warnings.push(
          `${where}: api ${JSON.stringify(m.api)} has no Baton equivalent: the turn is kept without replayable state`,
        );
      const turn: Turn = {
        id,
        role: 'assistant',
        origin: { provider: str(m.provider) ?? 'unknown', api, model: str(m.model) ?? 'unknown' },
        blocks: assistantBlocks(m, api, where, warnings),
      };
      const usage = usageOf(m.usage);
      if (usage) turn.usage = usage;
      const stop = str(m.stopReason);
      if (stop === 'stop') turn.stopReason = 'end_turn';
      else if (stop === 'length') turn.stopReason = 'max_tokens';
      else if (stop === 'toolUse') turn.stopReason = 'tool_use';
      else if (stop === 'aborted') turn.status = 'stopped';
      else if (stop === 'error') {
        turn.status = 'error';
        turn.error = { type: 'error', message: str(m.errorMessage) ?? '' };
      }
      if (stop)
        turn.meta = {
          rawStopReason: stop,
          ...(str(m.errorMessage) && stop !== 'error' ? { errorMessage: str(m.errorMessage)! } : {}),
        };
      return stamp(turn);
    }
    case 'toolResult': {
      const callId = str(m.toolCallId);
      if (!callId) {
        warnings.push(`${where}: tool result without toolCallId not imported`);
        return undefined;
      }
      const parts = (Array.isArray(m.content) ? m.content : [])
        .filter(isRecord)
        .map(mediaBlock)
        .filter((b): b is Block => b !== undefined);
      const content = parts.every((p) => p.type === 'text')
        ? parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n')
        : parts.filter((p) => p.type === 'text' || p.type === 'image');
      const block: Block = { type: 'tool_result', callId, content };
      if (m.isError === true) block.isError = true;
      return stamp({ id, role: 'tool', blocks: [block] });
    }
    case 'bashExecution': {
      const command = typeof m.command === 'string' ? m.command : '';
      const output = typeof m.output === 'string' ? m.output : '';
      return stamp({
        id,
        role: 'user',
        blocks: [
          {
            type: 'text',
            text: fenced(
              `[Shell command run by the user: ${command}${typeof m.exitCode === 'number' ? `, exit code ${m.exitCode}` : ''}]`,
              output,
            ),
          },
        ],
      });
    }
    default:
      warnings.push(`${where}: message role ${JSON.stringify(m.role)} not imported`);
      return undefined;
  }
}
