/**
 * The fake providers' rich answers for trying Baton by hand (docs/side-panel.md, item 7), read back by the
 * real SDKs: Markdown with headings, a list, a table, code and math; thinking where asked; tool
 * calls when tools are defined; slow mode; the models the real endpoints list. The tests'
 * default short answer is unchanged when `rich` is off.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lookupModel } from '../../lib/models/registry';
import { INTERACTIVE_MODELS } from './model-lists';
import { RICH_DELAY_MS, richReply } from './rich';
import { startFakeProviders } from './server';
import {
  ANTHROPIC_BODY,
  anthropicClient,
  CHAT_BODY,
  GEMINI_CONTENTS,
  geminiClient,
  openaiClient,
  RESPONSES_BODY,
} from './sdk-clients.test-helper';
import type { FakeProviders } from './types';

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders({ rich: true, models: INTERACTIVE_MODELS });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const RICH = ['## A rich answer', '| Provider | API | Thinking |', '```ts', '$$e^{i\\pi} + 1 = 0$$', '- **Bold**'];

describe('rich answers (npm run fake-providers)', () => {
  it('Anthropic streams the rich Markdown in many deltas, after a signed thinking block when thinking is on', async () => {
    const stream = await anthropicClient(fake).messages.create({
      ...ANTHROPIC_BODY,
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      stream: true,
    });
    let text = '';
    let deltas = 0;
    const types: string[] = [];
    for await (const ev of stream) {
      if (ev.type === 'content_block_start') types.push(ev.content_block.type);
      if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') {
        text += ev.delta.text;
        deltas++;
      }
    }
    expect(types).toEqual(['thinking', 'text']);
    for (const piece of RICH) expect(text).toContain(piece);
    expect(deltas).toBeGreaterThan(20);
  });

  it('no thinking when the request does not ask for it; Chat, Responses and Gemini get the same Markdown', async () => {
    const a = await anthropicClient(fake).messages.create(ANTHROPIC_BODY);
    expect(a.content.map((b) => b.type)).toEqual(['text']);
    const chat = await openaiClient(fake).chat.completions.create(CHAT_BODY);
    const resp = await openaiClient(fake).responses.create(RESPONSES_BODY);
    const gem = await geminiClient(fake).models.generateContent({
      model: 'gemini-2.5-flash',
      contents: GEMINI_CONTENTS,
    });
    for (const text of [chat.choices[0]!.message.content ?? '', resp.output_text, gem.text ?? ''])
      for (const piece of RICH) expect(text).toContain(piece);
  });

  it('a request with tools gets a call of its tool with arguments from its schema; once the result is back, an answer', async () => {
    const tools = [
      {
        name: 'get_weather',
        description: 'Weather',
        input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ];
    const first = await anthropicClient(fake).messages.create({ ...ANTHROPIC_BODY, tools });
    const call = first.content.find((b) => b.type === 'tool_use');
    expect(call).toMatchObject({ name: 'get_weather', input: { city: 'example' } });
    expect(first.stop_reason).toBe('tool_use');
    const second = await anthropicClient(fake).messages.create({
      ...ANTHROPIC_BODY,
      tools,
      messages: [
        ...ANTHROPIC_BODY.messages,
        { role: 'assistant', content: first.content.filter((b) => b.type !== 'thinking') as never },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: (call as { id: string }).id, content: 'Sunny' }],
        },
      ],
    });
    expect(second.content.map((b) => b.type)).toEqual(['text']);
    expect((second.content[0] as { text: string }).text).toContain('The tool answered.');
  });

  it('slow mode: a message containing "slow" (or the slow setting) is paced for Stop', () => {
    expect(richReply('anthropic-messages', { messages: [{ role: 'user', content: 'Please be slow' }] }).delayMs).toBe(
      RICH_DELAY_MS.slow,
    );
    expect(richReply('anthropic-messages', { messages: [{ role: 'user', content: 'Hello' }] }).delayMs).toBe(
      RICH_DELAY_MS.normal,
    );
    expect(
      richReply('gemini-generate-content', { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] }, { slow: true })
        .delayMs,
    ).toBe(RICH_DELAY_MS.slow);
  });

  it('the model lists are those of the real endpoints: every id is a current model Baton knows', async () => {
    const listed = (await openaiClient(fake).models.list()).data.map((m) => m.id);
    expect(listed).toEqual(INTERACTIVE_MODELS.openai);
    for (const [provider, ids] of Object.entries(INTERACTIVE_MODELS))
      for (const id of ids) {
        const info = lookupModel(id, provider);
        expect(info.known, `${provider} ${id}`).toBe(true);
        expect(info.status ?? 'active', `${provider} ${id}`).not.toMatch(/retired|deprecated/);
      }
  });

  it("with rich off (the tests' default) the scripted short answer is unchanged", async () => {
    const plain = await startFakeProviders();
    try {
      const a = await anthropicClient(plain).messages.create(ANTHROPIC_BODY);
      expect(a.content.map((b) => (b.type === 'text' ? b.text : b.type))).toEqual(['Hello from the fake provider.']);
    } finally {
      await plain.close();
    }
  });
});
