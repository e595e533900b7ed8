/** File and stdin input for the CLI. */
import fs from 'node:fs';
import { parseJson } from '../transcript/codec';
import { CliError } from './errors';

/** Reads FILE, or stdin for `-` / no file, as UTF-8 text. @throws CliError when the file can't be read. */
export function readInput(file: string | undefined): string {
  try {
    return fs.readFileSync(file === undefined || file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new CliError(`${file ?? 'stdin'}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`, { cause: e });
  }
}

/** Reads and parses one JSON document. @throws TranscriptError ("invalid JSON: …") or CliError. */
export function readJson(file: string | undefined): unknown {
  return parseJson(readInput(file));
}

/**
 * Reads a `.jsonl` stream file: one event per non-blank line, each the JSON of one SSE `data:`
 * line; a literal `[DONE]` line is passed through as the string `"[DONE]"`; a half-written last
 * line is ignored (the stream was cut there).
 * @throws CliError naming the line number of invalid JSON before the last line.
 */
export function readJsonLines(file: string): unknown[] {
  const events: unknown[] = [];
  const lines = readInput(file).split(/\r?\n/);
  let last = lines.length - 1;
  while (last >= 0 && !lines[last]!.trim()) last--;
  lines.forEach((line, i) => {
    const text = line.trim();
    if (!text) return;
    if (text === '[DONE]') return void events.push('[DONE]');
    try {
      events.push(JSON.parse(text));
    } catch (e) {
      // A recording cut off mid-write ends in half a line: that is a stream cut before its
      // terminal event (the turn ends `interrupted`), not bad input. Anywhere else it is.
      if (i === last) return;
      throw new CliError(`${file}: line ${i + 1}: invalid JSON: ${(e as Error).message}`, { cause: e });
    }
  });
  return events;
}
