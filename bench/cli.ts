/**
 * The command line of the Node-only A/B scripts (`cold-ab.ts`, `plan-ab.ts`). Kept apart from
 * `ab.ts`, which loads the Chromium harness: these scripts time conversions in their own process,
 * so they load nothing they do not use.
 */

/**
 * Takes `--name value` out of `process.argv` (so what is left are the positional arguments) and
 * returns the value, or undefined when the flag is absent.
 */
export function takeFlag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = process.argv[i + 1];
  process.argv.splice(i, 2);
  return value;
}
