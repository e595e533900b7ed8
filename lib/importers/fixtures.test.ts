/**
 * Every file of ../shared/fixtures/{chatgpt-export,claude-export,agent-transcripts} imported:
 * concrete counts and values per fixture, every conversation decodes, and converts to all four
 * APIs (and to its own origin, where it has one) with bodies the contract validators accept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertTranscript } from '../providers';
import type { Transcript } from '../transcript/schema';
import {
  blockCounts,
  expectConvertsEverywhere,
  expectResultsAnswerCalls,
  fixture,
  hasShared,
  roles,
  SHARED,
} from './fixtures.test-helper';
import { importFile } from './import-file';
import type { ImportKind, ImportResult } from './types';

if (!hasShared) console.warn('skipping importer fixture tests: ../shared/fixtures not found');

const texts = (t: Transcript, role: string) =>
  t.turns.filter((x) => x.role === role).flatMap((x) => x.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])));
const calls = (t: Transcript) => t.turns.flatMap((x) => x.blocks.flatMap((b) => (b.type === 'tool_call' ? [b] : [])));
const results = (t: Transcript) =>
  t.turns.flatMap((x) => x.blocks.flatMap((b) => (b.type === 'tool_result' ? [b] : [])));
const models = (t: Transcript) => [
  ...new Set(t.turns.flatMap((x) => (x.origin ? [`${x.origin.provider}/${x.origin.api}/${x.origin.model}`] : []))),
];

function load(kind: ImportKind, rel: string): ImportResult {
  const r = importFile(kind, fixture(rel));
  for (const t of r.conversations) {
    expect(t.source?.kind).toBe(kind);
    expect(t.id).toBe(`${kind}:${t.source?.id}`);
    // I3 idempotence: the same file always yields the same conversations.
  }
  expect(importFile(kind, fixture(rel))).toEqual(r);
  return r;
}

describe.skipIf(!hasShared)('fixture coverage', () => {
  it('lists every file of the three folders below', () => {
    const listed = ['chatgpt-export', 'claude-export', 'agent-transcripts'].flatMap((d) =>
      fs.readdirSync(path.join(SHARED, d)).map((f) => `${d}/${f}`),
    );
    expect(listed.sort()).toEqual(Object.keys(COVERED).sort());
  });
});

/** Each fixture's test, keyed by its path (the coverage test checks no file is missing). */
const COVERED: Record<string, () => void> = {
  'chatgpt-export/librechat-chatgpt-export.json': () => {
    const r = load('chatgpt-export', 'chatgpt-export/librechat-chatgpt-export.json');
    expect(r.skipped).toEqual([]);
    const [web, plain] = r.conversations as [Transcript, Transcript];
    expect([web.title, plain.title]).toEqual(['Conversation 1. Web Search', 'Conversation 2']);
    expect(web.createdAt).toBe('2024-01-07T12:18:35.775Z');
    expect(roles(web)).toBe('uatatauatataua');
    expect(blockCounts(web)).toEqual({
      'user:text': 3,
      'assistant:text': 3,
      'assistant:tool_call': 4,
      'tool:tool_result': 4,
    });
    expect(calls(web).map((c) => [c.name, c.input])).toEqual([
      ['browser', { code: 'search("Volkswagen Transporter fuel consumption with 8 people l/km")' }],
      ['browser', { code: 'mclick([0, 3, 7])' }],
      ['browser', { code: 'search("2014 Volkswagen Transporter fuel consumption")' }],
      ['browser', { code: 'mclick([0, 2, 13])' }],
    ]);
    // The two quotes that answer one mclick are one result.
    const quotes = results(web)[1]!.content as string;
    expect(quotes).toContain('ultimatespecs.com');
    expect(quotes).toContain('drive.com.au');
    expect(models(web)).toEqual(['chatgpt-web/web/gpt-4']);
    expect(roles(plain)).toBe('uaua');
    expect(texts(plain, 'assistant')[1]).toContain('```csharp');
    for (const t of r.conversations) {
      expectResultsAnswerCalls(t);
      expectConvertsEverywhere(t);
    }
  },
  'chatgpt-export/librechat-chatgpt-modern-export.json': () => {
    const r = load('chatgpt-export', 'chatgpt-export/librechat-chatgpt-modern-export.json');
    expect(r.skipped).toEqual([
      {
        id: '6b0f0d9c-0000-4000-8000-000000000002',
        title: 'Corrupted entry',
        reason: 'mapping: missing: the conversation has no message tree',
      },
    ]);
    expect(r.conversations.map((t) => t.title)).toEqual(['Deploying the staging cluster', 'Weeknight pasta']);
    const [deploy, pasta] = r.conversations as [Transcript, Transcript];
    // The hidden user_editable_context node is not imported.
    expect(JSON.stringify(deploy)).not.toContain('The user is an SRE.');
    expect(texts(deploy, 'user')).toEqual(['How do I roll back the deploy?', 'And if that fails?']);
    expect(deploy.turns.map((x) => x.origin?.model)).toEqual([undefined, 'chatgpt', undefined, 'o4-mini']);
    expect(texts(pasta, 'assistant')).toEqual(['Puttanesca.']);
    for (const t of r.conversations) expectConvertsEverywhere(t);
  },
  'chatgpt-export/librechat-chatgpt-tree.json': () => {
    const r = load('chatgpt-export', 'chatgpt-export/librechat-chatgpt-tree.json');
    const t = r.conversations[0]!;
    expect(r.conversations).toHaveLength(1);
    // current_node's branch: the edited second question, the regenerated last answer.
    expect(texts(t, 'user')).toEqual(['hi there', 'hi again', 'tell me a joke']);
    expect(t.turns.map((x) => x.id)).toEqual([
      'aaa297ba-e2da-440e-84f4-e62e7be8b003',
      'bda8a275-886d-4f59-b38c-d7037144f0d5',
      'aaa236a3-cdfc-4eb1-b5c5-790c6641f880',
      'db88eddf-3622-4246-8527-b6eaf0e9e8cd',
      'aaa20127-b9e3-44f6-afbe-a2475838625a',
      'f63b8e17-aa5c-4ca6-a1bf-d4d285e269b8',
    ]);
    expect(t.meta).toBeUndefined();
    expectConvertsEverywhere(t);
  },
  'chatgpt-export/pionxzh-image-generation.json': () => {
    const r = load('chatgpt-export', 'chatgpt-export/pionxzh-image-generation.json');
    const t = r.conversations[0]!;
    expect(t.id).toBe('chatgpt-export:fixture');
    expect(roles(t)).toBe('uauauataua');
    expect(blockCounts(t)).toEqual({
      'user:text': 5,
      'assistant:provider_item': 3,
      'assistant:thinking': 4,
      'assistant:tool_call': 2,
      'tool:tool_result': 1,
    });
    expect(t.turns[0]!.blocks).toEqual([
      { type: 'text', text: '[image sediment://file_1 (1254×1254): the ChatGPT export has no image bytes]' },
      { type: 'text', text: 'question 1' },
    ]);
    const item = t.turns[1]!.blocks[0]!;
    expect(item.type === 'provider_item' && item.api === 'web' && item.text).toBe(
      '[internal_tool output]\n[image sediment://file_2 (1254×1254): the ChatGPT export has no image bytes]',
    );
    expect(t.turns[1]!.blocks[1]).toEqual({
      type: 'thinking',
      text: 'Thought for 47s',
      meta: { chatgpt: 'reasoning_recap' },
    });
    expect(calls(t).map((c) => [c.id, c.name, c.input])).toEqual([
      ['n14', 'internal_tool', { code: 'code 1' }],
      ['n15', 'internal_tool', { code: 'code 2' }],
    ]);
    expect(results(t).map((b) => b.callId)).toEqual(['n14']);
    expect(models(t)).toEqual(['chatgpt-web/web/gpt-5-4-auto-thinking', 'chatgpt-web/web/gpt-5-6-thinking']);
    expectConvertsEverywhere(t);
  },
  'chatgpt-export/pionxzh-thinking-summaries.json': () => {
    const r = load('chatgpt-export', 'chatgpt-export/pionxzh-thinking-summaries.json');
    const t = r.conversations[0]!;
    expect(roles(t)).toBe('uatataua');
    expect(blockCounts(t)).toEqual({
      'user:text': 2,
      'assistant:text': 2,
      'assistant:tool_call': 2,
      'tool:tool_result': 2,
      'assistant:thinking': 10,
    });
    const thinking = t.turns.flatMap((x) => x.blocks.flatMap((b) => (b.type === 'thinking' ? [b.text] : [])));
    expect(thinking).toEqual([
      'summary 1\n\nthought 1',
      'summary 1',
      'summary 2\n\nthought 2',
      'summary 3\n\nthought 3',
      'summary 4',
      'summary 5',
      'Thought for 29s',
      'summary 6\n\nthought 4',
      'summary 7',
      'Thought for 14s',
    ]);
    expect(calls(t).map((c) => [c.id, c.name])).toEqual([
      ['n2', 'web.run'],
      ['n5', 'web.run'],
    ]);
    expect(results(t).map((b) => b.callId)).toEqual(['n2', 'n5']);
    expect(texts(t, 'assistant')).toEqual(['answer 1', 'answer 2']);
    expectConvertsEverywhere(t);
  },
  'claude-export/chatlore-branches-attachments.json': () => {
    const r = load('claude-export', 'claude-export/chatlore-branches-attachments.json');
    expect(r.skipped).toEqual([
      {
        id: 'aaaaaaaa-1111-4222-8333-000000000003',
        title: 'Broken record',
        reason: 'chat_messages: missing: the conversation has no messages',
      },
    ]);
    const [rust, old] = r.conversations as [Transcript, Transcript];
    // The latest branch: the retried answer m3, not m2.
    expect(rust.turns.map((x) => [x.id, x.role])).toEqual([
      ['m1', 'user'],
      ['m3', 'assistant'],
      ['m3-result', 'tool'],
      ['m4', 'user'],
    ]);
    expect(texts(rust, 'user')).toEqual([
      'Why does this not compile?',
      '[Attachment main.rs (text/x-rust)]\n```\nfn main() { let r; { let x = 5; r = &x; } }\n```',
      '[File screenshot.png: not included in the Claude export]',
      'That worked, thanks.',
    ]);
    expect(calls(rust)).toEqual([{ type: 'tool_call', id: 'm3-call-1', name: 'repl', input: { code: 'cargo check' } }]);
    expect(results(rust)).toEqual([
      { type: 'tool_result', callId: 'm3-call-1', content: [{ type: 'text', text: 'Finished dev profile' }] },
    ]);
    expect(models(rust)).toEqual(['claude-web/web/claude']);
    expect(rust.meta).toEqual({
      importWarnings: ['1 message(s) on other branches (edits, retries) not imported: followed the latest branch'],
    });
    // The whitespace-only reply is not a turn.
    expect(roles(old)).toBe('ua');
    for (const t of r.conversations) expectConvertsEverywhere(t);
  },
  'claude-export/claude-to-sqlite-example.json': () => {
    const r = load('claude-export', 'claude-export/claude-to-sqlite-example.json');
    const t = r.conversations[0]!;
    expect(t.title).toBe('Bash Command for OpenAI API');
    expect(t.createdAt).toBe('2024-10-18T05:30:10.325Z');
    expect(texts(t, 'user')).toEqual([
      'Turn this into a bash command',
      '[File CleanShot 20241017 at 22.29.542x.png: not included in the Claude export]',
    ]);
    expect(texts(t, 'assistant')[0]).toMatch(/^ To turn this into a bash command/);
    expectConvertsEverywhere(t);
  },
  'agent-transcripts/claude-code-edge-cases.jsonl': () => {
    const r = load('claude-code', 'agent-transcripts/claude-code-edge-cases.jsonl');
    const t = r.conversations[0]!;
    expect(t.id).toBe('claude-code:edge_cases');
    expect(t.title).toMatch(/^Tested various edge cases/);
    expect(roles(t)).toBe('uauatuuuaua');
    expect(blockCounts(t)).toEqual({
      'user:text': 6,
      'assistant:text': 2,
      'assistant:tool_call': 3,
      'tool:tool_result': 1,
    });
    expect(results(t)).toEqual([
      {
        type: 'tool_result',
        callId: 'tool_edge_001',
        content: 'Error: Tool execution failed with error: Command not found',
        isError: true,
      },
    ]);
    expect(t.meta?.importWarnings).toEqual([
      'line 11: user entry without a message object',
      'line 13: not a JSON object',
      'line 15: not a JSON object',
      'line 16: not a JSON object',
      'line 18: repeats entry "edge_010" (Claude Code copies history when a session is resumed): skipped',
      'entries without conversation content skipped: untyped ×1',
      'line 10: user message left out: messages[0].content: required field missing',
    ]);
    expectResultsAnswerCalls(t);
    expectConvertsEverywhere(t, [{ api: 'anthropic-messages', model: 'claude-3-sonnet-20240229' }]);
  },
  'agent-transcripts/claude-code-representative.jsonl': () => {
    const t = load('claude-code', 'agent-transcripts/claude-code-representative.jsonl').conversations[0]!;
    expect(roles(t)).toBe('uauatauatau');
    expect(blockCounts(t)).toEqual({
      'user:text': 4,
      'assistant:text': 3,
      'assistant:tool_call': 2,
      'tool:tool_result': 2,
    });
    expect(t.turns.filter((x) => x.role === 'assistant').map((x) => x.stopReason)).toEqual([
      'end_turn',
      'tool_use',
      'end_turn',
      'tool_use',
      'end_turn',
    ]);
    expect(models(t)).toEqual(['anthropic/anthropic-messages/claude-3-sonnet-20240229']);
    expectResultsAnswerCalls(t);
    expectConvertsEverywhere(t, [{ api: 'anthropic-messages', model: 'claude-3-sonnet-20240229' }]);
  },
  'agent-transcripts/claude-code-session-basic.jsonl': () => {
    const t = load('claude-code', 'agent-transcripts/claude-code-session-basic.jsonl').conversations[0]!;
    expect(t.id).toBe('claude-code:1af7fc5e-8455-4414-9ccd-011d40f70b2a');
    expect(roles(t)).toBe('uuatatttttatttatatata');
    expect(blockCounts(t)).toEqual({
      'user:text': 2,
      'assistant:text': 3,
      'assistant:tool_call': 12,
      'tool:tool_result': 12,
    });
    expect([...new Set(calls(t).map((c) => c.name))].sort()).toEqual(['Bash', 'Glob', 'TodoWrite', 'Write']);
    expectResultsAnswerCalls(t);
    expectConvertsEverywhere(t, [{ api: 'anthropic-messages', model: 'claude-sonnet-4-20250514' }]);
  },
  'agent-transcripts/claude-code-session-thinking.jsonl': () => {
    const t = load('claude-code', 'agent-transcripts/claude-code-session-thinking.jsonl').conversations[0]!;
    expect(t.turns).toHaveLength(75);
    expect(blockCounts(t)).toEqual({
      'user:text': 12,
      'assistant:text': 6,
      'assistant:thinking+sig': 5,
      'assistant:tool_call': 31,
      'tool:tool_result': 31,
    });
    const raw = fs.readFileSync(path.join(SHARED, 'agent-transcripts/claude-code-session-thinking.jsonl'), 'utf8');
    const signatures = t.turns.flatMap((x) =>
      x.blocks.flatMap((b) => (b.type === 'thinking' && b.signature ? [b.signature] : [])),
    );
    for (const s of signatures) expect(raw).toContain(`"signature":"${s}"`);
    expect(signatures[0]).toMatch(/^EtEFCkYIBxgCKkDNBdq9/);
    expectResultsAnswerCalls(t);
    expectConvertsEverywhere(t, [{ api: 'anthropic-messages', model: 'claude-sonnet-4-20250514' }]);
    // Same model, but minted in Claude Code: never sent as thinking (A-B4), and reported.
    const same = convertTranscript(t, {
      api: 'anthropic-messages',
      model: 'claude-sonnet-4-20250514',
      maxOutputTokens: 1024,
    });
    const body = JSON.stringify(same.body);
    for (const s of signatures) expect(body).not.toContain(s);
    expect(same.report.blocks.some((b) => b.fates.some((f) => f.fate === 'dropped'))).toBe(true);
    // Another model: the signatures are not sent.
    expect(
      JSON.stringify(
        convertTranscript(t, { api: 'anthropic-messages', model: 'claude-sonnet-4-5', maxOutputTokens: 1024 }).body,
      ),
    ).not.toContain(signatures[0]!);
  },
  'agent-transcripts/codex-rollout-synthetic.jsonl': () => {
    const t = load('codex', 'agent-transcripts/codex-rollout-synthetic.jsonl').conversations[0]!;
    expect(t.id).toBe('codex:11111111-1111-4111-8111-111111111111');
    expect(t.title).toBe('List the synthetic files.');
    expect(t.createdAt).toBe('2026-01-02T03:04:05.000Z');
    expect(roles(t)).toBe('uatatata');
    expect(blockCounts(t)).toEqual({
      'user:text': 1,
      'assistant:text': 1,
      'assistant:thinking+sig': 1,
      'assistant:tool_call': 2,
      'tool:tool_result': 2,
      'assistant:provider_item': 1,
      'tool:provider_item': 1,
    });
    expect(t.turns[1]!.blocks[0]).toEqual({
      type: 'thinking',
      text: 'I will inspect the synthetic directory.',
      signature: 'SYNTHETIC_ENCRYPTED_CONTENT_MUST_NOT_RENDER',
    });
    expect(calls(t).map((c) => [c.id, c.name, c.input])).toEqual([
      ['call-structured-001', 'exec_command', { cmd: 'find . -maxdepth 1 -type f' }],
      ['call-mcp-001', 'mcp__synthetic__lookup', { query: 'fixture' }],
    ]);
    expect(results(t).map((b) => [b.callId, b.content])).toEqual([
      ['call-structured-001', './alpha.txt\n./beta.txt'],
      ['call-mcp-001', '{"status":"ok"}'],
    ]);
    const output = t.turns[4]!.blocks[0]!;
    expect(output.type === 'provider_item' && output.text).toBe('Done!');
    expect(models(t)).toEqual(['synthetic/openai-responses/synthetic-model']);
    expect(t.meta).toEqual({
      importWarnings: ['records without conversation content ignored: future_synthetic_record ×1'],
    });
    expectConvertsEverywhere(t, [{ api: 'openai-responses', model: 'synthetic-model', provider: 'synthetic' }]);
    const same = JSON.stringify(
      convertTranscript(t, {
        api: 'openai-responses',
        model: 'synthetic-model',
        provider: 'synthetic',
        maxOutputTokens: 1024,
      }).body,
    );
    expect(same).toContain('SYNTHETIC_ENCRYPTED_CONTENT_MUST_NOT_RENDER');
    expect(same).toContain('"type":"custom_tool_call_output"');
  },
  'agent-transcripts/gemini-cli-session-legacy.json': () => {
    const t = load('gemini-cli', 'agent-transcripts/gemini-cli-session-legacy.json').conversations[0]!;
    expect(t.id).toBe('gemini-cli:8a20078e-2d5e-4f81-a640-9b879bbb7e6d');
    expect(roles(t)).toBe('uatata');
    expect(blockCounts(t)).toEqual({
      'user:text': 1,
      'assistant:text': 1,
      'assistant:thinking': 39,
      'assistant:tool_call': 7,
      'tool:tool_result': 7,
    });
    expect(calls(t)[0]).toEqual({
      type: 'tool_call',
      id: 'x0m3mt27',
      name: 'read_file',
      input: { file_path: 'README.md' },
    });
    expect(models(t)).toEqual(['google/gemini-generate-content/gemini-3.1-pro-preview-customtools']);
    expect(t.turns[1]!.usage).toEqual({
      inputTokens: 11894,
      outputTokens: 68,
      cacheReadTokens: 7900,
      reasoningTokens: 344,
    });
    expectResultsAnswerCalls(t);
    expectConvertsEverywhere(t, [{ api: 'gemini-generate-content', model: 'gemini-3.1-pro-preview-customtools' }]);
  },
  'agent-transcripts/gemini-cli-session.jsonl': () => {
    const t = load('gemini-cli', 'agent-transcripts/gemini-cli-session.jsonl').conversations[0]!;
    expect(t.id).toBe('gemini-cli:0ab84937-9fe7-4284-986a-33c832af0b6a');
    // Records rewritten with the same id count once (the file is an upsert log).
    expect(roles(t)).toBe('uatatatatuauat');
    expect(blockCounts(t)).toEqual({
      'user:text': 3,
      'assistant:text': 2,
      'assistant:thinking': 7,
      'assistant:tool_call': 12,
      'tool:tool_result': 12,
    });
    expect(texts(t, 'user')[1]).toBe('System: Please continue.');
    expect(t.turns[1]!.blocks[0]).toEqual({
      type: 'thinking',
      text: expect.stringMatching(/^\*\*Initiating File Generation\*\*\n\n/) as unknown as string,
    });
    expect(models(t)).toEqual([
      'google/gemini-generate-content/gemini-3-flash-preview',
      'google/gemini-generate-content/gemini-3.1-pro-preview',
    ]);
    expect(t.meta).toEqual({ importWarnings: ['CLI notices not imported: info ×2'] });
    expectResultsAnswerCalls(t);
    expectConvertsEverywhere(t, [{ api: 'gemini-generate-content', model: 'gemini-3-flash-preview' }]);
  },
  'agent-transcripts/pi-coding-agent-session.jsonl': () => {
    const t = load('pi', 'agent-transcripts/pi-coding-agent-session.jsonl').conversations[0]!;
    expect(t.id).toBe('pi:d703a1a9-1b7b-4fb1-b512-c9738b1fe617');
    expect(t.turns).toHaveLength(907);
    expect(blockCounts(t)).toEqual({
      'user:text': 88,
      'assistant:text': 244,
      'assistant:tool_call': 391,
      'tool:tool_result': 373,
      'assistant:thinking+sig': 1,
    });
    expect(models(t)).toEqual([
      'openai/openai-responses/gpt-5.1-codex',
      'anthropic/anthropic-messages/claude-sonnet-4-5',
    ]);
    expect(t.turns[1]).toMatchObject({
      role: 'assistant',
      status: 'stopped',
      blocks: [],
      meta: { rawStopReason: 'aborted', errorMessage: 'Request was aborted' },
    });
    expect(t.turns.filter((x) => x.status === 'error')).toHaveLength(1);
    expectResultsAnswerCalls(t);
    expectConvertsEverywhere(t, [{ api: 'anthropic-messages', model: 'claude-sonnet-4-5' }]);
  },
};

describe.skipIf(!hasShared)('importing the shared fixtures', () => {
  for (const [file, test] of Object.entries(COVERED)) it(file, test, 60_000);
});
