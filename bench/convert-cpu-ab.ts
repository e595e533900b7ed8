/**
 * Process-CPU A/B of converter builds (bench/README.md, "Cold conversion: no list per turn in the
 * Interactions, Chat and Responses encoders"): the per-conversion CPU time (`process.cpuUsage`, so
 * the time spent waiting for a core on a shared machine is left out) of two or more builds of `lib/providers/index.ts`, interleaved in
 * rotating order in one process, each batch after a minor collection, medians over rounds.
 *
 *   npx esbuild lib/providers/index.ts --bundle --platform=node --format=esm --outfile=bench-results/head.mjs
 *   node --expose-gc [--no-allocation-site-pretenuring] --import tsx bench/convert-cpu-ab.ts \
 *     bench-results/base.mjs bench-results/head.mjs bench-results/base2.mjs \
 *     [--inputs 1000,pi] [--apis anthropic-messages,openai-responses] [--rounds 25] [--batch 20] [--stringify]
 *
 * Prints each build's median CPU ms per conversion and its ratio to the first build; a copy of a
 * build (the same bundle under another name) is the control. `--stringify` times
 * `JSON.stringify` of the body too, as the peer rows do.
 */
import os from 'node:os';
import path from 'node:path';
import type { Transcript, WireApi } from '../lib/transcript/schema';
import type { ConvertTarget } from '../lib/transcript/target';
import { takeFlag } from './cli';
import { loadConverters, loadInput, type Convert } from './convert-builds';
import { median } from './harness';
import { TARGETS } from './targets';

const inputs = (takeFlag('inputs') ?? '1000,pi').split(',');
const apis = (takeFlag('apis') ?? 'anthropic-messages,openai-responses,openai-chat,gemini-interactions').split(
  ',',
) as WireApi[];
const rounds = Number(takeFlag('rounds') ?? 25);
const batch = Number(takeFlag('batch') ?? 20);
const stringify = process.argv.includes('--stringify');
if (stringify) process.argv.splice(process.argv.indexOf('--stringify'), 1);
const builds = process.argv.slice(2).map((f) => path.resolve(f));
if (builds.length < 2) throw new Error('usage: bench/convert-cpu-ab.ts <build.mjs> <build.mjs> [...] [--inputs …]');
const gc = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const converters = await loadConverters(builds);
const load = loadInput;

/** CPU ms (user + system) per conversion over one batch. */
function cpuPerRun(convert: Convert, transcript: Transcript, target: ConvertTarget): number {
  gc!({ type: 'minor' });
  const start = process.cpuUsage();
  for (let i = 0; i < batch; i++) {
    const { body } = convert(transcript, target);
    if (stringify) JSON.stringify(body);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / batch;
}

const log = (line: string) => process.stdout.write(`${line}\n`);
const load1 = () => os.loadavg()[0]!.toFixed(1);
log(
  `node ${process.version} · load ${load1()} · ${builds.length} builds · ${stringify ? 'convert + stringify' : 'convert'}`,
);
for (const name of inputs) {
  const transcript = await load(name);
  for (const api of apis) {
    const target = TARGETS[api];
    const times: number[][] = converters.map(() => []);
    for (const c of converters) for (let w = 0; w < 10; w++) c.convert(transcript, target); // warm-up
    for (let r = 0; r < rounds; r++)
      for (let k = 0; k < converters.length; k++) {
        const j = (r + k) % converters.length;
        times[j]!.push(cpuPerRun(converters[j]!.convert, transcript, target));
      }
    const medians = times.map((t) => median(t));
    const cells = converters.map((c, j) => `${c.name} ${medians[j]!.toFixed(3)}`).join(' · ');
    const ratios = converters
      .slice(1)
      .map((c, j) => `${c.name}/${converters[0]!.name} ${(medians[j + 1]! / medians[0]!).toFixed(2)}`)
      .join(' · ');
    log(`${name} ${api}: ${cells} → ${ratios} (load ${load1()})`);
  }
}
