import { describe, expect, it } from 'vitest';
import { pickerModels } from './picker';
import { defaultModelFor, listModels, lookupModel } from './registry';

describe('model picker data (docs/side-panel.md)', () => {
  it.each(['anthropic', 'openai', 'google'])(
    '%s: the default model is a current registry model (not deprecated, not retired)',
    (provider) => {
      const id = defaultModelFor(provider);
      expect(id).toBeDefined();
      const info = lookupModel(id!, provider);
      expect(info.known).toBe(true);
      expect(info.status).toBeUndefined();
      expect(listModels(provider).some((m) => m.id === info.id)).toBe(true);
    },
  );

  it('a provider the registry does not cover has no default model', () => {
    expect(defaultModelFor('custom-abc')).toBeUndefined();
  });

  it("merges the provider's list with the registry: known models first with name, window, price and badges; unknown ids kept; registry-only models marked unlisted", () => {
    const out = pickerModels(
      ['my-finetune', 'claude-haiku-4-5', 'claude-sonnet-4-6', 'claude-sonnet-4-6'],
      'anthropic',
      true,
    );
    const listed = out.filter((m) => m.listed);
    expect(listed.map((m) => m.id)).toEqual(['claude-sonnet-4-6', 'claude-haiku-4-5', 'my-finetune']);
    const sonnet = listed[0]!;
    expect(sonnet).toMatchObject({ name: 'Claude Sonnet 4.6', vision: true, thinking: true, listed: true });
    expect(sonnet.contextWindow).toBe(lookupModel('claude-sonnet-4-6').contextWindow);
    expect(sonnet.price).toEqual({
      input: lookupModel('claude-sonnet-4-6').price!.inputPerMTok,
      output: lookupModel('claude-sonnet-4-6').price!.outputPerMTok,
    });
    expect(listed[2]).toEqual({ id: 'my-finetune', listed: true });
    const extra = out.filter((m) => !m.listed);
    expect(extra.length).toBeGreaterThan(0);
    // Neither a listed model again (by alias or canonical id) nor a deprecated or retired one.
    for (const m of extra) {
      const info = lookupModel(m.id, 'anthropic');
      expect(info.status).toBeUndefined();
      expect(['claude-sonnet-4-6', 'claude-haiku-4-5-20251001']).not.toContain(info.id);
    }
    expect(pickerModels(['a', 'b'], 'custom-x', false)).toEqual([
      { id: 'a', listed: true },
      { id: 'b', listed: true },
    ]);
  });

  it('Gemini models carry their APIs, the default first (a choice in the panel); OpenAI and Anthropic models none', () => {
    const out = pickerModels(['gemini-3.8-flash', 'gemini-4.2-flash'], 'google', false);
    expect(out.find((m) => m.id === 'gemini-3.8-flash')?.apis).toEqual([
      'gemini-generate-content',
      'gemini-interactions',
    ]);
    expect(out.find((m) => m.id === 'gemini-4.2-flash')?.apis).toEqual([
      'gemini-interactions',
      'gemini-generate-content',
    ]);
    for (const m of pickerModels(['gpt-5.5'], 'openai', true)) expect(m.apis, m.id).toBeUndefined();
    for (const m of pickerModels(['claude-sonnet-4-6'], 'anthropic', true)) expect(m.apis, m.id).toBeUndefined();
  });
});
