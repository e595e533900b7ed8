/**
 * Getting a PDF's bytes for "Add this page" (docs/side-panel.md#add-this-page). The browser's PDF
 * viewer keeps the file out of reach of extensions, but the viewer tab's address is the PDF's
 * address, so {@link fetchOwnPdf} runs in that tab (injected with `scripting.executeScript` under
 * the same `activeTab` grant as the page reader, docs/security.md#reading-the-page-you-are-on) and
 * downloads it again, same-origin, with the tab's own cookies. No host permission is needed.
 */

/** What {@link fetchOwnPdf} returns (JSON-safe: Chrome passes script results as JSON). */
export type PdfBytesResult =
  | { ok: true; /** The file, base64. */ base64: string; /** Its size in bytes. */ bytes: number }
  | {
      ok: false;
      /** `too-large`: over the cap (`bytes` is its size when known); `download`: the fetch failed. */
      problem: 'too-large' | 'download';
      detail?: string;
      bytes?: number;
    };

/**
 * Runs IN THE TAB (serialised by `executeScript({func})`, so it uses nothing from outside its own
 * body): fetches `location.href` and returns its bytes as base64, stopping as soon as more than
 * `maxBytes` arrived (or `Content-Length` says so). Never throws.
 */
export async function fetchOwnPdf(maxBytes: number): Promise<PdfBytesResult> {
  try {
    const response = await fetch(location.href, { credentials: 'include', cache: 'force-cache' });
    if (!response.ok || !response.body) return { ok: false, problem: 'download', detail: `HTTP ${response.status}` };
    const declared = Number(response.headers.get('content-length'));
    if (declared > maxBytes) {
      void response.body.cancel();
      return { ok: false, problem: 'too-large', bytes: declared };
    }
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        void reader.cancel();
        return { ok: false, problem: 'too-large' };
      }
      chunks.push(value);
    }
    // base64 in slices: String.fromCharCode takes a bounded number of arguments.
    let binary = '';
    for (const chunk of chunks)
      for (let i = 0; i < chunk.length; i += 0x8000)
        binary += String.fromCharCode.apply(null, Array.from(chunk.subarray(i, i + 0x8000)));
    return { ok: true, base64: btoa(binary), bytes: size };
  } catch (e) {
    return { ok: false, problem: 'download', detail: e instanceof Error ? e.message : String(e) };
  }
}
