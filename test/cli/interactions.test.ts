/**
 * `baton` over the Gemini Interactions API (transcript-v1.md; provider-rules-2026-gemini.md §9):
 * `convert --to gemini-interactions` (with the `Api-Revision` header, GI-R1), `--from
 * gemini-interactions`, `read --api gemini-interactions` on the real recordings, and `import
 * gemini-interactions`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../lib/cli/main';
import { detectImportKind } from '../../lib/importers/detect';
import { decodeTranscript } from '../../lib/transcript/codec';
import { validateRequest } from '../contract';
import { TRANSCRIPTS_DIR } from '../fixtures/transcripts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RECORDED = path.resolve(ROOT, '../shared/fixtures/recorded-streams/gemini-interactions');
const hasShared = fs.existsSync(RECORDED);
if (!hasShared) console.warn('skipping CLI tests on Interactions recordings: ../shared/fixtures not found');

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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-cli-gi-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const NATIVE = {
  model: 'gemini-3-pro-preview',
  system_instruction: 'Be brief.',
  input: [
    { type: 'user_input', content: [{ type: 'text', text: 'Weather?' }] },
    { type: 'thought', signature: 'c2ln' },
    { type: 'function_call', id: 'fc1', name: 'get_weather', arguments: { city: 'Oslo' } },
    { type: 'function_result', call_id: 'fc1', name: 'get_weather', result: '4°C' },
    { type: 'model_output', content: [{ type: 'text', text: '4°C.' }] },
    { type: 'user_input', content: [{ type: 'text', text: 'Thanks' }] },
  ],
};

describe('baton convert --to gemini-interactions', () => {
  it.each(['mixed-origins', 'anthropic-tool-loop', 'images-and-documents', 'orphans', 'provider-items'])(
    '%s: prints {api, model, body, headers, report}; the body passes the Interactions validator (GI-R1, GI-R2)',
    (name) => {
      const r = run([
        'convert',
        '--to',
        'gemini-interactions',
        '--model',
        'gemini-3-pro-preview',
        path.join(TRANSCRIPTS_DIR, `${name}.json`),
      ]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(Object.keys(out)).toEqual(['api', 'model', 'body', 'headers', 'report']);
      expect(out.headers).toEqual({ 'Api-Revision': '2026-05-20' });
      expect(out.body).toMatchObject({ model: 'gemini-3-pro-preview', store: false, stream: true });
      expect(validateRequest('gemini-interactions', out.body)).toEqual([]);
    },
  );

  it('--from gemini-interactions reads a native body and replays it to the same origin unchanged', () => {
    const r = run([
      'convert',
      '--from',
      'gemini-interactions',
      '--to',
      'gemini-interactions',
      '--model',
      'gemini-3-pro-preview',
      tmpFile('native.json', JSON.stringify(NATIVE)),
    ]);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.report.input.format).toBe('gemini-interactions');
    expect(out.body.input).toEqual(NATIVE.input);
  });

  it('--from gemini-interactions to another API passes that API’s validator', () => {
    const r = run([
      'convert',
      '--from',
      'gemini-interactions',
      '--to',
      'anthropic-messages',
      '--model',
      'claude-sonnet-4-5',
      tmpFile('native.json', JSON.stringify(NATIVE)),
    ]);
    const out = JSON.parse(r.stdout);
    expect(validateRequest('anthropic-messages', out.body)).toEqual([]);
    expect(JSON.stringify(out.body)).not.toContain('c2ln');
  });
});

describe.skipIf(!hasShared)('baton read --api gemini-interactions', () => {
  it('assembles a recorded stream into one complete turn', () => {
    const r = run([
      'read',
      '--api',
      'gemini-interactions',
      '--stream',
      path.join(RECORDED, 'tool-call-step1.chunks.jsonl'),
    ]);
    expect(r.stderr).toBe('');
    const turn = JSON.parse(r.stdout);
    expect(turn).toMatchObject({ status: 'complete', stopReason: 'tool_use', origin: { api: 'gemini-interactions' } });
    expect(turn.blocks.map((b: { type: string }) => b.type)).toEqual(['thinking', 'tool_call']);
  });

  it('reads a stream cut before interaction.completed as interrupted (GI-S2)', () => {
    const lines = fs.readFileSync(path.join(RECORDED, 'basic.chunks.jsonl'), 'utf8').trim().split('\n');
    const cut = tmpFile('cut.jsonl', lines.slice(0, -1).join('\n'));
    const turn = JSON.parse(run(['read', '--api', 'gemini-interactions', '--stream', cut]).stdout);
    expect(turn.status).toBe('interrupted');
    expect(turn.blocks[1].text).toContain("I'm doing great");
  });

  it('reads a complete Interaction object', () => {
    const r = run([
      'read',
      '--api',
      'gemini-interactions',
      '--response',
      path.join(RECORDED, 'structured-output.response.json'),
    ]);
    const turn = JSON.parse(r.stdout);
    expect(turn.blocks[1]).toEqual({ type: 'text', text: '{"name":"John Doe","age":30}' });
  });
});

describe('baton import gemini-interactions', () => {
  it('imports a native body (JSON, an array, or JSONL) as transcripts', () => {
    const file = tmpFile(
      'bodies.jsonl',
      `${JSON.stringify(NATIVE)}\n${JSON.stringify({ ...NATIVE, input: 'Hello' })}\n`,
    );
    const r = run(['import', 'gemini-interactions', file]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('imported 2, skipped 0\n');
    const transcripts = r.stdout
      .trim()
      .split('\n')
      .map((l) => decodeTranscript(JSON.parse(l)));
    expect(transcripts[0]!.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(transcripts[0]!.turns[1]!.native).toEqual({ api: 'gemini-interactions', payload: NATIVE.input.slice(1, 3) });
  });
});

describe('detectImportKind', () => {
  it('tells an Interactions body (steps in input) from a Responses body', () => {
    expect(detectImportKind(JSON.stringify(NATIVE))).toBe('gemini-interactions');
    expect(detectImportKind(JSON.stringify({ model: 'gpt-5', input: [{ role: 'user', content: 'Hi' }] }))).toBe(
      'openai-responses',
    );
  });
});
