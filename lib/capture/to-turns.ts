/**
 * A checked capture → Baton turns (transcript-v1.md: `source`, the `web` origin). People's
 * messages stay user turns and answers assistant turns with origin
 * `{provider: '<site>-web', api: 'web', model}` — nothing replayable (N5: nothing captured goes in a
 * system role). Consecutive messages of one role join one turn. Text is stored as the page showed
 * it, literally (I1), except that lone surrogates become U+FFFD (X6) and invisible C0 controls are
 * removed; titles, model names and the partial reason also lose control and bidi-override
 * characters. An image on the page becomes a text line that says it was not sent, its URL kept
 * only in that block's `meta.pageImage`: converters read `text`, never `meta`, so the URL never
 * reaches a provider (docs/architecture.md#the-background-by-feature: "Image URLs from the page are never forwarded to a provider without
 * the person's say").
 */
import { decodeTranscript } from '../transcript/codec';
import { toWellFormed, truncateCodePoints } from '../transcript/text';
import { TRANSCRIPT_FORMAT, type Block, type Origin, type Source, type Turn } from '../transcript/schema';
import type { CaptureSite } from './types';

/** The payload fields this needs (lib/messaging/capture-protocol.ts `CaptureSubmit`). */
export interface CaptureInput {
  site: CaptureSite;
  url: string;
  title?: string;
  partial: boolean;
  partialReason: string;
  messages: {
    role: 'user' | 'assistant';
    parts: ({ type: 'text'; text: string } | { type: 'image'; url: string })[];
    model?: string;
  }[];
}

/** Where `turn.meta.capture` records how the page was read (on the first turn). */
export const CAPTURE_META_KEY = 'capture';

/** What `turns[0].meta.capture` holds; the side panel shows a notice when `partial`. */
export interface CaptureStamp {
  site: CaptureSite;
  partial: boolean;
  partialReason: string;
}

/** The text that stands for an image of the page (its URL is not in it). */
export const PAGE_IMAGE_TEXT = '[An image from the page: not sent to the model]';

/** C0 controls other than tab, line feed and carriage return, and DEL: a page shows none of them. */
// eslint-disable-next-line no-control-regex
const TEXT_CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
/** Every control character and the bidi overrides/isolates, which could disguise a one-line label. */
const LABEL_UNSAFE = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/gu;

/** A captured message text as stored: lone surrogates → U+FFFD (X6), invisible controls removed. */
export function cleanCapturedText(s: string): string {
  return toWellFormed(s).replace(TEXT_CONTROLS, '');
}

/** A one-line label from the page (title, model name): well formed, no controls or bidi overrides. */
function cleanLabel(s: string): string {
  return toWellFormed(s).replace(LABEL_UNSAFE, ' ');
}

const DEFAULT_MODEL: Readonly<Record<CaptureSite, string>> = { chatgpt: 'chatgpt', claude: 'claude', gemini: 'gemini' };

/** The origin of a captured answer (transcript-v1.md: provider `<site>-web`, api `web`). */
export function webOrigin(site: CaptureSite, model: string | undefined): Origin {
  return { provider: `${site}-web`, api: 'web', model: (model && cleanLabel(model).trim()) || DEFAULT_MODEL[site] };
}

/** The `source` of a captured conversation: kind `<site>-web` (transcript-v1.md) and the page URL. */
export function webSource(site: CaptureSite, url: string): Source {
  return { kind: `${site}-web`, url };
}

/** A title: the page's, else the first user text's first line (≤ 60 characters), else "Captured chat". */
export function captureTitle(c: CaptureInput): string {
  const title = c.title ? cleanLabel(c.title).replace(/\s+/g, ' ').trim() : '';
  if (title) return truncateCodePoints(toWellFormed(title), 200, '');
  const first = c.messages.find((m) => m.role === 'user')?.parts.find((p) => p.type === 'text');
  return (first?.type === 'text' && titleFromText(first.text)) || `Captured ${c.site} chat`;
}

/** A one-line title from a text: whitespace collapsed, no controls, at most 60 characters ('' for blank text). */
export function titleFromText(text: string): string {
  const line = cleanLabel(text).replace(/\s+/g, ' ').trim();
  return truncateCodePoints(toWellFormed(line), 60);
}

/**
 * The turns of a capture, ids from `newId`, all stamped `createdAt: now`. The first turn's
 * `meta.capture` records the site and whether the page was partial.
 * @throws TranscriptError (codec.ts) when the result is not a valid transcript; Error when the
 * page showed no message.
 */
export function captureToTurns(c: CaptureInput, newId: () => string, now: string): Turn[] {
  const turns: Turn[] = [];
  for (const m of c.messages) {
    const blocks: Block[] = m.parts.flatMap((p): Block[] => {
      if (p.type === 'image') return [{ type: 'text', text: PAGE_IMAGE_TEXT, meta: { pageImage: p.url } }];
      const text = cleanCapturedText(p.text);
      return text.trim() ? [{ type: 'text', text }] : [];
    });
    if (!blocks.length) continue;
    const last = turns[turns.length - 1];
    const origin = m.role === 'assistant' ? webOrigin(c.site, m.model) : undefined;
    if (last && last.role === m.role && (m.role === 'user' || last.origin?.model === origin?.model)) {
      last.blocks.push(...blocks);
      continue;
    }
    turns.push({ id: newId(), role: m.role, ...(origin ? { origin } : {}), createdAt: now, blocks });
  }
  if (!turns.length) throw new Error('The page shows no conversation to capture.');
  const stamp: CaptureStamp = { site: c.site, partial: c.partial, partialReason: cleanLabel(c.partialReason) };
  turns[0] = { ...turns[0]!, meta: { [CAPTURE_META_KEY]: stamp } };
  // The result must be a valid transcript (roles, blocks, ids): checked, not assumed.
  decodeTranscript({ format: TRANSCRIPT_FORMAT, version: 1, id: 'capture', source: webSource(c.site, c.url), turns });
  return turns;
}
