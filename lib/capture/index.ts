/**
 * Capture from the three chat sites: pick the reader for a page URL and read the visible
 * conversation. Pure DOM code (runs in the content script and in unit tests over saved pages).
 */
import { readChatgpt } from './chatgpt';
import { readClaude } from './claude';
import { readGemini } from './gemini';
import type { CapturedConversation, CaptureSite, SiteReader } from './types';

export type { CapturedConversation, CapturedMessage, CapturedPart, CaptureSite } from './types';

/** The exact origin of each site (security-requirements.md M2, N1). */
export const SITE_ORIGINS: Readonly<Record<CaptureSite, string>> = {
  chatgpt: 'https://chatgpt.com',
  claude: 'https://claude.ai',
  gemini: 'https://gemini.google.com',
};

const READERS: Readonly<Record<CaptureSite, SiteReader>> = {
  chatgpt: readChatgpt,
  claude: readClaude,
  gemini: readGemini,
};

/** The site whose origin `url` has exactly, or undefined (another host, `http:`, a look-alike). */
export function siteOf(url: string): CaptureSite | undefined {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return undefined;
  }
  return (Object.keys(SITE_ORIGINS) as CaptureSite[]).find((s) => SITE_ORIGINS[s] === origin);
}

/**
 * Reads the conversation `doc` shows. @throws Error when `url` is not one of the three sites.
 * An empty `messages` array means the page shows no conversation (e.g. a new chat).
 */
export function readConversation(doc: Document, url: string): CapturedConversation {
  const site = siteOf(url);
  if (!site) throw new Error(`Not a chat page Baton can read: ${url.slice(0, 200)}`);
  return READERS[site](doc, url);
}
