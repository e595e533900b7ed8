/** Strict option parsing shared by the CLI commands (node:util parseArgs, unknown flags rejected). */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { WIRE_APIS, type WireApi } from '../transcript/schema';
import { CliError } from './errors';

/** Parses `args`; unknown or malformed flags become a {@link CliError}. */
export function parseOptions<T extends ParseArgsConfig['options']>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new CliError((e as Error).message.replace(/\. To specify a positional.*$/s, ''), { cause: e });
  }
}

/** A wire API id named by `flag`. @throws CliError for anything else. */
export function wireApi(value: string | undefined, flag: string): WireApi {
  if (value === undefined) throw new CliError(`${flag} is required (one of ${WIRE_APIS.join(', ')})`);
  if (!(WIRE_APIS as readonly string[]).includes(value))
    throw new CliError(`${flag}: unknown api "${value}" (expected ${WIRE_APIS.join(', ')})`);
  return value as WireApi;
}

/** A required string option. */
export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new CliError(`${flag} is required`);
  return value;
}

/** At most one positional argument (the input file). */
export function singleFile(positionals: string[]): string | undefined {
  if (positionals.length > 1) throw new CliError(`expected at most one input file, got ${positionals.length}`);
  return positionals[0];
}
