/** Clipboard access for the side panel (copy a code block, a message, the conversation). */

/** Writes `text` to the clipboard; resolves false when the browser refuses (no permission, no focus). */
export async function copyText(text: string): Promise<boolean> {
  try {
    const clip = (globalThis.navigator as Navigator | undefined)?.clipboard;
    if (!clip?.writeText) return false;
    await clip.writeText(text);
    return true;
  } catch {
    return false;
  }
}
