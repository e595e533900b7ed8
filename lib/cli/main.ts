/**
 * `baton` — the command line (transcript-v1.md, "The `baton convert` contract" and "Other
 * commands"). Run with `npm run baton -- <command> …`.
 *
 * Errors in the input: exit status 2 and one `baton: ` line on stderr naming the problem and its
 * JSON path; never a stack trace, never partial output on stdout.
 */
import { TranscriptError } from '../transcript/codec';
import { runConvert } from './convert';
import { CliError } from './errors';
import { runImport, StreamedOutput, type CommandIo } from './import';
import { runPlan } from './plan';
import { runRead } from './read';
import { lookupTable } from '../transcript/lookup';
import { WIRE_APIS } from '../transcript/schema';

/** The `--help` text; the api list is the transcript's own (`WIRE_APIS`), so a new wire API is never left out. */
export const USAGE = `usage (from the project folder; there is no installed baton command):
  npm run baton -- convert --to <api> --model <id> [--provider <id>] [--endpoint <url>]
                   [--thinking on|off] [--max-output-tokens N] [--foreign-reasoning drop|text]
                   [--from <api> [--from-model <id>] [--from-provider <id>]] [FILE | -]
  npm run baton -- read --api <api> (--stream FILE.jsonl | --response FILE.json)
  npm run baton -- import <kind> FILE   (kinds: chatgpt-export, claude-export, baton, <api>, claude-code, codex, gemini-cli, pi)
  npm run baton -- plan --to <api> --model <id> [--budget-tokens N] [--max-turns N] [FILE | -]
apis: ${WIRE_APIS.join(', ')}`;

const COMMANDS: Readonly<Record<string, (args: string[], io: CommandIo) => unknown>> = lookupTable({
  convert: runConvert,
  read: runRead,
  import: runImport,
  plan: runPlan,
});

/** Runs one CLI invocation; returns the exit status (0 ok, 2 bad input, 1 internal error). */
export function main(argv: string[], out: (s: string) => void, err: (s: string) => void): number {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    (command ? out : err)(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  const run = COMMANDS[command];
  try {
    if (!run) throw new CliError(`unknown command "${command}" (expected ${Object.keys(COMMANDS).join(', ')})`);
    const result = run(rest, { out, err });
    if (result instanceof StreamedOutput) return result.status;
    out(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (e) {
    if (e instanceof CliError || e instanceof TranscriptError) {
      err(`baton: ${oneLine(e.message)}\n`);
      return 2;
    }
    err(`baton: internal error: ${oneLine(e instanceof Error ? e.message : String(e))}\n`);
    return 1;
  }
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ');
}

const isEntry = process.argv[1] !== undefined && /lib[\\/]cli[\\/]main\.[cm]?[jt]s$/.test(process.argv[1]);
if (isEntry) {
  // Output piped into a reader that stops early (`| head`) is not an error: end quietly.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  process.exitCode = main(
    process.argv.slice(2),
    (s) => process.stdout.write(s),
    (s) => process.stderr.write(s),
  );
}
