/**
 * Token estimates per target (docs/disclosure.md, "Token estimates per target").
 *
 * OpenAI-family models are counted exactly with `gpt-tokenizer` (o200k_base or cl100k_base; only
 * those two encodings are imported). Claude, Gemini and other models are estimated from
 * characters and corrected later by the usage their responses report (`token-cache.ts`).
 * Every count here is in tokens and uncorrected. The numbers and their sources:
 *
 * - Characters per token: Claude ≈ 3.5 ("a token approximately represents 3.5 English
 *   characters", https://docs.anthropic.com/en/docs/about-claude/glossary); Gemini ≈ 4 ("a token
 *   is equivalent to about 4 characters", https://ai.google.dev/gemini-api/docs/tokens); others
 *   3.5 (assumed, the more conservative of the two).
 * - Per message 3 tokens, plus 3 priming the reply (OpenAI Cookbook, "How to count tokens with
 *   tiktoken", https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken); the same
 *   numbers are assumed for the other providers (the learned correction absorbs the difference).
 * - Images, from the dimensions in the stored bytes' header (`imageSizeOfBase64`), by each
 *   provider's documented formula ({@link imageTokens}):
 *   OpenAI (high detail): fit within 2048×2048, then shortest side down to 768 px, then
 *   85 + 170 per 512-px tile (https://platform.openai.com/docs/guides/images-vision,
 *   "Calculating costs"); Claude: long edge down to 1568 px, then width × height / 750, at most
 *   ~1,600 ("If your image's long edge is more than 1568 pixels, or your image is more than
 *   ~1,600 tokens, it will first be scaled down", https://docs.anthropic.com/en/docs/build-with-claude/vision,
 *   "Evaluate image size"); Gemini: 258 when both sides are ≤ 384 px, else 258 per 768×768 tile
 *   (https://ai.google.dev/gemini-api/docs/tokens, "Multimodal tokens"; Gemini 3's
 *   `media_resolution` may count more, learned by the usage correction); others as Claude
 *   (assumed). When the dimensions cannot be read (a URL, unknown bytes), one fixed estimate per
 *   image ({@link IMAGE_TOKENS}): OpenAI 765 = a 1024×1024 image at high detail; Claude 1,600 ≈ the
 *   largest unresized image; Gemini 1,120 = Gemini 3's default (high) image resolution
 *   (https://ai.google.dev/gemini-api/docs/media-resolution); others 1,600 (assumed).
 * - PDF pages (pages counted from `/Type /Page` in base64 data, else 1): Claude 3,000, the top of
 *   "1,500-3,000 tokens per page" (https://docs.anthropic.com/en/docs/build-with-claude/pdf-support);
 *   Gemini 560 = Gemini 3's default (medium) PDF resolution (media-resolution page above; 258 per
 *   page on Gemini 2.x); OpenAI 1,500 (assumed: the page's text plus its image,
 *   https://platform.openai.com/docs/guides/pdf-files); others 3,000 (assumed).
 * - Claude tool use adds a system prompt of 346 tokens (tool_choice auto/none, Claude 4 and 3.7,
 *   https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/overview#pricing).
 * - Tool calls and results: name, id and JSON input or content, plus 5 tokens of framing (assumed).
 */
import { bareModelName } from '../models/normalize';
import { imageSizeOfBase64 } from '../transcript/image-size';
import type { Block, ToolDefinition, Turn } from '../transcript/schema';
import type { TokenizerFamily } from './types';
import { encodingFor, loadEncoding, type Encoding, type EncodingName } from './tokenizer-ranks';

/** Characters per token of the estimated families. */
export const CHARS_PER_TOKEN: Readonly<Record<'anthropic' | 'gemini' | 'generic', number>> = {
  anthropic: 3.5,
  gemini: 4,
  generic: 3.5,
};
/** Tokens per image whose dimensions are unknown, by family (see the module comment for sources). */
export const IMAGE_TOKENS: Readonly<Record<TokenizerFamily, number>> = {
  o200k: 765,
  cl100k: 765,
  anthropic: 1_600,
  gemini: 1_120,
  generic: 1_600,
};
/**
 * Tokens of one image of `size` pixels (width × height) for a family, by the provider's documented
 * formula (see the module comment); {@link IMAGE_TOKENS} when `size` is unknown.
 */
export function imageTokens(family: TokenizerFamily, size: { width: number; height: number } | undefined): number {
  if (!size || !(size.width > 0 && size.height > 0)) return IMAGE_TOKENS[family];
  let { width: w, height: h } = size;
  switch (family) {
    case 'o200k':
    case 'cl100k': {
      // High detail: fit within 2048 × 2048, then the shortest side down to 768 px; 512-px tiles.
      const fit = Math.min(1, 2048 / Math.max(w, h));
      w = Math.round(w * fit);
      h = Math.round(h * fit);
      const shrink = Math.min(1, 768 / Math.min(w, h));
      w = Math.round(w * shrink);
      h = Math.round(h * shrink);
      return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
    }
    case 'gemini':
      if (w <= 384 && h <= 384) return 258;
      return 258 * Math.ceil(w / 768) * Math.ceil(h / 768);
    default: {
      // Claude (and unknown models, assumed): long edge down to 1568 px, then w × h / 750, at most ~1,600.
      const fit = Math.min(1, 1568 / Math.max(w, h));
      return Math.min(1_600, Math.ceil((w * fit * (h * fit)) / 750));
    }
  }
}

/** Tokens of an image block (or a tool result's image part) as sent: from its bytes' dimensions when it carries data. */
function imageBlockTokens(image: { data?: string | undefined }, family: TokenizerFamily): number {
  return imageTokens(family, image.data ? imageSizeOfBase64(image.data) : undefined);
}

/** Tokens per PDF page, by family. */
export const PDF_PAGE_TOKENS: Readonly<Record<TokenizerFamily, number>> = {
  o200k: 1_500,
  cl100k: 1_500,
  anthropic: 3_000,
  gemini: 560,
  generic: 3_000,
};
/** Framing of one message (OpenAI Cookbook; assumed for the others). */
export const MESSAGE_OVERHEAD = 3;
/** Tokens priming the reply, once per request (OpenAI Cookbook). */
export const REPLY_PRIMING = 3;
/** Framing of one tool call or tool result (assumed). */
export const TOOL_FRAMING = 5;
/** Claude's tool-use system prompt (tool_choice auto/none), added when tools are defined or used. */
export const ANTHROPIC_TOOL_SYSTEM_PROMPT = 346;

/** `gpt-tokenizer` treats special-token text (`<|endoftext|>`) in user content as plain text, as the API does. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The tokenizer family of a model: OpenAI gpt-4o / gpt-4.1 / gpt-4.5 / gpt-5+ / o-series /
 * gpt-oss → `o200k`; gpt-4 / gpt-4-turbo / gpt-3.5 → `cl100k`; `claude-*` → `anthropic`;
 * `gemini-*` / `gemma-*` → `gemini`; anything else `generic`. The model id may carry a `models/`
 * prefix, a `vendor/` prefix or a Bedrock wrapper (`bareModelName`).
 */
export function tokenizerFamily(model: string): TokenizerFamily {
  const bare = bareModelName(model);
  if (bare.startsWith('claude-')) return 'anthropic';
  if (bare.startsWith('gemini-') || bare.startsWith('gemma-')) return 'gemini';
  if (/^gpt-(3\.5|35)|^gpt-4(-|$)/.test(bare)) return 'cl100k';
  if (/^(gpt-|o\d|chatgpt-|codex-)/.test(bare)) return 'o200k';
  return 'generic';
}

/** True for the families counted exactly (no learned correction applies). */
export function isExactFamily(family: TokenizerFamily): boolean {
  return family === 'o200k' || family === 'cl100k';
}

const ENCODINGS: Readonly<Record<'o200k' | 'cl100k', EncodingName>> = { o200k: 'o200k_base', cl100k: 'cl100k_base' };

/** The encoding of an exact family, when its rank table is loaded (`tokenizer-ranks.ts`). */
function encodingOf(family: TokenizerFamily): Encoding | undefined {
  return family === 'o200k' || family === 'cl100k' ? encodingFor(ENCODINGS[family]) : undefined;
}

/**
 * The family a plan counts with now: `family` itself, except an exact family whose rank table is
 * not loaded yet (the extension fetches it on first use, `tokenizer-ranks.ts`), which is counted as
 * `generic` — an estimate, labelled as one — rather than shown as an exact number it is not.
 */
export function countingFamily(family: TokenizerFamily): TokenizerFamily {
  return isExactFamily(family) && !encodingOf(family) ? 'generic' : family;
}

/**
 * Loads the tokenizer `model` is counted with, when it has one (OpenAI models); resolves once
 * {@link countingFamily} gives its exact family, or when it cannot be loaded (counts stay estimates).
 */
export async function ensureTokenizer(model: string): Promise<void> {
  const family = tokenizerFamily(model);
  if (family === 'o200k' || family === 'cl100k') await loadEncoding(ENCODINGS[family]);
}

/**
 * Tokens in `text` for a family: exact for OpenAI encodings, ⌈characters / chars-per-token⌉ otherwise
 * (also for an OpenAI encoding whose rank table is not loaded, see {@link countingFamily}).
 */
export function countText(text: string, family: TokenizerFamily): number {
  if (text.length === 0) return 0;
  if (family === 'o200k' || family === 'cl100k') {
    const encoding = encodingOf(family);
    if (encoding) return encoding.countTokens(text, PLAIN_TEXT);
    family = 'generic';
  }
  return Math.ceil(text.length / CHARS_PER_TOKEN[family]);
}

/** How the blocks of one turn are counted. */
export interface TurnCountOptions {
  family: TokenizerFamily;
  /** The turn (or, for a tool turn, the assistant turn it answers) is from the target's own origin: its reasoning and provider items are replayed. */
  sameOrigin: boolean;
  /** Foreign reasoning is sent as labelled text. */
  reasoningAsText: boolean;
  /** Images are left out. */
  omitImages: boolean;
  /** Block indices left out of this send. */
  skip?: ReadonlySet<number>;
}

/** Uncorrected tokens of one turn as it would be sent, and whether it makes tool calls. */
export interface TurnCount {
  tokens: number;
  toolCalls: boolean;
}

/** Counts one turn: {@link MESSAGE_OVERHEAD} plus its blocks (see the module comment). */
export function countTurn(turn: Turn, opts: TurnCountOptions): TurnCount {
  let tokens = MESSAGE_OVERHEAD;
  let toolCalls = false;
  const blocks = turn.blocks;
  for (let i = 0; i < blocks.length; i++) {
    if (opts.skip?.has(i)) continue;
    const block = blocks[i]!;
    if (block.type === 'tool_call') toolCalls = true;
    tokens += countBlock(block, opts);
  }
  return { tokens, toolCalls };
}

function countBlock(block: Block, opts: TurnCountOptions): number {
  const { family } = opts;
  switch (block.type) {
    case 'text':
      return countText(block.text, family);
    case 'thinking':
      // Own reasoning is replayed; foreign reasoning only as labelled text (X3).
      return opts.sameOrigin || opts.reasoningAsText ? countText(block.text, family) : 0;
    case 'redacted_thinking':
      // Opaque; providers strip earlier turns' reasoning from the context they bill.
      return 0;
    case 'tool_call':
      return (
        TOOL_FRAMING +
        countText(block.id, family) +
        countText(block.name, family) +
        countText(JSON.stringify(block.input) ?? '', family)
      );
    case 'tool_result': {
      let n = TOOL_FRAMING + countText(block.callId, family);
      if (typeof block.content === 'string') return n + countText(block.content, family);
      for (const c of block.content)
        n += c.type === 'text' ? countText(c.text, family) : opts.omitImages ? 0 : imageBlockTokens(c, family);
      return n;
    }
    case 'image':
      return opts.omitImages ? 0 : imageBlockTokens(block, family);
    case 'document':
      return documentTokens(block.mediaType, block.data, family);
    case 'provider_item':
      return opts.sameOrigin
        ? countText(JSON.stringify(block.item) ?? '', family)
        : countText(block.text ?? '', family);
  }
}

/**
 * Tokens of one document block (an estimate): PDF: pages × per-page tokens; `text/*`: decoded size /
 * chars-per-token; other types are not sent (0). Also the per-block count of the disclosure preview.
 */
export function documentTokens(mediaType: string, data: string | undefined, family: TokenizerFamily): number {
  if (mediaType === 'application/pdf')
    return Math.max(1, data === undefined ? 1 : pdfPages(data)) * PDF_PAGE_TOKENS[family];
  if (mediaType.startsWith('text/')) {
    const bytes =
      data === undefined
        ? 0
        : Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
    return Math.ceil(
      bytes / (isExactFamily(family) ? 4 : CHARS_PER_TOKEN[family as 'anthropic' | 'gemini' | 'generic']),
    );
  }
  return 0;
}

/** Page objects in a base64 PDF (`/Type /Page`, not `/Pages`); 1 when the data cannot be read. */
export function pdfPages(base64: string): number {
  let text: string;
  try {
    text = atob(base64);
  } catch {
    return 1;
  }
  const matches = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g);
  return Math.max(1, matches?.length ?? 0);
}

/** Uncorrected tokens of the system prompt (instructions) as one message; 0 when blank or absent. */
export function countSystemPrompt(system: string | undefined, family: TokenizerFamily): number {
  return system !== undefined && system.trim() !== '' ? MESSAGE_OVERHEAD + countText(system, family) : 0;
}

/**
 * Uncorrected tokens of what every request carries besides the turns: {@link REPLY_PRIMING}, the
 * system prompt (as one message), the tool definitions as JSON, and Claude's tool-use system
 * prompt when tools are defined or the history uses them.
 */
export function countRequestBase(
  system: string | undefined,
  tools: readonly ToolDefinition[] | undefined,
  toolActivity: boolean,
  family: TokenizerFamily,
): number {
  let n = REPLY_PRIMING;
  n += countSystemPrompt(system, family);
  if (tools && tools.length > 0) n += countText(JSON.stringify(tools), family);
  if (family === 'anthropic' && ((tools?.length ?? 0) > 0 || toolActivity)) n += ANTHROPIC_TOOL_SYSTEM_PROMPT;
  return n;
}

/**
 * Whether to ask a provider's token-count endpoint (Anthropic `count_tokens`, Gemini
 * `countTokens`) instead of estimating: only when `provider` has already received this
 * conversation, since the call itself discloses the conversation (docs/disclosure.md).
 * @param disclosedProviders provider ids the ledger lists for this conversation.
 */
export function shouldUseCountEndpoint(provider: string, disclosedProviders: Iterable<string>): boolean {
  for (const p of disclosedProviders) if (p === provider) return true;
  return false;
}
