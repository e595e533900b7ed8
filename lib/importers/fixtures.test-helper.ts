/** Shared by the importer tests: the fixture folder, block counts, and the four-API conversion check. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { validateRequest } from '../../test/contract';
import { convertTranscript } from '../providers';
import { decodeTranscript } from '../transcript/codec';
import type { Transcript, WireApi } from '../transcript/schema';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED = path.resolve(ROOT, '../shared/fixtures');
export const hasShared = fs.existsSync(SHARED);

/** Bytes of a shared fixture. */
export const fixture = (rel: string): Uint8Array => fs.readFileSync(path.join(SHARED, rel));

/** `{ "<role>:<block type>[+sig]": count }` over a transcript. */
export function blockCounts(t: Transcript): Record<string, number> {
  const c: Record<string, number> = {};
  for (const turn of t.turns)
    for (const b of turn.blocks) {
      const k = `${turn.role}:${b.type}${(b.type === 'thinking' || b.type === 'text' || b.type === 'tool_call') && b.signature ? '+sig' : ''}`;
      c[k] = (c[k] ?? 0) + 1;
    }
  return c;
}

/** Roles as one letter each (`u`, `a`, `t`), in order. */
export const roles = (t: Transcript): string => t.turns.map((x) => x.role[0]).join('');

/** A conversion target of these tests. */
export interface TestTarget {
  api: WireApi;
  model: string;
  provider?: string;
}

export const TARGETS: readonly TestTarget[] = [
  { api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
  { api: 'openai-chat', model: 'gpt-4o' },
  { api: 'openai-responses', model: 'gpt-5.5' },
  { api: 'gemini-generate-content', model: 'gemini-2.5-flash' },
];

/**
 * The transcript decodes to itself, and converts to each of the four APIs (plus, where given, its
 * own origins: same-origin replay) with a body the contract validators accept.
 */
export function expectConvertsEverywhere(t: Transcript, extra: readonly TestTarget[] = []): void {
  expect(decodeTranscript(t)).toEqual(t);
  for (const target of [...TARGETS, ...extra]) {
    const res = convertTranscript(t, { ...target, maxOutputTokens: 1024 });
    expect(
      validateRequest(target.api, res.body, {
        model: target.model,
        ...(target.provider ? { provider: target.provider } : {}),
      }),
      `${t.id} → ${target.api}/${target.model}`,
    ).toEqual([]);
  }
}

/** Every tool result answers a tool call of the same transcript. */
export function expectResultsAnswerCalls(t: Transcript): void {
  const calls = new Set(t.turns.flatMap((x) => x.blocks.flatMap((b) => (b.type === 'tool_call' ? [b.id] : []))));
  const results = t.turns.flatMap((x) => x.blocks.flatMap((b) => (b.type === 'tool_result' ? [b.callId] : [])));
  expect(results.filter((id) => !calls.has(id))).toEqual([]);
}
