/**
 * The exact count (docs/disclosure.md, token-count endpoints): only turns the provider has already received
 * go to its count endpoint, nothing at all when it has received none, and the count calibrates
 * later estimates. Real stores over fake-indexeddb, the real SDK transports and the fake
 * providers on 127.0.0.1, whose count endpoints judge each request like the real APIs.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeTokenCount } from '../../../test/fake-providers/count-tokens';
import { CORRECTION_BOUNDS } from '../../context/token-cache';
import type { SendTarget } from '../../messaging/protocol';
import type { BatonDb } from '../../store/db';
import {
  ANTHROPIC,
  createTestBackground,
  fakeProvidersForFile,
  NOW,
  OPENAI,
  type TestBackground,
  user,
} from '../background.test-helper';

const GOOGLE: SendTarget = { providerId: 'google', model: 'gemini-2.5-flash' };

const fake = fakeProvidersForFile();

let db: BatonDb;
afterEach(() => db?.close());

async function setup(): Promise<TestBackground> {
  const bg = await createTestBackground(fake, { name: 'token-count' });
  db = bg.db;
  return bg;
}

/** Sends `text` to `target`, the fake answering `reply`, and waits for the answer to be stored. */
async function send(bg: TestBackground, target: SendTarget, text: string, reply: string): Promise<void> {
  const api =
    target.providerId === 'anthropic'
      ? 'anthropic-messages'
      : target.providerId === 'google'
        ? 'gemini-generate-content'
        : 'openai-responses';
  fake.enqueue(api, { kind: 'text', text: reply });
  await bg.h.sendMessage({ conversationId: 'c1', text, target, confirmedDisclosure: true }, 'extension');
  await bg.engine.settled('c1');
}

const counts = () => fake.requests.filter((r) => r.api === 'anthropic-count-tokens' || r.api === 'gemini-count-tokens');
const text = (s: string) => ({ type: 'text', text: s });

describe('countTokens: only what the provider has already received (docs/disclosure.md)', () => {
  it('after a switch (turns 1-4 to Anthropic, 5-6 to OpenAI) the Anthropic count carries turns 1-4 only, never the draft', async () => {
    const bg = await setup();
    await send(bg, ANTHROPIC, 'FIRST-Q', 'FIRST-A');
    await send(bg, ANTHROPIC, 'SECOND-Q', 'SECOND-A');
    await send(bg, OPENAI, 'THIRD-Q', 'THIRD-A');
    fake.reset();
    const out = await bg.h.countTokens({ conversationId: 'c1', target: ANTHROPIC, text: 'DRAFT-Q' }, 'extension');
    expect(counts()).toHaveLength(1);
    expect(fake.requests).toHaveLength(1);
    const [r] = counts();
    expect([r!.path, r!.status, r!.violations, r!.keyViolations]).toEqual(['/v1/messages/count_tokens', 200, [], []]);
    expect(r!.body).toEqual({
      model: 'claude-sonnet-4-6',
      messages: [
        { role: 'user', content: [text('FIRST-Q')] },
        { role: 'assistant', content: [text('FIRST-A')] },
        { role: 'user', content: [text('SECOND-Q')] },
        { role: 'assistant', content: [text('SECOND-A')] },
        // The fixed repair of a history ending on an answer (transcript-v1.md, "Repairs are fixed"): no conversation content.
        { role: 'user', content: [text('Continue.')] },
      ],
    });
    expect(out.countedTurns).toBe(4);
    expect(out.countedTokens).toBe(fakeTokenCount(JSON.stringify(r!.body)));
    // The refreshed preview is of the same inputs: the whole conversation plus the draft.
    expect(out.preview.perTurn.map((t) => t.preview)).toEqual([
      'FIRST-Q',
      'FIRST-A',
      'SECOND-Q',
      'SECOND-A',
      'THIRD-Q',
      'THIRD-A',
      'DRAFT-Q',
    ]);
    expect(out.preview).toMatchObject({
      estimateSource: 'provider-count',
      providerCount: { tokens: out.countedTokens, turns: 4, model: 'claude-sonnet-4-6', at: NOW },
      exactCountAvailable: true,
    });
  });

  it('a turn edited since it was sent is left out', async () => {
    const bg = await setup();
    await send(bg, ANTHROPIC, 'FIRST-Q', 'FIRST-A');
    await send(bg, ANTHROPIC, 'SECOND-Q', 'SECOND-A');
    const turns = (await bg.store.toTranscript('c1')).turns;
    const second = turns.find((t) => t.blocks.some((b) => b.type === 'text' && b.text === 'SECOND-Q'))!;
    await bg.store.putTurn('c1', { ...second, blocks: [text('EDITED-Q') as { type: 'text'; text: string }] }, NOW);
    fake.reset();
    const out = await bg.h.countTokens({ conversationId: 'c1', target: ANTHROPIC }, 'extension');
    const json = JSON.stringify(counts()[0]!.body);
    expect(json).not.toContain('EDITED-Q');
    expect(json).not.toContain('SECOND-Q');
    expect(json).toContain('FIRST-Q');
    expect(out.countedTurns).toBe(3);
  });

  it('a provider that has received nothing of the conversation is refused: not_received, zero requests', async () => {
    const bg = await setup();
    await bg.store.appendTurn('c1', user('u1', 'Imported, never sent'), NOW);
    await expect(
      bg.h.countTokens({ conversationId: 'c1', target: ANTHROPIC, text: 'DRAFT' }, 'extension'),
    ).rejects.toMatchObject({ code: 'not_received' });
    // Only OpenAI has received it: Anthropic and Gemini still may not count it.
    await send(bg, OPENAI, 'THIRD-Q', 'THIRD-A');
    fake.reset();
    await expect(bg.h.countTokens({ conversationId: 'c1', target: ANTHROPIC }, 'extension')).rejects.toMatchObject({
      code: 'not_received',
    });
    await expect(bg.h.countTokens({ conversationId: 'c1', target: GOOGLE }, 'extension')).rejects.toMatchObject({
      code: 'not_received',
    });
    expect(fake.requests).toEqual([]);
    const preview = await bg.h.previewSend({ conversationId: 'c1', target: ANTHROPIC }, 'extension');
    expect(preview.exactCountAvailable).toBe(false);
  });

  it('a new chat (no conversation) is refused with zero requests', async () => {
    const bg = await setup();
    await expect(bg.h.countTokens({ target: ANTHROPIC, text: 'DRAFT' }, 'extension')).rejects.toMatchObject({
      code: 'bad_request',
    });
    expect(fake.requests).toEqual([]);
  });

  it("the person's exclusions apply to the count too; a policy forbidding the provider refuses it", async () => {
    const bg = await setup();
    await send(bg, ANTHROPIC, 'FIRST-Q', 'FIRST-A');
    await send(bg, ANTHROPIC, 'SECOND-Q', 'SECOND-A');
    const first = (await bg.store.toTranscript('c1')).turns[0]!;
    fake.reset();
    await bg.h.countTokens({ conversationId: 'c1', target: ANTHROPIC, excludeTurns: [first.id] }, 'extension');
    expect(JSON.stringify(counts()[0]!.body)).not.toContain('FIRST-Q');
    fake.reset();
    await bg.h.setDisclosurePolicy({ conversationId: 'c1', policy: { neverProviders: ['anthropic'] } }, 'extension');
    await expect(bg.h.countTokens({ conversationId: 'c1', target: ANTHROPIC }, 'extension')).rejects.toMatchObject({
      code: 'policy_forbidden',
    });
    expect(fake.requests).toEqual([]);
    expect((await bg.h.previewSend({ conversationId: 'c1', target: ANTHROPIC }, 'extension')).exactCountAvailable).toBe(
      false,
    );
  });

  it('OpenAI (exact tokenizer) and OpenAI-compatible endpoints have no count: not offered, refused with zero requests', async () => {
    const bg = await setup();
    await bg.settings.update((s) => ({
      ...s,
      endpoints: [{ id: 'custom-local', name: 'Local', baseUrl: `${fake.url}/compat/v1`, flavor: 'generic' }],
    }));
    await send(bg, OPENAI, 'FIRST-Q', 'FIRST-A');
    fake.reset();
    const preview = await bg.h.previewSend({ conversationId: 'c1', target: OPENAI }, 'extension');
    expect([preview.exactCountAvailable, preview.estimateSource]).toEqual([false, 'tokenizer']);
    await expect(bg.h.countTokens({ conversationId: 'c1', target: OPENAI }, 'extension')).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('tokenizer'),
    });
    const compat = { providerId: 'custom-local', model: 'llama3' };
    expect((await bg.h.previewSend({ conversationId: 'c1', target: compat }, 'extension')).exactCountAvailable).toBe(
      false,
    );
    await expect(bg.h.countTokens({ conversationId: 'c1', target: compat }, 'extension')).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('OpenAI-compatible'),
    });
    expect(fake.requests).toEqual([]);
  });

  it('Gemini: the received turns as {generateContentRequest: {model: "models/…", contents}}, no generation settings', async () => {
    const bg = await setup();
    expect(
      (await bg.h.previewSend({ conversationId: 'c1', target: GOOGLE, text: 'x' }, 'extension')).exactCountAvailable,
    ).toBe(false);
    await send(bg, GOOGLE, 'FIRST-Q', 'FIRST-A');
    expect(
      (await bg.h.previewSend({ conversationId: 'c1', target: GOOGLE, text: 'x' }, 'extension')).exactCountAvailable,
    ).toBe(true);
    fake.reset();
    const out = await bg.h.countTokens({ conversationId: 'c1', target: GOOGLE, text: 'DRAFT-Q' }, 'extension');
    const [r] = counts();
    expect([r!.path, r!.status, r!.violations]).toEqual(['/v1beta/models/gemini-2.5-flash:countTokens', 200, []]);
    expect(r!.body).toEqual({
      generateContentRequest: {
        model: 'models/gemini-2.5-flash',
        contents: [
          { role: 'user', parts: [{ text: 'FIRST-Q' }] },
          { role: 'model', parts: [{ text: 'FIRST-A' }] },
          { role: 'user', parts: [{ text: 'Continue.' }] },
        ],
      },
    });
    expect(out).toMatchObject({
      countedTurns: 2,
      countedTokens: fakeTokenCount(JSON.stringify(r!.body)),
      preview: { estimateSource: 'provider-count' },
    });
  });
});

describe('countTokens: calibration', () => {
  it('records the count against the uncorrected estimate of the same body (recordUsage), correcting every later estimate', async () => {
    const bg = await setup();
    await send(bg, ANTHROPIC, 'FIRST-Q', 'FIRST-A');
    await send(bg, ANTHROPIC, 'SECOND-Q', 'SECOND-A');
    const cache = bg.engine.discloser.cache;
    // Forget the sends' reported usage, so only the count corrects.
    for (const k of Object.keys(cache.correction)) delete cache.correction[k];
    const before = await bg.h.previewSend({ conversationId: 'c1', target: ANTHROPIC }, 'extension');
    const beforeDraft = await bg.h.previewSend(
      { conversationId: 'c1', target: ANTHROPIC, text: 'DRAFT-Q '.repeat(40) },
      'extension',
    );
    expect([before.estimateSource, before.exactCountAvailable]).toEqual(['estimate', true]);
    // Every stored turn was received and there is no draft: the count body is this preview's turns.
    const out = await bg.h.countTokens({ conversationId: 'c1', target: ANTHROPIC }, 'extension');
    expect(cache.correction.anthropic).toEqual({ actual: out.countedTokens, estimated: before.estimatedInputTokens });
    const ratio = Math.min(
      CORRECTION_BOUNDS.max,
      Math.max(CORRECTION_BOUNDS.min, out.countedTokens / before.estimatedInputTokens),
    );
    expect(ratio).not.toBe(1);
    expect(out.preview.estimatedInputTokens).toBe(Math.ceil(before.estimatedInputTokens * ratio));
    // The full request with the draft is corrected by the same ratio.
    const afterDraft = await bg.h.previewSend(
      { conversationId: 'c1', target: ANTHROPIC, text: 'DRAFT-Q '.repeat(40) },
      'extension',
    );
    expect(afterDraft.estimatedInputTokens).toBe(Math.ceil(beforeDraft.estimatedInputTokens * ratio));
    expect(afterDraft).toMatchObject({
      estimateSource: 'provider-count',
      providerCount: { tokens: out.countedTokens, turns: 4 },
    });
  });

  it('a count far off is bounded (CORRECTION_BOUNDS.max)', async () => {
    const bg = await setup();
    await send(bg, ANTHROPIC, 'FIRST-Q', 'FIRST-A');
    const cache = bg.engine.discloser.cache;
    for (const k of Object.keys(cache.correction)) delete cache.correction[k];
    const before = await bg.h.previewSend({ conversationId: 'c1', target: ANTHROPIC, text: 'next' }, 'extension');
    fake.enqueue('anthropic-count-tokens', { kind: 'json', body: { input_tokens: 1_000_000 } });
    const out = await bg.h.countTokens({ conversationId: 'c1', target: ANTHROPIC, text: 'next' }, 'extension');
    expect(out.countedTokens).toBe(1_000_000);
    expect(out.preview.estimatedInputTokens).toBe(Math.ceil(before.estimatedInputTokens * CORRECTION_BOUNDS.max));
  });
});

describe('countTokens: errors', () => {
  it("a provider error is mapped like a send's, and changes no estimate", async () => {
    const bg = await setup();
    await send(bg, ANTHROPIC, 'FIRST-Q', 'FIRST-A');
    const cache = bg.engine.discloser.cache;
    const correction = structuredClone(cache.correction);
    fake.enqueue('anthropic-count-tokens', { kind: 'error', status: 429, headers: { 'retry-after': '12' } });
    await expect(bg.h.countTokens({ conversationId: 'c1', target: ANTHROPIC }, 'extension')).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfterMs: 12_000,
    });
    expect(cache.correction).toEqual(correction);
    expect((await bg.h.previewSend({ conversationId: 'c1', target: ANTHROPIC }, 'extension')).estimateSource).toBe(
      'corrected',
    );
  });

  it('a rejected key is invalid_key (never echoed) and marks the key invalid, as a send does', async () => {
    const bg = await setup();
    await send(bg, ANTHROPIC, 'FIRST-Q', 'FIRST-A');
    const wrong = 'sk-ant-wrong-0123456789abcdef';
    await bg.vault.setKey('anthropic', wrong, bg.origin, NOW);
    const err = (await bg.h
      .countTokens({ conversationId: 'c1', target: ANTHROPIC }, 'extension')
      .catch((e: unknown) => e)) as { code: string; message: string };
    expect(err.code).toBe('invalid_key');
    expect(err.message).not.toContain(wrong.slice(0, 12));
    expect((await bg.settings.get()).invalidKeys).toContain('anthropic');
  });

  it("no permission for the provider's host: endpoint_not_permitted, zero requests", async () => {
    const bg = await setup();
    await send(bg, ANTHROPIC, 'FIRST-Q', 'FIRST-A');
    fake.reset();
    const { countTokensFor } = await import('./token-count');
    const deps = {
      store: bg.store,
      settings: bg.settings,
      vault: bg.vault,
      transport: (await import('../core/sdk-transport')).sdkTransport,
      hasHostPermission: async () => false,
      now: () => NOW,
    };
    await expect(
      countTokensFor(deps, bg.engine.discloser, { conversationId: 'c1', target: ANTHROPIC }),
    ).rejects.toMatchObject({ code: 'endpoint_not_permitted' });
    expect(fake.requests).toEqual([]);
  });
});
