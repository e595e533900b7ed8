/**
 * The Chromium rows of the benchmark table (bench/README.md, "Storage and rendering" and the service
 * worker's cold start): one row per figure, with its target and whether it is met, or `skipped`
 * with the reason when the part could not run.
 */
import type { OpenResult } from './chromium-panel';
import type { RenderResult } from './chromium-render';
import type { StoragePair } from './chromium-storage';
import type { PreviewResult } from './chromium-preview';
import type { StartupResult } from './chromium-startup';
import { flat } from './chromium-data';
import { ms, type Met, type Row } from './table';
import { CHROMIUM_TARGETS as T } from './targets';

/** One part's outcome: its value, or why it did not run. */
export type Part<V> = { ok: true; value: V } | { ok: false; note: string };

/** Sizes of one run (full: 10,000 turns, 5,000 conversations, 200 KB in 2,000 chunks). */
export interface ChromiumSizes {
  turns: number;
  conversations: number;
  chars: number;
  chunks: number;
}

/** Everything the Chromium section measured. */
export type ChromiumResult =
  | { ok: false; note: string }
  | {
      ok: true;
      sizes: ChromiumSizes;
      builtNow: boolean;
      startup: Part<StartupResult>;
      /** The same with sync switched on (SY-1); absent in results written before it existed. */
      startupSync?: Part<StartupResult>;
      append: Part<StoragePair>;
      list: Part<StoragePair & { listed: number }>;
      roundTrip: Part<{ medianMs: number; listed: number; samples: number[] }>;
      open: Part<OpenResult>;
      render: Part<RenderResult>;
      /** Absent in results of runs before the row existed. */
      preview?: Part<PreviewResult>;
    };

const yes = (ok: boolean): Met => (ok ? 'yes' : 'no');
const n = (x: number) => x.toLocaleString('en');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * The empty extension worker restarted beside Baton's in the same run: its figures and Baton's
 * minus them (pair by pair). Reported beside the absolute figure, which alone is judged against the target.
 */
function emptyWorker(v: StartupResult): string {
  if (!v.empty) return '';
  const { empty } = v;
  return `; an empty extension worker, same run: evaluated at ${ms(empty.evaluatedMs)} ms, ready at ${ms(empty.readyMs)} ms (Baton − empty worker: evaluated ${ms(empty.batonMinusEmpty.evaluatedMs)} ms, ready ${ms(empty.batonMinusEmpty.readyMs)} ms)`;
}

/** One row per figure; a part that did not run gives its rows as `skipped` with the reason. */
export function chromiumRows(
  result: ChromiumResult,
  fallback: ChromiumSizes = { turns: 10_000, conversations: 5_000, chars: 200_000, chunks: 2_000 },
): Row[] {
  const s = result.ok ? result.sizes : fallback;
  const conv = `a ${n(s.turns)}-turn conversation`;
  const stream = `streaming ${Math.round(s.chars / 1000)} KB in ${n(s.chunks)} chunks`;
  const row = <V>(
    part: Part<V> | undefined,
    section: string,
    figure: string,
    target: string,
    make: (v: V) => Pick<Row, 'value' | 'met'>,
  ): Row => {
    if (!result.ok) return { section, figure, value: result.note, target, met: 'skipped' };
    if (!part?.ok) return { section, figure, value: part?.note ?? 'not run', target, met: 'skipped' };
    return { section, figure, target, ...make(part.value) };
  };
  const r = result.ok ? result : undefined;
  return [
    row(r?.append, 'storage', `append 1 turn to ${conv}`, `< ${T.appendMs} ms (floor: raw IndexedDB put)`, (v) => ({
      value: `Baton ${ms(v.batonMs)} ms / floor ${ms(v.floorMs)} ms = ${(v.batonMs / v.floorMs).toFixed(2)}×`,
      met: yes(v.batonMs < T.appendMs),
    })),
    row(r?.open, 'storage', `open ${conv} (load + first paint of newest 50)`, `< ${T.openMs} ms`, (v) => ({
      value: `${ms(v.paintMs)} ms (in the DOM at ${ms(v.domMs)} ms; getConversation alone ${ms(v.loadMs)} ms; ${n(v.shownTurns)} turns rendered)`,
      met: yes(v.paintMs < T.openMs),
    })),
    row(
      r?.preview,
      'storage',
      `cold preview of ${conv} (previewSend from a page after a worker restart, counts stored)`,
      `< ${T.coldPreviewMs} ms`,
      (v) => ({
        value: `${ms(v.coldMs)} ms (then warm ${ms(v.warmMs)} ms; ${n(v.included)} of ${n(v.turns)} turns fit; median of ${v.samples.length})`,
        met: yes(v.coldMs < T.coldPreviewMs),
      }),
    ),
    row(
      r?.list,
      'storage',
      `list ${n(s.conversations)} conversations (store.list() in the worker)`,
      `< ${T.listMs} ms (floor: raw IndexedDB getAll)`,
      (v) => ({
        value: `Baton ${ms(v.batonMs)} ms / floor ${ms(v.floorMs)} ms = ${(v.batonMs / v.floorMs).toFixed(2)}× (${n(v.listed)} listed)`,
        met: yes(v.batonMs < T.listMs),
      }),
    ),
    row(
      r?.roundTrip,
      'storage',
      `list ${n(s.conversations)} conversations (listConversations from the side panel)`,
      'report',
      (v) => ({
        value: `${ms(v.medianMs)} ms round trip (${n(v.listed)} listed)`,
        met: '—',
      }),
    ),
    row(r?.render, 'rendering', `${stream} · main-thread ms per chunk`, `< ${T.chunkMs} ms`, (v) => ({
      value: `${ms(v.baton.medianMs)} ms (max ${ms(v.baton.maxMs)} ms, total ${ms(v.baton.totalMs)} ms)`,
      met: yes(v.baton.medianMs < T.chunkMs),
    })),
    row(
      r?.render,
      'rendering',
      `${stream} · first-100 vs last-100 chunks`,
      'no growth (last ≤ 1.5× first + 0.25 ms)',
      (v) => ({
        value: `${ms(v.baton.firstMs)} → ${ms(v.baton.lastMs)} ms (update alone, without style and layout: ${ms(v.batonUpdate.firstMs)} → ${ms(v.batonUpdate.lastMs)} ms; floor ${ms(v.floor.firstMs)} → ${ms(v.floor.lastMs)} ms)`,
        met: yes(flat(v.baton)),
      }),
    ),
    row(r?.render, 'rendering', `${stream} · vs floor (naive full re-render per chunk)`, 'Baton < floor', (v) => ({
      value: `Baton ${ms(v.baton.medianMs)} ms / floor ${ms(v.floor.medianMs)} ms per chunk = ${(v.baton.medianMs / v.floor.medianMs).toFixed(2)}×${v.floorStride > 1 ? ` (floor timed on every ${v.floorStride}th chunk)` : ''}${v.sameText ? '' : ' (final text differs from the floor!)'}`,
      met: yes(v.baton.medianMs < v.floor.medianMs),
    })),
    row(r?.open, 'heap', `${conv} open in the side panel`, `< ${mb(T.heapBytes)} JS heap`, (v) => ({
      value: `${mb(v.heapBytes)} (with an empty chat: ${mb(v.baselineHeapBytes)})`,
      met: yes(v.heapBytes < T.heapBytes),
    })),
    row(
      r?.startup,
      'start-up',
      'service worker cold start, seeded database (background.js evaluated; ready)',
      `evaluated < ${T.evaluatedMs} ms; ready < ${T.readyMs} ms`,
      (v) => ({
        value: `evaluated at ${ms(v.evaluatedMs)} ms, ready (DB open) at ${ms(v.readyMs)} ms; startWorker → running ${ms(v.wallMs)} ms (median of ${v.samples})${emptyWorker(v)}`,
        met: yes(v.evaluatedMs < T.evaluatedMs && v.readyMs < T.readyMs),
      }),
    ),
    row(
      r?.startupSync ?? { ok: false, note: 'not measured' },
      'start-up',
      'service worker cold start, seeded database, sync switched on (evaluated; ready)',
      `evaluated < ${T.evaluatedMs} ms; ready < ${T.readyMs} ms`,
      (v) => ({
        value: `evaluated at ${ms(v.evaluatedMs)} ms, ready at ${ms(v.readyMs)} ms; startWorker → running ${ms(v.wallMs)} ms (median of ${v.samples})${emptyWorker(v)}`,
        met: yes(v.evaluatedMs < T.evaluatedMs && v.readyMs < T.readyMs),
      }),
    ),
  ];
}
