/**
 * Block-level part of the shared pre-pass (provider-rules.md §0): opaque state that is not the
 * target's own (X3), empty blocks (X4), lone surrogates (X6), unfinished tool calls (A-T9), and
 * media the target cannot take. Every change is recorded in the report.
 */
import type { ReportBuilder, BlockRef } from './report';
import type { Block, DocumentBlock, ImageBlock, Origin, ToolResultBlock } from './schema';
import { describeOrigin, type ResolvedTarget } from './target';
import { fenced, isBlank, isWellFormedDeep, repairSurrogatesDeep } from './text';
import { isApprovalItem } from './imported-state';

/** What the target can take, as the converter tells the pre-pass. */
export interface MediaCapabilities {
  /** The model accepts images at all. */
  vision: boolean;
  /** Accepted image media types (A-I1, C-I1, G-I1). */
  imageMediaTypes: readonly string[];
  /** Images may be given by URL (Gemini: no; it takes inline data or File API URIs only). */
  imageUrls: boolean;
  /** Images may appear in assistant turns (C-R2: not in Chat; A-I2: keep them out of Anthropic's). */
  assistantImages: boolean;
  /** Accepted document media types (empty: none). */
  documentMediaTypes: readonly string[];
  /** Documents may be given by URL. */
  documentUrls: boolean;
}

/** A block on its way to a target, with the input block it came from. */
export interface PreparedBlock {
  /** The block as the target should receive it (a copy when anything changed). */
  block: Block;
  /** The input block (absent for synthesised blocks). Fates recorded against it reach the report. */
  ref?: BlockRef;
  /** True when the block comes from an assistant turn of the target's own origin (X3). */
  sameOrigin: boolean;
  /** The origin of the assistant turn it came from. */
  origin?: Origin;
  /** For `tool_result`: the (mapped) name of the call it answers. */
  toolName?: string;
}

export interface BlockContext {
  target: ResolvedTarget;
  media: MediaCapabilities;
  /** Where fates go: the request's report, or a recorder in front of it (prepare-cache.ts). */
  report: Pick<ReportBuilder, 'add'>;
  role: 'user' | 'assistant' | 'tool';
  sameOrigin: boolean;
  /** The turn holds provider state from an imported Baton file (docs/security.md, imported-state.ts). */
  importedState: boolean;
  origin?: Origin;
  /** The turn stopped at its output limit (stopReason `max_tokens`), so its last call may be cut off (A-T9). */
  unfinished: boolean;
  /** Index of this block's turn's last block, to spot a call cut off at the end (A-T9). */
  isLastBlock: boolean;
}

const text = (t: string): Block => ({ type: 'text', text: t });

/**
 * Prepares one input block: returns the block that stands for it (undefined when dropped; a
 * provider item or foreign reasoning may come back as labelled text), with every change reported
 * against `ref`. Returns the input block itself when nothing changed.
 */
export function prepareBlock(block: Block, ref: BlockRef, ctx: BlockContext): Block | undefined {
  const { report } = ctx;
  let b = block;
  // X6: the allocation-free check first; a copy only for the rare block that needs repair.
  if (!isWellFormedDeep(block)) {
    b = repairSurrogatesDeep(block);
    report.add(ref, 'converted', 'lone surrogates replaced with U+FFFD (X6)');
  }
  switch (b.type) {
    case 'text': {
      if (isBlank(b.text) && !(b.signature !== undefined && ctx.sameOrigin)) {
        report.add(ref, 'dropped', 'empty or whitespace-only text (X4, A-E1)');
        return undefined;
      }
      if (ctx.sameOrigin || (b.signature === undefined && b.citations === undefined)) return b;
      const { signature, citations, ...rest } = b;
      if (signature !== undefined)
        report.add(ref, 'converted', `signature dropped: opaque state of ${describeOrigin(ctx.origin)} (X3)`);
      if (citations !== undefined) report.add(ref, 'converted', `citations dropped, text kept (A-C1, G-C1)`);
      return rest;
    }
    case 'thinking': {
      if (ctx.sameOrigin) {
        if (isBlank(b.text) && b.signature === undefined) {
          report.add(ref, 'dropped', 'empty thinking without signature (A-E2, X4)');
          return undefined;
        }
        return b;
      }
      return foreignReasoning(b.text, ref, ctx, 'reasoning');
    }
    case 'redacted_thinking':
      if (ctx.sameOrigin) return b;
      report.add(ref, 'dropped', `redacted thinking is opaque state of ${describeOrigin(ctx.origin)} (X3)`);
      return undefined;
    case 'tool_call': {
      if (
        b.meta?.partial === true ||
        (ctx.unfinished && ctx.isLastBlock && ctx.role === 'assistant' && b.meta?.partial !== false)
      ) {
        report.add(ref, 'dropped', 'unfinished tool call: its arguments were cut off (A-T9)');
        return undefined;
      }
      if (ctx.sameOrigin || b.signature === undefined) return b;
      const { signature: _s, ...rest } = b;
      report.add(ref, 'converted', `signature dropped: opaque state of ${describeOrigin(ctx.origin)} (X3, G-K5)`);
      return rest;
    }
    case 'provider_item': {
      if (ctx.importedState && isApprovalItem(b.item)) {
        report.add(ref, 'dropped', `${b.api} approval item from an imported file: never replayed (docs/security.md)`);
        return undefined;
      }
      if (ctx.sameOrigin && b.api === ctx.target.api) return b;
      if (isAnthropicCompaction(b.item, b.api)) return compactionSummary(b.item, ref, ctx);
      if (b.text !== undefined && !isBlank(b.text)) {
        report.add(ref, 'converted', `${b.api} item from ${describeOrigin(ctx.origin)} sent as labelled text`);
        return text(fenced(`[${b.api} item from ${describeOrigin(ctx.origin)}, as text]`, b.text));
      }
      report.add(ref, 'dropped', `${b.api} item has no meaning outside ${describeOrigin(ctx.origin)}`);
      return undefined;
    }
    case 'image':
      return prepareImage(b, ref, ctx, ctx.role === 'assistant' && !ctx.media.assistantImages);
    case 'document':
      return prepareDocument(b, ref, ctx);
    case 'tool_result':
      return prepareToolResultMedia(b, ref, ctx);
    default: {
      const never: never = b;
      throw new Error(`unhandled block ${(never as Block).type}`);
    }
  }
}

/** An Anthropic server-side `compaction` block (A-P1, A-P2). */
function isAnthropicCompaction(item: unknown, api: string): item is { content?: unknown } {
  return (
    api === 'anthropic-messages' &&
    typeof item === 'object' &&
    item !== null &&
    (item as { type?: unknown }).type === 'compaction'
  );
}

/** The label of a compaction summary sent to another origin (A-P2). */
export const COMPACTION_SUMMARY_LABEL = 'Summary of the earlier conversation';

/**
 * A-P2: for any other origin, an Anthropic compaction block is its `content` as labelled text
 * that travels as user text (`meta.userText`, moved by the pre-pass into a user turn in front of
 * the rest of its turn), never its `encrypted_content` or `signature`; dropped when `content` is
 * null (compaction failed). Reported either way.
 */
function compactionSummary(item: { content?: unknown }, ref: BlockRef, ctx: BlockContext): Block | undefined {
  if (typeof item.content !== 'string' || isBlank(item.content)) {
    ctx.report.add(ref, 'dropped', 'compaction block without content: nothing to send (A-P2)');
    return undefined;
  }
  ctx.report.add(
    ref,
    'converted',
    `compaction summary by ${describeOrigin(ctx.origin)} sent as labelled user text (A-P2)`,
  );
  return {
    type: 'text',
    text: fenced(`[${COMPACTION_SUMMARY_LABEL}, written by ${describeOrigin(ctx.origin)}]`, item.content),
    meta: { userText: true },
  };
}

function foreignReasoning(body: string, ref: BlockRef, ctx: BlockContext, what: string): Block | undefined {
  if (ctx.target.foreignReasoning === 'text' && !isBlank(body)) {
    ctx.report.add(ref, 'converted', `${what} from ${describeOrigin(ctx.origin)} sent as labelled plain text`);
    return text(fenced(`[Reasoning by ${describeOrigin(ctx.origin)}, shared as plain text]`, body));
  }
  ctx.report.add(
    ref,
    'dropped',
    `${what} from ${describeOrigin(ctx.origin)} cannot be replayed to another model (X3, A-K6, R-K6)`,
  );
  return undefined;
}

/** An image the target can take stays; any other becomes a short placeholder, reported. */
function prepareImage(b: ImageBlock, ref: BlockRef, ctx: BlockContext, assistantForbidden: boolean): Block {
  const reason = imageProblem(b, ctx.media, assistantForbidden);
  if (!reason) return b;
  ctx.report.add(ref, 'converted', `image replaced by a placeholder: ${reason}`);
  return text(`[image omitted: ${reason}]`);
}

function imageProblem(b: ImageBlock, media: MediaCapabilities, assistantForbidden: boolean): string | undefined {
  if (!media.vision) return 'the model does not accept images';
  if (assistantForbidden) return 'the API does not accept images in assistant turns (C-R2, A-I2)';
  if (b.url !== undefined && !media.imageUrls) return 'the API takes only inline image data, not URLs';
  if (b.url !== undefined && !/^https?:/i.test(b.url))
    return `${b.url.split(':')[0]}: URIs can only be read on Google Cloud`;
  // A URL source carries no media type on the wire, so a generic one (`image/*`) is fine there.
  const generic = b.url !== undefined && (b.mediaType === 'image/*' || b.mediaType === 'application/octet-stream');
  if (!generic && !media.imageMediaTypes.includes(b.mediaType))
    return `${b.mediaType} is not an accepted image type (A-I1, C-I1, G-I1)`;
  return undefined;
}

function prepareDocument(b: DocumentBlock, ref: BlockRef, ctx: BlockContext): Block {
  const { media, report } = ctx;
  const ok =
    media.documentMediaTypes.includes(b.mediaType) &&
    (b.url === undefined || (media.documentUrls && /^https?:/i.test(b.url)));
  if (ok) return b;
  const title = b.title ? `"${b.title}" ` : '';
  if (b.mediaType.startsWith('text/') && b.data !== undefined) {
    const decoded = decodeBase64Utf8(b.data);
    if (decoded !== undefined) {
      report.add(ref, 'converted', `${b.mediaType} document sent as labelled text`);
      return text(fenced(`[Document ${title}(${b.mediaType})]`, decoded));
    }
  }
  report.add(ref, 'converted', `document replaced by a placeholder: ${b.mediaType} is not accepted by this target`);
  return text(`[document ${title}omitted: ${b.mediaType} is not accepted by this model]`);
}

function prepareToolResultMedia(b: ToolResultBlock, ref: BlockRef, ctx: BlockContext): ToolResultBlock {
  if (typeof b.content === 'string') return b;
  let changed = false;
  const content = b.content.map((c) => {
    if (c.type !== 'image') return c;
    const reason = imageProblem(c, ctx.media, false);
    if (!reason) return c;
    changed = true;
    ctx.report.add(ref, 'converted', `image in tool result replaced by a placeholder: ${reason}`);
    return { type: 'text' as const, text: `[image omitted: ${reason}]` };
  });
  return changed ? { ...b, content } : b;
}

/** Decodes base64 to UTF-8 text; undefined when it is not valid base64 or not valid UTF-8. */
export function decodeBase64Utf8(data: string): string | undefined {
  try {
    const bin = atob(data);
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
