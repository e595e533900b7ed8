/**
 * Sender gate and payload validation of the background router (security-requirements.md M1, M2, M3).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REQUESTS, type RequestType } from '../../messaging/protocol';
import { classifySender, route, type Handlers, type Sender } from './router';

const OWN_ID = 'abcdefghijklmnopabcdefghijklmnop';
const EXT = `chrome-extension://${OWN_ID}`;
const extensionPage: Sender = { id: OWN_ID, url: `${EXT}/sidepanel.html`, origin: EXT };

/** Handlers that only record that they ran: any call means a privileged action happened. */
function recordingHandlers() {
  const calls: string[] = [];
  const handlers = Object.fromEntries(
    (Object.keys(REQUESTS) as RequestType[]).map((t) => [t, async () => (calls.push(t), null)]),
  ) as unknown as Handlers;
  return { calls, handlers };
}

const env = (handlers: Handlers) => ({ ownId: OWN_ID, extensionOrigin: EXT, handlers });

describe('M1 content scripts cannot reach privileged types', () => {
  const contentScript: Sender = {
    id: OWN_ID,
    tab: { id: 3 },
    frameId: 0,
    origin: 'https://chatgpt.com',
    url: 'https://chatgpt.com/c/1',
  };
  it.each([
    'listConversations',
    'getConversation',
    'sendMessage',
    'setKey',
    'getSettings',
    'deleteAllData',
    'listModels',
  ] as const)('M1 refuses %s from a chat-site content script without running any handler', async (type) => {
    const { calls, handlers } = recordingHandlers();
    const reply = await route({ type, payload: {} }, contentScript, env(handlers));
    expect(reply).toEqual({
      ok: false,
      error: { code: 'forbidden', message: `${type} is not allowed from this sender` },
    });
    expect(calls).toEqual([]);
  });
});

describe('M2 content-script sender gate', () => {
  const good: Sender = {
    id: OWN_ID,
    tab: { id: 1 },
    frameId: 0,
    origin: 'https://claude.ai',
    url: 'https://claude.ai/chat/x',
  };
  it('M2 accepts the top frame of the three chat sites as content', () => {
    for (const origin of ['https://chatgpt.com', 'https://claude.ai', 'https://gemini.google.com'])
      expect(classifySender({ ...good, origin, url: `${origin}/x` }, OWN_ID, EXT)).toBe('content');
  });
  it.each<[string, Sender]>([
    ['https://evil.example', { ...good, origin: 'https://evil.example', url: 'https://evil.example/' }],
    [
      'https://chatgpt.com.evil.example',
      { ...good, origin: 'https://chatgpt.com.evil.example', url: 'https://chatgpt.com.evil.example/' },
    ],
    ['http://chatgpt.com', { ...good, origin: 'http://chatgpt.com', url: 'http://chatgpt.com/' }],
    [
      'a look-alike chrome-extension://<id>.evil.com',
      {
        ...good,
        tab: undefined,
        origin: `chrome-extension://${OWN_ID}.evil.com`,
        url: `chrome-extension://${OWN_ID}.evil.com/x`,
      },
    ],
    ['file:', { ...good, origin: 'file://', url: 'file:///etc/passwd' }],
    ['data:', { ...good, origin: 'null', url: 'data:text/html,hi' }],
    ['frameId: 5', { ...good, frameId: 5 }],
    ['a foreign sender.id', { ...good, id: 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz' }],
    ['no tab', { ...good, tab: undefined }],
  ])('M2 rejects %s', (_name, sender) => {
    expect(classifySender(sender, OWN_ID, EXT)).toBeUndefined();
  });
  it('M2 ignores an origin claimed in the payload: the sender decides', async () => {
    const { calls, handlers } = recordingHandlers();
    const evil: Sender = { ...good, origin: 'https://evil.example', url: 'https://evil.example/' };
    const reply = await route(
      { type: 'listConversations', payload: { origin: 'https://chatgpt.com' } },
      evil,
      env(handlers),
    );
    expect(reply.ok).toBe(false);
    expect(calls).toEqual([]);
  });
  it('accepts our own pages as extension senders, also when opened in a tab', () => {
    expect(classifySender(extensionPage, OWN_ID, EXT)).toBe('extension');
    expect(classifySender({ ...extensionPage, tab: { id: 9 }, frameId: 0 }, OWN_ID, EXT)).toBe('extension');
  });
});

describe('M3 schema validation and no crashes', () => {
  it('M3 rejects unknown fields, wrong types and oversized values with a structured error', async () => {
    const { calls, handlers } = recordingHandlers();
    const cases: unknown[] = [
      { type: 'getConversation', payload: { id: 'x', extra: 1 } },
      { type: 'getConversation', payload: { id: 5 } },
      { type: 'setKey', payload: { providerId: 'openai', key: 'k'.repeat(501) } },
      { type: 'sendMessage', payload: { conversationId: 'c', text: 'hi', target: { providerId: 'evil', model: 'm' } } },
      { type: 'nope', payload: {} },
      { type: 'getConversation' },
      'just a string',
      null,
    ];
    for (const c of cases) {
      const reply = await route(c, extensionPage, env(handlers));
      expect(reply.ok).toBe(false);
      if (!reply.ok) expect(['bad_request']).toContain(reply.error.code);
    }
    expect(calls).toEqual([]);
  });

  it('M3 fuzz: 10,000 random or malformed messages give only {ok:false} and run no handler', async () => {
    const { calls, handlers } = recordingHandlers();
    const types = fc.constantFrom(...(Object.keys(REQUESTS) as string[]), 'constructor', '__proto__', 'toString', '');
    const message = fc.oneof(
      fc.jsonValue(),
      fc.record({ type: types, payload: fc.jsonValue() }),
      fc.record({ type: types, payload: fc.dictionary(fc.string(), fc.jsonValue()) }),
      fc.record({ type: types, payload: fc.jsonValue(), extra: fc.jsonValue() }),
    );
    const senders = fc.constantFrom<Sender>(
      { id: OWN_ID, tab: { id: 1 }, frameId: 0, origin: 'https://chatgpt.com' },
      { id: 'other', url: `${EXT}/x` },
      { id: OWN_ID, origin: 'https://evil.example', tab: {}, frameId: 0 },
      extensionPage,
    );
    const samples = fc.sample(fc.tuple(message, senders), { numRuns: 10_000, seed: 42 });
    let accepted = 0;
    for (const [m, s] of samples) {
      const before = calls.length;
      const reply = await route(m, s, env(handlers));
      if (reply.ok) accepted++;
      else expect(typeof reply.error.code).toBe('string');
      // Only our own pages, with a payload its schema accepts, ever reach a handler.
      if (calls.length > before) {
        expect(s).toBe(extensionPage);
        const type = calls[calls.length - 1] as RequestType;
        expect(REQUESTS[type].input.safeParse((m as { payload: unknown }).payload).success).toBe(true);
      }
    }
    expect(calls.length).toBe(accepted);
    expect(accepted).toBeLessThan(500);
  });
});
