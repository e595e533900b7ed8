/**
 * `baton plan` (transcript-v1.md, "Other commands"): exactly the documented keys, the budget and
 * turn flags, and bad input → exit 2 with one `baton: ` line and nothing on stdout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { plan } from '../../lib/context/plan';
import { main } from '../../lib/cli/main';
import { parseTranscriptJson } from '../../lib/transcript/codec';
import { TRANSCRIPTS_DIR } from '../fixtures/transcripts';

function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const status = main(
    args,
    (s) => (stdout += s),
    (s) => (stderr += s),
  );
  return { status, stdout, stderr };
}

function tmpFile(name: string, text: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-plan-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const fixture = path.join(TRANSCRIPTS_DIR, 'mixed-origins.json');
const KEYS = [
  'target',
  'contextWindow',
  'maxOutputTokens',
  'inputBudget',
  'estimatedInputTokens',
  'fits',
  'included',
  'dropped',
  'report',
];

describe('baton plan', () => {
  it('prints exactly the documented keys, equal to the planner’s answer', () => {
    const r = run(['plan', '--to', 'anthropic-messages', '--model', 'claude-sonnet-4-5', fixture]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(KEYS);
    const p = plan(parseTranscriptJson(fs.readFileSync(fixture, 'utf8')), {
      api: 'anthropic-messages',
      model: 'claude-sonnet-4-5',
    });
    expect(out).toEqual({
      target: { api: 'anthropic-messages', model: 'claude-sonnet-4-5', provider: 'anthropic' },
      contextWindow: 200_000,
      maxOutputTokens: 32_768,
      inputBudget: 200_000 - 32_768,
      estimatedInputTokens: p.estimatedInputTokens,
      fits: true,
      included: ['u1', 'r1', 'r2', 'c1', 'c2', 'g1', 'u2', 'w1', 'u3'],
      dropped: [],
      report: p.report,
    });
  });

  it('--budget-tokens and --max-turns bound the history; dropped turns carry a reason', () => {
    const r = run(['plan', '--to', 'openai-chat', '--model', 'gpt-4o', '--max-turns', '3', fixture]);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.included).toEqual(['u2', 'w1', 'u3']);
    expect(out.dropped).toEqual(
      ['u1', 'r1', 'r2', 'c1', 'c2', 'g1'].map((turn) => ({ turn, reason: 'over-max-turns' })),
    );
    expect(out.fits).toBe(true);

    const tight = JSON.parse(
      run(['plan', '--to', 'openai-chat', '--model', 'gpt-4o', '--budget-tokens', '5', fixture]).stdout,
    );
    expect(tight.inputBudget).toBe(5);
    expect(tight.fits).toBe(false);
    expect(tight.included).toEqual(['u3']);
  });

  it('a missing file is a clear error', () => {
    const r = run([
      'plan',
      '--to',
      'openai-chat',
      '--model',
      'gpt-4o',
      path.join(os.tmpdir(), 'no-such-baton-file.json'),
    ]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^baton: .*no such file\n$/);
  });

  it.each([
    [
      ['plan', '--model', 'gpt-4o', fixture],
      'baton: --to is required (one of anthropic-messages, openai-chat, openai-responses, gemini-generate-content, gemini-interactions)\n',
    ],
    [['plan', '--to', 'openai-chat', fixture], 'baton: --model is required\n'],
    [
      ['plan', '--to', 'openai-chat', '--model', 'gpt-4o', '--budget-tokens', '0', fixture],
      'baton: --budget-tokens: expected a positive integer, got "0"\n',
    ],
    [
      ['plan', '--to', 'openai-chat', '--model', 'gpt-4o', '--max-turns', 'many', fixture],
      'baton: --max-turns: expected a positive integer, got "many"\n',
    ],
  ])('bad arguments: %j → exit 2', (args, message) => {
    const r = run(args);
    expect(r).toEqual({ status: 2, stdout: '', stderr: message });
  });

  it('invalid input names the problem and its path', () => {
    const notTranscript = tmpFile('x.json', JSON.stringify({ messages: [] }));
    expect(run(['plan', '--to', 'openai-chat', '--model', 'gpt-4o', notTranscript])).toEqual({
      status: 2,
      stdout: '',
      stderr: 'baton: format: expected "baton.transcript"\n',
    });
    const bad = tmpFile(
      'y.json',
      JSON.stringify({
        format: 'baton.transcript',
        version: 1,
        id: 'x',
        turns: [{ id: 't0', role: 'user', blocks: [{ type: 'txt', text: 'hi' }] }],
      }),
    );
    const r = run(['plan', '--to', 'openai-chat', '--model', 'gpt-4o', bad]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^baton: turns\[0\]\.blocks\[0\]\.type: .*\n$/);
  });
});
