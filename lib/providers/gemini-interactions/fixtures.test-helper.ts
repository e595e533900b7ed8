/**
 * Test helper: loads the recorded Interactions traffic in
 * `../shared/fixtures/recorded-streams/gemini-interactions/` as SSE events or Interaction objects.
 * Test-only (reads files).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** `../shared/fixtures` next to the project. */
export const SHARED = path.resolve(PROJECT_ROOT, '../shared/fixtures');
/** The Interactions recordings folder. */
export const INTERACTIONS_DIR = path.join(SHARED, 'recorded-streams/gemini-interactions');
/** True when the shared fixtures are present (tests skip visibly otherwise). */
export const hasShared = fs.existsSync(INTERACTIONS_DIR);

/** File names in the recordings folder, sorted (SOURCES.md and other notes excluded). */
export function listFixtures(): string[] {
  return fs
    .readdirSync(INTERACTIONS_DIR)
    .filter((f) => !f.endsWith('.md'))
    .sort();
}

/** A `*.chunks.jsonl` file: one SSE event (the JSON of one `data:` line) per non-empty line. */
export function loadEvents(name: string): unknown[] {
  return fs
    .readFileSync(path.join(INTERACTIONS_DIR, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** A `*.response.json` file (an Interaction object). */
export function loadJson(name: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(INTERACTIONS_DIR, name), 'utf8')) as Record<string, unknown>;
}
