/**
 * Conversion benchmark (bench/README.md, "Conversion (Node)"): for each input and wire API, Baton
 * (`convertTranscript` + `JSON.stringify` of the body), the floor (`JSON.stringify` of Baton's own
 * body, built untimed before each floor sample) and the peers (pi-ai and the AI SDK building the same request
 * through their public APIs, stopped at `fetch`), measured interleaved in one process.
 */
import { convertTranscript } from '../lib/providers/index';
import type { Transcript, WireApi } from '../lib/transcript/schema';
import { captureOne } from './capture';
import { measure, timeSync, type Candidate, type MeasureOptions } from './harness';
import { aiSdkModel, aiSdkRequest, toAiSdkPrompt } from './peers/ai-sdk';
import { piModel, piRequest, toPiContext } from './peers/pi-ai';
import { BENCH_APIS, TARGETS } from './targets';

/** One conversation to convert. */
export interface ConversionInput {
  /** Table label, e.g. `1,000 turns` or `pi session (907 turns)`. */
  label: string;
  turns: number;
  transcript: Transcript;
  /** Generated inputs carry the floor and growth targets; the real session only the peer target. */
  generated: boolean;
}

/** One peer's result for one cell: a median, or why it could not be driven. */
export interface PeerResult {
  name: 'pi-ai' | 'AI SDK';
  medianMs: number | null;
  samples: number[];
  /** Size of the body it built (bytes of UTF-16 text), for context: peers do not send identical bodies. */
  bodyChars: number | null;
  /** Why it was not timed. */
  note?: string;
  /** What its message mapping had to do for it to accept the conversation (done outside the timed region). */
  mappingNote?: string;
}

/** The measurements for one input × API. */
export interface ConversionCell {
  input: string;
  turns: number;
  generated: boolean;
  api: WireApi;
  batonMs: number;
  floorMs: number;
  batonSamples: number[];
  floorSamples: number[];
  batonBodyChars: number;
  peers: PeerResult[];
}

interface PeerSetup {
  name: PeerResult['name'];
  run: () => Promise<number>;
  bodyChars: number | null;
  note?: string;
}

/** Tries one request first: a peer that cannot build this request is reported, not timed. */
async function setupPeer(name: PeerResult['name'], start: () => Promise<unknown>): Promise<PeerSetup> {
  const run = async () => (await captureOne(start)).elapsedMs;
  try {
    const { capture } = await captureOne(start);
    JSON.parse(capture.body);
    return { name, run, bodyChars: capture.body.length };
  } catch (e) {
    return { name, run, bodyChars: null, note: `could not be driven: ${(e as Error).message}` };
  }
}

/** Measures every API for one input. `progress` gets one line per finished cell. */
export async function benchConversion(
  input: ConversionInput,
  options: MeasureOptions,
  progress: (line: string) => void = () => {},
): Promise<ConversionCell[]> {
  const { transcript } = input;
  // Peer message formats are built once, outside every timed region.
  const piContext = toPiContext(transcript);
  const aiPrompt = toAiSdkPrompt(transcript);
  const cells: ConversionCell[] = [];
  for (const api of BENCH_APIS) {
    const target = TARGETS[api];
    const batonBodyChars = JSON.stringify(convertTranscript(transcript, target).body).length;
    // A peer without this API throws here, inside setupPeer, and is reported as not driven.
    const piM = () => piModel(api);
    const aiM = aiSdkModel(api);
    const peers = [
      await setupPeer('pi-ai', () => piRequest(api, piM(), piContext)),
      await setupPeer('AI SDK', () => aiSdkRequest(api, aiM, aiPrompt)),
    ];
    const candidates: Candidate[] = [
      { name: 'baton', run: () => timeSync(() => JSON.stringify(convertTranscript(transcript, target).body)) },
      {
        // Baton's body, built untimed before each floor sample and dropped after it: a body kept
        // for the whole run survives every young-generation collection, and V8 then allocates
        // Baton's object literals in the old generation for the rest of the run (allocation-site
        // pretenuring), which slowed Baton's own samples 1.2–4× (bench/README.md, "Cold
        // conversion: the kept floor body").
        name: 'floor',
        run: () => {
          const body = convertTranscript(transcript, target).body;
          return timeSync(() => JSON.stringify(body));
        },
      },
      ...peers.filter((p) => p.bodyChars !== null).map((p) => ({ name: p.name, run: p.run })),
    ];
    const results = await measure(candidates, options);
    const byName = new Map(results.map((r) => [r.name, r]));
    const cell: ConversionCell = {
      input: input.label,
      turns: input.turns,
      generated: input.generated,
      api,
      batonMs: byName.get('baton')!.medianMs,
      floorMs: byName.get('floor')!.medianMs,
      batonSamples: byName.get('baton')!.samples,
      floorSamples: byName.get('floor')!.samples,
      batonBodyChars,
      peers: peers.map((p) => {
        const r = byName.get(p.name);
        const mappingNote =
          p.name === 'AI SDK' && aiPrompt.repairedCalls > 0
            ? `mapping added ${aiPrompt.repairedCalls} error results for unanswered calls, which it rejects`
            : undefined;
        return {
          name: p.name,
          medianMs: r ? r.medianMs : null,
          samples: r ? r.samples : [],
          bodyChars: p.bodyChars,
          ...(p.note ? { note: p.note } : {}),
          ...(mappingNote ? { mappingNote } : {}),
        };
      }),
    };
    cells.push(cell);
    const peerText = cell.peers
      .map((p) => `${p.name} ${p.medianMs === null ? 'n/a' : p.medianMs.toFixed(2)}`)
      .join(', ');
    progress(
      `  ${input.label} ${api}: Baton ${cell.batonMs.toFixed(2)} ms, floor ${cell.floorMs.toFixed(2)} ms, ${peerText} (${cell.batonSamples.length} samples)`,
    );
  }
  return cells;
}
