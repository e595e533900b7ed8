import { describe, expect, it } from 'vitest';
import type { Turn } from '../transcript/schema';
import { checkEndpointUrl, isLocalUrl } from '../messaging/endpoint-url';
import { cleanDetail, turnError } from './error-text';
import { applyTextDelta, retryOffer } from './turns';

describe('checkEndpointUrl (N4)', () => {
  it('accepts https anywhere and http only on this machine', () => {
    expect(checkEndpointUrl(' https://openrouter.ai/api/v1 ')).toEqual({
      ok: true,
      url: 'https://openrouter.ai/api/v1',
      origin: 'https://openrouter.ai',
    });
    expect(checkEndpointUrl('http://localhost:11434/v1')).toEqual({
      ok: true,
      url: 'http://localhost:11434/v1',
      origin: 'http://localhost:11434',
    });
    expect(checkEndpointUrl('http://[::1]:1234')).toMatchObject({ ok: true, origin: 'http://[::1]:1234' });
    for (const bad of [
      'http://evil.example/v1',
      'http://127.0.0.1.evil.example',
      'ftp://localhost',
      'javascript:alert(1)',
      'not a url',
      'https://user:pw@host.example',
    ])
      expect(checkEndpointUrl(bad).ok, bad).toBe(false);
    expect([isLocalUrl('http://127.0.0.1:8080/v1'), isLocalUrl('https://localhost'), isLocalUrl(undefined)]).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe('cleanDetail', () => {
  it('reduces JSON bodies to their message and never returns JSON', () => {
    expect(
      cleanDetail('400 {"type":"error","error":{"type":"invalid_request_error","message":"max_tokens too large"}}'),
    ).toBe('400 max_tokens too large');
    expect(cleanDetail('[{"error":{"code":503,"message":"The model is overloaded."}}]')).toBe(
      'The model is overloaded.',
    );
    expect(cleanDetail('429 {"error": {"message": "cut off')).toBe('429');
    expect(cleanDetail('Incorrect API key provided: [redacted]')).toBe('Incorrect API key provided: [redacted]');
    expect(cleanDetail('{}')).toBeUndefined();
    expect(cleanDetail('x'.repeat(400))).toHaveLength(300);
  });

  it('maps provider error types of a stream to codes', () => {
    expect(
      [
        'overloaded_error',
        'insufficient_quota',
        'rate_limit_exceeded',
        'context_length_exceeded',
        'SAFETY',
        'server_error',
        'timeout',
      ].map((type) => turnError({ error: { type, message: '' } }).code),
    ).toEqual(['overloaded', 'quota', 'rate_limited', 'context_too_long', 'blocked', 'provider_error', 'timeout']);
  });
});

describe('turn helpers', () => {
  const a = (status: Turn['status']): Turn => ({
    id: 'a',
    role: 'assistant',
    origin: { provider: 'openai', api: 'openai-chat', model: 'm' },
    status,
    blocks: [{ type: 'text', text: 'Hi' }],
  });
  const u: Turn = { id: 'u', role: 'user', blocks: [{ type: 'text', text: 'q' }] };

  it('applies text deltas to the right block, ignoring ones that do not fit', () => {
    const turns = [u, a('streaming')];
    expect(
      applyTextDelta(turns, {
        type: 'textDelta',
        conversationId: 'c',
        turnId: 'a',
        index: 0,
        kind: 'text',
        at: 2,
        seq: 1,
        text: ' there',
      })[1]!.blocks,
    ).toEqual([{ type: 'text', text: 'Hi there' }]);
    expect(
      applyTextDelta(turns, {
        type: 'textDelta',
        conversationId: 'c',
        turnId: 'a',
        index: 1,
        kind: 'thinking',
        at: 0,
        seq: 1,
        text: 'hm',
      })[1]!.blocks,
    ).toEqual([
      { type: 'text', text: 'Hi' },
      { type: 'thinking', text: 'hm' },
    ]);
    expect(
      applyTextDelta(turns, {
        type: 'textDelta',
        conversationId: 'c',
        turnId: 'a',
        index: 0,
        kind: 'thinking',
        at: 2,
        seq: 1,
        text: 'x',
      }),
    ).toEqual(turns);
    expect(
      applyTextDelta(turns, {
        type: 'textDelta',
        conversationId: 'c',
        turnId: 'a',
        index: 3,
        kind: 'text',
        at: 0,
        seq: 1,
        text: 'x',
      }),
    ).toEqual(turns);
  });

  it('offers a retry only for a failed, cut or missing last answer with nothing in flight', () => {
    expect(retryOffer([u, a('complete')], false)).toEqual({ kind: 'none' });
    expect(retryOffer([u, a(undefined)], false)).toEqual({ kind: 'none' });
    expect(retryOffer([u, a('interrupted')], true)).toEqual({ kind: 'none' });
    expect(retryOffer([u, a('interrupted')], false)).toEqual({
      kind: 'retry',
      reason: 'interrupted',
      turn: a('interrupted'),
    });
    expect(retryOffer([u, a('streaming')], false)).toEqual({
      kind: 'retry',
      reason: 'interrupted',
      turn: a('streaming'),
    });
    expect(retryOffer([u, a('error')], false)).toMatchObject({ kind: 'retry', reason: 'error' });
    expect(retryOffer([u, a('stopped')], false)).toMatchObject({ kind: 'retry', reason: 'stopped' });
    expect(retryOffer([u], false)).toEqual({ kind: 'retry', reason: 'no_answer' });
    expect(retryOffer([], false)).toEqual({ kind: 'none' });
  });
});
