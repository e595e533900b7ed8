/** `baton convert` (transcript-v1.md, "The `baton convert` contract"). */
import { convertTranscript, WIRE_API_MODULES } from '../providers';
import type { ConvertResult } from '../providers/types';
import { decodeTranscript, TranscriptError } from '../transcript/codec';
import { TRANSCRIPT_FORMAT } from '../transcript/schema';
import type { ConvertTarget } from '../transcript/target';
import { CliError } from './errors';
import { readJson } from './io';
import { parseOptions, required, singleFile, wireApi } from './options';

/**
 * Parses `convert` arguments, reads the input (a Baton transcript, or with `--from` a native
 * request body) and returns `{api, model, body, report}`.
 * @throws CliError / TranscriptError for bad arguments or invalid input.
 */
export function runConvert(args: string[]): ConvertResult {
  const { values, positionals } = parseOptions(args, {
    to: { type: 'string' },
    model: { type: 'string' },
    provider: { type: 'string' },
    endpoint: { type: 'string' },
    thinking: { type: 'string' },
    'max-output-tokens': { type: 'string' },
    'foreign-reasoning': { type: 'string' },
    from: { type: 'string' },
    'from-model': { type: 'string' },
    'from-provider': { type: 'string' },
  });
  const target: ConvertTarget = { api: wireApi(values.to, '--to'), model: required(values.model, '--model') };
  if (values.provider !== undefined) target.provider = required(values.provider, '--provider');
  if (values.endpoint !== undefined) target.endpoint = endpointUrl(values.endpoint);
  if (values.thinking !== undefined) target.thinking = onOff(values.thinking, '--thinking');
  if (values['max-output-tokens'] !== undefined)
    target.maxOutputTokens = positiveInt(values['max-output-tokens'], '--max-output-tokens');
  if (values['foreign-reasoning'] !== undefined) {
    const v = values['foreign-reasoning'];
    if (v !== 'drop' && v !== 'text') throw new CliError(`--foreign-reasoning: expected drop or text, got "${v}"`);
    target.foreignReasoning = v;
  }
  if (values.from === undefined && (values['from-model'] !== undefined || values['from-provider'] !== undefined))
    throw new CliError('--from-model and --from-provider need --from <api>');

  const input = readJson(singleFile(positionals));
  if (values.from === undefined) {
    if (
      input === null ||
      typeof input !== 'object' ||
      Array.isArray(input) ||
      (input as { format?: unknown }).format !== TRANSCRIPT_FORMAT
    )
      throw new TranscriptError(
        'format',
        `expected "${TRANSCRIPT_FORMAT}" (for a native request body, pass --from <api>)`,
      );
    return convertTranscript(decodeTranscript(input), target);
  }
  const from = wireApi(values.from, '--from');
  const transcript = WIRE_API_MODULES[from].readHistory(input, {
    ...(values['from-model'] !== undefined ? { model: values['from-model'] } : {}),
    ...(values['from-provider'] !== undefined ? { provider: values['from-provider'] } : {}),
  });
  const result = convertTranscript(transcript, target);
  return { ...result, report: { ...result.report, input: { ...result.report.input, format: from } } };
}

function onOff(v: string, flag: string): boolean {
  if (v === 'on') return true;
  if (v === 'off') return false;
  throw new CliError(`${flag}: expected on or off, got "${v}"`);
}

function positiveInt(v: string, flag: string): number {
  if (!/^[1-9]\d{0,8}$/.test(v)) throw new CliError(`${flag}: expected a positive integer, got "${v}"`);
  return Number(v);
}

function endpointUrl(v: string): string {
  try {
    const u = new URL(v);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('not http(s)');
    return v;
  } catch {
    throw new CliError(`--endpoint: expected an http(s) URL, got "${v}"`);
  }
}
