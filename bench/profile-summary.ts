/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time and inclusive time per
 * function (with file and line), and self time per source file, top entries first.
 *
 *   npx tsx bench/profile-summary.ts bench-results/profiles/<file>.cpuprofile [--top 30] [--filter lib/] [--under convertTranscript]
 *
 * `--under NAME` keeps only samples whose stack holds a function named NAME (V8 books garbage
 * collection on its own root node, so GC is never "under" anything).
 */
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: tsx bench/profile-summary.ts <profile.cpuprofile> [--top N] [--filter text]');
const flag = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const top = Number(flag('top') ?? 30);
const filter = flag('filter');
const under = flag('under');

const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

const short = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/work\/main\//, '')
    .replace(/^.*node_modules\//, 'node_modules/');
const keyOf = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
const files = new Map<string, number>();
const isUnder = (id: number): boolean => {
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur))
    if (byId.get(cur)!.callFrame.functionName === under) return true;
  return false;
};
if (under) for (const id of [...selfUs.keys()]) if (!isUnder(id)) selfUs.delete(id);
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  self.set(keyOf(n), (self.get(keyOf(n)) ?? 0) + us);
  const f = short(n.callFrame.url) || `(${n.callFrame.functionName})`;
  files.set(f, (files.get(f) ?? 0) + us);
  // Inclusive: count each distinct function once per sample stack.
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const k = keyOf(byId.get(cur)!);
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + us);
  }
}

function print(title: string, map: Map<string, number>): void {
  const rows = [...map.entries()]
    .filter(([k]) => !filter || k.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top);
  process.stdout.write(`\n${title} (total ${(total / 1000).toFixed(0)} ms sampled)\n`);
  for (const [k, us] of rows)
    process.stdout.write(
      `${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}\n`,
    );
}

print('self time by function', self);
print('inclusive time by function', inclusive);
print('self time by file', files);
