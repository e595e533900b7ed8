/**
 * The content script's one listener (security-requirements.md M5, N1), pure so it can be tested
 * with spies: it answers only a `runtime.onMessage` delivery from this extension's background
 * (sender id is ours, no tab: not another content script) that is exactly a capture request;
 * then it reads the page and submits it as `captureSubmit`, and acknowledges. It adds no window
 * `message` listener, dispatches no DOM event, reads no cookie or storage and injects no UI.
 */
import { isCaptureTabRequest, type CaptureTabAck } from '../messaging/capture-tab';
import { fitCapture } from './fit';
import type { CapturedConversation } from './types';

/** What the listener needs from the browser and the page. */
export interface ContentDeps {
  /** `browser.runtime.id`. */
  ownId: string;
  /** Reads the page (`readConversation(document, location.href)`). */
  read(): CapturedConversation;
  /** `browser.runtime.sendMessage(message)`: resolves with the background's `{ok, …}` reply. */
  send(message: { type: 'captureSubmit'; payload: unknown }): Promise<unknown>;
}

/** The `sender` fields the listener looks at. */
export interface ContentSender {
  id?: string;
  tab?: unknown;
}

/**
 * A `runtime.onMessage` listener: returns true (answering asynchronously with a
 * {@link CaptureTabAck}) for a capture request from our background, false (no answer) for
 * anything else.
 */
export function createCaptureListener(
  d: ContentDeps,
): (message: unknown, sender: ContentSender, sendResponse: (ack: CaptureTabAck) => void) => boolean {
  return (message, sender, sendResponse) => {
    if (sender.id !== d.ownId || sender.tab !== undefined || !isCaptureTabRequest(message)) return false;
    const { requestId } = message;
    const ack = (ok: boolean, why?: string): CaptureTabAck => ({
      type: 'baton.captureAck',
      requestId,
      ok,
      ...(why ? { message: why.slice(0, 200) } : {}),
    });
    void (async () => {
      try {
        // Within the caps the background enforces (I1): the newest messages, marked partial.
        const page = fitCapture(d.read());
        if (!page.messages.length) return sendResponse(ack(false, 'The page shows no conversation to capture.'));
        const reply = (await d.send({ type: 'captureSubmit', payload: { requestId, ...page } })) as
          { ok?: boolean; error?: { message?: string } } | undefined;
        sendResponse(reply?.ok ? ack(true) : ack(false, reply?.error?.message ?? 'Baton did not answer.'));
      } catch (e) {
        sendResponse(ack(false, e instanceof Error ? e.message : 'The page could not be read.'));
      }
    })();
    return true;
  };
}
