import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatonDb } from '../../store/db';
import type { Turn } from '../../transcript/schema';
import { createTestBackground } from '../background.test-helper';

let db: BatonDb | undefined;
afterEach(() => db?.close());
const NOW = '2026-12-01T10:00:00.000Z';

describe('Markdown export names a custom endpoint by its name (docs/side-panel.md, item 8)', () => {
  it("an answer from a custom endpoint is headed with the endpoint's name, not its internal id; built-ins keep theirs", async () => {
    // The endpoints are saved in the settings, and createHandlers gives the transfer handlers their names.
    const bg = await createTestBackground(undefined, { name: 'export-names-test', conversation: false });
    db = bg.db;
    const { store, h } = bg;
    const endpoints = [
      { id: 'custom-3f9a', name: 'Local Ollama', baseUrl: 'http://localhost:11434/v1', flavor: 'ollama' as const },
      {
        id: 'custom-77',
        name: 'My OpenRouter',
        baseUrl: 'https://openrouter.ai/api/v1',
        flavor: 'openrouter' as const,
      },
    ];
    await bg.settings.update((s) => ({ ...s, endpoints }));
    await store.create({ id: 'c', now: NOW, title: 'Local run' });
    // Three exchanges: a question, then an answer from a custom endpoint, OpenRouter and Anthropic.
    const exchanges: [string, string, Turn['origin']][] = [
      [
        'Hi',
        'Hello.',
        { provider: 'custom-3f9a', api: 'openai-chat', model: 'llama3.2', endpoint: 'http://localhost:11434' },
      ],
      [
        'And you?',
        'Fine.',
        { provider: 'openrouter', api: 'openai-chat', model: 'qwen3', endpoint: 'https://openrouter.ai' },
      ],
      ['Bye', 'Bye.', { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' }],
    ];
    for (const [i, [question, answer, origin]] of exchanges.entries()) {
      await store.appendTurn(
        'c',
        { id: `u${i}`, role: 'user', createdAt: NOW, blocks: [{ type: 'text', text: question }] },
        NOW,
      );
      await store.appendTurn(
        'c',
        { id: `a${i}`, role: 'assistant', createdAt: NOW, origin, blocks: [{ type: 'text', text: answer }] },
        NOW,
      );
    }
    const one = (await h.exportConversation({ id: 'c', format: 'markdown' }, 'extension')).content;
    expect(one).toContain('## Assistant · llama3.2 (Local Ollama)');
    expect(one).toContain('## Assistant · qwen3 (My OpenRouter)');
    expect(one).toContain('## Assistant · claude-sonnet-4-5 (anthropic)');
    expect(one).not.toContain('custom-3f9a');
    const all = (await h.exportAll({ format: 'markdown' }, 'extension')).content;
    expect(all).toContain('## Assistant · llama3.2 (Local Ollama)');
  });
});
