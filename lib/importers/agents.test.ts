/**
 * Agent sessions (Claude Code, Codex, Gemini CLI, pi), Baton transcripts and native histories on
 * small hand-written files: sidechains, merged streamed entries, format variants, branch
 * selection, opaque state kept for same-origin replay, and per-conversation skips.
 */
import { describe, expect, it } from 'vitest';
import { expectConvertsEverywhere } from './fixtures.test-helper';
import { importFile } from './import-file';
import type { ImportKind } from './types';

const enc = (s: string) => new TextEncoder().encode(s);
const jsonl = (...lines: unknown[]) =>
  enc(lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
const run = (kind: ImportKind, bytes: Uint8Array) => importFile(kind, bytes);

describe('claude-code', () => {
  const base = { sessionId: 'S', isSidechain: false, timestamp: '2026-01-01T00:00:00Z' };
  const side = { sessionId: 'S', isSidechain: true, agentId: 'agent-7', timestamp: '2026-01-01T00:00:05Z' };
  const file = jsonl(
    { ...base, type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'Find the bug' } },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-opus-4-1',
        content: [{ type: 'thinking', thinking: 'Delegate.', signature: 'SIG1' }],
        stop_reason: null,
      },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a2',
      parentUuid: 'a1',
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-opus-4-1',
        content: [{ type: 'tool_use', id: 'toolu_task', name: 'Task', input: { prompt: 'Search' } }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    },
    { ...side, type: 'user', uuid: 's1', parentUuid: null, message: { role: 'user', content: 'Search' } },
    {
      ...side,
      type: 'assistant',
      uuid: 's2',
      parentUuid: 's1',
      message: {
        id: 'msg_s',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id: 'toolu_grep', name: 'Grep', input: { pattern: 'bug' } }],
      },
    },
    {
      ...side,
      type: 'user',
      uuid: 's3',
      parentUuid: 's2',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_grep', content: 'main.ts:3' }] },
    },
    {
      ...side,
      agentId: undefined,
      type: 'user',
      uuid: 'x1',
      parentUuid: null,
      message: { role: 'user', content: 'Other agent' },
    },
    {
      ...base,
      type: 'user',
      uuid: 'u2',
      parentUuid: 'a2',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_task', content: [{ type: 'text', text: 'main.ts:3' }] }],
      },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a3',
      parentUuid: 'u2',
      isApiErrorMessage: true,
      message: {
        id: 'e',
        role: 'assistant',
        model: '<synthetic>',
        content: [{ type: 'text', text: 'API Error: 529' }],
      },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a4',
      parentUuid: 'a3',
      message: {
        id: 'msg_2',
        role: 'assistant',
        model: 'claude-opus-4-1',
        content: [{ type: 'text', text: 'Fixed.' }],
        stop_reason: 'end_turn',
      },
    },
    { ...base, type: 'system', uuid: 'sys', content: 'compacted' },
  );

  it('reads the main thread: merged streamed entries, signed thinking, calls and results, origins (whole output)', () => {
    const r = run('claude-code', file);
    expect(r.skipped).toEqual([]);
    const origin = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-opus-4-1' } as const;
    expect(r.conversations[0]).toEqual({
      format: 'baton.transcript',
      version: 1,
      id: 'claude-code:S',
      title: 'Find the bug',
      source: { kind: 'claude-code', id: 'S' },
      turns: [
        {
          id: 'u1',
          role: 'user',
          createdAt: '2026-01-01T00:00:00.000Z',
          blocks: [{ type: 'text', text: 'Find the bug' }],
        },
        {
          id: 'a1',
          role: 'assistant',
          origin,
          createdAt: '2026-01-01T00:00:00.000Z',
          stopReason: 'tool_use',
          usage: { inputTokens: 10, outputTokens: 5 },
          blocks: [
            { type: 'thinking', text: 'Delegate.', signature: 'SIG1' },
            { type: 'tool_call', id: 'toolu_task', name: 'Task', input: { prompt: 'Search' } },
          ],
          native: {
            api: 'anthropic-messages',
            payload: [
              { type: 'thinking', thinking: 'Delegate.', signature: 'SIG1' },
              { type: 'tool_use', id: 'toolu_task', name: 'Task', input: { prompt: 'Search' } },
            ],
          },
        },
        {
          id: 'u2',
          role: 'tool',
          createdAt: '2026-01-01T00:00:00.000Z',
          blocks: [{ type: 'tool_result', callId: 'toolu_task', content: [{ type: 'text', text: 'main.ts:3' }] }],
        },
        {
          id: 'a4',
          role: 'assistant',
          origin,
          createdAt: '2026-01-01T00:00:00.000Z',
          stopReason: 'end_turn',
          blocks: [{ type: 'text', text: 'Fixed.' }],
          native: { api: 'anthropic-messages', payload: [{ type: 'text', text: 'Fixed.' }] },
        },
      ],
      meta: {
        importWarnings: [
          'entries without conversation content skipped: system ×1',
          'line 9: Claude Code\'s own notice (model "<synthetic>") is not model output and was left out',
        ],
      },
    });
    expectConvertsEverywhere(r.conversations[0]!, [{ api: 'anthropic-messages', model: 'claude-opus-4-1' }]);
  });

  it('keeps sub-agent sidechains apart, each as its own conversation (by agentId, else by root entry)', () => {
    const [, agent, other] = run('claude-code', file).conversations;
    expect(agent).toMatchObject({
      id: 'claude-code:S:sidechain:agent-7',
      title: 'Sub-agent: Search',
      source: { kind: 'claude-code', id: 'S:sidechain:agent-7' },
      meta: { sidechainOf: 'claude-code:S' },
    });
    expect(agent!.turns.map((t) => [t.id, t.role, t.blocks.map((b) => b.type)])).toEqual([
      ['s1', 'user', ['text']],
      ['s2', 'assistant', ['tool_call']],
      ['s3', 'tool', ['tool_result']],
    ]);
    expect(agent!.turns[1]!.origin?.model).toBe('claude-sonnet-4-5');
    expect(other).toMatchObject({ id: 'claude-code:S:sidechain:x1', title: 'Sub-agent: Other agent' });
    expectConvertsEverywhere(agent!);
  });

  it('refuses a file with no user or assistant entry', () => {
    expect(() => run('claude-code', jsonl({ type: 'summary', summary: 'x' }))).toThrow(
      'no Claude Code user or assistant entries in the file',
    );
  });
});

describe('codex', () => {
  it('reads runs of items per model, keeps reasoning state, and moves developer text to a user preamble', () => {
    const r = run(
      'codex',
      jsonl(
        { type: 'session_meta', payload: { id: 'R1', timestamp: '2026-02-02T00:00:00Z', model_provider: 'openai' } },
        { type: 'turn_context', payload: { model: 'gpt-5-codex' } },
        {
          type: 'response_item',
          payload: {
            type: 'message',
            role: 'developer',
            content: [{ type: 'input_text', text: 'Sandbox: read-only' }],
          },
        },
        {
          type: 'response_item',
          payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one' }] },
        },
        { type: 'response_item', payload: { type: 'reasoning', summary: [], encrypted_content: 'ENC1' } },
        {
          type: 'response_item',
          payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'first' }] },
        },
        { type: 'response_item', payload: { type: 'ghost_snapshot', ghost_commit: {} } },
        { type: 'turn_context', payload: { model: 'gpt-5.1-codex' } },
        {
          type: 'response_item',
          payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'two' }] },
        },
        { type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{}' } },
        {
          type: 'response_item',
          payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'second' }] },
        },
      ),
    );
    const t = r.conversations[0]!;
    expect(t.turns.map((x) => [x.id, x.role, x.origin?.model])).toEqual([
      ['t1', 'user', undefined],
      ['t2', 'assistant', 'gpt-5-codex'],
      ['t3', 'user', undefined],
      ['t4', 'assistant', 'gpt-5.1-codex'],
    ]);
    expect(t.system).toBeUndefined();
    expect(t.turns[0]!.blocks[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('Sandbox: read-only') as unknown as string,
      meta: { importedSystem: true },
    });
    expect(t.turns[1]!.blocks[0]).toEqual({ type: 'thinking', text: '', signature: 'ENC1' });
    expect(t.meta?.importWarnings).toEqual([
      'line 7: response item of type "ghost_snapshot" left out (not a Responses input item)',
      'line 10: function_call item left out: input[0].call_id: required field missing (expected string)',
    ]);
    expectConvertsEverywhere(t, [{ api: 'openai-responses', model: 'gpt-5-codex' }]);
  });

  it('reads the older rollout format: a header line, then raw items', () => {
    const r = run(
      'codex',
      jsonl(
        { id: 'old-1', timestamp: '2025-05-01T10:00:00Z', instructions: null },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
        { record_type: 'state' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hello' }] },
      ),
    );
    const t = r.conversations[0]!;
    expect([t.id, t.createdAt, t.turns.map((x) => x.role).join()]).toEqual([
      'codex:old-1',
      '2025-05-01T10:00:00.000Z',
      'user,assistant',
    ]);
    expect(t.turns[1]!.origin).toEqual({ provider: 'openai', api: 'openai-responses', model: 'unknown' });
    expect(t.meta?.importWarnings).toEqual([
      'records without conversation content ignored: record_type state ×1',
      'no turn_context names the model: assistant turns have model "unknown"',
    ]);
  });
});

describe('gemini-cli', () => {
  it('folds the JSONL log: upserts, $rewindTo, $set; failed calls get an error result; notices are left out', () => {
    const r = run(
      'gemini-cli',
      jsonl(
        { sessionId: 'G1', startTime: '2026-03-03T00:00:00Z' },
        { id: 'm1', type: 'user', content: [{ text: 'list files' }] },
        { id: 'm2', type: 'gemini', content: '', model: 'gemini-2.5-pro' },
        {
          id: 'm2',
          type: 'gemini',
          content: 'Listing.',
          model: 'gemini-2.5-pro',
          thoughts: [{ subject: 'Plan', description: 'Use ls.' }],
          toolCalls: [
            { id: 'c1', name: 'ls', args: { path: '.' }, status: 'error', resultDisplay: 'permission denied' },
          ],
        },
        { id: 'm3', type: 'user', content: 'wrong turn' },
        { $rewindTo: 'm3' },
        { id: 'm4', type: 'info', content: 'Request cancelled.' },
        { id: 'm5', type: 'user', content: 'try again' },
        { $set: { summary: 'Listing files' } },
      ),
    );
    const t = r.conversations[0]!;
    expect(t.title).toBe('Listing files');
    expect(t.turns).toEqual([
      { id: 'm1', role: 'user', blocks: [{ type: 'text', text: 'list files' }] },
      {
        id: 'm2',
        role: 'assistant',
        origin: { provider: 'google', api: 'gemini-generate-content', model: 'gemini-2.5-pro' },
        stopReason: 'tool_use',
        blocks: [
          { type: 'thinking', text: '**Plan**\n\nUse ls.' },
          { type: 'text', text: 'Listing.' },
          { type: 'tool_call', id: 'c1', name: 'ls', input: { path: '.' } },
        ],
      },
      {
        id: 'm2-results',
        role: 'tool',
        blocks: [{ type: 'tool_result', callId: 'c1', content: '[tool call error: permission denied]', isError: true }],
      },
      { id: 'm5', role: 'user', blocks: [{ type: 'text', text: 'try again' }] },
    ]);
    expect(t.meta).toEqual({ importWarnings: ['CLI notices not imported: info ×1'] });
    expectConvertsEverywhere(t, [{ api: 'gemini-generate-content', model: 'gemini-2.5-pro' }]);
  });
});

describe('pi', () => {
  it("follows the branch of the last entry in the tree format and keeps each API's opaque state", () => {
    const reasoning = JSON.stringify({ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'ENC' });
    const r = run(
      'pi',
      jsonl(
        { type: 'session', version: 3, id: 'P1', timestamp: '2026-04-04T00:00:00Z' },
        {
          type: 'message',
          id: 'e1',
          parentId: null,
          message: { role: 'user', content: 'start', timestamp: 1775260800000 },
        },
        {
          type: 'message',
          id: 'e2',
          parentId: 'e1',
          message: {
            role: 'assistant',
            api: 'openai-responses',
            provider: 'openai',
            model: 'gpt-5',
            stopReason: 'stop',
            content: [
              { type: 'thinking', thinking: 'hmm', thinkingSignature: reasoning },
              { type: 'text', text: 'abandoned branch', textSignature: 'msg_1' },
            ],
          },
        },
        {
          type: 'message',
          id: 'e3',
          parentId: 'e1',
          message: {
            role: 'assistant',
            api: 'google-generative-ai',
            provider: 'google',
            model: 'gemini-2.5-pro',
            stopReason: 'toolUse',
            content: [
              { type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: 'ls' }, thoughtSignature: 'GSIG' },
            ],
          },
        },
        {
          type: 'message',
          id: 'e4',
          parentId: 'e3',
          message: {
            role: 'toolResult',
            toolCallId: 'c1',
            toolName: 'bash',
            isError: false,
            content: [{ type: 'text', text: 'a.txt' }],
          },
        },
        {
          type: 'message',
          id: 'e5',
          parentId: 'e4',
          message: { role: 'bashExecution', command: 'pwd', output: '/tmp', exitCode: 0 },
        },
        {
          type: 'message',
          id: 'e6',
          parentId: 'e5',
          message: {
            role: 'assistant',
            api: 'anthropic-messages',
            provider: 'anthropic',
            model: 'claude-sonnet-4-5',
            stopReason: 'stop',
            content: [
              { type: 'thinking', thinking: '', thinkingSignature: 'REDACTED', redacted: true },
              { type: 'text', text: 'done' },
            ],
          },
        },
      ),
    );
    const t = r.conversations[0]!;
    expect(t.turns.map((x) => x.id)).toEqual(['e1', 'e3', 'e4', 'e5', 'e6']);
    expect(t.turns[1]).toMatchObject({
      origin: { provider: 'google', api: 'gemini-generate-content', model: 'gemini-2.5-pro' },
      stopReason: 'tool_use',
      blocks: [{ type: 'tool_call', id: 'c1', name: 'bash', input: { command: 'ls' }, signature: 'GSIG' }],
    });
    expect(t.turns[2]!.blocks).toEqual([{ type: 'tool_result', callId: 'c1', content: 'a.txt' }]);
    expect(t.turns[3]!.blocks).toEqual([
      { type: 'text', text: '[Shell command run by the user: pwd, exit code 0]\n```\n/tmp\n```' },
    ]);
    expect(t.turns[4]!.blocks).toEqual([
      { type: 'redacted_thinking', data: 'REDACTED' },
      { type: 'text', text: 'done' },
    ]);
    expect(t.meta).toEqual({
      importWarnings: ['1 entry on other branches not imported: followed the branch of the last entry'],
    });
    expectConvertsEverywhere(t, [
      { api: 'gemini-generate-content', model: 'gemini-2.5-pro' },
      { api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
    ]);
  });

  it('reads a Responses reasoning item stored as the thinking signature', () => {
    const reasoning = JSON.stringify({ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'ENC' });
    const t = run(
      'pi',
      jsonl(
        { type: 'session', id: 'P2' },
        { type: 'message', message: { role: 'user', content: [{ type: 'text', text: 'q' }] } },
        {
          type: 'message',
          message: {
            role: 'assistant',
            api: 'openai-responses',
            provider: 'openai',
            model: 'gpt-5',
            stopReason: 'stop',
            content: [
              { type: 'thinking', thinking: 'hmm', thinkingSignature: reasoning },
              { type: 'text', text: 'a', textSignature: 'msg_1' },
            ],
          },
        },
      ),
    ).conversations[0]!;
    expect(t.turns[1]!.blocks).toEqual([
      { type: 'thinking', text: 'hmm', signature: 'ENC', meta: { itemId: 'rs_1' } },
      { type: 'text', text: 'a', meta: { itemId: 'msg_1' } },
    ]);
    expectConvertsEverywhere(t, [{ api: 'openai-responses', model: 'gpt-5' }]);
  });
});

describe('baton and native histories', () => {
  const transcript = (id: string) => ({
    format: 'baton.transcript',
    version: 1,
    id,
    source: { kind: 'chatgpt-export', id: 'x' },
    turns: [{ id: 'u', role: 'user', blocks: [{ type: 'text', text: 'hi' }] }],
  });

  it("baton: keeps ids and sources, skips a broken transcript with the decoder's path message", () => {
    const broken = {
      format: 'baton.transcript',
      version: 1,
      id: 'bad',
      turns: [{ id: 'a', role: 'assistant', blocks: [] }],
    };
    const r = run('baton', enc(JSON.stringify([transcript('t1'), broken, { ...transcript('t2'), source: undefined }])));
    expect(r.conversations.map((t) => [t.id, t.source])).toEqual([
      ['t1', { kind: 'chatgpt-export', id: 'x' }],
      ['t2', { kind: 'baton', id: 't2' }],
    ]);
    expect(r.skipped).toEqual([{ id: 'bad', reason: '[1]: turns[0].origin: required on assistant turns' }]);
  });

  it('baton: a broken pretty-printed document is one JSON error, not a list of bad lines', () => {
    expect(() => run('baton', enc(JSON.stringify(transcript('a'), null, 2).slice(0, -2)))).toThrow(/^invalid JSON: /);
  });

  it('records the import time when asked, and only then', () => {
    const bytes = enc(JSON.stringify(transcript('a')));
    // The file's `source` names chatgpt-export: only a claim (docs/security.md), marked as such.
    expect(importFile('baton', bytes, { now: '2026-05-05T05:05:05.000Z' }).conversations[0]!.meta).toEqual({
      sourceClaimedByFile: true,
      importedAt: '2026-05-05T05:05:05.000Z',
    });
    expect(importFile('baton', bytes).conversations[0]!.meta).toEqual({ sourceClaimedByFile: true });
    const own = enc(JSON.stringify({ ...transcript('a'), source: { kind: 'baton', id: 'a' } }));
    expect(importFile('baton', own, { now: '2026-05-05T05:05:05.000Z' }).conversations[0]!.meta).toEqual({
      importedAt: '2026-05-05T05:05:05.000Z',
    });
    expect(importFile('baton', own).conversations[0]!.meta).toBeUndefined();
  });

  it('baton: JSONL, with a line that is not JSON skipped by line number', () => {
    const r = run('baton', jsonl(transcript('a'), '{oops', transcript('b')));
    expect(r.conversations.map((t) => t.id)).toEqual(['a', 'b']);
    expect(r.skipped).toEqual([{ reason: expect.stringMatching(/^line 2: invalid JSON: /) as unknown as string }]);
  });

  it("native histories: an array of bodies, content-hash ids stable across imports, the reader's path on a bad body", () => {
    const bodies = [
      {
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'one' },
        ],
      },
      {
        messages: [
          { role: 'user', content: 'second' },
          { role: 'assistant', content: 'two' },
        ],
      },
      { model: 'gpt-4o', messages: [{ role: 'wizard', content: 'x' }] },
    ];
    const r = run('openai-chat', enc(JSON.stringify(bodies)));
    expect(r.conversations.map((t) => [t.title, t.turns[1]!.origin?.model, t.meta])).toEqual([
      ['first', 'gpt-4o', undefined],
      ['second', 'unknown', { importWarnings: ['the body names no model: assistant turns have model "unknown"'] }],
    ]);
    expect(r.conversations[0]!.id).toMatch(/^openai-chat:h[0-9A-Za-z]{16}$/);
    expect(r.conversations[0]!.id).toBe(`openai-chat:${r.conversations[0]!.source?.id}`);
    expect(run('openai-chat', enc(JSON.stringify(bodies))).conversations.map((t) => t.id)).toEqual(
      r.conversations.map((t) => t.id),
    );
    expect(r.skipped).toHaveLength(1);
    expect(r.skipped[0]!.reason).toMatch(/^\[2\]: messages\[0\]\.role: /);
    for (const t of r.conversations) expectConvertsEverywhere(t, [{ api: 'openai-chat', model: 'gpt-4o' }]);
  });

  it.each([
    [
      'anthropic-messages',
      {
        model: 'claude-sonnet-4-5',
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 't', signature: 'S' },
              { type: 'text', text: 'a' },
            ],
          },
        ],
      },
    ],
    [
      'openai-responses',
      {
        model: 'gpt-5.5',
        input: [
          { role: 'user', content: 'q' },
          { type: 'reasoning', summary: [], encrypted_content: 'E' },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] },
        ],
      },
    ],
    [
      'gemini-generate-content',
      {
        model: 'gemini-2.5-flash',
        contents: [
          { role: 'user', parts: [{ text: 'q' }] },
          { role: 'model', parts: [{ text: 'a', thoughtSignature: 'G' }] },
        ],
      },
    ],
  ] as [ImportKind, Record<string, unknown>][])(
    '%s: JSONL of bodies, each read by its history reader with its origin',
    (kind, body) => {
      const r = run(kind, jsonl(body, body));
      // The same body twice is the same conversation: imported once, the repeat skipped.
      expect(r.conversations).toHaveLength(1);
      expect(r.skipped[0]!.reason).toMatch(/^duplicate conversation id/);
      const t = r.conversations[0]!;
      expect(t.turns[1]!.origin).toMatchObject({ api: kind, model: body.model });
      expect(t.turns[1]!.native?.api).toBe(kind);
      expectConvertsEverywhere(t, [{ api: kind as 'anthropic-messages', model: String(body.model) }]);
    },
  );
});
