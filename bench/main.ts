/**
 * `npm run bench [-- --quick] [-- --only conversion,planning,bundle,chromium,search,sync]` (bench/README.md): runs the
 * benchmarks, prints one table (each figure, its target, whether it is met) and writes
 * `bench-results/results.json`. `--quick` is the CI smoke run: smaller inputs and fewer samples,
 * the same figures and the same table. Run with `--expose-gc` (the npm script does) so every
 * sample starts from a collected heap.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeTranscript } from '../lib/transcript/codec';
import type { Transcript } from '../lib/transcript/schema';
import { benchBundles, type BundleResult } from './bundle';
import { captureCount, installCaptureFetch } from './capture';
import { benchChromium, CHROMIUM_FULL, CHROMIUM_QUICK, type ChromiumProfile, type SharedBrowser } from './chromium-run';
import { chromiumRows, type ChromiumResult } from './chromium-rows';
import {
  benchSearch,
  SEARCH_FULL,
  SEARCH_QUICK,
  searchRows,
  type SearchProfile,
  type SearchResult,
} from './chromium-search';
import { benchConversion, type ConversionCell, type ConversionInput } from './conversion';
import { generateTranscript } from './generate';
import { GC_BETWEEN_SAMPLES, type MeasureOptions } from './harness';
import { importerRows } from './importers';
import { benchIncremental, type IncrementalCell } from './incremental';
import { loadAgentSessions } from './sessions';
import { benchPlanning, type PlanningResult } from './planning';
import { benchSyncApply, syncRows, type SyncOverlap, type SyncResult } from './sync';
import {
  bundleRows,
  conversionRows,
  formatTable,
  growthOf,
  incrementalRows,
  planningRows,
  summary,
  type Row,
} from './table';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench-results/results.json');
const SECTIONS = ['conversion', 'planning', 'bundle', 'chromium', 'search', 'sync'] as const;
type Section = (typeof SECTIONS)[number];

/** Sample plan per generated size: full run, and the quick (CI smoke) run. */
interface Profile {
  /** Generated sizes (turns); the last is the "large" one planning runs on. */
  sizes: number[];
  /** Sizes that carry the floor-ratio target (issue: 1,000 and 10,000 turns). */
  floorTargetSizes: number[];
  conversion: (turns: number) => MeasureOptions;
  planWarm: MeasureOptions;
  planCold: MeasureOptions;
  /** Storage, streaming render, heap and cold start in Chromium (`chromium-run.ts`). */
  chromium: ChromiumProfile;
  /** Full-text search in Chromium (`chromium-search.ts`). */
  search: SearchProfile;
}

const FULL: Profile = {
  sizes: [100, 1_000, 10_000],
  floorTargetSizes: [1_000, 10_000],
  // Up to 1,000 turns a sample promotes next to nothing, so a scavenge before it is enough; a
  // mark-compact there made the samples after it 1.5–3× slower, the candidates that allocate most
  // the most (bench/README.md, "Conversion rows: the compaction kept to 10,000 turns").
  conversion: (turns) =>
    turns <= 100
      ? { warmup: 10, minSamples: 30, budgetMs: 4_000, maxSamples: 100, gc: 'minor' }
      : turns <= 1_000
        ? { warmup: 4, minSamples: 15, budgetMs: 12_000, maxSamples: 40, gc: 'minor' }
        : { warmup: 2, minSamples: 7, budgetMs: 45_000, maxSamples: 15 },
  planWarm: { warmup: 3, minSamples: 15, budgetMs: 3_000, maxSamples: 50, gc: 'minor' },
  planCold: { warmup: 1, minSamples: 3, budgetMs: 20_000, maxSamples: 7 },
  chromium: CHROMIUM_FULL,
  search: SEARCH_FULL,
};

/** CI smoke run (< 60 s): the large input is 2,000 turns and every figure gets a few samples. */
const QUICK: Profile = {
  sizes: [100, 1_000, 2_000],
  floorTargetSizes: [1_000, 2_000],
  conversion: (turns) => ({
    warmup: 1,
    minSamples: 3,
    budgetMs: 0,
    maxSamples: 3,
    gc: turns <= 1_000 ? 'minor' : 'major',
  }),
  planWarm: { warmup: 1, minSamples: 3, budgetMs: 0, maxSamples: 3, gc: 'minor' },
  // The median of three: a single sample carried JIT tier-up and whatever the load did in that
  // moment, so the cold rows swung between runs with no change in the code. No warm-up round, to
  // keep `--quick` in CI under a minute: the median already sets a slow first sample aside.
  planCold: { warmup: 0, minSamples: 3, budgetMs: 0, maxSamples: 3, gc: 'minor' },
  chromium: CHROMIUM_QUICK,
  search: SEARCH_QUICK,
};

function parseArgs(argv: readonly string[]): { quick: boolean; only: Set<Section> } {
  const quick = argv.includes('--quick');
  const i = argv.indexOf('--only');
  const listed = i >= 0 ? (argv[i + 1] ?? '').split(',') : [...SECTIONS];
  const bad = listed.filter((s) => !(SECTIONS as readonly string[]).includes(s));
  if (bad.length > 0) throw new Error(`bench: unknown section(s) ${bad.join(', ')}; expected ${SECTIONS.join(', ')}`);
  return { quick, only: new Set(listed as Section[]) };
}

const T0 = performance.now();
const log = (line: string) =>
  process.stderr.write(`[${((performance.now() - T0) / 1000).toFixed(1).padStart(5)} s] ${line}\n`);

function generated(turns: number): ConversionInput {
  const t0 = performance.now();
  const transcript = decodeTranscript(generateTranscript({ turns }));
  log(
    `generated ${turns.toLocaleString('en')} turns (${(JSON.stringify(transcript).length / 1e6).toFixed(1)} MB JSON) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return { label: `${turns.toLocaleString('en')} turns`, turns, transcript, generated: true };
}

async function main(): Promise<void> {
  const { quick, only } = parseArgs(process.argv.slice(2));
  const profile = quick ? QUICK : FULL;
  const started = performance.now();
  installCaptureFetch(); // No library reaches the network, whatever it tries.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  if (!GC_BETWEEN_SAMPLES)
    log('note: run with node --expose-gc (npm run bench does) to collect the heap between samples');
  const notes: string[] = [];

  const cells: ConversionCell[] = [];
  let planning: PlanningResult = { ok: false, note: 'not run (--only)' };
  let incremental: IncrementalCell[] = [];
  let largestTranscript: Transcript | undefined;
  const largest = profile.sizes.at(-1)!;
  for (const turns of profile.sizes) {
    const plans = only.has('planning') && turns === largest;
    if (!only.has('conversion') && !plans) continue;
    const input = generated(turns);
    if (turns === largest) largestTranscript = input.transcript;
    if (only.has('conversion')) cells.push(...(await benchConversion(input, profile.conversion(turns), log)));
    if (plans) {
      log(`planning on ${largest.toLocaleString('en')} turns`);
      planning = await benchPlanning(input.transcript, profile.planWarm, profile.planCold, log);
      if (!planning.ok) notes.push(planning.note);
    }
  }
  if (only.has('conversion')) {
    for (const session of await loadAgentSessions()) {
      if (!session.ok) {
        notes.push(`${session.name} ${session.note}`);
        log(`${session.name} ${session.note}`);
        continue;
      }
      if (session.note) notes.push(`${session.name}: ${session.note}`);
      const input: ConversionInput = {
        label: `${session.name} (${session.transcript.turns.length} turns)`,
        turns: session.transcript.turns.length,
        transcript: session.transcript,
        generated: false,
      };
      log(`${session.name}: ${input.turns} turns`);
      cells.push(...(await benchConversion(input, profile.conversion(input.turns), log)));
    }
    log(`incremental conversion on ${largest.toLocaleString('en')} turns`);
    incremental = await benchIncremental(
      largestTranscript ?? generated(largest).transcript,
      { ...profile.planCold, warmup: 1, minSamples: 3, maxSamples: Math.max(3, profile.planCold.maxSamples) },
      log,
    );
  }
  // security-requirements.md I3: a malformed 20,000-node export imports in well under 5 s (was a timed unit test).
  if (only.has('conversion')) log('importer: ChatGPT export, 20,000-node cycle and chain');
  const imports = only.has('conversion')
    ? await importerRows(20_000, {
        warmup: 1,
        minSamples: 3,
        budgetMs: quick ? 2_000 : 10_000,
        maxSamples: quick ? 3 : 10,
      })
    : [];
  let bundles: BundleResult = { ok: false, note: 'not run (--only)' };
  if (only.has('bundle')) {
    log('bundle sizes');
    bundles = benchBundles(log);
  }
  let chromium: ChromiumResult = { ok: false, note: 'not run (--only)' };
  // The quick run starts Chromium once: the search section takes the Chromium section's browser
  // (emptied first). The full run gives each section a fresh browser and profile, as before.
  const shared: SharedBrowser | undefined = quick && only.has('search') ? {} : undefined;
  if (only.has('chromium')) {
    log('chromium: storage, streaming render, heap, service worker cold start');
    chromium = await benchChromium(profile.chromium, log, shared);
    if (!chromium.ok) {
      notes.push(`chromium: ${chromium.note}`);
      log(`chromium skipped: ${chromium.note}`);
    }
  }

  // The quick run sets the sync section up (device A writes and pushes its turns, in this process)
  // while Chromium seeds the search index; the search queries wait until that is done, and the
  // sync apply is timed after them: no timed figure runs beside other work.
  let sync: SyncResult = { ok: false, note: 'not run (--only)' };
  let syncRun: Promise<SyncResult> | undefined;
  let syncSetUp: Promise<void> | undefined;
  let searchDone: () => void = () => {};
  if (only.has('sync') && quick && only.has('search')) {
    log('sync: applying 1,000 remote turns (set up beside the search section)');
    let setUp: () => void = () => {};
    syncSetUp = new Promise<void>((r) => (setUp = r));
    const overlap: SyncOverlap = { setUp, timeAfter: new Promise<void>((r) => (searchDone = r)) };
    syncRun = benchSyncApply(1_000, 1, log, overlap);
  }

  let search: SearchResult = { ok: false, note: 'not run (--only)' };
  if (only.has('search')) {
    log('search: full-text search over the seeded index');
    search = await benchSearch(profile.search, log, shared, syncSetUp);
    if (!search.ok) notes.push(`search: ${search.note}`);
  }
  searchDone();
  if (syncRun) log('sync: timing the apply');
  else if (only.has('sync')) {
    log('sync: applying 1,000 remote turns');
    syncRun = benchSyncApply(1_000, quick ? 1 : 3, log);
  }
  if (syncRun) {
    sync = await syncRun;
    if (!sync.ok) notes.push(`sync: ${sync.note}`);
  }

  const rows: Row[] = [
    ...(only.has('conversion') ? conversionRows(cells, profile.floorTargetSizes) : []),
    ...imports,
    ...incrementalRows(incremental),
    ...(only.has('planning') ? planningRows(planning, largest) : []),
    ...(only.has('bundle') ? bundleRows(bundles) : []),
    ...(only.has('chromium') ? chromiumRows(chromium) : []),
    ...(only.has('search') ? searchRows(search, profile.search) : []),
    ...(only.has('sync') ? syncRows(sync) : []),
  ];
  const elapsedS = (performance.now() - started) / 1000;
  process.stdout.write(
    `\nBaton benchmarks${quick ? ' (--quick smoke run: smaller inputs, fewer samples)' : ''} · node ${process.version} · ${os.cpus().length} CPUs · load ${os.loadavg()[0]!.toFixed(1)} · gc between samples: ${GC_BETWEEN_SAMPLES ? 'yes' : 'no'}\n\n`,
  );
  process.stdout.write(
    `${formatTable(rows)}\n\n${summary(rows)} · ${elapsedS.toFixed(0)} s · ${captureCount()} peer requests intercepted, none sent\n`,
  );
  for (const n of notes) process.stdout.write(`note: ${n}\n`);

  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  const json = {
    date: new Date().toISOString(),
    quick,
    sections: [...only],
    machine: {
      node: process.version,
      platform: `${os.platform()} ${os.arch()}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      loadavg: os.loadavg(),
    },
    gcBetweenSamples: GC_BETWEEN_SAMPLES,
    elapsedS,
    conversion: cells,
    growth: growthOf(cells),
    incremental,
    planning,
    bundles,
    chromium,
    search,
    notes,
    rows,
  };
  fs.writeFileSync(RESULTS, `${JSON.stringify(json, null, 2)}\n`);
  process.stdout.write(`results: ${path.relative(process.cwd(), RESULTS)}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
