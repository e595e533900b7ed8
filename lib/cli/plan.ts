/** `baton plan` (transcript-v1.md, "Other commands"; docs/disclosure.md, "Context planner"). */
import { plan } from '../context/plan';
import type { Policy } from '../context/types';
import type { ConversionReport } from '../transcript/report';
import { decodeTranscript, TranscriptError } from '../transcript/codec';
import { TRANSCRIPT_FORMAT } from '../transcript/schema';
import type { ConvertTarget } from '../transcript/target';
import { CliError } from './errors';
import { readJson } from './io';
import { parseOptions, required, singleFile, wireApi } from './options';

/** The output of `baton plan`: exactly these keys, in this order (transcript-v1.md). */
export interface PlanOutput {
  target: { api: string; model: string; provider: string };
  /** Tokens (input + output). */
  contextWindow: number;
  /** Output reserve (tokens). */
  maxOutputTokens: number;
  /** Tokens. */
  inputBudget: number;
  /** Tokens (estimate). */
  estimatedInputTokens: number;
  fits: boolean;
  included: string[];
  dropped: { turn: string; reason: string }[];
  report: ConversionReport;
}

/**
 * `baton plan --to <api> --model <id> [--budget-tokens N] [--max-turns N] [FILE | -]`: plans one
 * request of a Baton transcript (stdin when FILE is absent or `-`) and prints the plan.
 * `--budget-tokens` and `--max-turns` are the policy's `maxTokens` and `maxTurns`.
 * @throws CliError / TranscriptError for bad arguments or invalid input.
 */
export function runPlan(args: string[]): PlanOutput {
  const { values, positionals } = parseOptions(args, {
    to: { type: 'string' },
    model: { type: 'string' },
    'budget-tokens': { type: 'string' },
    'max-turns': { type: 'string' },
  });
  const target: ConvertTarget = { api: wireApi(values.to, '--to'), model: required(values.model, '--model') };
  const policy: Policy = {};
  if (values['budget-tokens'] !== undefined) policy.maxTokens = positiveInt(values['budget-tokens'], '--budget-tokens');
  if (values['max-turns'] !== undefined) policy.maxTurns = positiveInt(values['max-turns'], '--max-turns');

  const input = readJson(singleFile(positionals));
  if (
    input === null ||
    typeof input !== 'object' ||
    Array.isArray(input) ||
    (input as { format?: unknown }).format !== TRANSCRIPT_FORMAT
  )
    throw new TranscriptError('format', `expected "${TRANSCRIPT_FORMAT}"`);
  const p = plan(decodeTranscript(input), target, policy);
  return {
    target: { api: p.target.api, model: p.target.model, provider: p.target.provider },
    contextWindow: p.contextWindow,
    maxOutputTokens: p.maxOutputTokens,
    inputBudget: p.inputBudget,
    estimatedInputTokens: p.estimatedInputTokens,
    fits: p.fits,
    included: p.included,
    dropped: p.dropped.map((d) => ({ turn: d.turn, reason: d.reason })),
    report: p.report,
  };
}

function positiveInt(v: string, flag: string): number {
  if (!/^[1-9]\d{0,8}$/.test(v)) throw new CliError(`${flag}: expected a positive integer, got "${v}"`);
  return Number(v);
}
