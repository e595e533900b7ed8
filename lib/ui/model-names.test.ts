/** Model ids as people read them, in each provider's own spelling (docs/side-panel.md). */
import { describe, expect, it } from 'vitest';
import { modelDisplayName, originDisplayName } from './model-names';

describe('modelDisplayName', () => {
  it.each([
    ['claude-sonnet-4-20250514', 'Claude Sonnet 4'],
    ['claude-sonnet-4-5-20250929', 'Claude Sonnet 4.5'],
    ['claude-opus-4-1', 'Claude Opus 4.1'],
    ['claude-3-5-haiku-latest', 'Claude 3.5 Haiku'],
    ['claude-3-7-sonnet-20250219', 'Claude 3.7 Sonnet'],
    ['us.anthropic.claude-3-7-sonnet-20250219-v1:0', 'Claude 3.7 Sonnet'],
    ['claude-opus-4-1@20250805', 'Claude Opus 4.1'],
    ['anthropic/claude-sonnet-4.5', 'Claude Sonnet 4.5'],
    ['gpt-4o', 'GPT-4o'],
    ['gpt-4o-mini-2024-07-18', 'GPT-4o mini'],
    ['gpt-4.1-nano', 'GPT-4.1 nano'],
    ['gpt-5.5', 'GPT-5.5'],
    ['openai/gpt-5', 'GPT-5'],
    ['o3', 'o3'],
    ['o4-mini', 'o4-mini'],
    ['gemini-2.5-pro', 'Gemini 2.5 Pro'],
    ['models/gemini-2.5-flash-lite', 'Gemini 2.5 Flash-Lite'],
    ['gemini-3-pro-preview', 'Gemini 3 Pro Preview'],
    ['llama3.1:8b', 'llama3.1:8b'],
    ['deepseek-chat', 'deepseek-chat'],
  ])('%s → %s', (id, name) => {
    expect(modelDisplayName(id)).toBe(name);
  });
});

describe('originDisplayName', () => {
  const providers = [
    { id: 'anthropic', name: 'Anthropic' },
    { id: 'my-proxy', name: 'Team proxy' },
  ];
  it('puts the model first and the provider by name, never an internal id', () => {
    expect(
      originDisplayName(
        { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-20250514' },
        providers,
      ),
    ).toBe('Claude Sonnet 4 · Anthropic');
    expect(originDisplayName({ provider: 'my-proxy', api: 'openai-chat', model: 'gpt-4o' }, providers)).toBe(
      'GPT-4o · Team proxy',
    );
    // A provider no longer configured still reads as its name.
    expect(originDisplayName({ provider: 'openai', api: 'openai-responses', model: 'gpt-5' }, providers)).toBe(
      'GPT-5 · OpenAI',
    );
  });

  it('names chat-site captures by the site, with the model only when the site said which', () => {
    expect(originDisplayName({ provider: 'chatgpt-web', api: 'web', model: 'chatgpt' }, providers)).toBe(
      'ChatGPT (web)',
    );
    expect(originDisplayName({ provider: 'claude-web', api: 'web', model: 'claude' }, providers)).toBe('Claude (web)');
    expect(originDisplayName({ provider: 'chatgpt-web', api: 'web', model: 'gpt-4' }, providers)).toBe(
      'GPT-4 · ChatGPT (web)',
    );
  });
});
