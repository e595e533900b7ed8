/**
 * Seeded, deterministic generator of benchmark transcripts (bench/README.md, "Conversion"): an agent
 * conversation of exactly `turns` turns mixing user text, assistant text, parallel tool calls
 * with their results, thinking (with each origin's opaque state) and images, from four origins
 * that take over from each other every few exchanges. It ends on a user turn, as a request does.
 *
 * The output is a valid Baton transcript (bench/main.ts checks it with `decodeTranscript`
 * before timing anything). No `native` payloads: the peers have no equivalent, so the
 * comparison stays like for like.
 */
import type {
  Block,
  Origin,
  ToolCallBlock,
  ToolDefinition,
  ToolResultBlock,
  Transcript,
  Turn,
} from '../lib/transcript/schema';
import { BASE62, base64Of, Rng } from './random';
import { code, commandOutput, markdown, prose, sentence } from './text';

/** The four origins of generated assistant turns; `key` names them in peer mappings. */
export const GENERATED_ORIGINS = {
  anthropic: {
    provider: 'anthropic',
    api: 'anthropic-messages',
    model: 'claude-sonnet-4-5-20250929',
    requestedModel: 'claude-sonnet-4-5',
  },
  responses: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.1-2025-11-13', requestedModel: 'gpt-5.1' },
  chat: { provider: 'openai', api: 'openai-chat', model: 'gpt-4.1-2025-04-14', requestedModel: 'gpt-4.1' },
  gemini: { provider: 'google', api: 'gemini-generate-content', model: 'gemini-2.5-pro' },
} as const satisfies Record<string, Origin>;
export type OriginKey = keyof typeof GENERATED_ORIGINS;
const ORIGIN_KEYS = Object.keys(GENERATED_ORIGINS) as OriginKey[];

/** Tools the generated conversation's client offered (JSON Schema inputs). */
export const GENERATED_TOOLS: ToolDefinition[] = [
  {
    name: 'read',
    description: 'Read a file from the workspace.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, offset: { type: 'integer' } },
      required: ['path'],
    },
  },
  {
    name: 'bash',
    description: 'Run a shell command and return its output.',
    inputSchema: {
      type: 'object',
      properties: { command: { type: 'string' }, timeout: { type: 'integer' } },
      required: ['command'],
    },
  },
  {
    name: 'edit',
    description: 'Replace text in a file.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, oldText: { type: 'string' }, newText: { type: 'string' } },
      required: ['path', 'oldText', 'newText'],
    },
  },
  {
    name: 'grep',
    description: 'Search files for a pattern.',
    inputSchema: {
      type: 'object',
      properties: { pattern: { type: 'string' }, path: { type: 'string' } },
      required: ['pattern'],
    },
  },
  {
    name: 'web_fetch',
    description: 'Fetch a web page as markdown.',
    inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
  },
];

/** Options of {@link generateTranscript}. */
export interface GenerateOptions {
  /** Exact number of turns (≥ 1). */
  turns: number;
  /** PRNG seed; default 9 (bench/README.md). */
  seed?: number;
}

const PNG_HEADER = 'iVBORw0KGgoAAAANSUhEUgAA';
const START = Date.UTC(2026, 0, 5, 9, 0, 0);

interface State {
  rng: Rng;
  turns: Turn[];
  origin: OriginKey;
  seq: number;
  clock: number;
}

/** Generates one transcript; the same options always give the same transcript. */
export function generateTranscript(options: GenerateOptions): Transcript {
  const { turns: target } = options;
  if (!Number.isSafeInteger(target) || target < 1)
    throw new RangeError(`turns: expected a positive integer, got ${target}`);
  const s: State = { rng: new Rng(options.seed ?? 9), turns: [], origin: 'anthropic', seq: 0, clock: START };
  while (s.turns.length < target) {
    const left = target - s.turns.length;
    if (left <= 2) {
      s.turns.push(userTurn(s));
      continue;
    }
    if (s.rng.chance(0.12)) s.origin = s.rng.pick(ORIGIN_KEYS);
    // An exchange: user, `rounds` × (assistant with calls, tool results), final assistant; keep one turn for the closing user turn.
    const rounds = Math.min(s.rng.weighted([40, 30, 20, 10]), Math.floor((left - 3) / 2));
    s.turns.push(userTurn(s));
    for (let r = 0; r < rounds; r++) {
      const calls = s.rng.weighted([0, 55, 30, 15]);
      const assistant = assistantTurn(s, calls);
      s.turns.push(
        assistant,
        toolTurn(
          s,
          assistant.blocks.filter((b): b is ToolCallBlock => b.type === 'tool_call'),
        ),
      );
    }
    s.turns.push(assistantTurn(s, 0));
  }
  return {
    format: 'baton.transcript',
    version: 1,
    id: `bench-${target}`,
    title: `Generated benchmark conversation (${target} turns)`,
    createdAt: new Date(START).toISOString(),
    system: prose(new Rng((options.seed ?? 9) + 1), 1200),
    tools: GENERATED_TOOLS,
    source: { kind: 'bench' },
    turns: s.turns,
  };
}

function nextId(s: State, prefix: string): string {
  s.seq += 1;
  return `${prefix}${s.seq}`;
}

function stamp(s: State): string {
  s.clock += s.rng.int(1_000, 90_000);
  return new Date(s.clock).toISOString();
}

function image(s: State, maxBytes: number): Block & { type: 'image' } {
  const png = s.rng.chance(0.7);
  return {
    type: 'image',
    mediaType: png ? 'image/png' : 'image/jpeg',
    data: `${png ? PNG_HEADER : '/9j/4AAQSkZJRgABAQ'}${base64Of(s.rng, s.rng.int(2_000, maxBytes))}`,
  };
}

function userTurn(s: State): Turn {
  const blocks: Block[] = [
    {
      type: 'text',
      text: s.rng.chance(0.2)
        ? `${prose(s.rng, s.rng.int(80, 400))}\n\n\`\`\`\n${commandOutput(s.rng, s.rng.int(3, 20))}\n\`\`\``
        : prose(s.rng, s.rng.int(20, 500)),
    },
  ];
  if (s.rng.chance(0.04)) blocks.push(image(s, 40_000));
  return { id: nextId(s, 'u'), role: 'user', createdAt: stamp(s), blocks };
}

const SIG_CHARS = `${BASE62}+/`;

/** Thinking in the origin's own shape: Anthropic signature, Responses encrypted content + item id, Gemini text (its signature rides on the first call or the text). */
function thinkingBlocks(s: State): Block[] {
  const text = prose(s.rng, s.rng.int(60, 600));
  switch (s.origin) {
    case 'anthropic':
      if (s.rng.chance(0.04))
        return [{ type: 'redacted_thinking', data: `EmwK${s.rng.chars(s.rng.int(300, 800), SIG_CHARS)}` }];
      return [{ type: 'thinking', text, signature: `EqQB${s.rng.chars(s.rng.int(200, 600), SIG_CHARS)}` }];
    case 'responses':
      return [
        {
          type: 'thinking',
          text,
          signature: `gAAAAA${s.rng.chars(s.rng.int(400, 1600), SIG_CHARS)}`,
          meta: { itemId: nextId(s, 'rs_') },
        },
      ];
    case 'gemini':
      return [{ type: 'thinking', text }];
    case 'chat':
      return [];
  }
}

function toolCall(s: State, first: boolean): ToolCallBlock {
  const tool = s.rng.pick(GENERATED_TOOLS).name;
  const input: Record<string, unknown> =
    tool === 'read'
      ? { path: `src/${sentence(s.rng).split(' ')[0]!.toLowerCase()}/${s.rng.int(1, 99)}.ts` }
      : tool === 'bash'
        ? {
            command: `npm test -- --grep "${sentence(s.rng).slice(0, 40).replace(/"/g, '')}"`,
            timeout: s.rng.int(10, 600),
          }
        : tool === 'edit'
          ? {
              path: `src/module-${s.rng.int(1, 40)}.ts`,
              oldText: code(s.rng, s.rng.int(1, 6)),
              newText: code(s.rng, s.rng.int(1, 8)),
            }
          : tool === 'grep'
            ? { pattern: `\\b${sentence(s.rng).split(' ')[1] ?? 'x'}\\(`, path: 'src/' }
            : {
                url: `https://example.com/docs/${s.rng.int(1, 999)}?q=${encodeURIComponent(sentence(s.rng).slice(0, 20))}`,
              };
  switch (s.origin) {
    case 'anthropic':
      return { type: 'tool_call', id: `toolu_01${s.rng.chars(22, BASE62)}`, name: tool, input };
    case 'responses':
      return {
        type: 'tool_call',
        id: `call_${s.rng.chars(24, BASE62)}`,
        name: tool,
        input,
        meta: { itemId: nextId(s, 'fc_') },
      };
    case 'chat':
      return { type: 'tool_call', id: `call_${s.rng.chars(24, BASE62)}`, name: tool, input };
    case 'gemini':
      // Gemini 2.5 sends no call ids: the reader made one (G-T3); the signature rides on the first call part.
      return {
        type: 'tool_call',
        id: nextId(s, 'gemini-call-'),
        name: tool,
        input,
        meta: { generatedId: true },
        ...(first ? { signature: `CiQB${s.rng.chars(s.rng.int(200, 500), SIG_CHARS)}` } : {}),
      };
  }
}

function assistantTurn(s: State, calls: number): Turn {
  const origin: Origin = { ...GENERATED_ORIGINS[s.origin] };
  const blocks: Block[] = s.rng.chance(0.5) ? thinkingBlocks(s) : [];
  if (calls === 0 || s.rng.chance(0.5)) {
    const text: Block = {
      type: 'text',
      text: calls === 0 ? markdown(s.rng, s.rng.int(150, 1500)) : prose(s.rng, s.rng.int(30, 200)),
    };
    if (s.origin === 'responses') text.meta = { itemId: nextId(s, 'msg_') };
    if (s.origin === 'gemini' && calls === 0 && s.rng.chance(0.5))
      text.signature = `CiQB${s.rng.chars(s.rng.int(200, 500), SIG_CHARS)}`;
    blocks.push(text);
  }
  for (let i = 0; i < calls; i++) blocks.push(toolCall(s, i === 0));
  const output = blocks.reduce((n, b) => n + ('text' in b && typeof b.text === 'string' ? b.text.length : 40), 0);
  return {
    id: nextId(s, 'a'),
    role: 'assistant',
    origin,
    createdAt: stamp(s),
    status: 'complete',
    stopReason: calls > 0 ? 'tool_use' : 'end_turn',
    usage: { inputTokens: s.rng.int(1_000, 150_000), outputTokens: Math.ceil(output / 4) },
    blocks,
  };
}

function toolResult(s: State, call: ToolCallBlock): ToolResultBlock {
  if (s.rng.chance(0.06))
    return {
      type: 'tool_result',
      callId: call.id,
      content: `Error: ${sentence(s.rng)}\n${commandOutput(s.rng, s.rng.int(2, 12))}`,
      isError: true,
    };
  if (call.name === 'web_fetch' && s.rng.chance(0.25))
    return {
      type: 'tool_result',
      callId: call.id,
      content: [{ type: 'text', text: markdown(s.rng, s.rng.int(200, 1000)) }, image(s, 20_000)],
    };
  const content =
    call.name === 'read'
      ? code(s.rng, s.rng.int(5, 60))
      : call.name === 'web_fetch'
        ? markdown(s.rng, s.rng.int(300, 2500))
        : commandOutput(s.rng, s.rng.int(1, 30));
  return { type: 'tool_result', callId: call.id, content };
}

function toolTurn(s: State, calls: readonly ToolCallBlock[]): Turn {
  return { id: nextId(s, 't'), role: 'tool', createdAt: stamp(s), blocks: calls.map((c) => toolResult(s, c)) };
}
