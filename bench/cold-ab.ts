/**
 * Cold-conversion A/B (bench/README.md, "Cold conversion: fused passes"): two or more builds of
 * Baton's converters against the peers, interleaved in one process, for the rows the peer target
 * is judged on. Each build is a bundle of `lib/providers/index.ts` (so both sides are compiled the
 * same way); a sample is `convertTranscript` + `JSON.stringify` of the body, as in `conversion.ts`.
 *
 *   npx esbuild lib/providers/index.ts --bundle --platform=node --format=esm --outfile=bench-results/head.mjs
 *   node --expose-gc --import tsx bench/cold-ab.ts bench-results/base.mjs bench-results/head.mjs \
 *     [--inputs 1000,pi,10000] [--apis anthropic-messages,openai-responses,openai-chat] [--samples 15]
 *     [--warmup 10] [--convert-only]
 *
 * Prints, per input and API, each candidate's median (ms), the floor (`JSON.stringify` of the first
 * build's body, built untimed before each floor sample) and each build's ratio to the faster peer.
 * `--convert-only` times `convertTranscript` alone and leaves the peers out (the builds' own A/B,
 * without `JSON.stringify`, which is the same work for every build).
 */
import os from 'node:os';
import path from 'node:path';
import type { WireApi } from '../lib/transcript/schema';
import { captureOne, installCaptureFetch } from './capture';
import { takeFlag } from './cli';
import { loadConverters, loadInput } from './convert-builds';
import { measure, timeSync, type Candidate } from './harness';
import { aiSdkModel, aiSdkRequest, toAiSdkPrompt } from './peers/ai-sdk';
import { piModel, piRequest, toPiContext } from './peers/pi-ai';
import { TARGETS } from './targets';

const inputs = (takeFlag('inputs') ?? '1000,pi,10000').split(',');
const apis = (takeFlag('apis') ?? 'anthropic-messages,openai-responses,openai-chat').split(',') as WireApi[];
const samples = Number(takeFlag('samples') ?? 15);
const warmupFlag = takeFlag('warmup');
const convertOnly = process.argv.includes('--convert-only');
if (convertOnly) process.argv.splice(process.argv.indexOf('--convert-only'), 1);
const builds = process.argv.slice(2).map((f) => path.resolve(f));
if (builds.length === 0) throw new Error('usage: bench/cold-ab.ts <build.mjs> [<build.mjs> …] [--inputs …] [--apis …]');

installCaptureFetch(); // No library reaches the network.

const converters = await loadConverters(builds);
const load = loadInput;

const log = (line: string) => process.stdout.write(`${line}\n`);
log(
  `node ${process.version} · load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} · ${builds.length} builds`,
);
for (const name of inputs) {
  const transcript = await load(name);
  const turns = transcript.turns.length;
  const large = turns > 2_000;
  const piContext = toPiContext(transcript);
  const aiPrompt = toAiSdkPrompt(transcript);
  for (const api of apis) {
    const target = TARGETS[api];
    // pi-ai has no Gemini Interactions API: that row is judged against the AI SDK alone.
    const piM = api === 'gemini-interactions' ? undefined : piModel(api);
    const aiM = aiSdkModel(api);
    const candidates: Candidate[] = [
      ...converters.map((c) => ({
        name: c.name,
        run: convertOnly
          ? () => timeSync(() => c.convert(transcript, target))
          : () => timeSync(() => JSON.stringify(c.convert(transcript, target).body)),
      })),
    ];
    // The floor: `JSON.stringify` of the first build's body, built before each floor sample (untimed)
    // and dropped after it. A body kept alive for the whole run survives every young-generation
    // collection, and V8 then allocates that build's object literals in the old generation for the
    // rest of the run (allocation-site pretenuring): the kept build's conversions ran 1.2–4× slower
    // than an identical copy's (bench/README.md, "Cold conversion: the kept floor body").
    const first = converters[0]!;
    if (!convertOnly)
      candidates.push(
        {
          name: 'floor',
          run: () => {
            const body = first.convert(transcript, target).body;
            return timeSync(() => JSON.stringify(body));
          },
        },
        ...(piM
          ? [{ name: 'pi-ai', run: async () => (await captureOne(() => piRequest(api, piM, piContext))).elapsedMs }]
          : []),
        { name: 'AI SDK', run: async () => (await captureOne(() => aiSdkRequest(api, aiM, aiPrompt))).elapsedMs },
      );
    const results = await measure(candidates, {
      warmup: warmupFlag !== undefined ? Number(warmupFlag) : large ? 2 : 10,
      minSamples: samples,
      budgetMs: 0,
      maxSamples: samples,
      gc: large ? 'major' : 'minor',
    });
    if (convertOnly) {
      const [a, ...rest] = results;
      const vs = rest.map((r) => `${r.name}/${a!.name} ${(r.medianMs / a!.medianMs).toFixed(2)}×`).join(' · ');
      log(
        `${name === 'pi' ? 'pi' : turns} ${api} convert: ${results.map((r) => `${r.name} ${r.medianMs.toFixed(2)}`).join(' · ')} → ${vs} (load ${os.loadavg()[0]!.toFixed(1)})`,
      );
      continue;
    }
    const peer = Math.min(...results.filter((r) => r.name === 'pi-ai' || r.name === 'AI SDK').map((r) => r.medianMs));
    const cells = results.map((r) => `${r.name} ${r.medianMs.toFixed(2)}`).join(' · ');
    const ratios = results
      .filter((r) => r.name !== 'pi-ai' && r.name !== 'AI SDK' && r.name !== 'floor')
      .map((r) => `${r.name} ${(r.medianMs / peer).toFixed(2)}×`)
      .join(' · ');
    log(`${name === 'pi' ? 'pi' : turns} ${api}: ${cells} → ${ratios} (load ${os.loadavg()[0]!.toFixed(1)})`);
  }
}
