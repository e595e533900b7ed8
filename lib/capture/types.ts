/**
 * What a site reader gets out of a chat page (the content script sends it as the `captureSubmit`
 * payload; lib/messaging/capture-schema.ts checks it again in the background, I1).
 */

/** The three chat sites Baton reads (security-requirements.md N1: the only content-script matches). */
export type CaptureSite = 'chatgpt' | 'claude' | 'gemini';

/** A piece of a captured message, in page order: text (Markdown), or an image as a reference (URL only, never fetched). */
export type CapturedPart = { type: 'text'; text: string } | { type: 'image'; url: string };

/** One visible message of the page. `model` is the model the page names for it, when it does. */
export interface CapturedMessage {
  role: 'user' | 'assistant';
  parts: CapturedPart[];
  model?: string;
}

/** A page read by {@link readConversation} (lib/capture/index.ts). */
export interface CapturedConversation {
  site: CaptureSite;
  /** The page's URL (`location.href`). */
  url: string;
  /** The page's title, when it has one. */
  title?: string;
  messages: CapturedMessage[];
  /** True when the page shows only part of the conversation (earlier turns not loaded). */
  partial: boolean;
  /** Why `partial` is what it is (what was detected, or why nothing can be detected on this site). */
  partialReason: string;
}

/** Reads one site's page. Pure DOM code: no network, no storage, no cookies. */
export type SiteReader = (doc: Document, url: string) => CapturedConversation;
