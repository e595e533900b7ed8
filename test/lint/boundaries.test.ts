/**
 * The import boundaries of lib/ (`.dependency-cruiser.cjs`, run by `npm run lint`): this test runs
 * the project's own dependency-cruiser config on a small fixture tree, written to a temp dir, that
 * breaks each rule once beside imports the rules allow, so weakening or removing a rule fails it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/** The fixture: file → source. Comments say which rule an import breaks; unmarked imports are allowed. */
const FIXTURE: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler', strict: true } }),
  // A circle made only of a value import one way and a type import back: it counts.
  'lib/context/a.ts': "import { b } from './b';\nexport const a = (): number => b;\n",
  'lib/context/b.ts': "import type { a } from './a';\nexport const b = 1;\nexport type A = typeof a;\n",
  'lib/context/c.ts': "import { b } from './b';\nexport const c = b;\n",
  // store importing the background (the BatonError import of docs/architecture.md).
  'lib/store/quota.ts': "import { BatonError } from '../background/core/errors';\nexport const e = BatonError;\n",
  'lib/messaging/errors.ts': 'export class BatonError extends Error {}\n',
  'lib/background/core/errors.ts': "export { BatonError } from '../../messaging/errors';\n",
  // core importing a feature.
  'lib/background/core/router.ts': "import { SendEngine } from '../send';\nexport const r = SendEngine;\n",
  'lib/background/send/index.ts': "export { SendEngine } from './engine';\n",
  // A feature importing another feature's face (allowed) and its internals (refused).
  'lib/background/send/engine.ts':
    "import { plan } from '../disclosure';\nimport { planSend } from '../disclosure/plan';\nimport { BatonError } from '../core/errors';\nexport class SendEngine { p = [plan, planSend, BatonError]; }\n",
  // Tests may reach into any feature.
  'lib/background/send/engine.test.ts': "import { planSend } from '../disclosure/plan';\nexport const t = planSend;\n",
  'lib/background/disclosure/index.ts': "export { planSend as plan } from './plan';\n",
  'lib/background/disclosure/plan.ts': 'export const planSend = 1;\n',
  // The wiring imports features' faces (allowed) and internals (refused).
  'lib/background/handlers.ts':
    "import { SendEngine } from './send';\nimport { planSend } from './disclosure/plan';\nexport const h = [SendEngine, planSend];\n",
  // A feature importing the wiring.
  'lib/background/summary/handlers.ts': "import { h } from '../handlers';\nexport const s = h;\n",
};

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

let dir: string;
let violations: Violation[];
let exitCode: number;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-boundaries-'));
  for (const [file, src] of Object.entries(FIXTURE)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), src);
  }
  const cruise = (outputType: string) =>
    promisify(execFile)(
      process.execPath,
      [CLI, 'lib', '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', outputType],
      { cwd: dir, maxBuffer: 1 << 24 },
    )
      .then((r) => ({ stdout: r.stdout, code: 0 }))
      .catch((e: { stdout: string; code: number }) => ({ stdout: e.stdout, code: e.code }));
  // `err` is what `npm run lint:deps` prints (its exit code fails the lint); `json` names each violation.
  const [err, json] = await Promise.all([cruise('err'), cruise('json')]);
  exitCode = err.code;
  violations = (JSON.parse(json.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const found = (rule: string) =>
  violations
    .filter((v) => v.rule.name === rule)
    .map((v) => `${v.from} -> ${v.to}`)
    .sort();

describe('import boundaries (.dependency-cruiser.cjs)', () => {
  it('fails the lint run when a boundary is broken', () => {
    expect(exitCode).not.toBe(0);
  });

  it('refuses an import circle in lib/, a type-only import included', () => {
    // One report per circle, at the arrow where the walk closed it; c.ts (outside the circle) is not reported.
    expect(found('no-circular')).toHaveLength(1);
    expect(['lib/context/a.ts -> lib/context/b.ts', 'lib/context/b.ts -> lib/context/a.ts']).toContain(
      found('no-circular')[0],
    );
  });

  it('refuses store (or any lib/ folder but the background) importing the background', () => {
    expect(found('background-is-on-top')).toEqual(['lib/store/quota.ts -> lib/background/core/errors.ts']);
  });

  it("refuses core importing a feature, a feature importing another's internals or the wiring, and the wiring importing internals", () => {
    expect(found('background-core-imports-no-feature')).toEqual([
      'lib/background/core/router.ts -> lib/background/send/index.ts',
    ]);
    expect(found('background-feature-internals')).toEqual([
      'lib/background/send/engine.ts -> lib/background/disclosure/plan.ts',
    ]);
    expect(found('background-features-below-wiring')).toEqual([
      'lib/background/summary/handlers.ts -> lib/background/handlers.ts',
    ]);
    expect(found('background-root-uses-feature-faces')).toEqual([
      'lib/background/handlers.ts -> lib/background/disclosure/plan.ts',
    ]);
  });

  it('allows a feature face, core, and a test reaching into another feature', () => {
    const allowed = violations.filter(
      (v) => v.to.endsWith('/index.ts') && v.rule.name !== 'background-core-imports-no-feature',
    );
    expect(allowed).toEqual([]);
    expect(violations.filter((v) => v.from.endsWith('.test.ts'))).toEqual([]);
    expect(
      violations.filter((v) => v.to === 'lib/background/core/errors.ts' && v.from.startsWith('lib/background/')),
    ).toEqual([]);
  });
});
