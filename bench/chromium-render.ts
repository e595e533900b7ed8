/**
 * Streaming render (bench/README.md): a long markdown answer arriving in many chunks, rendered in the
 * side panel page of the built extension by the real `MarkdownStream`
 * (components/markdown/markdown-stream.ts, exposed by the test build as `globalThis.batonBench`),
 * fed the way the side panel feeds it since streaming became deltas (docs/architecture.md#streaming-to-the-side-panel):
 * `append(chunk)`, never the whole text, against the floor: a naive re-render of the whole message per chunk (marked + DOMPurify on the
 * full text, with Baton's own renderer and sanitiser settings, replacing the container's
 * children). Per chunk, timed in the page: the update plus the style and layout it causes (a
 * forced `offsetHeight`), each chunk in its own task. The floor keeps no state between chunks, so
 * it is timed on every `floorStride`-th chunk only (its cost depends only on the text so far);
 * Baton is timed on every chunk.
 */
import type { Page } from 'playwright-core';
import { chunkStats, chunkText, type ChunkStats } from './chromium-data';

/** The renderers the test build's side panel exposes (entrypoints/sidepanel/main.tsx). */
interface BenchGlobals {
  batonBench?: {
    MarkdownStream: new (root: HTMLElement) => {
      update(text: string, final?: boolean): void;
      append(chunk: string, final?: boolean): void;
    };
    markdownToHtml(src: string): string;
    sanitizeToFragment(html: string, doc?: Document): DocumentFragment;
  };
}

/** Per-chunk statistics of Baton and of the floor, and whether both ended with the same text. */
export interface RenderResult {
  chars: number;
  /** The floor was timed on every this-many-th chunk. */
  floorStride: number;
  baton: ChunkStats;
  /** Baton's update alone, without the style and layout it causes. */
  batonUpdate: ChunkStats;
  floor: ChunkStats;
  /** The final rendered text (whitespace collapsed) is the same for both. */
  sameText: boolean;
}

/**
 * Streams `chunks` into a fresh container with `kind`; returns per-chunk times (ms) and the final
 * text. The floor renders only every `stride`-th chunk (and the last one).
 */
function streamIn(
  page: Page,
  kind: 'baton' | 'floor',
  chunks: readonly string[],
  stride = 1,
): Promise<{ times: number[]; updates: number[]; text: string }> {
  return page.evaluate(
    async (a) => {
      const bench = (globalThis as unknown as BenchGlobals).batonBench;
      if (!bench) throw new Error('bench: globalThis.batonBench is missing (not a test build, or a stale one)');
      const root = document.createElement('div');
      root.className = 'block-text markdown';
      root.style.width = '400px';
      document.body.append(root);
      const stream = a.kind === 'baton' ? new bench.MarkdownStream(root) : undefined;
      const nextTask = () =>
        new Promise<void>((resolve) => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => resolve();
          ch.port2.postMessage(0);
        });
      const times: number[] = [];
      const updates: number[] = [];
      let text = '';
      for (const [i, chunk] of a.chunks.entries()) {
        text += chunk;
        if (!stream && (i + 1) % a.stride !== 0 && i !== a.chunks.length - 1) continue;
        await nextTask();
        const t0 = performance.now();
        if (stream) stream.append(chunk, false);
        else root.replaceChildren(bench.sanitizeToFragment(bench.markdownToHtml(text)));
        updates.push(performance.now() - t0);
        void root.offsetHeight;
        times.push(performance.now() - t0);
      }
      if (stream) stream.append('', true);
      const shown = (root.textContent ?? '').replace(/\s+/g, ' ').trim();
      root.remove();
      return { times, updates, text: shown };
    },
    { kind, chunks, stride },
  );
}

/**
 * Runs the warm-up text (untimed; a different text, so Baton's block cache starts cold on the
 * measured one), then Baton and the floor on `text` in `chunks` chunks. The floor is timed on
 * every `floorStride`-th chunk: its first-100/last-100 windows hold `100 / floorStride` samples.
 */
export async function benchRender(
  page: Page,
  text: string,
  chunks: number,
  warmText: string,
  warmChunks: number,
  floorStride = 1,
): Promise<RenderResult> {
  const warm = chunkText(warmText, warmChunks);
  // The test build exposes the renderers once their lazily loaded chunk is in (entrypoints/sidepanel/main.tsx).
  await page.waitForFunction(() => 'batonBench' in globalThis, undefined, { timeout: 10_000 }).catch(() => undefined);
  await streamIn(page, 'baton', warm);
  await streamIn(page, 'floor', warm, floorStride);
  const parts = chunkText(text, chunks);
  const baton = await streamIn(page, 'baton', parts);
  const floor = await streamIn(page, 'floor', parts, floorStride);
  const edge = Math.max(1, Math.round(100 / floorStride));
  return {
    chars: text.length,
    floorStride,
    baton: chunkStats(baton.times),
    batonUpdate: chunkStats(baton.updates),
    floor: { ...chunkStats(floor.times, edge), chunks: parts.length },
    sameText: baton.text === floor.text,
  };
}
