import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Connector } from '../messaging/client';
import type { BackgroundEvent, ConversationView, RequestType, Settings } from '../messaging/protocol';
import { ChatModel } from './chat-model';

const settings: Settings = {
  providers: [{ id: 'openai', name: 'OpenAI', api: 'openai-responses', hasKey: true }],
  defaultTarget: { providerId: 'openai', model: 'gpt-5' },
};
const view = (busy: boolean): ConversationView => ({
  meta: {
    id: 'c1',
    title: 't',
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    turnCount: 2,
    preview: '',
  },
  turns: [
    { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'q' }] },
    {
      id: 'a1',
      role: 'assistant',
      origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5' },
      status: 'streaming',
      blocks: [],
    },
  ],
  busy,
});

/** A connector whose getConversation can be made to hang, as a background that is still starting. */
function connector() {
  let reconnect: () => void = () => undefined;
  let emit: (e: BackgroundEvent) => void = () => undefined;
  let hang = false;
  const replies: Partial<Record<RequestType, unknown>> = {
    getSettings: settings,
    listConversations: [view(true).meta],
    listModels: [],
  };
  const c: Connector = {
    request: ((type: RequestType) => {
      if (type === 'getConversation') return hang ? new Promise(() => undefined) : Promise.resolve(view(true));
      return Promise.resolve(replies[type]);
    }) as Connector['request'],
    subscribe: (onEvent, onReconnect) => {
      emit = onEvent;
      reconnect = onReconnect ?? (() => undefined);
      return () => undefined;
    },
  };
  return { c, reconnect: () => reconnect(), emit: (e: BackgroundEvent) => emit(e), hangNext: () => (hang = true) };
}

afterEach(() => void vi.useRealTimers());

describe('ChatModel after a reconnect (L2)', () => {
  it('stops showing an answer in flight when the background does not answer within the timeout', async () => {
    vi.useFakeTimers();
    const k = connector();
    const model = new ChatModel(k.c, 4000);
    model.start();
    await vi.runAllTimersAsync();
    await model.open('c1');
    expect(model.state.busy).toBe(true);
    k.hangNext();
    k.reconnect();
    await vi.advanceTimersByTimeAsync(3999);
    expect(model.state.busy).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(model.state).toMatchObject({ busy: false, phase: 'idle' });
  });

  it('sendStateChanged idle with an error keeps the error through the second idle', async () => {
    const k = connector();
    const model = new ChatModel(k.c);
    model.start();
    await model.open('c1');
    k.emit({
      type: 'sendStateChanged',
      conversationId: 'c1',
      state: 'idle',
      error: { code: 'overloaded', message: 'busy', retryAfterSec: 5 },
    });
    k.emit({ type: 'sendStateChanged', conversationId: 'c1', state: 'idle' });
    expect(model.state).toMatchObject({
      busy: false,
      answerError: { code: 'overloaded', message: 'busy', retryAfterSec: 5 },
    });
    // events of other conversations do not touch the open one
    k.emit({ type: 'sendStateChanged', conversationId: 'other', state: 'sending' });
    expect(model.state.busy).toBe(false);
  });
});
