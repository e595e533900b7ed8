/**
 * Peer: the AI SDK (`ai` with `@ai-sdk/anthropic`, `@ai-sdk/openai` `.responses()`/`.chat()` and
 * `@ai-sdk/google`; benchmark only). {@link toAiSdkPrompt} maps a Baton transcript into
 * `ModelMessage[]` once, outside the timed region, with each origin's opaque state in the
 * provider options the AI SDK reads (Anthropic `signature`/`redactedData`, OpenAI `itemId` and
 * `reasoningEncryptedContent`, Google `thoughtSignature`). {@link aiSdkRequest} builds the
 * streaming request through `streamText` with every provider's `fetch` option set to the
 * benchmark's capturing fetch.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { jsonSchema, streamText, tool, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { Block, Origin, Transcript, Turn, WireApi } from '../../lib/transcript/schema';
import { captureFetch } from '../capture';
import { TARGETS } from '../targets';

type ProviderOptions = Record<string, Record<string, string | boolean>>;

const KEY = 'bench-not-a-key';

/** The AI SDK model object for each target, every provider's `fetch` being the capturing one. */
export function aiSdkModel(api: WireApi): LanguageModel {
  const model = TARGETS[api].model;
  switch (api) {
    case 'anthropic-messages':
      return createAnthropic({ apiKey: KEY, fetch: captureFetch })(model);
    case 'openai-responses':
      return createOpenAI({ apiKey: KEY, fetch: captureFetch }).responses(model);
    case 'openai-chat':
      return createOpenAI({ apiKey: KEY, fetch: captureFetch }).chat(model);
    case 'gemini-generate-content':
      return createGoogleGenerativeAI({ apiKey: KEY, fetch: captureFetch })(model);
    case 'gemini-interactions':
      return createGoogleGenerativeAI({ apiKey: KEY, fetch: captureFetch }).interactions(model);
  }
}

/** Where the origin's opaque state goes in AI SDK provider options, per block. */
function stateOptions(b: Block, origin: Origin | undefined): ProviderOptions | undefined {
  const itemId = typeof b.meta?.itemId === 'string' ? b.meta.itemId : undefined;
  switch (origin?.api) {
    case 'anthropic-messages':
      if (b.type === 'thinking' && b.signature) return { anthropic: { signature: b.signature } };
      if (b.type === 'redacted_thinking') return { anthropic: { redactedData: b.data } };
      return undefined;
    case 'openai-responses':
      if (b.type === 'thinking')
        return {
          openai: { ...(itemId ? { itemId } : {}), ...(b.signature ? { reasoningEncryptedContent: b.signature } : {}) },
        };
      return itemId ? { openai: { itemId } } : undefined;
    case 'gemini-generate-content': {
      const sig = b.type === 'text' || b.type === 'thinking' || b.type === 'tool_call' ? b.signature : undefined;
      return sig ? { google: { thoughtSignature: sig } } : undefined;
    }
    default:
      return undefined;
  }
}

function withOptions<T extends object>(part: T, options: ProviderOptions | undefined): T {
  return options ? { ...part, providerOptions: options } : part;
}

function assistantMessage(turn: Turn): ModelMessage {
  // A provider item (e.g. a Codex session's reasoning or shell items) has no AI SDK part: left out.
  const content = turn.blocks.flatMap((b) => {
    if (b.type === 'provider_item') return [];
    const options = stateOptions(b, turn.origin);
    switch (b.type) {
      case 'text':
        return withOptions({ type: 'text' as const, text: b.text }, options);
      case 'thinking':
        return withOptions({ type: 'reasoning' as const, text: b.text }, options);
      case 'redacted_thinking':
        return withOptions({ type: 'reasoning' as const, text: '' }, options);
      case 'tool_call':
        return withOptions({ type: 'tool-call' as const, toolCallId: b.id, toolName: b.name, input: b.input }, options);
      default:
        throw new Error(`AI SDK mapping: unsupported assistant block ${b.type}`);
    }
  });
  return { role: 'assistant', content };
}

/** What {@link toAiSdkPrompt} returns: `streamText` options, plus how many results it had to add. */
export interface AiSdkPrompt {
  system?: string;
  messages: ModelMessage[];
  tools: ToolSet;
  /** Synthetic error results added for unanswered tool calls, which the AI SDK rejects (`AI_MissingToolResultsError`). */
  repairedCalls: number;
}

/** The result Baton's converters synthesise for a call left without one (transcript-v1.md, repairs). */
const NO_RESULT = 'no result: the call was interrupted';

/**
 * Maps a generated or imported Baton transcript into AI SDK `ModelMessage[]` (not timed). The AI SDK
 * refuses a history with unanswered tool calls, so each one gets the error result Baton's converters
 * synthesise for it, here, outside the timed region. @throws Error for blocks it has no form for.
 */
export function toAiSdkPrompt(transcript: Transcript): AiSdkPrompt {
  const messages: ModelMessage[] = [];
  const names = new Map<string, string>();
  let pending: { id: string; name: string }[] = [];
  let repairedCalls = 0;
  const repair = () => {
    if (pending.length === 0) return;
    repairedCalls += pending.length;
    messages.push({
      role: 'tool',
      content: pending.map((c) => ({
        type: 'tool-result' as const,
        toolCallId: c.id,
        toolName: c.name,
        output: { type: 'error-text' as const, value: NO_RESULT },
      })),
    });
    pending = [];
  };
  for (const turn of transcript.turns) {
    if (turn.role === 'tool') {
      const answered = new Set(turn.blocks.map((b) => (b.type === 'tool_result' ? b.callId : '')));
      const missing = pending.filter((c) => !answered.has(c.id));
      pending = [];
      if (missing.length > 0) {
        pending = missing;
        repair();
      }
    } else repair();
    if (turn.role === 'user') {
      messages.push({
        role: 'user',
        content: turn.blocks.map((b) => {
          if (b.type === 'text') return { type: 'text' as const, text: b.text };
          if (b.type === 'image' && b.data) return { type: 'file' as const, data: b.data, mediaType: b.mediaType };
          throw new Error(`AI SDK mapping: unsupported user block ${b.type}`);
        }),
      });
    } else if (turn.role === 'assistant') {
      for (const b of turn.blocks) {
        if (b.type !== 'tool_call') continue;
        names.set(b.id, b.name);
        pending.push({ id: b.id, name: b.name });
      }
      messages.push(assistantMessage(turn));
    } else {
      messages.push({
        role: 'tool',
        // A provider item has no AI SDK part: left out (as in assistant turns).
        content: turn.blocks.flatMap((b) => {
          if (b.type === 'provider_item') return [];
          if (b.type !== 'tool_result') throw new Error(`AI SDK mapping: unsupported tool block ${b.type}`);
          const output =
            typeof b.content === 'string'
              ? b.isError
                ? { type: 'error-text' as const, value: b.content }
                : { type: 'text' as const, value: b.content }
              : {
                  type: 'content' as const,
                  value: b.content.map((c) =>
                    c.type === 'text'
                      ? { type: 'text' as const, text: c.text }
                      : {
                          type: 'file' as const,
                          data: { type: 'data' as const, data: c.data ?? '' },
                          mediaType: c.mediaType,
                        },
                  ),
                };
          return {
            type: 'tool-result' as const,
            toolCallId: b.callId,
            toolName: names.get(b.callId) ?? 'unknown',
            output,
          };
        }),
      });
    }
  }
  repair();
  const tools: ToolSet = {};
  for (const t of transcript.tools ?? [])
    tools[t.name] = tool({ description: t.description ?? '', inputSchema: jsonSchema(t.inputSchema) });
  return { ...(transcript.system !== undefined ? { system: transcript.system } : {}), messages, tools, repairedCalls };
}

/**
 * Starts one AI SDK streaming request for `api` and resolves once the intercepted reply has been
 * handled. Responses gets `store: false`, as Baton and pi-ai send, so the history travels in full
 * rather than as item references.
 */
export async function aiSdkRequest(api: WireApi, model: LanguageModel, prompt: AiSdkPrompt): Promise<unknown> {
  const { repairedCalls: _repaired, ...options } = prompt;
  const result = streamText({
    model,
    ...options,
    maxOutputTokens: TARGETS[api].maxOutputTokens,
    maxRetries: 0,
    ...(api === 'openai-responses' ? { providerOptions: { openai: { store: false } } } : {}),
    onError: () => {},
  });
  await result.consumeStream({ onError: () => {} });
  return undefined;
}
