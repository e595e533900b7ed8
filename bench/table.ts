/**
 * The one table `npm run bench` prints (bench/README.md, "Done when"): every figure with its value, its
 * target and whether the target is met; built from the section results so the JSON and the table
 * never disagree.
 */
import type { WireApi } from '../lib/transcript/schema';
import type { BundleResult } from './bundle';
import type { ConversionCell } from './conversion';
import type { IncrementalCell } from './incremental';
import type { PlanningResult } from './planning';
import { API_LABEL, BENCH_APIS } from './targets';

/** `yes`/`no` for a target, `—` for a figure that is only reported, `pending`/`skipped` for one not measured. */
export type Met = 'yes' | 'no' | '—' | 'pending' | 'skipped';

export interface Row {
  section: string;
  figure: string;
  value: string;
  target: string;
  met: Met;
}

/** Growth of Baton's and the floor's time between two generated sizes, per API. */
export interface Growth {
  api: WireApi;
  from: number;
  to: number;
  baton: number;
  floor: number;
}

/** Baton must be at least 20% faster than the faster peer: time ≤ 0.80 × the peer's. */
export const PEER_RATIO_TARGET = 0.8;
/** At most 1.25 × the floor at 1,000 and 10,000 turns (the generated medium and large inputs). */
export const FLOOR_RATIO_TARGET = 1.25;
/** Warm `plan()` on the large transcript (ms). */
export const PLAN_WARM_TARGET_MS = 50;
/** `plan()` of the largest transcript with a new cache, the turns carrying their stored counts (ms). */
export const PLAN_COLD_TARGET_MS = 150;
/** Converting again after appending one turn, as a share of the cold conversion. */
export const INCREMENTAL_TARGET = 0.1;
/** Side panel bundle, gzip (bytes). */
export const SIDE_PANEL_TARGET_BYTES = 80 * 1024;

/** Milliseconds with a precision that suits their size. */
export function ms(value: number): string {
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}

const yes = (ok: boolean): Met => (ok ? 'yes' : 'no');

/** Growth from the smallest to the largest generated size ≥ 1,000 turns, per API. */
export function growthOf(cells: readonly ConversionCell[]): Growth[] {
  const sizes = [...new Set(cells.filter((c) => c.generated && c.turns >= 1000).map((c) => c.turns))].sort(
    (a, b) => a - b,
  );
  if (sizes.length < 2) return [];
  const [from, to] = [sizes[0]!, sizes.at(-1)!];
  return BENCH_APIS.flatMap((api) => {
    const a = cells.find((c) => c.generated && c.api === api && c.turns === from);
    const b = cells.find((c) => c.generated && c.api === api && c.turns === to);
    return a && b ? [{ api, from, to, baton: b.batonMs / a.batonMs, floor: b.floorMs / a.floorMs }] : [];
  });
}

/** Rows of the conversion section: vs peers and vs floor for each cell, then growth. */
export function conversionRows(cells: readonly ConversionCell[], floorTargetSizes: readonly number[]): Row[] {
  const rows: Row[] = [];
  for (const c of cells) {
    const where = `${c.input} · ${API_LABEL[c.api]}`;
    const timed = c.peers.filter((p) => p.medianMs !== null);
    const peerText = c.peers
      .map(
        (p) =>
          `${p.name} ${p.medianMs === null ? 'n/a' : `${ms(p.medianMs)} ms`}${p.mappingNote ? ` (${p.mappingNote})` : ''}`,
      )
      .join(', ');
    if (timed.length === 0) {
      rows.push({
        section: 'conversion',
        figure: `${where} · vs faster peer`,
        value: `Baton ${ms(c.batonMs)} ms; ${peerText} (${c.peers
          .map((p) => p.note)
          .filter(Boolean)
          .join('; ')})`,
        target: `≤ ${PEER_RATIO_TARGET.toFixed(2)}×`,
        met: 'skipped',
      });
    } else {
      const faster = timed.reduce((a, b) => (b.medianMs! < a.medianMs! ? b : a));
      const ratio = c.batonMs / faster.medianMs!;
      const untimed = c.peers.filter((p) => p.medianMs === null).map((p) => `${p.name}: ${p.note}`);
      rows.push({
        section: 'conversion',
        figure: `${where} · vs faster peer`,
        value: `Baton ${ms(c.batonMs)} ms; ${peerText} → ${ratio.toFixed(2)}× ${faster.name}${untimed.length ? ` (${untimed.join('; ')})` : ''}`,
        target: `≤ ${PEER_RATIO_TARGET.toFixed(2)}× (≥ 20% faster)`,
        met: yes(ratio <= PEER_RATIO_TARGET),
      });
    }
    const floorRatio = c.batonMs / c.floorMs;
    const hasTarget = c.generated && floorTargetSizes.includes(c.turns);
    rows.push({
      section: 'conversion',
      figure: `${where} · vs floor`,
      value: `Baton ${ms(c.batonMs)} ms / floor ${ms(c.floorMs)} ms = ${floorRatio.toFixed(2)}×`,
      target: hasTarget ? `≤ ${FLOOR_RATIO_TARGET.toFixed(2)}×` : 'report',
      met: hasTarget ? yes(floorRatio <= FLOOR_RATIO_TARGET) : '—',
    });
  }
  for (const g of growthOf(cells)) {
    rows.push({
      section: 'conversion',
      figure: `growth ${g.from.toLocaleString('en')}→${g.to.toLocaleString('en')} turns · ${API_LABEL[g.api]}`,
      value: `Baton ×${g.baton.toFixed(2)}, floor ×${g.floor.toFixed(2)}`,
      target: 'Baton ≤ floor',
      met: yes(g.baton <= g.floor),
    });
  }
  return rows;
}

/** Rows of the planning section (a single `pending` row when `lib/context` is not there). */
export function planningRows(result: PlanningResult, turns: number): Row[] {
  const size = `${turns.toLocaleString('en')} turns`;
  if (!result.ok)
    return [
      {
        section: 'planning',
        figure: `plan() · ${size} · warm cache`,
        value: result.note,
        target: `< ${PLAN_WARM_TARGET_MS} ms`,
        met: 'pending',
      },
    ];
  return result.cells.flatMap((c): Row[] => [
    {
      section: 'planning',
      figure: `plan() · ${size} · ${API_LABEL[c.api]} · warm cache`,
      value: `${ms(c.warmMs)} ms (reading .report too: ${ms(c.warmWithReportMs)} ms; ${c.includedTurns} turns fit, ${c.tokenizer})`,
      target: `< ${PLAN_WARM_TARGET_MS} ms`,
      met: yes(c.warmMs < PLAN_WARM_TARGET_MS),
    },
    {
      section: 'planning',
      figure: `plan() · ${size} · ${API_LABEL[c.api]} · cold, counts stored with the turns`,
      value: `${ms(c.coldStoredMs)} ms (nothing stored: ${ms(c.coldMs)} ms; reading .report too: ${ms(c.coldWithReportMs)} ms)`,
      target: `< ${PLAN_COLD_TARGET_MS} ms`,
      met: yes(c.coldStoredMs < PLAN_COLD_TARGET_MS),
    },
    {
      section: 'planning',
      figure: `preview (plan + report) · append 1 turn to ${size} · ${API_LABEL[c.api]}`,
      value: `${ms(c.previewAppendMs)} ms vs cold ${ms(c.previewColdMs)} ms (${pct(c.previewAppendMs, c.previewColdMs)})`,
      target: `≤ ${INCREMENTAL_TARGET * 100} % of cold`,
      met: yes(c.previewAppendMs <= INCREMENTAL_TARGET * c.previewColdMs),
    },
  ]);
}

/** Rows of the incremental conversion: append one turn, convert again with the cache. */
export function incrementalRows(cells: readonly IncrementalCell[]): Row[] {
  return cells.map((c) => ({
    section: 'conversion',
    figure: `append 1 turn to ${(c.turns - 1).toLocaleString('en')} turns, convert again · ${API_LABEL[c.api]}`,
    value: `${ms(c.cachedMs)} ms vs cold ${ms(c.coldMs)} ms (${pct(c.cachedMs, c.coldMs)})`,
    target: `≤ ${INCREMENTAL_TARGET * 100} % of cold`,
    met: yes(c.cachedMs <= INCREMENTAL_TARGET * c.coldMs),
  }));
}

/** `a` as a percentage of `b`. */
function pct(a: number, b: number): string {
  return `${((100 * a) / b).toFixed(0)} %`;
}

/** Rows of the bundle section. */
export function bundleRows(result: BundleResult): Row[] {
  if (!result.ok)
    return [
      {
        section: 'bundle',
        figure: 'bundle sizes',
        value: result.note,
        target: `side panel < ${SIDE_PANEL_TARGET_BYTES / 1024} KB gzip`,
        met: 'skipped',
      },
    ];
  return result.bundles.flatMap((b) => {
    const row: Row = {
      section: 'bundle',
      figure: `${b.name} (gzip${b.files.length > 1 ? `, ${b.files.length} files` : ''})`,
      value: `${(b.gzipBytes / 1024).toFixed(1)} KB (raw ${(b.rawBytes / 1024).toFixed(1)} KB)`,
      target: b.name === 'side panel' ? `< ${SIDE_PANEL_TARGET_BYTES / 1024} KB` : 'report',
      met: b.name === 'side panel' ? yes(b.gzipBytes < SIDE_PANEL_TARGET_BYTES) : '—',
    };
    // The lazy scripts (Chromium build): files of their own, not in background.js nor its code cache.
    const scripts: Row[] = Object.entries(b.lazyScripts ?? {}).map(([file, size]) => ({
      section: 'bundle',
      figure: `${b.name}: ${file}, imported on first use (gzip)`,
      value: `${(size.gzip / 1024).toFixed(1)} KB (raw ${(size.raw / 1024).toFixed(1)} KB)`,
      target: 'report',
      met: '—',
    }));
    if (!b.loaderBytes) return [row, ...scripts];
    // The lazy loaders' bodies: in background.js, but compiled and run on first use (scripts/lazy-modules.ts).
    const loaders = Object.entries(b.loaderBytes);
    const total = loaders.reduce((sum, [, bytes]) => sum + bytes, 0);
    const each = loaders.map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)}`).join(', ');
    const lazy: Row = {
      section: 'bundle',
      figure: `${b.name}: inside lazy loader bodies (raw)`,
      value: `${(total / 1024).toFixed(1)} KB of ${(b.rawBytes / 1024).toFixed(1)} KB (${each || 'none'})`,
      target: 'report',
      met: '—',
    };
    return [row, lazy, ...scripts];
  });
}

/** Formats rows as one aligned text table with a header. */
export function formatTable(rows: readonly Row[]): string {
  const header: Row = {
    section: 'section',
    figure: 'figure',
    value: 'value (medians)',
    target: 'target',
    met: 'met' as Met,
  };
  const all = [header, ...rows];
  const keys = ['section', 'figure', 'value', 'target', 'met'] as const;
  const widths = keys.map((k) => Math.max(...all.map((r) => r[k].length)));
  const line = (r: Row) =>
    keys
      .map((k, i) => r[k].padEnd(widths[i]!))
      .join(' │ ')
      .trimEnd();
  const rule = widths.map((w) => '─'.repeat(w)).join('─┼─');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** One line per unmet target, for the end of the run. */
export function summary(rows: readonly Row[]): string {
  const count = (m: Met) => rows.filter((r) => r.met === m).length;
  return `targets met: ${count('yes')}, not met: ${count('no')}, pending: ${count('pending')}, skipped: ${count('skipped')}, report-only figures: ${count('—')}`;
}
