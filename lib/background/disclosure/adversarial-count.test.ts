/**
 * Adversarial exact-count requests (docs/disclosure.md, provider token-count endpoints) and first-disclosure
 * confirmations through the real router (sender gate M1/M2, zod schemas M3), handlers, send
 * engine and stores over fake-indexeddb, with the real SDK transports talking to the fake
 * providers on 127.0.0.1: garbage, negative, fractional and missing counts, 5xx, a slow answer
 * past the timeout, a redirect (N3), a provider that never received the conversation, no host
 * permission (N1), a locked vault (S3), a key echoed in an error (S4), confirmations naming
 * another provider or a look-alike origin, and 10,000 exclusions. After every refusal the stored
 * conversation, turns, ledger and settings, and the estimates, are exactly as before.
 */
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONVERTER_CONTRACT_RULES } from '../../../test/contract';
import { startFakeProviders, type FakeProviders, type Reply as FakeReply } from '../../../test/fake-providers';
import type { CountTokensResult, DisclosurePreview } from '../../messaging/disclosure-types';
import type { Reply, SendTarget } from '../../messaging/protocol';
import type { BatonDb } from '../../store/db';
import {
  ANTHROPIC,
  createTestBackground,
  NOW,
  OPENAI,
  turnRecords,
  type TestBackground,
} from '../background.test-helper';
import { route } from '../core/router';
import { countTokens } from '../../transports';
import { sdkTransport } from '../core/sdk-transport';
import type { Transport } from '../core/transport';

const OWN = 'abcdefghijklmnopabcdefghijklmnop';
const EXT = `chrome-extension://${OWN}`;
const GOOGLE: SendTarget = { providerId: 'google', model: 'gemini-2.5-flash' };

let fake: FakeProviders;
let other: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders({ ignoreRules: [...CONVERTER_CONTRACT_RULES] });
  other = await startFakeProviders({ ignoreRules: [...CONVERTER_CONTRACT_RULES] });
});
afterAll(async () => {
  await fake.close();
  await other.close();
});
beforeEach(() => {
  fake.reset();
  other.reset();
});

let db: BatonDb;
afterEach(() => db?.close());

/** A count transport whose whole-call limit is 300 ms (the real one, with a shorter `timeoutMs`). */
const quickCount: Transport = {
  ...sdkTransport,
  countTokens: (conn, body, opts) => countTokens(conn, body, { ...opts, timeoutMs: 300 }),
};

type Bg = TestBackground & {
  call(type: string, payload: unknown): Promise<Reply<unknown>>;
  /** N1: from now on no host is granted. */
  denyHost(): void;
};

/** c1 sent twice to Anthropic and once to Gemini (so both may count it); `call` goes through the router as the side panel. */
async function setup(opts: { transport?: Transport } = {}): Promise<Bg> {
  let granted = true;
  const bg = await createTestBackground(fake, {
    name: 'adv-count',
    hasHostPermission: async () => granted,
    ...(opts.transport ? { transport: opts.transport } : {}),
  });
  db = bg.db;
  const call = (type: string, payload: unknown) =>
    route(
      { type, payload },
      { id: OWN, url: `${EXT}/sidepanel.html`, origin: EXT },
      { ownId: OWN, extensionOrigin: EXT, handlers: bg.h, secrets: () => Object.values(fake.keys) },
    ) as Promise<Reply<unknown>>;
  const out = { ...bg, call, denyHost: () => void (granted = false) };
  await send(out, ANTHROPIC, 'FIRST-Q', 'FIRST-A');
  await send(out, ANTHROPIC, 'SECOND-Q', 'SECOND-A');
  await send(out, GOOGLE, 'THIRD-Q', 'THIRD-A');
  fake.reset();
  return out;
}

async function send(bg: Bg, target: SendTarget, text: string, reply: string): Promise<void> {
  const api =
    target.providerId === 'anthropic'
      ? 'anthropic-messages'
      : target.providerId === 'google'
        ? 'gemini-generate-content'
        : 'openai-responses';
  fake.enqueue(api, { kind: 'text', text: reply });
  data(await bg.call('sendMessage', { conversationId: 'c1', text, target, confirmedDisclosure: true }));
  await bg.engine.settled('c1');
}

const data = <T>(r: Reply<unknown>): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.data as T;
};
const dump = async () =>
  JSON.stringify([
    await db.getAll('conversations'),
    await turnRecords(db),
    await db.getAll('disclosures'),
    await db.getAll('settings'),
  ]);
const counts = () => fake.requests.filter((r) => r.api === 'anthropic-count-tokens' || r.api === 'gemini-count-tokens');

/** Everything a failed count must leave as it was: storage, estimates and the remembered counts. */
async function state(bg: Bg) {
  const preview = (t: SendTarget) => bg.call('previewSend', { conversationId: 'c1', target: t, text: 'draft' });
  return {
    db: await dump(),
    correction: structuredClone(bg.engine.discloser.cache.correction),
    counts: [...bg.engine.discloser.counts],
    previews: [await preview(ANTHROPIC), await preview(GOOGLE)],
  };
}

describe('countTokens: a provider that answers garbage, fails, stalls or redirects changes nothing', () => {
  const garbage: [string, 'anthropic-count-tokens' | 'gemini-count-tokens', FakeReply][] = [
    ['a negative count', 'anthropic-count-tokens', { kind: 'json', body: { input_tokens: -5 } }],
    ['a fractional count', 'anthropic-count-tokens', { kind: 'json', body: { input_tokens: 12.5 } }],
    ['a count as a string', 'anthropic-count-tokens', { kind: 'json', body: { input_tokens: '120' } }],
    ['a count beyond 2^53', 'anthropic-count-tokens', { kind: 'json', body: { input_tokens: 1e300 } }],
    ['no count at all', 'anthropic-count-tokens', { kind: 'json', body: { tokens: 120 } }],
    // Was `network` ("Could not reach the provider"): the SDK's answer was read as if it were an object.
    ['null', 'anthropic-count-tokens', { kind: 'json', body: null }],
    ['a JSON array', 'gemini-count-tokens', { kind: 'json', body: [1, 2, 3] }],
    ['"NaN"', 'gemini-count-tokens', { kind: 'json', body: { totalTokens: 'NaN' } }],
    ['a negative Gemini count', 'gemini-count-tokens', { kind: 'json', body: { totalTokens: -1 } }],
    ['HTML with status 200', 'gemini-count-tokens', { kind: 'error', status: 200, body: '<html>not json</html>' }],
  ];
  for (const [what, api, reply] of garbage)
    it(`${what}: provider_error, nothing stored, no estimate changed`, async () => {
      const bg = await setup();
      const before = await state(bg);
      fake.enqueue(api, reply);
      const r = await bg.call('countTokens', {
        conversationId: 'c1',
        target: api === 'anthropic-count-tokens' ? ANTHROPIC : GOOGLE,
      });
      expect(r).toMatchObject({ ok: false, error: { code: 'provider_error' } });
      expect(counts()).toHaveLength(1);
      expect(await state(bg)).toEqual(before);
    });

  it('a count of 0 tokens for a non-empty conversation is refused as garbage too (it would halve every estimate)', async () => {
    const bg = await setup();
    const before = await state(bg);
    fake.enqueue('anthropic-count-tokens', { kind: 'json', body: { input_tokens: 0 } });
    expect(await bg.call('countTokens', { conversationId: 'c1', target: ANTHROPIC })).toMatchObject({
      ok: false,
      error: { code: 'provider_error' },
    });
    expect(await state(bg)).toEqual(before);
  });

  it('P1 a 5xx is one request, a typed retryable error, and changes nothing', async () => {
    const bg = await setup();
    const before = await state(bg);
    for (const [status, code] of [
      [500, 'provider_error'],
      [503, 'overloaded'],
      [529, 'overloaded'],
    ] as const) {
      fake.enqueue('anthropic-count-tokens', { kind: 'error', status });
      expect(await bg.call('countTokens', { conversationId: 'c1', target: ANTHROPIC })).toMatchObject({
        ok: false,
        error: { code },
      });
    }
    expect(counts()).toHaveLength(3);
    expect(await state(bg)).toEqual(before);
  });

  it('P5 an answer slower than the count timeout ends as `timeout` (the fake sees the disconnect) and changes nothing', async () => {
    const bg = await setup({ transport: quickCount });
    const before = await state(bg);
    // A stall longer than the test's own time limit: only the count timeout can end this call.
    fake.enqueue('anthropic-count-tokens', { kind: 'stall', ms: 600_000 });
    expect(await bg.call('countTokens', { conversationId: 'c1', target: ANTHROPIC })).toMatchObject({
      ok: false,
      error: { code: 'timeout' },
    });
    await fake.waitForDisconnects(1);
    expect(await state(bg)).toEqual(before);
  });

  it('N3 a redirect to another origin is an error; the other origin receives nothing (no key, no conversation)', async () => {
    const bg = await setup();
    const before = await state(bg);
    for (const [api, target, path] of [
      ['anthropic-count-tokens', ANTHROPIC, '/v1/messages/count_tokens'],
      ['gemini-count-tokens', GOOGLE, '/v1beta/models/gemini-2.5-flash:countTokens'],
    ] as const) {
      fake.enqueue(api, { kind: 'error', status: 307, headers: { location: `${other.url}${path}` } });
      expect(await bg.call('countTokens', { conversationId: 'c1', target })).toMatchObject({
        ok: false,
        error: { code: 'provider_error' },
      });
    }
    expect(other.requests).toEqual([]);
    expect(counts()).toHaveLength(2);
    expect(await state(bg)).toEqual(before);
  });

  it('S4 an error answer that echoes the key: the reply carries no key material', async () => {
    const bg = await setup();
    const key = fake.keys.anthropic;
    fake.enqueue('anthropic-count-tokens', {
      kind: 'error',
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: `x-api-key ${key} is not allowed here` },
      },
    });
    // Through a router that redacts nothing itself, so the count's own redaction is what is tested.
    const r = await route(
      { type: 'countTokens', payload: { conversationId: 'c1', target: ANTHROPIC } },
      { id: OWN, url: `${EXT}/sidepanel.html`, origin: EXT },
      { ownId: OWN, extensionOrigin: EXT, handlers: bg.h },
    );
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'bad_request', message: expect.stringContaining('[redacted]') },
    });
    expect(counts().flatMap((c) => c.keyViolations)).toEqual([]);
    const all = JSON.stringify([r, await dump(), counts().map((c) => c.body)]);
    for (let i = 0; i + 12 <= key.length; i++) expect(all).not.toContain(key.slice(i, i + 12));
  });
});

describe('countTokens: refused before any request', () => {
  it('a provider that has not received the conversation as it is now: never received, only through a failed send, or at another origin', async () => {
    const bg = await setup();
    // A conversation whose only send to Anthropic failed (400): a failed send proves no receipt.
    data(await bg.call('createConversation', {}));
    const conv = (await bg.store.list()).find((m) => m.id !== 'c1')!.id;
    fake.enqueue('anthropic-messages', { kind: 'error', status: 400 });
    data(
      await bg.call('sendMessage', {
        conversationId: conv,
        text: 'FAILED-Q',
        target: ANTHROPIC,
        confirmedDisclosure: true,
      }),
    );
    await bg.engine.settled(conv);
    fake.reset();
    expect(await bg.call('countTokens', { conversationId: conv, target: ANTHROPIC })).toMatchObject({
      ok: false,
      error: { code: 'not_received' },
    });
    // c1 went to Anthropic at the fake's origin; the same provider id at another origin has received nothing.
    await bg.settings.update((s) => ({ ...s, baseUrls: { ...s.baseUrls, anthropic: other.url } }));
    await bg.vault.setKey('anthropic', fake.keys.anthropic, new URL(other.url).origin, NOW);
    const before = await dump();
    expect(await bg.call('countTokens', { conversationId: 'c1', target: ANTHROPIC })).toMatchObject({
      ok: false,
      error: { code: 'not_received' },
    });
    for (const id of ['nope', '__proto__', 'constructor'])
      expect(await bg.call('countTokens', { conversationId: id, target: ANTHROPIC })).toMatchObject({
        ok: false,
        error: { code: 'not_found' },
      });
    expect([fake.requests, other.requests]).toEqual([[], []]);
    expect(await dump()).toEqual(before);
  });

  it('a preview part that is bad input (a retry when the last answer completed, an edit of an unknown or prototype-named turn, text with a retry) is refused before the count request, and no estimate changes', async () => {
    const bg = await setup();
    const before = await state(bg);
    const bad: [object, string][] = [
      [{ resend: { kind: 'retry' } }, 'bad_request'],
      [{ resend: { kind: 'edit', turnId: 'nope' } }, 'not_found'],
      [{ resend: { kind: 'edit', turnId: '__proto__' } }, 'not_found'],
      [{ resend: { kind: 'regenerate' }, text: 'a draft with a regenerate' }, 'bad_request'],
    ];
    for (const [extra, code] of bad)
      expect(await bg.call('countTokens', { conversationId: 'c1', target: ANTHROPIC, ...extra })).toMatchObject({
        ok: false,
        error: { code },
      });
    expect(fake.requests).toEqual([]);
    expect(await state(bg)).toEqual(before);
  });

  it('N1 no host permission for the endpoint: endpoint_not_permitted, zero requests', async () => {
    const bg = await setup();
    bg.denyHost();
    const before = await dump();
    expect(await bg.call('countTokens', { conversationId: 'c1', target: ANTHROPIC })).toMatchObject({
      ok: false,
      error: { code: 'endpoint_not_permitted' },
    });
    expect(fake.requests).toEqual([]);
    expect(await dump()).toEqual(before);
  });

  it('S3 with the vault locked: locked, zero requests; after unlock the count works', async () => {
    const bg = await setup();
    await bg.vault.setPassphrase('correct horse battery');
    await bg.vault.lock();
    const before = await dump();
    expect(await bg.call('countTokens', { conversationId: 'c1', target: ANTHROPIC })).toMatchObject({
      ok: false,
      error: { code: 'locked' },
    });
    expect(fake.requests).toEqual([]);
    expect(await dump()).toEqual(before);
    await bg.vault.unlock('correct horse battery');
    expect(
      data<CountTokensResult>(await bg.call('countTokens', { conversationId: 'c1', target: ANTHROPIC })).countedTurns,
    ).toBe(4);
  });

  it('M1/M2 a content script on a chat site cannot ask for a count', async () => {
    const bg = await setup();
    const r = await route(
      { type: 'countTokens', payload: { conversationId: 'c1', target: ANTHROPIC } },
      { id: OWN, url: 'https://claude.ai/chat/1', origin: 'https://claude.ai', tab: { id: 3 }, frameId: 0 },
      { ownId: OWN, extensionOrigin: EXT, handlers: bg.h },
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(fake.requests).toEqual([]);
  });
});

describe('exclusions and confirmations from a careless or hostile panel', () => {
  it('10,000 excluded turns and 10,000 excluded blocks (the most a request takes): previewed and counted, unknown ones reported, the count body leaves the known ones out', async () => {
    const bg = await setup();
    const turns = (await bg.store.toTranscript('c1')).turns;
    const excludeTurns = [turns[0]!.id, ...Array.from({ length: 9_999 }, (_, i) => `ghost-${i}`)];
    const excludeBlocks = Array.from({ length: 10_000 }, (_, i) => ({
      turn: i === 0 ? turns[2]!.id : `ghost-${i}`,
      index: i === 0 ? 0 : i,
    }));
    const preview = data<DisclosurePreview>(
      await bg.call('previewSend', { conversationId: 'c1', target: ANTHROPIC, excludeTurns, excludeBlocks }),
    );
    expect(preview.unknownExclusions?.turns).toHaveLength(9_999);
    expect(preview.unknownExclusions?.blocks).toHaveLength(9_999);
    const out = data<CountTokensResult>(
      await bg.call('countTokens', { conversationId: 'c1', target: ANTHROPIC, excludeTurns, excludeBlocks }),
    );
    expect(out.countedTurns).toBe(2);
    const body = JSON.stringify(counts()[0]!.body);
    expect(body).not.toContain('FIRST-Q');
    expect(body).not.toContain('SECOND-Q');
    expect(body).toContain('FIRST-A');
    expect(
      await bg.call('countTokens', {
        conversationId: 'c1',
        target: ANTHROPIC,
        excludeTurns: [...excludeTurns, 'one-more'],
      }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'bad_request',
        message: 'countTokens: excludeTurns: Too big: expected array to have <=10000 items',
      },
    });
  });

  it('retry of an unanswered message with another provider: a confirmation for the first provider is no consent for the second; nothing is removed until it is given', async () => {
    const bg = await setup();
    const conv = data<{ id: string }>(await bg.call('createConversation', {})).id;
    fake.enqueue('openai-responses', { kind: 'error', status: 400 });
    data(
      await bg.call('sendMessage', {
        conversationId: conv,
        text: 'ONLY-TO-OPENAI',
        target: OPENAI,
        confirmedDisclosure: true,
      }),
    );
    await bg.engine.settled(conv);
    const before = await dump();
    const turns = (await bg.store.toTranscript(conv)).turns;
    expect(turns.map((t) => [t.role, t.status])).toEqual([
      ['user', undefined],
      ['assistant', 'error'],
    ]);
    fake.reset();
    // Anthropic never got the unanswered message: the retry discloses it, so it must be confirmed for Anthropic.
    expect(await bg.call('retryTurn', { conversationId: conv, target: ANTHROPIC })).toMatchObject({
      ok: false,
      error: { code: 'confirmation_required' },
    });
    expect(
      await bg.call('retryTurn', {
        conversationId: conv,
        target: ANTHROPIC,
        confirmedDisclosure: true,
        confirmedFor: { providerId: 'openai', origin: bg.origin },
      }),
    ).toMatchObject({ ok: false, error: { code: 'confirmation_required' } });
    expect(fake.requests).toEqual([]);
    expect(await dump()).toEqual(before);
    fake.enqueue('anthropic-messages', { kind: 'text', text: 'ANSWERED' });
    data(
      await bg.call('retryTurn', {
        conversationId: conv,
        target: ANTHROPIC,
        confirmedDisclosure: true,
        confirmedFor: { providerId: 'anthropic', origin: bg.origin },
      }),
    );
    await bg.engine.settled(conv);
    expect(JSON.stringify(fake.requests[0]!.body)).toContain('ONLY-TO-OPENAI');
    expect((await bg.store.toTranscript(conv)).turns.map((t) => t.role)).toEqual(['user', 'assistant']);
  });

  it('confirmedFor naming another provider, a look-alike origin (case, trailing slash, path, port), or without confirmedDisclosure: refused, nothing written; the exact one is accepted', async () => {
    const bg = await setup();
    const origin = bg.origin;
    const before = await dump();
    const bad = [
      { confirmedDisclosure: true, confirmedFor: { providerId: 'anthropic', origin } },
      { confirmedDisclosure: true, confirmedFor: { providerId: 'OpenAI', origin } },
      { confirmedDisclosure: true, confirmedFor: { providerId: 'openai', origin: origin.toUpperCase() } },
      { confirmedDisclosure: true, confirmedFor: { providerId: 'openai', origin: `${origin}/` } },
      { confirmedDisclosure: true, confirmedFor: { providerId: 'openai', origin: `${origin}/v1` } },
      { confirmedDisclosure: true, confirmedFor: { providerId: 'openai', origin: origin.replace(/:\d+$/, ':1') } },
      { confirmedDisclosure: true, confirmedFor: { providerId: 'openai', origin: 'https://api.openai.com' } },
      { confirmedDisclosure: false, confirmedFor: { providerId: 'openai', origin } },
      { confirmedFor: { providerId: 'openai', origin } },
    ];
    for (const c of bad)
      expect(
        await bg.call('sendMessage', { conversationId: 'c1', text: 'to OpenAI', target: OPENAI, ...c }),
      ).toMatchObject({ ok: false, error: { code: 'confirmation_required' } });
    for (const c of [
      {
        confirmedDisclosure: true,
        confirmedFor: JSON.parse(`{"providerId":"openai","origin":"${origin}","__proto__":{"polluted":1}}`),
      },
      { confirmedDisclosure: true, confirmedFor: { providerId: 'openai', origin: '' } },
    ])
      expect(
        await bg.call('sendMessage', { conversationId: 'c1', text: 'to OpenAI', target: OPENAI, ...c }),
      ).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(fake.requests).toEqual([]);
    expect(await dump()).toEqual(before);
    fake.enqueue('openai-responses', { kind: 'text', text: 'OK.' });
    data(
      await bg.call('sendMessage', {
        conversationId: 'c1',
        text: 'to OpenAI',
        target: OPENAI,
        confirmedDisclosure: true,
        confirmedFor: { providerId: 'openai', origin },
      }),
    );
    await bg.engine.settled('c1');
    expect(fake.requests.map((r) => r.api)).toEqual(['openai-responses']);
  });
});
