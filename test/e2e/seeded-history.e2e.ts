/**
 * Scenario 3: conversations holding tool calls, thinking from three providers, images and
 * documents — seeded through the test build's worker hook (`globalThis.batonReady` → store) from
 * the neutral fixtures — continue on OpenAI, then Anthropic, then Gemini through the side panel,
 * every request valid and carrying the seeded calls, results and media in native form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationStore } from '../../lib/store/conversations';
import type { Transcript } from '../../lib/transcript/schema';
import { loadNeutralTranscript } from '../fixtures/transcripts';
import { expectKeysOnlyToTheirOrigins, expectValid, findKeyMaterial, posts } from './fakes';
import { waitFor, type ExtensionBrowser } from './harness';
import { storedTurns } from './pages';
import { openPanelSession, type PanelSession } from './panel-kit';
import { HAS_CHROMIUM, warnIfNoChromium } from './paths';

warnIfNoChromium('seeded-history.e2e.ts');

/** The fixture without its trailing user turn (the test sends the next user message itself). */
function seedOf(name: string): Transcript {
  const t = loadNeutralTranscript(name);
  const turns = t.turns.at(-1)?.role === 'user' ? t.turns.slice(0, -1) : t.turns;
  return { ...t, id: `seed-${name}`, turns };
}

/** Writes `t` into the store the way the background does (one transaction per turn). */
async function seed(browser: ExtensionBrowser, t: Transcript): Promise<void> {
  await browser.evalInWorker(async (t) => {
    const { store } = await (globalThis as unknown as { batonReady: Promise<{ store: ConversationStore }> }).batonReady;
    const now = new Date().toISOString();
    await store.create({
      id: t.id!,
      title: `Seeded ${t.id}`,
      now,
      ...(t.system !== undefined ? { system: t.system } : {}),
      ...(t.tools ? { tools: t.tools } : {}),
    });
    for (const turn of t.turns) await store.appendTurn(t.id!, turn, now);
  }, t);
}

const json = (v: unknown) => JSON.stringify(v);
const STEPS = [
  { providerId: 'openai', model: 'gpt-5.5', api: 'openai-responses' },
  { providerId: 'anthropic', model: 'claude-sonnet-4-6', api: 'anthropic-messages' },
  { providerId: 'google', model: 'gemini-3-pro-preview', api: 'gemini-generate-content' },
] as const;

describe.skipIf(!HAS_CHROMIUM)('seeded conversations with tools, thinking and media continue on every provider', () => {
  let s: PanelSession;

  beforeAll(async () => {
    s = await openPanelSession(undefined, {
      // Seeded before the panel opens, so it lists them when it loads.
      beforePanel: async ({ browser }) => {
        await seed(browser, seedOf('mixed-origins'));
        await seed(browser, seedOf('images-and-documents'));
      },
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Opens the seeded conversation and continues it on each provider in turn; returns each step's request body as JSON. */
  async function continueOnEachProvider(name: string): Promise<Record<string, string>> {
    const t = seedOf(name);
    await s.panel.openConversation(t.id);
    await waitFor('the seeded turns', async () => (await s.panel.turns().count()) === t.turns.length);
    const seededAnswers = t.turns.filter((x) => x.role === 'assistant').length;
    const bodies: Record<string, string> = {};
    for (const [i, step] of STEPS.entries()) {
      const fake = s.fakes[step.providerId];
      const before = posts(fake).length;
      await s.panel.choose(step.providerId, step.model);
      await s.panel.send(`Continue on ${step.providerId}, please.`);
      expect(await s.panel.waitForAnswer(seededAnswers + i + 1), `${name} on ${step.providerId}`).toBe('complete');
      const sent = posts(fake).slice(before);
      expect(sent.map((r) => r.api)).toEqual([step.api]);
      expectValid(sent[0]!);
      bodies[step.providerId] = json(sent[0]!.body);
    }
    const stored = await storedTurns(s.page, t.id!);
    expect(stored.map((x) => x.id).slice(0, t.turns.length)).toEqual(t.turns.map((x) => x.id));
    expect(stored.slice(t.turns.length).map((x) => `${x.role}:${x.status ?? 'complete'}`)).toEqual(
      Array.from({ length: 3 }, () => ['user:complete', 'assistant:complete']).flat(),
    );
    return bodies;
  }

  it('mixed origins (OpenAI, Anthropic and Gemini thinking, tool calls and results, a web answer): valid native requests', async () => {
    const b = await continueOnEachProvider('mixed-origins');
    // Tool calls and their results travel natively on every target (X1, G-K4: not flattened to text).
    expect(b.openai).toContain('"type":"function_call"');
    expect(b.openai).toContain('"type":"function_call_output"');
    expect(b.anthropic).toContain('"type":"tool_use"');
    expect(b.anthropic).toContain('"type":"tool_result"');
    expect(b.google).toContain('"functionCall"');
    expect(b.google).toContain('"functionResponse"');
  });

  it('images and documents: valid native requests with the media inline on every target', async () => {
    const b = await continueOnEachProvider('images-and-documents');
    // The seeded PNG and PDF travel as base64 data on every target.
    const blocks = seedOf('images-and-documents').turns[0]!.blocks;
    const png = blocks.find((x) => x.type === 'image' && 'data' in x && x.data) as { data: string };
    const pdf = blocks.find((x) => x.type === 'document' && x.mediaType === 'application/pdf') as { data: string };
    for (const body of Object.values(b)) {
      expect(body).toContain(png.data);
      expect(body).toContain(pdf.data);
    }
    expect(b.openai).toContain('"type":"input_image"');
    expect(b.anthropic).toContain('"type":"image"');
    expect(b.anthropic).toContain('"type":"document"');
    expect(b.google).toMatch(/"inlineData"|"fileData"/);
    expect(b.anthropic).toContain('"type":"tool_use"');
  });

  it('N2 and S4: keys only to their own origins; no key material in the console', async () => {
    expect(expectKeysOnlyToTheirOrigins(s.fakes)).toBeGreaterThanOrEqual(6);
    expect(findKeyMaterial((await s.browser.capturedLogs(s.page)).join('\n'))).toEqual([]);
  });
});
