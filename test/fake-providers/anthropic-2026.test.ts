/**
 * The fake Anthropic endpoint enforces the 2026 rules the way the real API does
 * (provider-rules-2026-anthropic-openai.md §1a–§1c): the API's 400 texts, thinking bound to its
 * model and conversation (A-B1, A-B2), the silent drop with `input_transformations` under the
 * thinking-binding beta (A-B3, A-B5). Requests go through Baton's converter, the transport (real
 * SDK) and the stream reader, as a send does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { convertToAnthropicMessages } from '../../lib/providers/anthropic-messages/convert-to-anthropic-messages';
import { createAnthropicMessagesStreamAssembler } from '../../lib/providers/anthropic-messages/read-anthropic-messages';
import type { Transcript, Turn } from '../../lib/transcript/schema';
import type { ConvertTarget } from '../../lib/transcript/target';
import { streamRequest } from '../../lib/transports/stream';
import { startFakeProviders } from './server';
import type { FakeProviders, Reply } from './types';

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const MODEL = 'claude-opus-5';

/** Converts `t` for `target`, sends it through the transport with the converter's headers, reads the answer. */
async function send(
  t: Transcript,
  target: Partial<ConvertTarget> = {},
  reply?: Reply,
): Promise<{ turn: Turn; error?: { status?: number; message: string } }> {
  const out = convertToAnthropicMessages(t, {
    api: 'anthropic-messages',
    model: MODEL,
    thinking: true,
    maxOutputTokens: 4000,
    ...target,
  });
  if (reply) fake.enqueue('anthropic-messages', reply);
  const asm = createAnthropicMessagesStreamAssembler({
    provider: 'anthropic',
    requestedModel: out.model,
    turnId: `a${fake.requests.length + 1}`,
  });
  try {
    await streamRequest(
      { providerId: 'anthropic', api: 'anthropic-messages', baseUrl: fake.url, apiKey: fake.keys.anthropic },
      out.body,
      {
        model: out.model,
        signal: new AbortController().signal,
        onEvent: (e) => asm.push(e),
        ...(out.headers ? { headers: out.headers } : {}),
      },
    );
  } catch (e) {
    return { turn: asm.finish(), error: { status: (e as { status?: number }).status, message: (e as Error).message } };
  }
  return { turn: asm.finish() };
}

const base = (turns: unknown[]): Transcript => ({
  format: 'baton.transcript',
  version: 1,
  id: 'c',
  turns: turns as Turn[],
});
const u = (id: string, text: string): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text }] });

describe('fake Anthropic, 2026 rules', () => {
  it('A-B2, A-B3, A-B5: an edit before replayed thinking is dropped silently under the beta, reported, and never sent again', async () => {
    const first = await send(
      base([u('u1', 'Plan a trip.')]),
      {},
      { kind: 'thinking', thinking: 'Trains.', signature: 'sig-trip', text: 'Take the train.' },
    );
    expect(first.error).toBeUndefined();
    // The thinking is bound to the first request; the person then edits u1.
    const edited = base([u('u1', 'Plan a trip to Oslo.'), first.turn, u('u2', 'And back?')]);
    const second = await send(edited);
    expect(second.error).toBeUndefined();
    const req = fake.requests.at(-1)!;
    expect(req.headers['anthropic-beta']).toBe('thinking-binding-controls-2026-08-01');
    expect(req.body).toMatchObject({
      thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } },
    });
    expect(second.turn.meta?.inputTransformations).toEqual([
      { type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'prefix_binding_mismatch' },
    ]);
    // The next request leaves that block out (A-B5): no thinking is replayed, so neither the
    // binding controls nor their beta are needed, and the fake has nothing to drop.
    const third = await send(base([...edited.turns, second.turn, u('u3', 'Thanks')]));
    expect(third.error).toBeUndefined();
    expect(JSON.stringify(fake.requests.at(-1)!.body)).not.toContain('sig-trip');
    expect(fake.requests.at(-1)!.headers['anthropic-beta']).toBeUndefined();
    expect(third.turn.meta?.inputTransformations).toBeUndefined();
  });

  it('A-B2: without drop_block (policy "error") the same edit gets the API\'s 400', async () => {
    const first = await send(
      base([u('u1', 'Plan a trip.')]),
      {},
      { kind: 'thinking', thinking: 'Trains.', signature: 'sig-trip', text: 'Take the train.' },
    );
    const second = await send(base([u('u1', 'Plan a trip to Oslo.'), first.turn, u('u2', 'And back?')]), {
      prefixMismatchBehavior: 'error',
    });
    expect(second.error?.status).toBe(400);
    expect(second.error?.message).toContain(
      'messages.1.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation',
    );
    expect(fake.requests.at(-1)!.headers['anthropic-beta']).toBeUndefined();
  });

  it('A-B2: an unchanged history replays its thinking and passes the check', async () => {
    const first = await send(
      base([u('u1', 'Plan a trip.')]),
      {},
      { kind: 'thinking', thinking: 'Trains.', signature: 'sig-trip', text: 'Take the train.' },
    );
    const second = await send(base([u('u1', 'Plan a trip.'), first.turn, u('u2', 'And back?')]), {
      prefixMismatchBehavior: 'error',
    });
    expect(second.error).toBeUndefined();
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('sig-trip');
  });

  it("A-B1: the fake drops another model's thinking without an error and reports it under the beta", async () => {
    const body = {
      model: 'claude-opus-5-5',
      max_tokens: 2000,
      stream: true,
      thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } },
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'T', signature: 'sig-opus5' },
            { type: 'text', text: 'A' },
          ],
        },
        { role: 'user', content: 'More' },
      ],
    };
    // Mint sig-opus5 for claude-opus-5 with the prefix [Hi].
    fake.enqueue('anthropic-messages', { kind: 'thinking', thinking: 'T', signature: 'sig-opus5', text: 'A' });
    await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: {
        'x-api-key': fake.keys.anthropic,
        'anthropic-version': '2026-10-21',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ model: 'claude-opus-5', max_tokens: 2000, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    const res = await fetch(`${fake.url}/v1/messages?beta=true`, {
      method: 'POST',
      headers: {
        'x-api-key': fake.keys.anthropic,
        'anthropic-version': '2026-10-21',
        'anthropic-beta': 'thinking-binding-controls-2026-08-01',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ ...body, stream: false }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).input_transformations).toEqual([
      { type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'model_binding_mismatch' },
    ]);
  });

  it("A-V1, A-V4, A-M1: the fake answers with the API's 400 texts", async () => {
    const post = async (body: unknown) => {
      const res = await fetch(`${fake.url}/v1/messages`, {
        method: 'POST',
        headers: {
          'x-api-key': fake.keys.anthropic,
          'anthropic-version': '2026-10-21',
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, message: ((await res.json()) as { error: { message: string } }).error.message };
    };
    expect(
      await post({
        model: 'claude-sonnet-4-6',
        max_tokens: 10,
        temperature: 0.5,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    ).toEqual({ status: 400, message: 'temperature: `temperature` is deprecated for this model.' });
    expect(
      await post({
        model: 'claude-opus-5',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Sure' },
        ],
      }),
    ).toEqual({
      status: 400,
      message:
        'messages.1: This model does not support assistant message prefill. The conversation must end with a user message.',
    });
    expect(
      await post({
        model: 'claude-sonnet-4-6',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'system', content: 'French.' },
        ],
      }),
    ).toEqual({
      status: 400,
      message: "messages.1.role: role 'system' is not supported on this model",
    });
  });

  it('A-P1, A-P2: a compaction block replays first in messages with its beta header', async () => {
    const claude = { provider: 'anthropic', api: 'anthropic-messages', model: MODEL };
    const compaction = { type: 'compaction', content: 'Earlier: Oslo.', encrypted_content: 'enc', signature: 'sig-c' };
    const t = base([
      u('u0', 'Long chat…'),
      {
        id: 'a0',
        role: 'assistant',
        origin: claude,
        blocks: [
          {
            type: 'provider_item',
            api: 'anthropic-messages',
            item: compaction,
            text: compaction.content,
            meta: { anthropicBeta: 'compact-2026-09-04' },
          },
        ],
      },
      u('u1', 'Hotels?'),
    ]);
    const r = await send(t, { thinking: false });
    expect(r.error).toBeUndefined();
    const req = fake.requests.at(-1)!;
    expect(req.headers['anthropic-beta']).toBe('compact-2026-09-04');
    expect((req.body as { messages: unknown[] }).messages[0]).toEqual({ role: 'assistant', content: [compaction] });
    expect(req.violations).toEqual([]);
  });
});
