import { describe, expect, it } from 'vitest';
import type { Connector } from '../messaging/client';
import type { BackgroundEvent, ConversationView, RequestType, Settings } from '../messaging/protocol';
import { ChatModel } from './chat-model';

const settings: Settings = {
  providers: [
    { id: 'openai', name: 'OpenAI', api: 'openai-responses', hasKey: true },
    { id: 'anthropic', name: 'Anthropic', api: 'anthropic-messages', hasKey: true },
  ],
  defaultTarget: { providerId: 'openai', model: 'gpt-5' },
};
const captured: ConversationView = {
  meta: {
    id: 'cap1',
    title: 'Captured',
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    turnCount: 1,
    preview: 'Hi',
    source: { kind: 'chatgpt-web', url: 'https://chatgpt.com/c/1' },
    lastTarget: { providerId: 'anthropic', model: 'claude-sonnet-4-5' },
  },
  turns: [{ id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Hi' }] }],
  busy: false,
};

function rig(pending: unknown) {
  let emit: (e: BackgroundEvent) => void = () => undefined;
  const calls: string[] = [];
  const replies: Partial<Record<RequestType, unknown>> = {
    getSettings: settings,
    listConversations: [],
    listModels: [],
    getConversation: captured,
    takePendingCapture: pending,
  };
  const c: Connector = {
    request: ((type: RequestType) => (calls.push(type), Promise.resolve(replies[type]))) as Connector['request'],
    subscribe: (onEvent) => {
      emit = onEvent;
      return () => undefined;
    },
  };
  const model = new ChatModel(c);
  model.start();
  return { model, calls, emit: (e: BackgroundEvent) => emit(e) };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('ChatModel and context-menu captures (docs/architecture.md#the-background-by-feature)', () => {
  it('on start, a pending capture opens with its chosen target preselected', async () => {
    const r = rig({ conversationId: 'cap1' });
    for (let i = 0; i < 5; i++) await settle();
    expect(r.calls.filter((c) => c !== 'listModels')).toEqual([
      'getSettings',
      'listConversations',
      'takePendingCapture',
      'getConversation',
    ]);
    expect(r.model.state.currentId).toBe('cap1');
    expect(r.model.state.target).toEqual({ providerId: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(r.model.state.turns).toEqual(captured.turns);
  });

  it('a captureReady event opens the conversation; a failed capture shows its error; nothing pending opens nothing', async () => {
    const r = rig(null);
    for (let i = 0; i < 5; i++) await settle();
    expect(r.model.state.currentId).toBeUndefined();
    r.emit({
      type: 'captureReady',
      error: { code: 'not_found', message: 'Baton could not read this page. Reload the page and try again.' },
    });
    // Shown in Baton's own words (docs/side-panel.md): the message is the sentence.
    expect(r.model.state.error).toEqual({
      code: 'not_found',
      message: 'Baton could not read this page. Reload the page and try again.',
      sentence: 'Baton could not read this page. Reload the page and try again.',
    });
    r.emit({ type: 'captureReady', conversationId: 'cap1' });
    for (let i = 0; i < 5; i++) await settle();
    expect(r.model.state.currentId).toBe('cap1');
    expect(r.model.state.target).toEqual({ providerId: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(r.calls.filter((c) => c === 'sendMessage')).toEqual([]);
  });
});
