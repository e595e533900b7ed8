/**
 * docs/security.md fuzz suite, importers: mutated files of every import kind (prototype-named values and
 * keys, huge numbers, lone surrogates, junk, deleted and duplicated parts, cut lines) → the file
 * is refused as a whole with a TranscriptError, or each conversation is imported whole and valid
 * (it decodes, holds no lone surrogate) or skipped with a reason. Never another exception, never
 * a polluted prototype. Seeds: fuzz-config.ts.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { importFile } from '../../lib/importers/import-file';
import { IMPORT_KINDS, type ImportKind } from '../../lib/importers/types';
import { decodeTranscript, TranscriptError } from '../../lib/transcript/codec';
import { isWellFormedDeep } from '../../lib/transcript/text';
import { fuzzParams } from './fuzz-config';
import { applyEdits, applyMutations, mutationArb, sequenceEditArb, type Json } from './mutate';

const enc = (s: string) => new TextEncoder().encode(s);
const origin = { provider: 'openai', api: 'openai-responses', model: 'gpt-5' };

/** A small but varied file of each kind: a JSON document, or JSONL lines. */
const SAMPLES: Record<ImportKind, { json: Json } | { lines: Json[] }> = {
  'chatgpt-export': {
    json: [
      {
        id: 'c1',
        title: 'Chat 😀',
        create_time: 1_700_000_000,
        current_node: 'a',
        mapping: {
          root: { parent: null, children: ['u'], message: null },
          u: {
            parent: 'root',
            children: ['a'],
            message: {
              author: { role: 'user' },
              create_time: 1_700_000_001,
              content: { content_type: 'text', parts: ['What is new?'] },
            },
          },
          a: {
            parent: 'u',
            children: [],
            message: {
              author: { role: 'assistant' },
              metadata: {
                model_slug: 'gpt-4o',
                citations: [{ start_ix: 5, end_ix: 17, metadata: { url: 'https://example.com', title: 'Ex' } }],
              },
              content: { content_type: 'text', parts: ['News 【3:0†source】 here.'] },
            },
          },
        },
      },
      {
        id: 'c2',
        current_node: 'x',
        mapping: {
          x: {
            parent: null,
            message: { author: { role: 'user' }, content: { content_type: 'text', parts: ['Second'] } },
          },
        },
      },
    ],
  },
  'claude-export': {
    json: [
      {
        uuid: 'c1',
        name: 'Claude chat',
        created_at: '2026-01-01T00:00:00Z',
        chat_messages: [
          { uuid: 'm1', sender: 'human', text: 'Hi', content: [{ type: 'text', text: 'Hi' }] },
          {
            uuid: 'm2',
            sender: 'assistant',
            text: 'Hello',
            content: [
              { type: 'thinking', thinking: 'hm' },
              { type: 'text', text: 'Hello' },
            ],
          },
        ],
      },
    ],
  },
  baton: {
    json: [
      {
        format: 'baton.transcript',
        version: 1,
        id: 'b1',
        source: { kind: 'chatgpt-export', id: 'c1' },
        turns: [
          { id: 'u', role: 'user', blocks: [{ type: 'text', text: 'hi' }] },
          {
            id: 'a',
            role: 'assistant',
            origin,
            blocks: [
              { type: 'thinking', text: 'x', signature: 'ENC' },
              {
                type: 'provider_item',
                api: 'openai-responses',
                item: { type: 'mcp_approval_response', approve: true },
              },
              { type: 'text', text: 'ok' },
            ],
          },
        ],
      },
    ],
  },
  'anthropic-messages': {
    json: {
      model: 'claude-x',
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 't', signature: 's' },
            { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'r' }] },
      ],
    },
  },
  'openai-chat': {
    json: {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'r' },
      ],
    },
  },
  'openai-responses': {
    json: {
      model: 'gpt-5',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Hi' }] },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'ENC' },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{"a":1}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'r' },
      ],
    },
  },
  'gemini-generate-content': {
    json: {
      model: 'gemini-2.5-flash',
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ functionCall: { name: 'f', args: { a: 1 } }, thoughtSignature: 'c2ln' }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: { r: 1 } } }] },
      ],
    },
  },
  'gemini-interactions': {
    json: {
      model: 'gemini-2.5-flash',
      input: [
        { type: 'user_input', content: [{ type: 'text', text: 'Hi' }] },
        { type: 'thought', signature: 'c2ln' },
        { type: 'function_call', id: 'fc1', name: 'f', arguments: { a: 1 } },
        { type: 'function_result', call_id: 'fc1', name: 'f', result: 'r' },
      ],
    },
  },
  'claude-code': {
    lines: [
      {
        type: 'user',
        sessionId: 's1',
        uuid: 'u1',
        parentUuid: null,
        timestamp: '2026-01-01T00:00:00Z',
        message: { role: 'user', content: 'Fix the bug' },
      },
      {
        type: 'assistant',
        sessionId: 's1',
        uuid: 'a1',
        parentUuid: 'u1',
        message: {
          role: 'assistant',
          model: 'claude-x',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a' } }],
        },
      },
      {
        type: 'user',
        sessionId: 's1',
        uuid: 'u2',
        parentUuid: 'a1',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'file' }] },
      },
    ],
  },
  codex: {
    lines: [
      { type: 'session_meta', payload: { id: 's1', timestamp: '2026-01-01T00:00:00Z', model_provider: 'openai' } },
      { type: 'turn_context', payload: { model: 'gpt-5' } },
      { type: 'event_msg', payload: { type: 'user_message', message: 'Fix it' } },
      {
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix it' }] },
      },
      { type: 'response_item', payload: { type: 'reasoning', summary: [], encrypted_content: 'ENC' } },
      {
        type: 'response_item',
        payload: { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"cmd":"ls"}' },
      },
      { type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'a b' } },
    ],
  },
  'gemini-cli': {
    lines: [
      { sessionId: 's1', startTime: '2026-01-01T00:00:00Z' },
      { id: 'm1', type: 'user', content: [{ text: 'Hi' }] },
      {
        id: 'm2',
        type: 'gemini',
        model: 'gemini-2.5-pro',
        content: [{ text: 'Hello' }],
        thoughts: [{ subject: 'S', description: 'D' }],
      },
    ],
  },
  pi: {
    lines: [
      { type: 'session', id: 's1', timestamp: '2026-01-01T00:00:00Z' },
      { type: 'message', message: { role: 'user', content: 'Hi' } },
      {
        type: 'message',
        message: {
          role: 'assistant',
          api: 'anthropic-messages',
          provider: 'anthropic',
          model: 'claude-x',
          content: [{ type: 'text', text: 'Hello' }],
        },
      },
    ],
  },
};

afterEach(() => {
  delete (Object.prototype as Record<string, unknown>).polluted;
});

function check(kind: ImportKind, text: string): void {
  let result;
  try {
    result = importFile(kind, enc(text));
  } catch (e) {
    // The file as a whole is refused: only ever with a TranscriptError that says why.
    expect(e).toBeInstanceOf(TranscriptError);
    expect((e as Error).message.length).toBeGreaterThan(0);
    return;
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  for (const t of result.conversations) {
    expect(() => decodeTranscript(t)).not.toThrow();
    expect(isWellFormedDeep(t)).toBe(true);
    expect(t.turns.length).toBeGreaterThan(0);
  }
  for (const s of result.skipped) expect(s.reason.trim()).not.toBe('');
}

describe('fuzz (docs/security.md): mutated import files are imported whole and valid, skipped with a reason, or refused', () => {
  for (const kind of IMPORT_KINDS) {
    it(`${kind}`, () => {
      const sample = SAMPLES[kind];
      const edits =
        'lines' in sample
          ? fc.array(sequenceEditArb, { minLength: 1, maxLength: 5 })
          : fc.array(mutationArb, { minLength: 1, maxLength: 6 });
      fc.assert(
        fc.property(edits, fc.boolean(), (list, cutText) => {
          const text =
            'lines' in sample
              ? applyEdits(sample.lines, list as never)
                  .map((l) => JSON.stringify(l))
                  .join('\n')
              : JSON.stringify(applyMutations(sample.json, list as never));
          check(kind, cutText ? text.slice(0, Math.floor(text.length * 0.8)) : text);
        }),
        fuzzParams(50),
      );
    });
  }

  it('the unmutated samples import (so the properties above test real files)', () => {
    for (const kind of IMPORT_KINDS) {
      const sample = SAMPLES[kind];
      const text =
        'lines' in sample ? sample.lines.map((l) => JSON.stringify(l)).join('\n') : JSON.stringify(sample.json);
      expect(importFile(kind, enc(text)).conversations.length, kind).toBeGreaterThan(0);
    }
  });
});
