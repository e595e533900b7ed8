/**
 * Fits a page's conversation within the capture caps before it is sent (I1: the background
 * rejects more than 2,000 messages or 2 MB). The newest messages are kept, and the capture is
 * marked partial with the reason, so the side panel says the conversation is incomplete instead of
 * the capture failing. A single message that alone exceeds the cap is cut, and says so.
 */
import { CAPTURE_LIMITS, jsonBytes } from '../messaging/capture-tab';
import type { CapturedConversation, CapturedMessage } from './types';

/** Room left for the rest of the payload (request id, URL, title, reason), in bytes. */
const ENVELOPE_BYTES = 8_000;

function cutMessage(m: CapturedMessage, budget: number): CapturedMessage {
  const parts = m.parts
    .filter((p) => p.type === 'text')
    .map((p) => (p.type === 'text' ? p.text : ''))
    .join('\n\n');
  // A character is at most 3 UTF-8 bytes in JSON here (4-byte ones are 2 UTF-16 units); escapes can double that.
  const keep = parts.slice(parts.length - Math.floor(budget / 6));
  return {
    ...m,
    parts: [
      {
        type: 'text',
        text: `[Baton: the start of this message was cut; it is longer than a capture may be]\n\n${keep}`,
      },
    ],
  };
}

/** `c` itself when it is within the caps; else the newest messages that fit, marked partial. */
export function fitCapture(
  c: CapturedConversation,
  limits: { bytes: number; messages: number } = CAPTURE_LIMITS,
): CapturedConversation {
  if (c.messages.length <= limits.messages && jsonBytes(c) <= limits.bytes - ENVELOPE_BYTES) return c;
  const budget = limits.bytes - ENVELOPE_BYTES - jsonBytes({ ...c, messages: [] });
  const kept: CapturedMessage[] = [];
  let used = 0;
  for (let i = c.messages.length - 1; i >= 0 && kept.length < limits.messages; i--) {
    const m = c.messages[i]!;
    const size = jsonBytes(m) + 1;
    if (used + size > budget) {
      if (!kept.length) kept.push(cutMessage(m, budget));
      break;
    }
    kept.push(m);
    used += size;
  }
  kept.reverse();
  const dropped = c.messages.length - kept.length;
  const reason = `The conversation is larger than a capture may be (${limits.messages} messages, ${limits.bytes} bytes): Baton kept the newest ${kept.length} message(s)${dropped ? ` and left out ${dropped} earlier one(s)` : ' and cut the longest'}.`;
  return { ...c, messages: kept, partial: true, partialReason: reason };
}
