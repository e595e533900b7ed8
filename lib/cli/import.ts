/** `baton import <kind> FILE` (transcript-v1.md, "Other commands"). */
import fs from 'node:fs';
import { importFile } from '../importers/import-file';
import { DEFAULT_MAX_BYTES, IMPORT_KINDS, isImportKind, type ImportResult } from '../importers/types';
import { TranscriptError } from '../transcript/codec';
import { CliError } from './errors';
import { parseOptions } from './options';

/** Where a command that prints its own output writes. */
export interface CommandIo {
  out: (s: string) => void;
  err: (s: string) => void;
}

/** Returned by a command that has printed its own output: `main` only passes `status` on. */
export class StreamedOutput {
  constructor(readonly status: number) {}
}

function readBytes(file: string): Uint8Array {
  try {
    if (file !== '-') {
      const size = fs.statSync(file).size;
      // I3: an oversized file is refused before it is even read, let alone parsed.
      if (size > DEFAULT_MAX_BYTES)
        throw new TranscriptError(
          '',
          `file is ${size} bytes, over the ${DEFAULT_MAX_BYTES}-byte import limit (I3); nothing was parsed`,
        );
    }
    return fs.readFileSync(file === '-' ? 0 : file);
  } catch (e) {
    if (e instanceof TranscriptError) throw e;
    const err = e as NodeJS.ErrnoException;
    throw new CliError(`${file === '-' ? 'stdin' : file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`, {
      cause: e,
    });
  }
}

/** The one-line summary: `imported N, skipped M` and, when any were skipped, `: <id>: <reason>; …`. */
export function importSummary(result: ImportResult): string {
  const head = `imported ${result.conversations.length}, skipped ${result.skipped.length}`;
  if (!result.skipped.length) return head;
  const reasons = result.skipped.map((s) => `${s.id ?? s.title ?? 'conversation'}: ${s.reason}`).join('; ');
  return `${head}: ${reasons.replace(/\s*\n\s*/g, ' ')}`;
}

/**
 * Imports FILE (`-` for stdin) as `kind`; prints one Baton transcript per line (JSONL) on stdout
 * and the summary on stderr. Status 0 when at least one conversation was imported, 2 when none.
 * @throws CliError / TranscriptError (nothing printed) for bad arguments or a file that cannot be
 *   read as a whole: over the size cap, an unsafe zip, not JSON, not the kind's shape.
 */
export function runImport(args: string[], io: CommandIo): StreamedOutput {
  const { positionals } = parseOptions(args, {});
  const [kind, file, ...extra] = positionals;
  if (kind === undefined) throw new CliError(`import needs a kind (one of ${IMPORT_KINDS.join(', ')}) and a FILE`);
  if (!isImportKind(kind)) throw new CliError(`import: unknown kind "${kind}" (expected ${IMPORT_KINDS.join(', ')})`);
  if (file === undefined) throw new CliError('import: FILE is required (use - for stdin)');
  if (extra.length) throw new CliError(`import: unexpected argument "${extra[0]}"`);
  const result = importFile(kind, readBytes(file));
  io.out(result.conversations.map((t) => `${JSON.stringify(t)}\n`).join(''));
  io.err(`${importSummary(result)}\n`);
  return new StreamedOutput(result.conversations.length > 0 ? 0 : 2);
}
