/**
 * A native Anthropic Messages request body (`{system?, messages, tools?, model?, …}`) → a Baton
 * transcript (transcript-v1.md, `baton convert --from anthropic-messages`).
 */
import { assertNoPrototypeKeys, decodeTranscript, type JsonPath } from '../../transcript/codec';
import type { Block, Meta, ToolDefinition, Transcript, Turn } from '../../transcript/schema';
import { fenced } from '../../transcript/text';
import type { HistoryReadOptions } from '../types';
import {
  ANTHROPIC_API,
  describe,
  fail,
  isObject,
  readAssistantBlock,
  readDocument,
  readImage,
  readText,
  readToolResultContent,
  str,
} from './read-anthropic-messages-content';

/** The system prompt: a string, or an array of text blocks (A-R1), joined with blank lines. */
function readSystem(system: unknown): { text: string; native?: unknown } | undefined {
  if (system === undefined || system === null) return undefined;
  if (typeof system === 'string') return { text: system };
  if (!Array.isArray(system))
    return fail(['system'], `expected string or array of text blocks, got ${describe(system)}`);
  const parts = system.map((b, i) => {
    if (!isObject(b) || b.type !== 'text') return fail(['system', i, 'type'], 'expected a text block');
    return str(b, 'text', ['system', i]);
  });
  // The array form may carry cache_control or citations; the original is kept in meta.
  return { text: parts.join('\n\n'), native: system };
}

/** Custom tools → ToolDefinition; server tools (`type: web_search_…`, no input_schema) → meta. */
function readTools(tools: unknown): { defs: ToolDefinition[]; server: unknown[] } {
  if (tools === undefined || tools === null) return { defs: [], server: [] };
  if (!Array.isArray(tools)) return fail(['tools'], `expected array, got ${describe(tools)}`);
  const defs: ToolDefinition[] = [];
  const server: unknown[] = [];
  tools.forEach((t, i) => {
    if (!isObject(t)) fail(['tools', i], `expected object, got ${describe(t)}`);
    const custom = t.type === undefined || t.type === null || t.type === 'custom';
    if (!custom) {
      server.push(t);
      return;
    }
    const name = str(t, 'name', ['tools', i]);
    if (!name) fail(['tools', i, 'name'], 'must not be empty');
    if (!isObject(t.input_schema)) fail(['tools', i, 'input_schema'], 'required object missing');
    const def: ToolDefinition = { name, inputSchema: t.input_schema };
    if (typeof t.description === 'string') def.description = t.description;
    defs.push(def);
  });
  return { defs, server };
}

/** The label of a mid-conversation system message folded into user text (A-M1). */
export const SYSTEM_MESSAGE_LABEL = '[System message]';

/**
 * A-M1: a mid-conversation `role: "system"` message (SDK `SystemMessageParam`: a string or text
 * blocks) → one user-turn text block: the text fenced under {@link SYSTEM_MESSAGE_LABEL}, which is
 * how every target that takes no system messages receives it, with the text itself in
 * `meta.systemMessage`, from which the Anthropic converter sends a system message again where the
 * model takes one.
 */
function readSystemMessage(content: unknown, path: JsonPath): Block {
  let text: string;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content))
    text = content
      .map((b: unknown, j: number) => {
        if (!isObject(b) || b.type !== 'text')
          return fail([...path, j, 'type'], 'a system message holds only text blocks (A-M1)');
        return str(b, 'text', [...path, j]);
      })
      .join('\n\n');
  else return fail(path, `expected string or array of text blocks, got ${describe(content)}`);
  return { type: 'text', text: fenced(SYSTEM_MESSAGE_LABEL, text), meta: { systemMessage: text } };
}

type Segment = { role: 'user' | 'tool'; blocks: Block[] };

/**
 * A user message's content → user and tool segments in order: `tool_result` blocks become a tool
 * turn, other content a user turn (text that follows results in the same message becomes the
 * next user turn, A-T2).
 */
function readUserContent(content: unknown, path: JsonPath): Segment[] {
  if (typeof content === 'string') return [{ role: 'user', blocks: [{ type: 'text', text: content }] }];
  if (!Array.isArray(content)) return fail(path, `expected string or array, got ${describe(content)}`);
  const segments: Segment[] = [];
  const add = (role: Segment['role'], block: Block) => {
    const last = segments[segments.length - 1];
    if (last && last.role === role) last.blocks.push(block);
    else segments.push({ role, blocks: [block] });
  };
  content.forEach((b, i) => {
    const p = [...path, i];
    if (!isObject(b)) fail(p, `expected object, got ${describe(b)}`);
    switch (b.type) {
      case 'text':
        return add('user', readText(b, p));
      case 'image':
        return add('user', readImage(b, p));
      case 'document':
        return add('user', readDocument(b, p));
      case 'tool_result': {
        const callId = str(b, 'tool_use_id', p);
        if (!callId) fail([...p, 'tool_use_id'], 'must not be empty');
        const block: Block = {
          type: 'tool_result',
          callId,
          content: readToolResultContent(b.content, [...p, 'content']),
        };
        if (b.is_error === true) block.isError = true;
        else if (b.is_error !== undefined && b.is_error !== false && b.is_error !== null)
          fail([...p, 'is_error'], `expected boolean, got ${describe(b.is_error)}`);
        if (b.cache_control != null) block.meta = { cacheControl: b.cache_control };
        return add('tool', block);
      }
      default:
        return fail([...p, 'type'], `content block type ${describe(b.type)} cannot be kept in a user message`);
    }
  });
  return segments;
}

/**
 * Reads an Anthropic Messages request body into a Baton transcript: `system` (string or text
 * blocks, joined with blank lines; the array form kept in `meta.nativeSystem`), custom tools →
 * `tools` (server tools in `meta.serverTools`), user content → `user` turns, `tool_result`
 * blocks → `tool` turns, assistant content → `assistant` turns with `origin = {provider:
 * opts.provider ?? "anthropic", api: "anthropic-messages", model: opts.model ?? body.model}` and
 * `native = {api, payload: <the message's content>}`. Thinking signatures, `redacted_thinking.data`
 * and tool-use ids are kept exactly (A-K1); server tools, MCP and compaction blocks become
 * `provider_item`. Turn ids are `t1`, `t2`, …; the transcript id is `opts.id ?? "imported"`.
 * @throws TranscriptError naming the JSON path (e.g. `messages[2].content[0].type`) for a body
 *   that is not an object, a wrong role, a missing field, a block type that cannot be kept, an
 *   assistant message when no model is known, or a `__proto__`-style key (I2).
 */
export function readAnthropicMessagesHistory(body: unknown, opts: HistoryReadOptions = {}): Transcript {
  if (!isObject(body)) return fail([], `expected an Anthropic Messages request body object, got ${describe(body)}`);
  assertNoPrototypeKeys(body);
  if (!Array.isArray(body.messages))
    fail(
      ['messages'],
      body.messages === undefined ? 'required array missing' : `expected array, got ${describe(body.messages)}`,
    );
  const model = opts.model ?? (typeof body.model === 'string' && body.model ? body.model : undefined);
  const provider = opts.provider ?? 'anthropic';

  const turns: Turn[] = [];
  const nextId = () => `t${turns.length + 1}`;
  body.messages.forEach((m: unknown, i: number) => {
    const p: JsonPath = ['messages', i];
    if (!isObject(m)) fail(p, `expected object, got ${describe(m)}`);
    if (m.content === undefined) fail([...p, 'content'], 'required field missing');
    if (m.role === 'user') {
      for (const seg of readUserContent(m.content, [...p, 'content']))
        turns.push({ id: nextId(), role: seg.role, blocks: seg.blocks });
      return;
    }
    if (m.role === 'system') {
      turns.push({ id: nextId(), role: 'user', blocks: [readSystemMessage(m.content, [...p, 'content'])] });
      return;
    }
    if (m.role !== 'assistant')
      fail([...p, 'role'], `expected "user" | "assistant" | "system", got ${describe(m.role)}`);
    if (!model) fail(['model'], 'no model known for the assistant turns: pass a model or include "model" in the body');
    const blocks: Block[] =
      typeof m.content === 'string'
        ? [{ type: 'text', text: m.content }]
        : Array.isArray(m.content)
          ? m.content.map((b: unknown, j: number) => readAssistantBlock(b, [...p, 'content', j]))
          : fail([...p, 'content'], `expected string or array, got ${describe(m.content)}`);
    turns.push({
      id: nextId(),
      role: 'assistant',
      origin: { provider, api: ANTHROPIC_API, model },
      blocks,
      native: { api: ANTHROPIC_API, payload: m.content },
    });
  });

  const transcript: Transcript = {
    format: 'baton.transcript',
    version: 1,
    id: opts.id ?? 'imported',
    source: { kind: ANTHROPIC_API },
    turns,
  };
  const system = readSystem(body.system);
  if (system) transcript.system = system.text;
  const tools = readTools(body.tools);
  if (tools.defs.length) transcript.tools = tools.defs;
  const meta: Meta = {};
  if (system?.native !== undefined) meta.nativeSystem = { api: ANTHROPIC_API, payload: system.native };
  if (tools.server.length) meta.serverTools = { api: ANTHROPIC_API, tools: tools.server };
  if (Object.keys(meta).length) transcript.meta = meta;
  return decodeTranscript(transcript);
}
