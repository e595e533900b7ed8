/**
 * docs/security.md ("Hostile providers and files"): provider state from an imported Baton file is
 * replayed only after the person confirms it in the disclosure preview. The send's plan (the body
 * the transport receives) and its preview both follow `replayImportedState`.
 */
import { describe, expect, it } from 'vitest';
import { createTokenCache } from '../../context/token-cache';
import { REQUESTS } from '../../messaging/protocol';
import type { Transcript } from '../../transcript/schema';
import { previewInputOf } from './engine';
import { planSend, type Exclusions } from './sendable';
import { buildPreview } from './preview';

const gpt = { provider: 'openai', api: 'openai-responses' as const, model: 'gpt-5' };
const transcript: Transcript = {
  format: 'baton.transcript',
  version: 1,
  id: 'imported',
  turns: [
    { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Deploy?' }] },
    {
      id: 'a1',
      role: 'assistant',
      origin: gpt,
      status: 'complete',
      meta: { importedProviderState: true },
      blocks: [
        { type: 'thinking', text: 'plan', signature: 'ENCRYPTED-REASONING-FROM-FILE', meta: { itemId: 'rs_1' } },
        {
          type: 'provider_item',
          api: 'openai-responses',
          item: { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true },
        },
        { type: 'text', text: 'Approved.' },
      ],
    },
    { id: 'u2', role: 'user', blocks: [{ type: 'text', text: 'Go on.' }] },
  ],
} as Transcript;

function planned(exclusions: Exclusions) {
  const p = planSend({
    transcript,
    target: { api: 'openai-responses', model: 'gpt-5', provider: 'openai', thinking: true },
    global: {},
    conversation: {},
    exclusions,
    cache: createTokenCache(),
    sessionKey: 'k',
  });
  const preview = buildPreview({
    planned: p,
    transcript,
    target: { providerId: 'openai', api: 'openai-responses', model: 'gpt-5', origin: 'https://api.openai.com' },
    needsConfirmation: false,
    exclusions,
  });
  return { body: JSON.stringify(p.body), preview };
}

describe('provider state from an imported file (docs/security.md)', () => {
  it('without the choice the send drops it and the preview says so', () => {
    const { body, preview } = planned({});
    expect(body).not.toContain('ENCRYPTED-REASONING-FROM-FILE');
    expect(body).toContain('Approved.');
    expect(preview.importedState).toEqual({ turns: 1, replayed: false });
    expect(JSON.stringify(preview.body)).toBe(body);
  });

  it('with replayImportedState the send replays it (never the approval item), and the preview shows that body', () => {
    const { body, preview } = planned({ replayImportedState: true });
    expect(body).toContain('ENCRYPTED-REASONING-FROM-FILE');
    expect(body).not.toContain('mcp_approval_response');
    expect(preview.importedState).toEqual({ turns: 1, replayed: true });
    expect(JSON.stringify(preview.body)).toBe(body);
  });

  it('says nothing for a conversation without imported state', () => {
    const plain = { ...transcript, turns: transcript.turns.map(({ meta: _m, ...t }) => t) } as Transcript;
    const p = planSend({
      transcript: plain,
      target: { api: 'openai-responses', model: 'gpt-5', provider: 'openai', thinking: true },
      global: {},
      conversation: {},
      exclusions: {},
      cache: createTokenCache(),
      sessionKey: 'k',
    });
    const preview = buildPreview({
      planned: p,
      transcript: plain,
      target: { providerId: 'openai', api: 'openai-responses', model: 'gpt-5', origin: 'https://api.openai.com' },
      needsConfirmation: false,
    });
    expect(preview.importedState).toBeUndefined();
  });
});

describe('replayImportedState in the protocol', () => {
  const send = { conversationId: 'c1', text: 'Hi', target: { providerId: 'openai', model: 'gpt-5' } };
  it('sendMessage and previewSend accept it as a boolean only', () => {
    expect(REQUESTS.sendMessage.input.safeParse({ ...send, replayImportedState: true }).success).toBe(true);
    expect(REQUESTS.sendMessage.input.safeParse({ ...send, replayImportedState: 'yes' }).success).toBe(false);
    expect(REQUESTS.previewSend.input.safeParse({ ...send, replayImportedState: true }).success).toBe(true);
    expect(REQUESTS.previewSend.input.safeParse({ ...send, replayImportedState: 1 }).success).toBe(false);
  });
});

describe('replayImportedState and resends', () => {
  it('a resend preview never carries the choice, since retry, regenerate and edit-and-resend do not send it', () => {
    const base = { conversationId: 'c1', target: { providerId: 'openai', model: 'gpt-5' }, replayImportedState: true };
    expect(previewInputOf(base).exclusions?.replayImportedState).toBe(true);
    expect(previewInputOf({ ...base, resend: { kind: 'regenerate' } }).exclusions?.replayImportedState).toBeUndefined();
    expect(previewInputOf({ ...base, resend: { kind: 'retry' } }).exclusions?.replayImportedState).toBeUndefined();
  });
});
