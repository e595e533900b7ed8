/**
 * Where a bounded cold preview's time goes outside the database (bench/README.md, "The bounded
 * cold preview"): the bench conversation seeded into fake-indexeddb in Node, its counts stored and
 * its path index built, then alternately the bounded read alone (`readBounded` with the preview's
 * own choice of turns) and the whole counts-only `previewSend` over a cold transcript cache and a
 * fresh `Discloser`, as after a worker restart. The read here is fake-indexeddb's, not Chromium's:
 * the figure to look at is the rest (planning and the preview), and a profile of it
 * (`node --cpu-prof --import tsx bench/bounded-probe.ts`).
 *
 *   node --import tsx bench/bounded-probe.ts [--turns 10000] [--samples 5] [--profile out.cpuprofile]
 *
 * `--profile`: a CPU profile of the timed previews only (not of the seeding), for
 * `bench/profile-summary.ts`.
 */
import 'fake-indexeddb/auto';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { Discloser, previewSend } from '../lib/background/disclosure/engine';
import { keptCandidates } from '../lib/background/disclosure/bounded';
import { ConversationStore } from '../lib/store/conversations';
import { openBatonDb } from '../lib/store/db';
import { DisclosureStore } from '../lib/store/disclosures';
import { pathIndexBuilderFor } from '../lib/store/path-index-build';
import { SettingsStore } from '../lib/store/settings';
import { storedCountsFor } from '../lib/store/turn-counts';
import { decodeTranscript } from '../lib/transcript/codec';
import { Vault } from '../lib/vault/vault';
import { conversationRecords } from './chromium-data';
import { PREVIEW_TARGET } from './chromium-preview';
import { generateTranscript } from './generate';
import { median } from './harness';

const args = process.argv.slice(2);
const flag = (name: string, dflt: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const TURNS = flag('turns', 10_000);
const SAMPLES = flag('samples', 5);
const ID = 'bench-conversation';
const profileAt = args.indexOf('--profile');
const profileFile = profileAt >= 0 ? args[profileAt + 1] : undefined;

const db = await openBatonDb('bounded-probe');
const store = new ConversationStore(db);
const settings = new SettingsStore(db);
const vault = new Vault(db);
const { record, turns } = conversationRecords(decodeTranscript(generateTranscript({ turns: TURNS })), ID);
{
  const t = db.transaction(['conversations', 'turns'], 'readwrite');
  void t.objectStore('conversations').put(record);
  for (const r of turns) void t.objectStore('turns').put(r);
  await t.done;
}
const input = { conversationId: ID, target: PREVIEW_TARGET, countsOnly: true } as const;
const deps = { store, settings, vault };
// Counts made and written back, the index built from the whole read (as in the Chromium A/B).
await previewSend({ ...deps, bounded: false }, new Discloser(new DisclosureStore(db)), input);
await storedCountsFor(db).flush();
store.transcripts.clear();
await previewSend({ ...deps, bounded: false }, new Discloser(new DisclosureStore(db)), input);
await pathIndexBuilderFor(db).build();
store.transcripts.clear();

const read: number[] = [];
const whole: number[] = [];
let last: string;
const session = profileFile !== undefined ? new Session() : undefined;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
for (let s = 0; s < SAMPLES + 1; s++) {
  store.transcripts.clear();
  let t0 = performance.now();
  // The preview's own bound is the model's context window here (no policy set).
  const b = await store.readBounded(ID, (e) => keptCandidates(e, 200_000));
  const r = performance.now() - t0;
  store.transcripts.clear();
  const d = new Discloser(new DisclosureStore(db));
  t0 = performance.now();
  const p = await previewSend(deps, d, input);
  const w = performance.now() - t0;
  // The whole read it starts after answering: let it finish outside the timing.
  await store.cachedTranscript(ID);
  last = `${JSON.stringify(d.lastRead)}, ${p.includedTurns} of ${p.turns} turns, ${b?.standIns} stand-ins`;
  console.log(`sample ${s}: readBounded ${r.toFixed(0)} ms, bounded preview ${w.toFixed(0)} ms (${last})`);
  if (s === 0) continue;
  read.push(r);
  whole.push(w);
}
if (session && profileFile) {
  const { profile } = await session.post('Profiler.stop');
  fs.writeFileSync(profileFile, JSON.stringify(profile));
  session.disconnect();
}
console.log(
  `median: readBounded ${median(read).toFixed(0)} ms, bounded preview ${median(whole).toFixed(0)} ms, rest ≈ ${(median(whole) - median(read)).toFixed(0)} ms`,
);
db.close();
