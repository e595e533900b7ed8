import { describe, it, expect } from 'vitest';
import { apiForModel, defaultModelFor, isRetired, listModels, lookupModel, resolveModelId } from './registry';
import type { ModelInfo } from './types';

describe('resolveModelId', () => {
  it.each([
    ['gpt-5.5', 'gpt-5.5-2026-04-23'], // DESIGN.md
    ['gpt-5.5-2026-04-23', 'gpt-5.5-2026-04-23'],
    ['gpt-5', 'gpt-5-2025-08-07'],
    ['gpt-5.6', 'gpt-5.6-sol'],
    ['gpt-4o', 'gpt-4o-2024-08-06'],
    ['gpt-4o-2024-11-20', 'gpt-4o-2024-08-06'],
    ['o3', 'o3-2025-04-16'],
    ['claude-sonnet-4-5', 'claude-sonnet-4-5-20250929'],
    ['claude-haiku-4-5', 'claude-haiku-4-5-20251001'],
    ['claude-opus-4-0', 'claude-opus-4-20250514'],
    ['claude-3-7-sonnet-latest', 'claude-3-7-sonnet-20250219'],
    ['claude-3-5-haiku-latest', 'claude-3-5-haiku-20241022'],
    ['claude-opus-4-6', 'claude-opus-4-6'],
    ['gemini-2.0-flash-001', 'gemini-2.0-flash'],
    ['mistral-large-latest', 'mistral-large-2512'],
    ['mistral-medium', 'mistral-medium-2604'],
    ['mistral-small', 'mistral-small-2506'],
    ['codestral', 'codestral-2508'],
  ])('%s → %s (listed alias or snapshot)', (id, canonical) => {
    expect(resolveModelId(id)).toBe(canonical);
  });

  it.each([
    ['models/gemini-2.5-flash', 'gemini-2.5-flash'],
    ['claude-sonnet-4-5@20250929', 'claude-sonnet-4-5-20250929'], // Vertex
    ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'claude-sonnet-4-5-20250929'], // Bedrock
    ['anthropic/claude-sonnet-4.5', 'claude-sonnet-4-5-20250929'], // OpenRouter
    ['anthropic/claude-3.7-sonnet:thinking', 'claude-3-7-sonnet-20250219'],
    ['openai/gpt-5', 'gpt-5-2025-08-07'],
    ['google/gemini-3-pro-preview', 'gemini-3-pro-preview'],
    ['gemini-2.5-flash-preview-05-20', 'gemini-2.5-flash'], // unlisted snapshot
    ['gpt-5.2-2026-01-15', 'gpt-5.2-2025-12-11'],
    ['claude-haiku-4-5-20991231', 'claude-haiku-4-5-20251001'],
  ])('%s → %s (normalised spelling)', (id, canonical) => {
    expect(resolveModelId(id)).toBe(canonical);
  });

  it.each(['GPT-5.5', 'Claude-Sonnet-4-5', 'gpt-5.5-turbo', 'no-such-model', ''])('leaves %j unchanged', (id) => {
    expect(resolveModelId(id)).toBe(id);
  });
});

describe('lookupModel on known ids', () => {
  it('returns the whole entry for an alias', () => {
    expect(lookupModel('claude-sonnet-4-5')).toEqual({
      id: 'claude-sonnet-4-5-20250929',
      name: 'Claude Sonnet 4.5',
      aliases: ['claude-sonnet-4-5'],
      provider: 'anthropic',
      apis: ['anthropic-messages'],
      known: true,
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      defaultOutputTokens: 32_768,
      vision: true,
      pdf: true,
      tools: true,
      thinking: 'budget',
      reasoning: false,
      thoughtSignatures: 'none',
      functionResponseParts: false,
      canDisableThinking: false,
      price: { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 },
      endOfLife: '2026-11-30',
      prefill: true,
      systemMessages: false,
      forcedToolUse: true,
    });
  });

  it('returns the same frozen object for every spelling of one model', () => {
    const a = lookupModel('gpt-5.5');
    expect(lookupModel('gpt-5.5-2026-04-23')).toBe(a);
    expect(lookupModel('gpt-5.5', 'openai')).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(Object.isFrozen(a.apis)).toBe(true);
  });

  it('gives an OpenRouter id the underlying capabilities with the provider as given', () => {
    expect(lookupModel('anthropic/claude-sonnet-4.5', 'openrouter')).toEqual({
      ...lookupModel('claude-sonnet-4-5-20250929'),
      provider: 'openrouter',
      apis: ['openai-chat'],
    });
    const g = lookupModel('google/gemini-3-flash-preview', 'openrouter');
    expect([g.id, g.provider, g.thoughtSignatures, g.functionResponseParts]).toEqual([
      'gemini-3-flash-preview',
      'openrouter',
      'enforced',
      true,
    ]);
  });

  it('attributes a vendor/model id to openrouter when no provider is given', () => {
    expect(lookupModel('openai/gpt-5')).toEqual({
      ...lookupModel('gpt-5'),
      provider: 'openrouter',
      apis: ['openai-chat'],
    });
  });

  it('keeps a registered slash id (Groq) with its own provider', () => {
    const m = lookupModel('openai/gpt-oss-120b', 'groq');
    expect([m.id, m.provider, m.known, m.thinking]).toEqual(['openai/gpt-oss-120b', 'groq', true, 'effort']);
  });

  it('marks the reasoning controls of OpenAI models', () => {
    const pick = (id: string) => {
      const m = lookupModel(id);
      return [m.reasoning, m.thinking, m.minReasoningEffort, m.thinkingAlwaysOn ?? false];
    };
    expect(pick('gpt-5')).toEqual([true, 'effort', 'minimal', true]);
    expect(pick('gpt-5-mini')).toEqual([true, 'effort', 'minimal', true]);
    expect(pick('gpt-5.1')).toEqual([true, 'effort', 'none', false]);
    expect(pick('gpt-5.5')).toEqual([true, 'effort', 'none', false]);
    expect(pick('gpt-6.2-sol')).toEqual([true, 'effort', 'low', true]);
    expect(pick('o3')).toEqual([true, 'effort', 'low', true]);
    expect(pick('o4-mini')).toEqual([true, 'effort', 'low', true]);
    expect(pick('gpt-4.1')).toEqual([false, 'none', undefined, false]);
    expect(pick('gpt-4o-mini')).toEqual([false, 'none', undefined, false]);
  });

  it('marks Anthropic thinking: adaptive from Opus/Sonnet 4.6, budget before, none on 3.5 Haiku', () => {
    const pick = (id: string) => [lookupModel(id).thinking, lookupModel(id).thinkingAlwaysOn ?? false];
    expect(pick('claude-opus-5-5')).toEqual(['adaptive', true]);
    expect(pick('claude-fable-5-1')).toEqual(['adaptive', true]);
    expect(pick('claude-sonnet-5')).toEqual(['adaptive', false]);
    expect(pick('claude-opus-4-6')).toEqual(['adaptive', false]);
    expect(pick('claude-sonnet-4-6')).toEqual(['adaptive', false]);
    expect(pick('claude-opus-4-5')).toEqual(['budget', false]);
    expect(pick('claude-haiku-4-5')).toEqual(['budget', false]);
    expect(pick('claude-3-7-sonnet-latest')).toEqual(['budget', false]);
    expect(pick('claude-3-5-haiku-latest')).toEqual(['none', false]);
  });

  it('sets the Gemini signature, function-response and thinking flags by generation (G-K1, G-I3)', () => {
    const pick = (id: string) => {
      const m = lookupModel(id);
      return [m.thoughtSignatures, m.functionResponseParts, m.thinking, m.canDisableThinking];
    };
    for (const id of [
      'gemini-3-pro-preview',
      'gemini-3-flash-preview',
      'gemini-3.1-pro-preview',
      'gemini-3.1-flash-lite',
      'gemini-3.8-flash',
    ]) {
      expect(pick(id), id).toEqual(['enforced', true, 'level', false]);
    }
    expect(pick('gemini-2.5-pro')).toEqual(['optional', false, 'budget', false]);
    expect(pick('gemini-2.5-flash')).toEqual(['optional', false, 'budget', true]);
    expect(pick('models/gemini-2.5-flash-lite')).toEqual(['optional', false, 'budget', true]);
    expect(pick('gemini-2.0-flash')).toEqual(['none', false, 'none', false]);
  });

  it('knows every model the brief names', () => {
    const required = [
      'claude-opus-4-5',
      'claude-opus-4-6',
      'claude-sonnet-4-0',
      'claude-sonnet-4-5',
      'claude-sonnet-4-6',
      'claude-haiku-4-5',
      'claude-3-7-sonnet-latest',
      'claude-3-5-haiku-latest',
      'gpt-5.5',
      'gpt-5',
      'gpt-5-mini',
      'gpt-5-nano',
      'gpt-5.1',
      'gpt-5.2',
      'gpt-5.4',
      'gpt-4.1',
      'gpt-4.1-mini',
      'gpt-4o',
      'gpt-4o-mini',
      'o3',
      'o4-mini',
      'gemini-2.5-pro',
      'gemini-2.5-flash',
      'gemini-2.5-flash-lite',
      'gemini-3-pro-preview',
      'gemini-3-flash-preview',
      'gemini-2.0-flash',
      'deepseek-chat',
      'deepseek-reasoner',
      'mistral-large-latest',
      'mistral-medium',
      'mistral-small',
      'codestral',
      'llama-3.3-70b-versatile',
      'openai/gpt-oss-120b',
    ];
    expect(required.filter((id) => !lookupModel(id).known)).toEqual([]);
  });
});

describe('listModels', () => {
  it('filters by provider and leaves retired models out unless asked', () => {
    expect(listModels('groq').map((m) => m.id)).toEqual(['llama-3.3-70b-versatile', 'openai/gpt-oss-120b']);
    expect(listModels('deepseek').map((m) => m.id)).toEqual(['deepseek-v4-pro', 'deepseek-v4-flash']);
    expect(listModels('deepseek', { includeRetired: true }).map((m) => m.id)).toEqual([
      'deepseek-v4-pro',
      'deepseek-v4-flash',
      'deepseek-chat',
      'deepseek-reasoner',
    ]);
    expect(listModels('openrouter')).toEqual([]);
    expect(listModels().every((m) => m.status !== 'retired')).toBe(true);
  });
});

const ALL = listModels(undefined, { includeRetired: true });
const PROVIDERS = ['anthropic', 'openai', 'google', 'deepseek', 'mistral', 'groq'];

describe.each(ALL.map((m): [string, ModelInfo] => [m.id, m]))('entry %s', (id, m) => {
  it('is internally consistent', () => {
    expect(m.known).toBe(true);
    expect(PROVIDERS).toContain(m.provider);
    expect(m.name).toBeTruthy();
    expect(m.apis.length).toBeGreaterThan(0);
    for (const n of [m.contextWindow, m.maxOutputTokens, m.defaultOutputTokens])
      expect(Number.isInteger(n) && n > 0).toBe(true);
    expect(m.defaultOutputTokens).toBeLessThanOrEqual(m.maxOutputTokens);
    expect(m.maxOutputTokens).toBeLessThan(m.contextWindow);
    expect(m.defaultOutputTokens).toBe(Math.min(m.maxOutputTokens, m.thinking === 'none' ? 16_384 : 32_768));
  });

  it('has sane prices', () => {
    for (const price of [m.price, m.longContextPrice]) {
      if (!price) continue;
      for (const v of Object.values(price)) expect(Number.isFinite(v) && v >= 0).toBe(true);
      expect(price.cacheReadPerMTok ?? 0).toBeLessThanOrEqual(price.inputPerMTok);
    }
    if (m.longContextPrice) {
      expect(m.price).toBeDefined();
      expect(m.longContextPrice.thresholdInputTokens).toBeLessThan(m.contextWindow);
      expect(m.longContextPrice.inputPerMTok).toBeGreaterThanOrEqual(m.price?.inputPerMTok ?? Infinity);
    }
  });

  it('has coherent thinking flags', () => {
    if (m.thinking === 'none') {
      expect([m.reasoning, m.thinkingAlwaysOn ?? false, m.canDisableThinking, m.minReasoningEffort]).toEqual([
        false,
        false,
        false,
        undefined,
      ]);
    }
    if (m.reasoning) expect(m.thinking).toBe('effort');
    const gemini3 = /^gemini-3/.test(id);
    expect(m.thoughtSignatures === 'enforced').toBe(gemini3);
    expect(m.functionResponseParts).toBe(gemini3);
  });

  it('resolves from its id and every alias to itself', () => {
    expect(lookupModel(id)).toBe(m);
    for (const alias of m.aliases ?? []) expect(resolveModelId(alias)).toBe(id);
  });
});

describe('2026 rules in the registry (OpenAI C-T9, C-S1, R-K9; Gemini G-G1)', () => {
  const facts = (id: string) => {
    const m = lookupModel(id);
    return [m.chatTools, m.samplingNeedsEffortNone ?? false, m.instructionsAfterInput ?? false, m.minReasoningEffort];
  };
  it('C-T9: which models take tools with an effort on Chat, only with effort none, or only on Responses', () => {
    expect(facts('gpt-5.2')).toEqual([undefined, false, false, 'none']);
    expect(facts('gpt-5.4')).toEqual(['effort-none', true, false, 'none']);
    expect(facts('gpt-5.6')).toEqual(['effort-none', true, false, 'none']);
    expect(facts('gpt-6-sol')).toEqual(['effort-none', true, false, 'none']);
    expect(facts('gpt-6-astra')).toEqual(['responses', true, false, 'low']);
    expect(facts('gpt-6.1-sol')).toEqual(['responses', true, false, 'low']);
    expect(facts('gpt-6.2-astra')).toEqual(['responses', true, true, 'low']);
  });
  it('C-S1: a model that refuses effort none never lists it as its lowest effort, and every effort-none tool model accepts none', () => {
    for (const m of listModels('openai', { includeRetired: true })) {
      if (m.chatTools === 'effort-none') expect(m.minReasoningEffort, m.id).toBe('none');
      if (m.chatTools === 'responses') expect(m.minReasoningEffort, m.id).not.toBe('none');
    }
  });
  it('G-G1: Gemini 3.5+ models list thinking levels, lowest first; older ones none', () => {
    for (const id of ['gemini-3.5-flash', 'gemini-3.7-flash', 'gemini-3.8-flash'])
      expect(lookupModel(id).thinkingLevels).toEqual(['MINIMAL', 'LOW', 'MEDIUM', 'HIGH']);
    for (const id of ['gemini-3-pro-preview', 'gemini-3.1-pro-preview', 'gemini-2.5-flash'])
      expect(lookupModel(id).thinkingLevels).toBeUndefined();
  });
});

describe('end of life', () => {
  const TODAY = new Date('2026-12-01T12:00:00Z');
  it('a model is retired on and after its endOfLife date', () => {
    const flash = lookupModel('gemini-2.5-flash');
    expect(flash.endOfLife).toBe('2026-12-01');
    expect(isRetired(flash, new Date('2026-11-30T23:59:59Z'))).toBe(false);
    expect(isRetired(flash, TODAY)).toBe(true);
    expect(listModels('google', { today: TODAY }).map((m) => m.id)).not.toContain('gemini-2.5-flash');
    expect(listModels('google', { today: new Date('2026-06-01T00:00:00Z') }).map((m) => m.id)).toContain(
      'gemini-2.5-flash',
    );
  });
  it('the default model (defaultModelFor) is never past its end of life, deprecated or retired: today, and on and the day before every listed date', () => {
    const dates = [...new Set(ALL.flatMap((m) => (m.endOfLife ? [m.endOfLife] : [])))].sort();
    const clocks = [
      TODAY,
      ...dates.flatMap((d) => {
        const on = new Date(`${d}T00:00:00Z`);
        return [new Date(on.getTime() - 1), on];
      }),
    ];
    for (const provider of ['anthropic', 'openai', 'google', 'deepseek', 'mistral'])
      for (const clock of clocks) {
        const id = defaultModelFor(provider, clock);
        const at = `${provider} on ${clock.toISOString()}: ${id}`;
        expect(id, at).toBeDefined();
        const info = lookupModel(id!, provider);
        expect(info.known, at).toBe(true);
        expect(info.status, at).toBeUndefined();
        expect(isRetired(info, clock), at).toBe(false);
      }
  });
  it('the default model is the newest current entry of the balanced tier, else the newest current entry', () => {
    expect(defaultModelFor('google', TODAY)).toBe('gemini-3.8-flash');
    expect(defaultModelFor('anthropic', TODAY)).toMatch(/^claude-sonnet-/);
    expect(defaultModelFor('openai', TODAY)).toMatch(/^gpt-\d/);
    // No balanced tier: the provider's newest current entry.
    expect(defaultModelFor('deepseek', TODAY)).toBe(listModels('deepseek', { today: TODAY })[0]!.id);
    // A provider without registry entries names its own model.
    expect(defaultModelFor('openrouter', TODAY)).toBeUndefined();
    expect(defaultModelFor('custom-abc', TODAY)).toBeUndefined();
  });
  it('every endOfLife is an ISO date', () => {
    for (const m of ALL) if (m.endOfLife !== undefined) expect(m.endOfLife, m.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('apiForModel: which Gemini API reaches which model', () => {
  it('the registry’s Gemini models default to generateContent and are also served by Interactions', () => {
    for (const m of listModels('google'))
      expect(m.apis, m.id).toEqual(['gemini-generate-content', 'gemini-interactions']);
    expect(apiForModel('gemini-3.8-flash', 'google')).toBe('gemini-generate-content');
    expect(apiForModel('gemini-3.8-flash', 'google', 'gemini-interactions')).toBe('gemini-interactions');
    expect(apiForModel('gemini-2.5-pro', 'google', 'gemini-interactions')).toBe('gemini-interactions');
  });
  it('a new (unknown) Gemini model defaults to Interactions; generateContent can still be chosen', () => {
    expect(lookupModel('gemini-4.2-flash', 'google').apis).toEqual(['gemini-interactions', 'gemini-generate-content']);
    expect(apiForModel('gemini-4.2-flash', 'google')).toBe('gemini-interactions');
    expect(apiForModel('gemini-4.2-flash', 'google', 'gemini-generate-content')).toBe('gemini-generate-content');
  });
  it('an API that does not serve the model is not used: the model’s default instead', () => {
    expect(apiForModel('gemini-2.0-flash', 'google', 'gemini-interactions')).toBe('gemini-generate-content');
    expect(apiForModel('claude-sonnet-4-5', 'anthropic', 'gemini-interactions')).toBe('anthropic-messages');
    expect(apiForModel('gpt-5.5', 'openai')).toBe('openai-responses');
  });
  it('no API for a provider the registry does not speak for (a custom endpoint names its own)', () => {
    expect(apiForModel('llama3', 'custom-local')).toBeUndefined();
  });
});
