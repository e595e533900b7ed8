/**
 * `baton import <kind> FILE` (transcript-v1.md, "Other commands"): JSONL on stdout, a one-line
 * summary on stderr, exit 0 when at least one conversation was imported and 2 when none; whole-file
 * errors are one `baton: ` line with nothing on stdout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../lib/cli/main';
import { decodeTranscript } from '../../lib/transcript/codec';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SHARED = path.resolve(ROOT, '../shared/fixtures');
const hasShared = fs.existsSync(SHARED);
if (!hasShared) console.warn('skipping baton import tests on shared fixtures: ../shared/fixtures not found');

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

function tmpFile(name: string, data: string | Uint8Array): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-import-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, data);
  return file;
}

const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);

describe('baton import', () => {
  it('prints one transcript per line and the summary with the skip reasons', () => {
    const doc = [
      {
        id: 'c1',
        title: 'One',
        current_node: 'a',
        mapping: {
          u: { parent: null, message: { author: { role: 'user' }, content: { content_type: 'text', parts: ['hi'] } } },
          a: {
            parent: 'u',
            message: { author: { role: 'assistant' }, content: { content_type: 'text', parts: ['hello'] } },
          },
        },
      },
      { id: 'c2', title: 'Broken' },
      {
        id: 'c3',
        title: 'Three',
        current_node: 'u',
        mapping: {
          u: {
            parent: null,
            message: { author: { role: 'user' }, content: { content_type: 'text', parts: ['again'] } },
          },
        },
      },
    ];
    const r = run(['import', 'chatgpt-export', tmpFile('conversations.json', JSON.stringify(doc))]);
    expect(r.status).toBe(0);
    expect(r.stdout.endsWith('\n')).toBe(true);
    const out = lines(r.stdout);
    expect(out.map((t) => decodeTranscript(t).id)).toEqual(['chatgpt-export:c1', 'chatgpt-export:c3']);
    expect(r.stderr).toBe('imported 2, skipped 1: c2: mapping: missing: the conversation has no message tree\n');
  });

  it('exits 2 with the summary when nothing could be imported, and prints nothing on stdout', () => {
    const r = run(['import', 'claude-export', tmpFile('c.json', JSON.stringify([{ uuid: 'x', name: 'No messages' }]))]);
    expect(r).toEqual({
      status: 2,
      stdout: '',
      stderr: 'imported 0, skipped 1: x: chat_messages: missing: the conversation has no messages\n',
    });
  });

  it.each([
    [['import'], /^baton: import needs a kind \(one of chatgpt-export, /],
    [
      ['import', 'chatgpt'],
      /^baton: import: unknown kind "chatgpt" \(expected chatgpt-export, claude-export, baton, anthropic-messages, openai-chat, openai-responses, gemini-generate-content, gemini-interactions, claude-code, codex, gemini-cli, pi\)\n$/,
    ],
    [['import', 'baton'], /^baton: import: FILE is required/],
    [['import', 'baton', '/nonexistent/file.json'], /^baton: \/nonexistent\/file\.json: no such file\n$/],
  ])('%j: exit 2, one baton: line', (args, message) => {
    const r = run(args);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('refuses a whole file it cannot read as the kind: one baton: line, exit 2', () => {
    const r = run(['import', 'baton', tmpFile('x.json', '{"format": ')]);
    expect(r).toEqual({
      status: 2,
      stdout: '',
      stderr: expect.stringMatching(/^baton: invalid JSON: /) as unknown as string,
    });
  });

  it('refuses a file over the 200 MB cap from its size alone, before reading it', () => {
    const file = tmpFile('huge.json', '');
    fs.truncateSync(file, 200 * 1024 * 1024 + 1); // sparse: nothing is written or read
    const r = run(['import', 'chatgpt-export', file]);
    expect(r).toEqual({
      status: 2,
      stdout: '',
      stderr: 'baton: file is 209715201 bytes, over the 209715200-byte import limit (I3); nothing was parsed\n',
    });
    fs.rmSync(file);
  });

  it('keeps convert working alongside (the generic JSON printing is unchanged)', () => {
    const t = {
      format: 'baton.transcript',
      version: 1,
      id: 'x',
      turns: [{ id: 'u', role: 'user', blocks: [{ type: 'text', text: 'hi' }] }],
    };
    const r = run([
      'convert',
      '--to',
      'openai-chat',
      '--model',
      'gpt-4o',
      '--max-output-tokens',
      '100',
      tmpFile('t.json', JSON.stringify(t)),
    ]);
    expect(r.status).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout) as object)).toEqual(['api', 'model', 'body', 'report']);
  });

  describe.skipIf(!hasShared)('on shared fixtures', () => {
    it('imports a Codex rollout and a pi session', () => {
      const codex = run(['import', 'codex', path.join(SHARED, 'agent-transcripts/codex-rollout-synthetic.jsonl')]);
      expect(codex.status).toBe(0);
      expect(codex.stderr).toBe('imported 1, skipped 0\n');
      expect(lines(codex.stdout).map((t) => decodeTranscript(t).id)).toEqual([
        'codex:11111111-1111-4111-8111-111111111111',
      ]);
      const pi = run(['import', 'pi', path.join(SHARED, 'agent-transcripts/pi-coding-agent-session.jsonl')]);
      expect([pi.status, pi.stderr, lines(pi.stdout).length]).toEqual([0, 'imported 1, skipped 0\n', 1]);
    });
  });
});
