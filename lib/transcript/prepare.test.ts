import { describe, expect, it } from 'vitest';
import { loadNeutralTranscript } from '../../test/fixtures/transcripts';
import { decodeTranscript } from './codec';
import {
  ANTHROPIC_ID_POLICY,
  IdMap,
  MISTRAL_ID_POLICY,
  NameMap,
  OPENAI_CHAT_ID_POLICY,
  PORTABLE_TOOL_NAME,
} from './ids';
import { prepareTranscript, SYNTHETIC, type PrepareCapabilities, type PreparedTranscript } from './prepare';
import type { Transcript } from './schema';
import { isSameOrigin, resolveTarget, type ConvertTarget } from './target';

const CAPS: PrepareCapabilities = {
  idPolicy: OPENAI_CHAT_ID_POLICY,
  toolResultImages: false,
  vision: true,
  imageMediaTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
  imageUrls: true,
  assistantImages: false,
  documentMediaTypes: ['application/pdf'],
  documentUrls: false,
};

const prep = (t: Transcript, target: Partial<ConvertTarget> = {}, caps: Partial<PrepareCapabilities> = {}) =>
  prepareTranscript(t, resolveTarget({ api: 'openai-chat', model: 'gpt-4o', ...target }), { ...CAPS, ...caps });

/** The prepared turns as plain role + blocks, for whole-output assertions. */
const shape = (p: PreparedTranscript) => p.turns.map((t) => ({ role: t.role, blocks: t.blocks.map((b) => b.block) }));
const tx = (turns: unknown[], extra: Record<string, unknown> = {}) =>
  decodeTranscript({ format: 'baton.transcript', version: 1, id: 'x', turns, ...extra });
const A = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' } as const;

describe('same origin (transcript-v1.md)', () => {
  const target = resolveTarget({ api: 'anthropic-messages', model: 'claude-sonnet-4-5' });
  it('matches provider, api, endpoint and model or requestedModel', () => {
    expect(isSameOrigin(A, target)).toBe(true);
    expect(
      isSameOrigin({ ...A, model: 'claude-sonnet-4-5-20250929', requestedModel: 'claude-sonnet-4-5' }, target),
    ).toBe(true);
    expect(isSameOrigin({ ...A, model: 'claude-opus-4-5' }, target)).toBe(false);
    expect(isSameOrigin({ ...A, provider: 'openrouter' }, target)).toBe(false);
    expect(isSameOrigin({ ...A, endpoint: 'https://proxy.example' }, target)).toBe(false);
    expect(isSameOrigin({ ...A, endpoint: 'https://api.anthropic.com' }, target)).toBe(true);
    expect(
      isSameOrigin(
        { ...A, endpoint: 'https://proxy.example' },
        resolveTarget({ api: 'anthropic-messages', model: 'claude-sonnet-4-5', endpoint: 'https://proxy.example/v1' }),
      ),
    ).toBe(true);
    expect(isSameOrigin({ provider: 'claude-web', api: 'web', model: 'claude-sonnet-4-5' }, target)).toBe(false);
  });
});

describe('repairs (X1, A-R3)', () => {
  it('fixes the orphans transcript exactly as transcript-v1.md names the repairs', () => {
    const p = prep(loadNeutralTranscript('orphans'));
    expect(shape(p)).toEqual([
      { role: 'user', blocks: [{ type: 'text', text: SYNTHETIC.firstUserTurn }] },
      { role: 'assistant', blocks: [{ type: 'text', text: 'Hi! How can I help?' }] },
      { role: 'user', blocks: [{ type: 'text', text: 'List the files.' }] },
      { role: 'assistant', blocks: [{ type: 'tool_call', id: 'call_list', name: 'ls', input: {} }] },
      {
        role: 'tool',
        blocks: [{ type: 'tool_result', callId: 'call_list', content: SYNTHETIC.errorResult, isError: true }],
      },
      {
        role: 'user',
        blocks: [
          { type: 'text', text: 'Never mind, stop.' },
          {
            type: 'text',
            text: '[Result of tool call call_ghost, whose call is not in this conversation]\na.txt b.txt',
          },
          { type: 'text', text: 'What did you find?' },
        ],
      },
    ]);
    const report = p.report.finish();
    expect(report.synthesized).toEqual([
      { kind: 'error-result', detail: 'call call_list (ls) in turn a1 had no result (X1)' },
      { kind: 'user-turn', detail: 'the history starts on an assistant turn: a short user turn opens it (A-R3, G-R5)' },
      { kind: 'stub-tool', detail: 'ls: used in the history but not defined by the request (X8, A-T6)' },
    ]);
    expect(report.blocks.find((b) => b.turn === 'x1')!.fates).toEqual([
      { fate: 'converted', detail: 'tool result without a matching call sent as labelled user text (X1)' },
    ]);
    expect(report.blocks.find((b) => b.turn === 'u3' && b.index === 0)!.fates).toEqual([
      { fate: 'dropped', detail: 'empty or whitespace-only text (X4, A-E1)' },
    ]);
    expect(p.toolChoiceNone).toBe(true);
    expect(p.tools).toEqual([
      { name: 'ls', description: SYNTHETIC.stubDescription, inputSchema: { type: 'object', properties: {} } },
    ]);
  });

  it('appends a user turn when the history ends on an assistant turn', () => {
    const p = prep(
      tx([
        { id: 'u', role: 'user', blocks: [{ type: 'text', text: 'hi' }] },
        { id: 'a', role: 'assistant', origin: A, blocks: [{ type: 'text', text: 'yo' }] },
      ]),
    );
    expect(shape(p).at(-1)).toEqual({ role: 'user', blocks: [{ type: 'text', text: SYNTHETIC.lastUserTurn }] });
  });

  it('answers each call exactly once: a duplicate result becomes user text, results follow call order', () => {
    const p = prep(
      tx([
        { id: 'u', role: 'user', blocks: [{ type: 'text', text: 'go' }] },
        {
          id: 'a',
          role: 'assistant',
          origin: A,
          blocks: [
            { type: 'tool_call', id: 'c1', name: 'f', input: {} },
            { type: 'tool_call', id: 'c2', name: 'f', input: {} },
          ],
        },
        {
          id: 't',
          role: 'tool',
          blocks: [
            { type: 'tool_result', callId: 'c2', content: 'two' },
            { type: 'tool_result', callId: 'c1', content: 'one' },
            { type: 'tool_result', callId: 'c1', content: 'one again' },
          ],
        },
      ]),
    );
    expect(shape(p).slice(2)).toEqual([
      {
        role: 'tool',
        blocks: [
          { type: 'tool_result', callId: 'c1', content: 'one' },
          { type: 'tool_result', callId: 'c2', content: 'two' },
        ],
      },
      {
        role: 'user',
        blocks: [{ type: 'text', text: '[Result of tool call c1, whose call is not in this conversation]\none again' }],
      },
    ]);
    expect(p.turns[2]!.blocks.map((b) => b.toolName)).toEqual(['f', 'f']);
  });

  it('drops a call cut off by max_tokens and keeps finished ones (A-T9)', () => {
    const p = prep(
      tx([
        { id: 'u', role: 'user', blocks: [{ type: 'text', text: 'go' }] },
        {
          id: 'a',
          role: 'assistant',
          origin: A,
          stopReason: 'max_tokens',
          blocks: [
            { type: 'tool_call', id: 'c1', name: 'f', input: {} },
            { type: 'tool_call', id: 'c2', name: 'f', input: {} },
          ],
        },
        {
          id: 'b',
          role: 'assistant',
          origin: A,
          blocks: [{ type: 'tool_call', id: 'c3', name: 'f', input: {}, meta: { partial: true } }],
        },
      ]),
    );
    expect(shape(p).map((t) => t.blocks.map((b) => (b.type === 'tool_call' ? b.id : b.type)))).toEqual([
      ['text'],
      ['c1'],
      ['tool_result'],
    ]);
    const r = p.report.finish();
    expect(r.blocks.filter((b) => b.fates[0]!.fate === 'dropped').map((b) => `${b.turn}.${b.index}`)).toEqual([
      'a.1',
      'b.0',
    ]);
  });
});

describe('opaque state (X3)', () => {
  const mixed = loadNeutralTranscript('mixed-origins');

  it("keeps only the target origin's signatures, drops foreign reasoning by default", () => {
    const p = prepareTranscript(mixed, resolveTarget({ api: 'anthropic-messages', model: 'claude-opus-4-5' }), {
      ...CAPS,
      idPolicy: ANTHROPIC_ID_POLICY,
    });
    const assistantBlocks = p.turns.filter((t) => t.role === 'assistant').map((t) => t.blocks.map((b) => b.block));
    expect(assistantBlocks).toEqual([
      [
        {
          type: 'tool_call',
          id: 'call_Ab12',
          name: 'search_docs',
          input: { q: 'retry policy' },
          meta: { itemId: 'fc_0a2' },
        },
      ],
      [
        { type: 'thinking', text: 'Read the file.', signature: 'EpYBCkgIBhABsig' },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3redacted' },
        { type: 'tool_call', id: 'toolu_01XyZ', name: 'read_file', input: { path: 'retry.md' } },
      ],
      [{ type: 'text', text: 'Retries are bounded: at most 3, honouring retry-after.' }],
      [{ type: 'text', text: 'Quota errors are never retried.' }],
    ]);
    const fates = Object.fromEntries(
      p.report.finish().blocks.map((b) => [`${b.turn}.${b.index}`, b.fates.map((f) => f.fate).join('+')]),
    );
    expect(fates).toEqual({
      'u1.0': 'kept',
      'r1.0': 'dropped',
      'r1.1': 'kept',
      'r2.0': 'kept',
      'c1.0': 'kept',
      'c1.1': 'kept',
      'c1.2': 'kept',
      'c2.0': 'kept',
      'g1.0': 'dropped',
      'g1.1': 'kept',
      'g1.2': 'dropped',
      'u2.0': 'kept',
      'w1.0': 'kept',
      'u3.0': 'kept',
    });
  });

  it('sends foreign reasoning as fenced, labelled text when asked', () => {
    const p = prep(mixed, { foreignReasoning: 'text' });
    expect(p.turns[1]!.blocks[0]!.block).toEqual({
      type: 'text',
      text: '[Reasoning by openai/gpt-5.5-2026-04-23 (openai-responses), shared as plain text]\n```\n**Searching docs**\n```',
    });
  });

  it("keeps an empty text block that carries its own origin's signature, only for that origin (G-E2)", () => {
    const same = prep(mixed, { api: 'gemini-generate-content', model: 'gemini-3-pro-preview' });
    const g = same.turns.find((t) => t.sources.some((s) => s.id === 'g1'))!;
    expect(g.blocks.map((b) => b.block)).toEqual([
      { type: 'thinking', text: 'Summarise.' },
      { type: 'text', text: 'Retries are bounded: at most 3, honouring retry-after.' },
      { type: 'text', text: '', signature: 'CiQBjz1rX8signature' },
    ]);
  });

  it('uses native only for an untouched same-origin turn of the target API', () => {
    const t = tx([
      { id: 'u', role: 'user', blocks: [{ type: 'text', text: 'hi' }] },
      {
        id: 'a',
        role: 'assistant',
        origin: A,
        native: { api: 'anthropic-messages', payload: [{ type: 'text', text: 'yo' }] },
        blocks: [{ type: 'text', text: 'yo' }],
      },
      { id: 'u2', role: 'user', blocks: [{ type: 'text', text: 'again' }] },
    ]);
    const target = { api: 'anthropic-messages' as const, model: 'claude-sonnet-4-5' };
    expect(prep(t, target).turns[1]!.native).toEqual({
      api: 'anthropic-messages',
      payload: [{ type: 'text', text: 'yo' }],
    });
    expect(prep(t, { ...target, model: 'claude-opus-4-5' }).turns[1]!.native).toBeUndefined();
  });
});

describe('ids and names (X2, X5)', () => {
  it('maps ids per target, deterministically, the same on call and result, never colliding', () => {
    const t = loadNeutralTranscript('odd-ids-and-names');
    const p1 = prep(t);
    const p2 = prep(t);
    expect(shape(p1)).toEqual(shape(p2));
    const calls = p1.turns.flatMap((x) => x.blocks.map((b) => b.block)).filter((b) => b.type === 'tool_call');
    const results = p1.turns.flatMap((x) => x.blocks.map((b) => b.block)).filter((b) => b.type === 'tool_result');
    const ids = calls.map((c) => (c.type === 'tool_call' ? c.id : ''));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    expect(results.map((r) => (r.type === 'tool_result' ? r.callId : '')).sort()).toEqual([...ids].sort());
    for (const c of calls) if (c.type === 'tool_call') expect(c.name).toMatch(PORTABLE_TOOL_NAME);
    expect(p1.ids.toOriginal(ids[0]!)).toBe('call_5fK2|fc_68a1b2c3d4e5f60718293a4b5c6d7e8f90');
    expect(p1.names.toOriginal(p1.tools[0]!.name)).toBe('mcp.github.search_issues');
  });

  it('repairs lone surrogates everywhere (X6)', () => {
    const p = prep(loadNeutralTranscript('odd-ids-and-names'));
    expect(p.system).toBe('Broken \uFFFD surrogate in the system prompt.');
    expect(JSON.stringify(shape(p))).not.toMatch(/\\ud[89a-f]/i);
  });

  it('IdMap: valid ids stay, a second occurrence gets a new id, Mistral gets 9 alphanumerics', () => {
    const m = new IdMap(OPENAI_CHAT_ID_POLICY);
    expect(m.assign('call_1')).toBe('call_1');
    const second = m.assign('call_1');
    expect(second).not.toBe('call_1');
    expect(m.toOriginal(second)).toBe('call_1');
    const mistral = new IdMap(MISTRAL_ID_POLICY);
    const a = mistral.assign('toolu_01A');
    const b = mistral.assign('abc123XYZ');
    expect(a).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(b).toBe('abc123XYZ');
  });

  it('IdMap stays collision-free over many similar ids (C-T1 collision note)', () => {
    const m = new IdMap(MISTRAL_ID_POLICY);
    const out = new Set<string>();
    for (let i = 0; i < 20_000; i++) out.add(m.assign(`toolu_01${i}`));
    expect(out.size).toBe(20_000);
  });

  it('NameMap: portable names stay, others become portable and reversible', () => {
    const n = new NameMap();
    expect(n.map('get_weather')).toBe('get_weather');
    const dotted = n.map('mcp.fs.read');
    expect(dotted).toMatch(PORTABLE_TOOL_NAME);
    expect(n.map('mcp.fs.read')).toBe(dotted);
    expect(n.toOriginal(dotted)).toBe('mcp.fs.read');
    expect(n.map('1st')).toMatch(/^t_1st_/);
  });
});

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('media (X7 and capabilities)', () => {
  const t = loadNeutralTranscript('images-and-documents');

  it('moves tool-result images to a following user turn when the target cannot hold them (X7)', () => {
    const p = prep(t);
    expect(shape(p).slice(2, 4)).toEqual([
      {
        role: 'tool',
        blocks: [
          {
            type: 'tool_result',
            callId: 'toolu_shot',
            content: [
              { type: 'text', text: 'Screenshot taken.' },
              { type: 'text', text: '[1 image from this result follows in the next user message]' },
            ],
          },
        ],
      },
      {
        role: 'user',
        blocks: [
          { type: 'text', text: '[Images returned by tool call toolu_shot]' },
          { type: 'image', mediaType: 'image/png', data: PIXEL },
        ],
      },
    ]);
  });

  it('keeps images in results where the target can hold them', () => {
    const p = prep(t, {}, { toolResultImages: true });
    expect(p.turns[2]!.blocks[0]!.block).toEqual(t.turns[2]!.blocks[0]);
  });

  it('replaces what the model cannot take with reported placeholders', () => {
    const p = prep(t, {}, { vision: false, documentMediaTypes: [] });
    expect(shape(p)[0]!.blocks).toEqual([
      { type: 'text', text: 'What is in these?' },
      { type: 'text', text: '[image omitted: the model does not accept images]' },
      { type: 'text', text: '[image omitted: the model does not accept images]' },
      { type: 'text', text: '[document "spec.pdf" omitted: application/pdf is not accepted by this model]' },
      { type: 'text', text: '[Document "notes.txt" (text/plain)]\n```\nHello, plain text.\n```' },
    ]);
  });
});

describe('native eligibility', () => {
  it("drops native when the id map had to change one of the turn's call ids", () => {
    const t = tx([
      { id: 'u', role: 'user', blocks: [{ type: 'text', text: 'go' }] },
      { id: 'a1', role: 'assistant', origin: A, blocks: [{ type: 'tool_call', id: 'same', name: 'f', input: {} }] },
      { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'same', content: '1' }] },
      {
        id: 'a2',
        role: 'assistant',
        origin: A,
        native: { api: 'anthropic-messages', payload: [{ type: 'tool_use', id: 'same', name: 'f', input: {} }] },
        blocks: [{ type: 'tool_call', id: 'same', name: 'f', input: {} }],
      },
      { id: 't2', role: 'tool', blocks: [{ type: 'tool_result', callId: 'same', content: '2' }] },
    ]);
    const p = prep(t, { api: 'anthropic-messages', model: 'claude-sonnet-4-5' }, { idPolicy: ANTHROPIC_ID_POLICY });
    expect(p.turns[3]!.native).toBeUndefined();
    const mapped = p.turns[3]!.blocks[0]!.block;
    expect(mapped.type === 'tool_call' && mapped.id).not.toBe('same');
  });
});
