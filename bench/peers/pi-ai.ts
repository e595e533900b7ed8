/**
 * Peer: `@mariozechner/pi-ai` (benchmark only). {@link toPiContext} maps a Baton transcript into
 * pi-ai's own `Context` once, outside the timed region, keeping each origin's opaque state the way
 * pi-ai itself records it (Anthropic signatures, Responses reasoning items as JSON and
 * `call_id|item_id` tool ids, Gemini thought signatures). {@link piRequest} then builds the request
 * through pi-ai's public `complete()`; the benchmark's capturing `fetch` stops it at the network.
 */
import {
  complete,
  getModel,
  type Api,
  type AssistantMessage,
  type Context,
  type Message,
  type Model,
  type ToolResultMessage,
} from '@mariozechner/pi-ai';
import type { Block, Origin, Transcript, Turn, WireApi } from '../../lib/transcript/schema';
import { TARGETS } from '../targets';

const PI_API: Record<string, Api> = {
  'anthropic-messages': 'anthropic-messages',
  'openai-responses': 'openai-responses',
  'openai-chat': 'openai-completions',
  'gemini-generate-content': 'google-generative-ai',
};

/** pi-ai's model object for each target (its own registry entry; Chat Completions reuses the OpenAI entry with `api: openai-completions`). */
export function piModel(api: WireApi): Model<Api> {
  switch (api) {
    case 'anthropic-messages':
      return getModel('anthropic', 'claude-sonnet-4-5') as Model<Api>;
    case 'openai-responses':
      return getModel('openai', 'gpt-5.1') as Model<Api>;
    case 'openai-chat':
      return { ...(getModel('openai', 'gpt-4.1') as Model<Api>), api: 'openai-completions' };
    case 'gemini-generate-content':
      return getModel('google', 'gemini-2.5-pro') as Model<Api>;
    case 'gemini-interactions':
      // pi-ai has no Interactions API: the conversion row reports the peer as not driven.
      throw new Error('pi-ai has no Gemini Interactions API');
  }
}

/** The id pi-ai keeps for a tool call (`call_id|item_id` for Responses, as its reader records it). */
function piCallId(block: Block & { type: 'tool_call' }, origin: Origin | undefined): string {
  const itemId = block.meta?.itemId;
  return origin?.api === 'openai-responses' && typeof itemId === 'string' ? `${block.id}|${itemId}` : block.id;
}

function assistantContent(turn: Turn): AssistantMessage['content'] {
  const api = turn.origin?.api;
  const out: AssistantMessage['content'] = [];
  for (const b of turn.blocks) {
    switch (b.type) {
      case 'text': {
        const itemId = b.meta?.itemId;
        const textSignature = api === 'openai-responses' && typeof itemId === 'string' ? itemId : b.signature;
        out.push({ type: 'text', text: b.text, ...(textSignature ? { textSignature } : {}) });
        break;
      }
      case 'thinking': {
        let thinkingSignature = b.signature;
        if (api === 'openai-responses' && b.signature) {
          thinkingSignature = JSON.stringify({
            type: 'reasoning',
            id: b.meta?.itemId,
            summary: [{ type: 'summary_text', text: b.text }],
            encrypted_content: b.signature,
          });
        }
        out.push({ type: 'thinking', thinking: b.text, ...(thinkingSignature ? { thinkingSignature } : {}) });
        break;
      }
      case 'redacted_thinking':
        out.push({ type: 'thinking', thinking: '', thinkingSignature: b.data, redacted: true });
        break;
      case 'tool_call':
        out.push({
          type: 'toolCall',
          id: piCallId(b, turn.origin),
          name: b.name,
          arguments: b.input as Record<string, unknown>,
          ...(b.signature ? { thoughtSignature: b.signature } : {}),
        });
        break;
      case 'provider_item':
        break; // No pi-ai form (e.g. a Codex session's reasoning or shell items): left out.
      default:
        throw new Error(`pi-ai mapping: unsupported assistant block ${b.type}`);
    }
  }
  return out;
}

/** pi-ai's stop reason: it leaves aborted and failed turns out of a request, as its own sessions record them. */
function piStopReason(turn: Turn): AssistantMessage['stopReason'] {
  if (turn.status === 'stopped' || turn.status === 'interrupted') return 'aborted';
  if (turn.status === 'error') return 'error';
  return turn.stopReason === 'tool_use' ? 'toolUse' : 'stop';
}

const ZERO_USAGE = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** Maps a generated or imported Baton transcript into pi-ai's `Context` (not timed). @throws Error for blocks pi-ai has no form for. */
export function toPiContext(transcript: Transcript): Context {
  const messages: Message[] = [];
  const calls = new Map<string, { id: string; name: string }>();
  for (const turn of transcript.turns) {
    const timestamp = turn.createdAt ? Date.parse(turn.createdAt) : 0;
    if (turn.role === 'user') {
      messages.push({
        role: 'user',
        timestamp,
        content: turn.blocks.map((b) => {
          if (b.type === 'text') return { type: 'text' as const, text: b.text };
          if (b.type === 'image' && b.data) return { type: 'image' as const, data: b.data, mimeType: b.mediaType };
          throw new Error(`pi-ai mapping: unsupported user block ${b.type}`);
        }),
      });
    } else if (turn.role === 'assistant') {
      const origin = turn.origin!;
      for (const b of turn.blocks)
        if (b.type === 'tool_call') calls.set(b.id, { id: piCallId(b, origin), name: b.name });
      messages.push({
        role: 'assistant',
        content: assistantContent(turn),
        api: PI_API[origin.api] ?? origin.api,
        provider: origin.provider,
        model: origin.requestedModel ?? origin.model,
        usage: ZERO_USAGE,
        stopReason: piStopReason(turn),
        timestamp,
      });
    } else {
      for (const b of turn.blocks) {
        if (b.type === 'provider_item') continue; // No pi-ai form: left out (as in assistant turns).
        if (b.type !== 'tool_result') throw new Error(`pi-ai mapping: unsupported tool block ${b.type}`);
        const call = calls.get(b.callId);
        const content: ToolResultMessage['content'] =
          typeof b.content === 'string'
            ? [{ type: 'text', text: b.content }]
            : b.content.map((c) =>
                c.type === 'text'
                  ? { type: 'text' as const, text: c.text }
                  : { type: 'image' as const, data: c.data ?? '', mimeType: c.mediaType },
              );
        messages.push({
          role: 'toolResult',
          toolCallId: call?.id ?? b.callId,
          toolName: call?.name ?? 'unknown',
          content,
          isError: b.isError === true,
          timestamp,
        });
      }
    }
  }
  const tools = (transcript.tools ?? []).map((t) => ({
    name: t.name,
    description: t.description ?? '',
    parameters: t.inputSchema as never,
  }));
  return { ...(transcript.system !== undefined ? { systemPrompt: transcript.system } : {}), messages, tools };
}

/** Starts one pi-ai request for `api` (resolves once pi-ai has given up on the intercepted reply). */
export function piRequest(api: WireApi, model: Model<Api>, context: Context): Promise<unknown> {
  return complete(model, context, {
    apiKey: 'bench-not-a-key',
    maxRetries: 0,
    maxTokens: TARGETS[api].maxOutputTokens,
  });
}
