/** What a provider's count endpoint may see (docs/disclosure.md): received turns by ledger hash, and the count bodies. */
import { describe, expect, it } from 'vitest';
import { turnContentHash } from './hash';
import type { Turn } from '../transcript/schema';
import { countInfo, countRequestBody, receivedTurns, type LedgerReceipt } from './count-state';

const user = (id: string, text: string): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text }] });
const U1 = user('u1', 'one');
const A1: Turn = { id: 'a1', role: 'assistant', status: 'complete', blocks: [{ type: 'text', text: 'answer one' }] };
const U2 = user('u2', 'two');
const U3 = user('u3', 'three');
const ANTHROPIC = { providerId: 'anthropic', origin: 'https://api.anthropic.com' };

type Rec = LedgerReceipt;
const rec = (over: Partial<Rec> & Pick<Rec, 'turns'>): Rec => ({
  providerId: 'anthropic',
  endpoint: 'https://api.anthropic.com',
  status: 'completed',
  ...over,
});
const h = (t: Turn): [string, string] => [t.id, turnContentHash(t)];

describe('receivedTurns', () => {
  it('the turns a completed send of this provider at this origin carried, plus the answer it wrote, in order', () => {
    const records = [rec({ turns: [h(U1)], answer: h(A1) }), rec({ turns: [h(U1), h(A1), h(U2)] })];
    expect(receivedTurns(records, ANTHROPIC, [U1, A1, U2, U3]).map((t) => t.id)).toEqual(['u1', 'a1', 'u2']);
  });

  it('leaves out what another provider, the same provider at another origin, or a failed send received', () => {
    const records = [
      rec({ providerId: 'openai', endpoint: 'https://api.openai.com', turns: [h(U1)] }),
      rec({ endpoint: 'http://127.0.0.1:9999', turns: [h(A1)] }),
      rec({ status: 'failed', turns: [h(U2)] }),
    ];
    expect(receivedTurns(records, ANTHROPIC, [U1, A1, U2])).toEqual([]);
  });

  it('leaves out a turn edited since it was sent (its hash no longer matches)', () => {
    const records = [rec({ turns: [h(U1), h(U2)] })];
    expect(receivedTurns(records, ANTHROPIC, [U1, user('u2', 'two, edited')]).map((t) => t.id)).toEqual(['u1']);
  });
});

describe('countRequestBody', () => {
  it('Anthropic: only the fields count_tokens accepts (no max_tokens, stream, temperature, metadata)', () => {
    const body = {
      model: 'claude-sonnet-4-6',
      max_tokens: 1000,
      stream: true,
      temperature: 1,
      metadata: { user_id: 'x' },
      system: 'S',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 't' }],
      tool_choice: { type: 'none' },
      thinking: { type: 'enabled', budget_tokens: 2000 },
    };
    expect(countRequestBody('anthropic-messages', body, 'claude-sonnet-4-6')).toEqual({
      model: 'claude-sonnet-4-6',
      messages: [{ role: 'user', content: 'hi' }],
      system: 'S',
      tools: [{ name: 't' }],
      tool_choice: { type: 'none' },
      thinking: { type: 'enabled', budget_tokens: 2000 },
    });
  });

  it('Gemini: the input fields inside generateContentRequest with "models/<model>"; no generationConfig', () => {
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      systemInstruction: { parts: [{ text: 'S' }] },
      toolConfig: { functionCallingConfig: { mode: 'NONE' } },
      generationConfig: { maxOutputTokens: 10 },
    };
    expect(countRequestBody('gemini-generate-content', body, 'gemini-2.5-flash')).toEqual({
      generateContentRequest: {
        model: 'models/gemini-2.5-flash',
        contents: body.contents,
        systemInstruction: body.systemInstruction,
        toolConfig: body.toolConfig,
      },
    });
  });

  it('OpenAI APIs have no count body', () => {
    expect(() => countRequestBody('openai-chat', {}, 'gpt-4.1')).toThrow(/no token-count endpoint/);
    expect(() => countRequestBody('openai-responses', {}, 'gpt-5.5')).toThrow(/no token-count endpoint/);
  });
});

describe('countInfo', () => {
  const base = {
    api: 'anthropic-messages' as const,
    tokenizer: 'anthropic' as const,
    allowed: true,
    received: 2,
    corrected: false,
  };
  it('available only when allowed, with a count endpoint and something received', () => {
    expect(countInfo(base).exactCountAvailable).toBe(true);
    expect(countInfo({ ...base, received: 0 }).exactCountAvailable).toBe(false);
    expect(countInfo({ ...base, allowed: false }).exactCountAvailable).toBe(false);
    expect(countInfo({ ...base, api: 'openai-chat', tokenizer: 'generic' }).exactCountAvailable).toBe(false);
  });
  it('says where the estimate comes from', () => {
    const count = { tokens: 10, turns: 2, model: 'm', at: 't' };
    expect(countInfo(base).estimateSource).toBe('estimate');
    expect(countInfo({ ...base, corrected: true }).estimateSource).toBe('corrected');
    expect(countInfo({ ...base, corrected: true, count })).toEqual({
      exactCountAvailable: true,
      estimateSource: 'provider-count',
      providerCount: count,
    });
    expect(countInfo({ ...base, api: 'openai-responses', tokenizer: 'o200k' })).toEqual({
      exactCountAvailable: false,
      estimateSource: 'tokenizer',
    });
  });
});
