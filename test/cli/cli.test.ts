/**
 * `baton` CLI (transcript-v1.md, "The `baton convert` contract" and "Other commands"): output shape,
 * and bad input → exit 2 with one `baton: ` line naming the problem and its path, nothing on stdout.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../lib/cli/main';
import { validateRequest } from '../contract';
import { TRANSCRIPTS_DIR } from '../fixtures/transcripts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SHARED = path.resolve(ROOT, '../shared/fixtures');
const hasShared = fs.existsSync(SHARED);
if (!hasShared) console.warn('skipping CLI tests on recorded streams: ../shared/fixtures not found');

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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-cli-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const fixture = (name: string) => path.join(TRANSCRIPTS_DIR, `${name}.json`);

describe('baton --help', () => {
  it('prints the usage on stdout with every wire API, exit 0; no command: the usage on stderr, exit 2', () => {
    const r = run(['--help']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const apis = /^apis: (.*)$/m.exec(r.stdout)?.[1]?.split(', ');
    expect(apis).toEqual([
      'anthropic-messages',
      'openai-chat',
      'openai-responses',
      'gemini-generate-content',
      'gemini-interactions',
    ]);
    for (const command of ['convert', 'read', 'import', 'plan'])
      expect(r.stdout).toContain(`npm run baton -- ${command} `);
    const none = run([]);
    expect(none.status).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe(r.stdout);
  });
});

describe('baton convert', () => {
  it.each(['anthropic-messages', 'openai-chat', 'openai-responses', 'gemini-generate-content'] as const)(
    'prints {api, model, body, report} for %s',
    (api) => {
      const model = {
        'anthropic-messages': 'claude-sonnet-4-5',
        'openai-chat': 'gpt-4o',
        'openai-responses': 'gpt-5.5',
        'gemini-generate-content': 'gemini-3-pro-preview',
      }[api];
      const r = run([
        'convert',
        '--to',
        api,
        '--model',
        model,
        '--max-output-tokens',
        '1000',
        fixture('mixed-origins'),
      ]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(Object.keys(out)).toEqual(['api', 'model', 'body', 'report']);
      expect(out.api).toBe(api);
      expect(out.model).toBe(model);
      expect(validateRequest(api, out.body, { model })).toEqual([]);
      expect(out.report.input).toEqual({ format: 'baton', turns: 9, blocks: 14 });
    },
  );

  it('prints the headers the request needs (A-B3 thinking-binding beta, A-P2 compaction beta), and none when it needs none', () => {
    const claude = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-opus-5' };
    const compaction = { type: 'compaction', content: 'Earlier: Oslo.', encrypted_content: 'enc', signature: 'sig-c' };
    const transcript = {
      format: 'baton.transcript',
      version: 1,
      id: 'h',
      turns: [
        {
          id: 'a0',
          role: 'assistant',
          origin: claude,
          blocks: [{ type: 'provider_item', api: 'anthropic-messages', item: compaction, text: compaction.content }],
        },
        { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Hotels?' }] },
        {
          id: 'a1',
          role: 'assistant',
          origin: claude,
          blocks: [
            { type: 'thinking', text: 'Look.', signature: 'sig-t' },
            { type: 'text', text: 'Two.' },
          ],
        },
        { id: 'u2', role: 'user', blocks: [{ type: 'text', text: 'Cheaper?' }] },
      ],
    };
    const file = tmpFile('t.json', JSON.stringify(transcript));
    const r = run(['convert', '--to', 'anthropic-messages', '--model', 'claude-opus-5', '--thinking', 'on', file]);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['api', 'model', 'body', 'headers', 'report']);
    expect(out.headers).toEqual({ 'anthropic-beta': 'compact-2026-09-04,thinking-binding-controls-2026-08-01' });
    expect(out.body.messages[0]).toEqual({ role: 'assistant', content: [compaction] });
    expect(
      validateRequest('anthropic-messages', out.body, { anthropicBetas: out.headers['anthropic-beta'].split(',') }),
    ).toEqual([]);
    const off = JSON.parse(run(['convert', '--to', 'anthropic-messages', '--model', 'claude-opus-4-5', file]).stdout);
    expect(off.headers).toBeUndefined();
  });

  it('reads a native history with --from and reports its format', () => {
    const file = tmpFile(
      'h.json',
      JSON.stringify({
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'rain' },
        ],
      }),
    );
    const r = run([
      'convert',
      '--from',
      'openai-chat',
      '--to',
      'anthropic-messages',
      '--model',
      'claude-sonnet-4-5',
      '--max-output-tokens',
      '500',
      file,
    ]);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.report.input.format).toBe('openai-chat');
    expect(out.body.system).toBe('Be brief.');
    expect(out.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'rain' }] },
    ]);
    expect(validateRequest('anthropic-messages', out.body)).toEqual([]);
  });

  it.each([
    ['invalid JSON', '{"format": ', /^baton: invalid JSON: /],
    [
      'a misspelt field',
      JSON.stringify({
        format: 'baton.transcript',
        version: 1,
        id: 'x',
        turns: [{ id: 'u', role: 'user', blocks: [{ type: 'text', text: 'x', sigature: 's' }] }],
      }),
      /^baton: turns\[0\]\.blocks\[0\]\.sigature: unknown field\n$/,
    ],
    [
      'a wrong version',
      JSON.stringify({ format: 'baton.transcript', version: 3, id: 'x', turns: [] }),
      /^baton: version: unsupported version 3 \(expected 1\)\n$/,
    ],
    [
      'an unknown block type',
      JSON.stringify({
        format: 'baton.transcript',
        version: 1,
        id: 'x',
        turns: [{ id: 'u', role: 'user', blocks: [{ type: 'audio' }] }],
      }),
      /^baton: turns\[0\]\.blocks\[0\]\.type: unknown block type "audio"\n$/,
    ],
    [
      'a block in the wrong role',
      JSON.stringify({
        format: 'baton.transcript',
        version: 1,
        id: 'x',
        turns: [{ id: 'u', role: 'user', blocks: [{ type: 'thinking', text: 'x' }] }],
      }),
      /^baton: turns\[0\]\.blocks\[0\]\.type: block type "thinking" is not allowed in a user turn/,
    ],
    [
      'an assistant turn without origin',
      JSON.stringify({
        format: 'baton.transcript',
        version: 1,
        id: 'x',
        turns: [{ id: 'a', role: 'assistant', blocks: [] }],
      }),
      /^baton: turns\[0\]\.origin: required on assistant turns\n$/,
    ],
    [
      'a native body without --from',
      JSON.stringify({ messages: [] }),
      /^baton: format: expected "baton.transcript" \(for a native request body, pass --from <api>\)\n$/,
    ],
  ])('rejects %s: exit 2, one baton: line, nothing on stdout', (_name, text, message) => {
    const r = run(['convert', '--to', 'openai-chat', '--model', 'gpt-4o', tmpFile('in.json', text)]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    [['convert', '--model', 'x'], /^baton: --to is required/],
    [['convert', '--to', 'openai-chats', '--model', 'x'], /^baton: --to: unknown api "openai-chats"/],
    [['convert', '--to', 'openai-chat'], /^baton: --model is required/],
    [
      ['convert', '--to', 'openai-chat', '--model', 'x', '--thinking', 'maybe'],
      /^baton: --thinking: expected on or off/,
    ],
    [
      ['convert', '--to', 'openai-chat', '--model', 'x', '--max-output-tokens', '0'],
      /^baton: --max-output-tokens: expected a positive integer/,
    ],
    [
      ['convert', '--to', 'openai-chat', '--model', 'x', '--max-output-tokens=-5'],
      /^baton: --max-output-tokens: expected a positive integer/,
    ],
    [['convert', '--to', 'openai-chat', '--model', 'x', '--bogus'], /^baton: Unknown option '--bogus'/],
    [
      ['convert', '--to', 'openai-chat', '--model', 'x', '/no/such/file.json'],
      /^baton: \/no\/such\/file\.json: no such file\n$/,
    ],
    [['transmogrify'], /^baton: unknown command "transmogrify"/],
  ])('rejects bad arguments %j with exit 2', (args, message) => {
    const r = run(args);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('as a real process: exit status 2, a single stderr line, no stack trace', () => {
    const bad = tmpFile(
      'bad.json',
      '{"format":"baton.transcript","version":1,"id":"x","turns":[{"id":"u","role":"user","blocks":[{"type":"text"}]}]}',
    );
    const p = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'lib/cli/main.ts'),
        'convert',
        '--to',
        'openai-chat',
        '--model',
        'gpt-4o',
        bad,
      ],
      { encoding: 'utf8', cwd: ROOT },
    );
    expect(p.status).toBe(2);
    expect(p.stdout).toBe('');
    expect(p.stderr).toBe('baton: turns[0].blocks[0].text: required field missing (expected string)\n');
  });
});

describe('output piped into a reader that stops early', () => {
  it('ends quietly (no stack trace, exit 0) when stdout closes, as with `| head`', async () => {
    const big = tmpFile(
      'big.json',
      JSON.stringify({
        format: 'baton.transcript',
        version: 1,
        id: 'big',
        turns: Array.from({ length: 4000 }, (_, i) => ({
          id: `u${i}`,
          role: 'user',
          blocks: [{ type: 'text', text: `message ${i} `.repeat(20) }],
        })),
      }),
    );
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'lib/cli/main.ts'),
        'convert',
        '--to',
        'openai-chat',
        '--model',
        'gpt-4o',
        big,
      ],
      { cwd: ROOT },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe.skipIf(!hasShared)('baton read', () => {
  it('assembles a recorded stream into one complete turn', () => {
    const r = run([
      'read',
      '--api',
      'anthropic-messages',
      '--stream',
      path.join(SHARED, 'recorded-streams/anthropic/thinking-signature.chunks.jsonl'),
    ]);
    expect(r.stderr).toBe('');
    const turn = JSON.parse(r.stdout);
    expect(turn.role).toBe('assistant');
    expect(turn.status).toBe('complete');
    expect(turn.blocks[0].type).toBe('thinking');
    expect(typeof turn.blocks[0].signature).toBe('string');
  });

  it('reads a stream cut before its terminal event as interrupted', () => {
    const lines = fs
      .readFileSync(path.join(SHARED, 'recorded-streams/openai-chat/text.chunks.jsonl'), 'utf8')
      .trim()
      .split('\n');
    const cut = tmpFile('cut.jsonl', lines.slice(0, 5).join('\n'));
    const turn = JSON.parse(run(['read', '--api', 'openai-chat', '--stream', cut]).stdout);
    expect(turn.status).toBe('interrupted');
  });

  it('reads a complete response', () => {
    const r = run([
      'read',
      '--api',
      'gemini-generate-content',
      '--response',
      path.join(SHARED, 'recorded-streams/gemini/function-call-thought-signature.response.json'),
    ]);
    const turn = JSON.parse(r.stdout);
    expect(turn.blocks.some((b: { type: string }) => b.type === 'tool_call')).toBe(true);
  });

  it('reads a recording cut mid-line (half a last line) as interrupted', () => {
    const lines = fs
      .readFileSync(path.join(SHARED, 'recorded-streams/anthropic/text.chunks.jsonl'), 'utf8')
      .trim()
      .split('\n');
    const cut = tmpFile('cut-mid-line.jsonl', [...lines.slice(0, -1), lines.at(-1)!.slice(0, 12)].join('\n'));
    const r = run(['read', '--api', 'anthropic-messages', '--stream', cut]);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).status).toBe('interrupted');
  });

  it('rejects a line of invalid JSON with its line number', () => {
    const r = run(['read', '--api', 'openai-chat', '--stream', tmpFile('x.jsonl', '{}\n{oops\n{}\n')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^baton: .*x\.jsonl: line 2: invalid JSON/);
  });

  it('needs exactly one of --stream and --response', () => {
    expect(run(['read', '--api', 'openai-chat']).stderr).toMatch(/exactly one of --stream/);
  });
});
