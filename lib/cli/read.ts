/** `baton read` (transcript-v1.md, "Other commands"). */
import { WIRE_API_MODULES } from '../providers';
import { DEFAULT_PROVIDER } from '../transcript/target';
import type { Turn } from '../transcript/schema';
import { CliError } from './errors';
import { readJson, readJsonLines } from './io';
import { parseOptions, wireApi } from './options';

/**
 * Reads a recorded stream (`--stream FILE.jsonl`) or a complete response (`--response FILE.json`)
 * of `--api` and returns the assembled assistant turn, or an array of turns when the stream holds
 * several responses.
 * @throws CliError / TranscriptError for bad arguments or unreadable input.
 */
export function runRead(args: string[]): Turn | Turn[] {
  const { values, positionals } = parseOptions(args, {
    api: { type: 'string' },
    stream: { type: 'string' },
    response: { type: 'string' },
    provider: { type: 'string' },
    model: { type: 'string' },
  });
  if (positionals.length > 0)
    throw new CliError(`unexpected argument "${positionals[0]}" (use --stream FILE or --response FILE)`);
  const api = wireApi(values.api, '--api');
  if ((values.stream === undefined) === (values.response === undefined))
    throw new CliError('exactly one of --stream FILE.jsonl and --response FILE.json is required');
  const mod = WIRE_API_MODULES[api];
  const ctx = {
    provider: values.provider ?? DEFAULT_PROVIDER[api],
    ...(values.model !== undefined ? { requestedModel: values.model } : {}),
  };
  if (values.response !== undefined) return mod.readResponse(readJson(values.response), ctx);
  const turns = mod.readStreamEvents(readJsonLines(values.stream!), ctx);
  if (turns.length === 0) throw new CliError(`${values.stream}: no stream events`);
  return turns.length === 1 ? turns[0]! : turns;
}
