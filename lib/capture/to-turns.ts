/**
 * A checked capture → Baton turns (transcript-v1.md: `source`, the `web` origin). People's
 * messages stay user turns and answers assistant turns with origin
 * `{provider: '<site>-web', api: 'web', model}` — nothing replayable (N5: nothing captured goes in a
 * system role). Consecutive messages of one role join one turn. Text is stored as the page showed
 * it, literally (I1). An image on the page becomes a text line that says it was not sent, its URL
 * kept only in that block's `meta.pageImage`: converters read `text`, never `meta`, so the URL
 * never reaches a provider (issue 7: "Image URLs from the page are never forwarded to a provider
 * without the person's say").
 */
import { decodeTranscript } from '../transcript/codec';
import { TRANSCRIPT_FORMAT, type Block, type Origin, type Source, type Turn } from '../transcript/schema';
import type { CaptureSite } from './types';

/** The payload fields this needs (lib/messaging/capture-protocol.ts `CaptureSubmit`). */
export interface CaptureInput {
  site: CaptureSite;
  url: string;
  title?: string;
  partial: boolean;
  partialReason: string;
  messages: { role: 'user' | 'assistant'; parts: ({ type: 'text'; text: string } | { type: 'image'; url: string })[]; model?: string }[];
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

const DEFAULT_MODEL: Readonly<Record<CaptureSite, string>> = { chatgpt: 'chatgpt', claude: 'claude', gemini: 'gemini' };

/** The origin of a captured answer (transcript-v1.md: provider `<site>-web`, api `web`). */
export function webOrigin(site: CaptureSite, model: string | undefined): Origin {
  return { provider: `${site}-web`, api: 'web', model: model?.trim() || DEFAULT_MODEL[site] };
}

/** The `source` of a captured conversation: kind `<site>-web` (transcript-v1.md) and the page URL. */
export function webSource(site: CaptureSite, url: string): Source {
  return { kind: `${site}-web`, url };
}

/** A title: the page's, else the first user text's first line (≤ 60 characters), else "Captured chat". */
export function captureTitle(c: CaptureInput): string {
  if (c.title?.trim()) return c.title.replace(/\s+/g, ' ').trim().slice(0, 200);
  const first = c.messages.find((m) => m.role === 'user')?.parts.find((p) => p.type === 'text');
  const line = first?.type === 'text' ? first.text.replace(/\s+/g, ' ').trim() : '';
  return line ? (line.length > 60 ? `${line.slice(0, 59)}…` : line) : `Captured ${c.site} chat`;
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
      return p.text.trim() ? [{ type: 'text', text: p.text }] : [];
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
  const stamp: CaptureStamp = { site: c.site, partial: c.partial, partialReason: c.partialReason };
  turns[0] = { ...turns[0]!, meta: { [CAPTURE_META_KEY]: stamp } };
  // The result must be a valid transcript (roles, blocks, ids): checked, not assumed.
  decodeTranscript({ format: TRANSCRIPT_FORMAT, version: 1, id: 'capture', source: webSource(c.site, c.url), turns });
  return turns;
}
