/**
 * What the converter A/B scripts share (`cold-ab.ts`, `convert-cpu-ab.ts`): each build's
 * `convertTranscript`, loaded from a bundled `.mjs`, and the inputs they name.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodeTranscript } from '../lib/transcript/codec';
import type { Transcript } from '../lib/transcript/schema';
import type { ConvertTarget } from '../lib/transcript/target';
import { generateTranscript } from './generate';
import { loadPiSession } from './pi-session';

/** A build's `convertTranscript`, as far as the A/B scripts call it. */
export type Convert = (t: Transcript, target: ConvertTarget) => { body: unknown };

/** Imports each bundled build (`<name>.mjs`) and names it by its file name without `.mjs`. */
export async function loadConverters(builds: readonly string[]): Promise<{ name: string; convert: Convert }[]> {
  const converters: { name: string; convert: Convert }[] = [];
  for (const file of builds) {
    const mod = (await import(pathToFileURL(file).href)) as { convertTranscript: Convert };
    converters.push({ name: path.basename(file, '.mjs'), convert: mod.convertTranscript });
  }
  return converters;
}

/**
 * An input by name: `pi` (the real pi session from ../shared/fixtures) or a number of generated turns.
 * @throws Error when the pi session cannot be read (its note says why).
 */
export async function loadInput(name: string): Promise<Transcript> {
  if (name === 'pi') {
    const pi = await loadPiSession();
    if (!pi.ok) throw new Error(pi.note);
    return pi.transcript;
  }
  return decodeTranscript(generateTranscript({ turns: Number(name) }));
}
