// @vitest-environment happy-dom
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMeta, OnDeviceStart } from '../../lib/messaging/protocol';
import type { Turn } from '../../lib/transcript/schema';
import { appendChunk, onDeviceLanguage } from '../../lib/ui/on-device';
import { mockConnector, sampleSettings, type MockConnector } from '../testing/mock-connector';
import { SidePanel } from './side-panel';

const g = globalThis as { LanguageModel?: unknown };
afterEach(() => {
  cleanup();
  delete g.LanguageModel;
});

const META: ConversationMeta = {
  id: 'c1',
  title: 'New chat',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  turnCount: 0,
  preview: '',
};

/** A fake Prompt API: records what it was given and streams `chunks` (a gate holds the stream until released). */
function fakePromptApi(availability: string, chunks: string[] = [], failWith?: Error) {
  const seen: { initialPrompts?: unknown; prompt?: string; destroyed: boolean } = { destroyed: false };
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  g.LanguageModel = {
    availability: async () => availability,
    create: async (opts: { initialPrompts?: unknown }) => {
      seen.initialPrompts = opts.initialPrompts;
      return {
        promptStreaming: (prompt: string, o: { signal?: AbortSignal }) => {
          seen.prompt = prompt;
          return (async function* () {
            for (const c of chunks) {
              yield c;
              if (c === chunks[0])
                await Promise.race([
                  gate,
                  new Promise((_, rej) =>
                    o.signal?.addEventListener('abort', () => rej(new DOMException('aborted', 'AbortError'))),
                  ),
                ]);
            }
            if (failWith) throw failWith;
          })();
        },
        destroy: () => void (seen.destroyed = true),
      };
    },
  };
  return { seen, release: () => release() };
}

function setup(noKeys = true): MockConnector {
  const settings = sampleSettings();
  const user: Turn = { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Hi there' }] };
  const answerTurn: Turn = {
    id: 'a1',
    role: 'assistant',
    origin: { provider: 'chrome', api: 'chrome-prompt', model: 'gemini-nano' },
    status: 'streaming',
    blocks: [],
  };
  const start: OnDeviceStart = {
    userTurn: user,
    answerTurn,
    meta: { ...META, turnCount: 2 },
    body: { initialPrompts: [{ role: 'system', content: 'Be brief.' }], prompt: 'Hi there' },
    warnings: [],
  };
  return mockConnector({
    getSettings: () => (noKeys ? { providers: settings.providers.map((p) => ({ ...p, hasKey: false })) } : settings),
    listConversations: () => [],
    listModels: () => [],
    getModelInfo: () => ({ vision: true, pdf: true, contextWindow: 1, known: true }),
    createConversation: () => META,
    startOnDevice: () => start,
    saveOnDeviceAnswer: ({ text }) => ({ ...META, preview: text }),
  });
}

const turn = (id: string) => document.querySelector(`[data-turn-id="${id}"]`) as HTMLElement | null;

describe('the on-device provider (Prompt API in the page)', () => {
  it('is offered when the Prompt API is available, needs no key, and streams the answer on the device', async () => {
    const api = fakePromptApi('available', ['Hello', ' from **Nano**.']);
    const m = setup();
    render(<SidePanel connector={m.connector} />);
    const provider = (await screen.findByLabelText('Provider')) as HTMLSelectElement;
    expect([...provider.options].map((o) => [o.value, o.textContent])).toEqual([['on-device', 'On-device (no key)']]);
    expect((screen.getByLabelText('Model') as HTMLInputElement).value).toBe('gemini-nano');
    expect(screen.getByText("Chrome's built-in model answers on this device: nothing is sent anywhere.")).toBeTruthy();

    fireEvent.input(screen.getByLabelText('Message'), { target: { value: 'Hi there' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(turn('a1')?.textContent).toContain('Hello'));
    expect(turn('a1')!.dataset.status).toBe('streaming');
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    api.release();
    await waitFor(() => expect(turn('a1')!.dataset.status).toBe('complete'));
    expect(turn('a1')!.querySelector('strong')!.textContent).toBe('Nano');
    expect(turn('a1')!.querySelector('.turn-origin')!.textContent).toBe('Gemini Nano · On-device');
    expect(m.callsOf('createConversation')).toEqual([{}]);
    expect(m.callsOf('startOnDevice')).toEqual([{ conversationId: 'c1', text: 'Hi there' }]);
    expect(api.seen).toEqual({
      initialPrompts: [{ role: 'system', content: 'Be brief.' }],
      prompt: 'Hi there',
      destroyed: true,
    });
    expect(m.callsOf('saveOnDeviceAnswer').at(-1)).toEqual({
      conversationId: 'c1',
      turnId: 'a1',
      text: 'Hello from **Nano**.',
      status: 'complete',
    });
    // nothing went to a provider
    expect(m.callsOf('sendMessage')).toEqual([]);
  });

  it('Stop aborts the answer and keeps the partial text as stopped', async () => {
    fakePromptApi('available', ['Partial', ' never']);
    const m = setup();
    render(<SidePanel connector={m.connector} />);
    await screen.findByLabelText('Provider');
    fireEvent.input(screen.getByLabelText('Message'), { target: { value: 'Hi there' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(turn('a1')?.textContent).toContain('Partial'));
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(turn('a1')!.dataset.status).toBe('stopped'));
    expect(m.callsOf('saveOnDeviceAnswer').at(-1)).toEqual({
      conversationId: 'c1',
      turnId: 'a1',
      text: 'Partial',
      status: 'stopped',
    });
  });

  it('a failure of the model is an error state with its reason, saved', async () => {
    fakePromptApi('available', [], new DOMException('The model is not ready', 'NotAllowedError'));
    const m = setup();
    render(<SidePanel connector={m.connector} />);
    await screen.findByLabelText('Provider');
    fireEvent.input(screen.getByLabelText('Message'), { target: { value: 'Hi there' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Details: NotAllowedError: The model is not ready');
    expect(turn('a1')!.dataset.status).toBe('error');
    expect(m.callsOf('saveOnDeviceAnswer').at(-1)).toEqual({
      conversationId: 'c1',
      turnId: 'a1',
      text: '',
      status: 'error',
      error: 'NotAllowedError: The model is not ready',
    });
  });

  it('is not offered when the Prompt API is missing or unavailable', async () => {
    for (const install of [() => undefined, () => fakePromptApi('unavailable')]) {
      install();
      render(<SidePanel connector={setup(false).connector} />);
      const provider = (await screen.findByLabelText('Provider')) as HTMLSelectElement;
      await waitFor(() => expect([...provider.options].map((o) => o.value)).toEqual(['openai', 'anthropic']));
      // the check has finished (it is awaited with the first reload), and still no on-device entry
      await new Promise((r) => setTimeout(r, 30));
      expect([...provider.options].map((o) => o.value)).toEqual(['openai', 'anthropic']);
      cleanup();
      delete g.LanguageModel;
    }
  });

  it('joins streamed chunks given as deltas or as the whole text so far', () => {
    expect(['Hel', 'lo', ' you'].reduce(appendChunk, '')).toBe('Hello you');
    expect(['Hel', 'Hello', 'Hello you'].reduce(appendChunk, '')).toBe('Hello you');
  });

  it('names an output language the model supports (the browser language, else English)', () => {
    expect([
      onDeviceLanguage(['fr-CA', 'en']),
      onDeviceLanguage(['pt-BR', 'ja']),
      onDeviceLanguage(['nl']),
      onDeviceLanguage([]),
    ]).toEqual(['fr', 'ja', 'en', 'en']);
  });
});

describe('the options page explains the on-device model', () => {
  it('says when it is unavailable, and when it can be used', async () => {
    const { OnDeviceNote } = await import('../options/on-device-note');
    const { container, rerender } = render(<OnDeviceNote api={undefined} />);
    await waitFor(() =>
      expect(container.querySelector('[data-on-device]')!.getAttribute('data-on-device')).toBe('unavailable'),
    );
    expect(container.textContent).toContain(
      'is not available in this browser, so the side panel does not offer an “On-device” provider',
    );
    fakePromptApi('downloadable');
    rerender(<OnDeviceNote api={g.LanguageModel as never} />);
    await waitFor(() =>
      expect(container.querySelector('[data-on-device]')!.getAttribute('data-on-device')).toBe('downloadable'),
    );
    expect(container.textContent).toContain('the first message to it starts the download');
  });
});
