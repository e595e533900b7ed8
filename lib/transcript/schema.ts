/**
 * zod schemas for the Baton transcript, version 1 (docs/transcript.md).
 *
 * The field names are the contract: every object is strict (unknown fields are rejected) except
 * the free-form `meta` objects, which are the only place the project may add fields. Role rules
 * (which block types each role may hold, `origin` on assistant turns, unique turn ids) are checked
 * by {@link decodeTranscript} in `codec.ts`, so that its errors can name the exact path.
 */
import { z } from 'zod';
import { onFirstUse } from './on-first-use';

/** Free-form metadata; the only place where fields outside the contract may appear. */
export const metaSchema = onFirstUse(() => z.record(z.string(), z.unknown()));
export type Meta = z.infer<typeof metaSchema>;

/** ISO 8601 date-time with `Z` or an offset, e.g. `2026-11-30T05:03:33Z`. */
const isoDateTime = onFirstUse(() => z.iso.datetime({ offset: true, local: true }));

/** Every API a turn can come from (`web`: captured from a chat web page, nothing replayable). */
export const originApiSchema = onFirstUse(() =>
  z.enum([
    'anthropic-messages',
    'openai-chat',
    'openai-responses',
    'gemini-generate-content',
    'gemini-interactions',
    'chrome-prompt',
    'web',
  ]),
);
export type OriginApi = z.infer<typeof originApiSchema>;

/**
 * The wire APIs' names as a plain list: reading {@link WIRE_APIS} builds no schema, so evaluating
 * this module builds none (docs/architecture.md#the-service-workers-start-up).
 */
const WIRE_API_NAMES = [
  'anthropic-messages',
  'openai-chat',
  'openai-responses',
  'gemini-generate-content',
  'gemini-interactions',
] as const;

/** The wire APIs Baton converts to and reads from. */
export const wireApiSchema = onFirstUse(() => z.enum(WIRE_API_NAMES));
export type WireApi = z.infer<typeof wireApiSchema>;
/** The same names as {@link wireApiSchema}'s options, in the same order. */
export const WIRE_APIS: readonly WireApi[] = WIRE_API_NAMES;

/**
 * Who produced an assistant turn. `model` is the id the provider reported (often a dated
 * snapshot); `requestedModel` the id Baton asked for; `endpoint` the base URL's origin when not
 * the provider's default.
 */
export const originSchema = onFirstUse(() =>
  z.strictObject({
    provider: z.string().min(1),
    api: originApiSchema,
    model: z.string().min(1),
    requestedModel: z.string().min(1).optional(),
    endpoint: z.string().min(1).optional(),
  }),
);
export type Origin = z.infer<typeof originSchema>;

export const textBlockSchema = onFirstUse(() =>
  z.strictObject({
    type: z.literal('text'),
    text: z.string(),
    /** Opaque, origin-scoped (Anthropic citations). */
    citations: z.array(z.unknown()).optional(),
    /** Opaque, origin-scoped (e.g. Gemini `thoughtSignature` on a text part). */
    signature: z.string().optional(),
    meta: metaSchema.optional(),
  }),
);
export type TextBlock = z.infer<typeof textBlockSchema>;

export const thinkingBlockSchema = onFirstUse(() =>
  z.strictObject({
    type: z.literal('thinking'),
    text: z.string(),
    /** Anthropic signature, Responses `encrypted_content` or Gemini `thoughtSignature`. */
    signature: z.string().optional(),
    meta: metaSchema.optional(),
  }),
);
export type ThinkingBlock = z.infer<typeof thinkingBlockSchema>;

export const redactedThinkingBlockSchema = onFirstUse(() =>
  z.strictObject({
    type: z.literal('redacted_thinking'),
    data: z.string(),
    meta: metaSchema.optional(),
  }),
);
export type RedactedThinkingBlock = z.infer<typeof redactedThinkingBlockSchema>;

export const toolCallBlockSchema = onFirstUse(() =>
  z.strictObject({
    type: z.literal('tool_call'),
    id: z.string().min(1),
    name: z.string().min(1),
    input: z.unknown().refine((v) => v !== undefined, 'input is required'),
    /** Gemini `thoughtSignature` of the part that carried this call. */
    signature: z.string().optional(),
    meta: metaSchema.optional(),
  }),
);
export type ToolCallBlock = z.infer<typeof toolCallBlockSchema>;

/** Standard base64 (RFC 4648 §4), no `data:` prefix, no line breaks, not empty. */
const base64Data = onFirstUse(() =>
  z
    .string()
    .min(1, 'empty data')
    .refine((s) => !s.startsWith('data:'), 'base64 without a "data:" prefix expected')
    .refine((s) => /^[A-Za-z0-9+/]+={0,2}$/.test(s), 'not standard base64'),
);
/** An absolute http(s) URL, or a Cloud Storage `gs://` URI (Gemini `fileData`): nothing else can be fetched by a provider. */
const httpUrl = onFirstUse(() =>
  z.string().refine((s) => /^(https?|gs):\/\/[^\s/$.?#][^\s]*$/i.test(s), 'expected an http(s) or gs:// URL'),
);

const imageFields = onFirstUse(() => ({
  type: z.literal('image'),
  mediaType: z.string().min(1),
  /** base64 without a `data:` prefix. */
  data: base64Data.optional(),
  url: httpUrl.optional(),
  meta: metaSchema.optional(),
}));
const exactlyOneSource = (v: { data?: string | undefined; url?: string | undefined }) =>
  (v.data === undefined) !== (v.url === undefined);
const ONE_SOURCE = { message: 'exactly one of data and url is required', path: ['data'] };

export const imageBlockSchema = onFirstUse(() => z.strictObject(imageFields).refine(exactlyOneSource, ONE_SOURCE));
export type ImageBlock = z.infer<typeof imageBlockSchema>;

export const documentBlockSchema = onFirstUse(() =>
  z
    .strictObject({
      type: z.literal('document'),
      mediaType: z.string().min(1),
      data: base64Data.optional(),
      url: httpUrl.optional(),
      title: z.string().optional(),
      meta: metaSchema.optional(),
    })
    .refine(exactlyOneSource, ONE_SOURCE),
);
export type DocumentBlock = z.infer<typeof documentBlockSchema>;

/** What a `tool_result` may hold when it is not a plain string: text and image blocks. */
export const toolResultContentBlockSchema = onFirstUse(() =>
  z.discriminatedUnion('type', [textBlockSchema, imageBlockSchema]),
);
export type ToolResultContentBlock = z.infer<typeof toolResultContentBlockSchema>;

export const toolResultBlockSchema = onFirstUse(() =>
  z.strictObject({
    type: z.literal('tool_result'),
    callId: z.string().min(1),
    content: z.union([z.string(), z.array(toolResultContentBlockSchema)]),
    isError: z.boolean().optional(),
    meta: metaSchema.optional(),
  }),
);
export type ToolResultBlock = z.infer<typeof toolResultBlockSchema>;

/**
 * A provider's own object with no cross-provider meaning (Anthropic server tools, compaction,
 * Responses custom tool calls, image generation…). Replays only to its own origin.
 */
export const providerItemBlockSchema = onFirstUse(() =>
  z.strictObject({
    type: z.literal('provider_item'),
    api: originApiSchema,
    item: z.unknown(),
    text: z.string().optional(),
    meta: metaSchema.optional(),
  }),
);
export type ProviderItemBlock = z.infer<typeof providerItemBlockSchema>;

export const blockSchema = onFirstUse(() =>
  z.discriminatedUnion('type', [
    textBlockSchema,
    thinkingBlockSchema,
    redactedThinkingBlockSchema,
    toolCallBlockSchema,
    toolResultBlockSchema,
    imageBlockSchema,
    documentBlockSchema,
    providerItemBlockSchema,
  ]),
);
export type Block = z.infer<typeof blockSchema>;
export type BlockType = Block['type'];
export const BLOCK_TYPES: readonly BlockType[] = [
  'text',
  'thinking',
  'redacted_thinking',
  'tool_call',
  'tool_result',
  'image',
  'document',
  'provider_item',
];

export const roleSchema = onFirstUse(() => z.enum(['user', 'assistant', 'tool']));
export type Role = z.infer<typeof roleSchema>;

/** Which block types each role may hold (transcript-v1.md, "Blocks", column "allowed in"). */
export const BLOCKS_ALLOWED_IN: Readonly<Record<Role, readonly BlockType[]>> = {
  user: ['text', 'image', 'document'],
  assistant: ['text', 'thinking', 'redacted_thinking', 'tool_call', 'image', 'provider_item'],
  tool: ['tool_result', 'provider_item'],
};

export const turnStatusSchema = onFirstUse(() => z.enum(['complete', 'streaming', 'interrupted', 'stopped', 'error']));
export type TurnStatus = z.infer<typeof turnStatusSchema>;

export const stopReasonSchema = onFirstUse(() =>
  z.enum(['end_turn', 'max_tokens', 'tool_use', 'stop_sequence', 'refusal', 'content_filter', 'pause_turn', 'other']),
);
export type StopReason = z.infer<typeof stopReasonSchema>;

const tokenCount = onFirstUse(() => z.number().int().nonnegative());
/** Token counts as the provider reported them (tokens). */
export const usageSchema = onFirstUse(() =>
  z.strictObject({
    inputTokens: tokenCount.optional(),
    outputTokens: tokenCount.optional(),
    cacheReadTokens: tokenCount.optional(),
    cacheWriteTokens: tokenCount.optional(),
    reasoningTokens: tokenCount.optional(),
  }),
);
export type Usage = z.infer<typeof usageSchema>;

export const turnErrorSchema = onFirstUse(() => z.strictObject({ type: z.string().min(1), message: z.string() }));
export type TurnError = z.infer<typeof turnErrorSchema>;

/** The provider's own content for a turn, exactly as received, for lossless same-origin replay. */
export const nativeSchema = onFirstUse(() => z.strictObject({ api: originApiSchema, payload: z.unknown() }));
export type Native = z.infer<typeof nativeSchema>;

export const turnSchema = onFirstUse(() =>
  z.strictObject({
    id: z.string().min(1),
    role: roleSchema,
    origin: originSchema.optional(),
    createdAt: isoDateTime.optional(),
    status: turnStatusSchema.optional(),
    stopReason: stopReasonSchema.optional(),
    usage: usageSchema.optional(),
    error: turnErrorSchema.optional(),
    blocks: z.array(blockSchema),
    native: nativeSchema.optional(),
    meta: metaSchema.optional(),
  }),
);
export type Turn = z.infer<typeof turnSchema>;

/** A tool the conversation's client offered; `inputSchema` is a JSON Schema object. */
export const toolDefinitionSchema = onFirstUse(() =>
  z.strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    inputSchema: z.record(z.string(), z.unknown()),
  }),
);
export type ToolDefinition = z.infer<typeof toolDefinitionSchema>;

export const sourceSchema = onFirstUse(() =>
  z.strictObject({
    kind: z.string().min(1),
    id: z.string().optional(),
    url: z.string().optional(),
  }),
);
export type Source = z.infer<typeof sourceSchema>;

export const TRANSCRIPT_FORMAT = 'baton.transcript' as const;

export const transcriptSchema = onFirstUse(() =>
  z.strictObject({
    format: z.literal(TRANSCRIPT_FORMAT),
    version: z.literal(1),
    id: z.string().min(1),
    title: z.string().optional(),
    createdAt: isoDateTime.optional(),
    system: z.string().optional(),
    tools: z.array(toolDefinitionSchema).optional(),
    source: sourceSchema.optional(),
    turns: z.array(turnSchema),
    meta: metaSchema.optional(),
  }),
);
export type Transcript = z.infer<typeof transcriptSchema>;
