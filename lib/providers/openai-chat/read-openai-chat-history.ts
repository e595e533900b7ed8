/**
 * A native OpenAI Chat Completions request body (`{messages, tools?, model?, …}`) → a Baton
 * transcript (transcript-v1.md, `baton convert --from openai-chat`, `baton import openai-chat`).
 */
import { assertNoPrototypeKeys, decodeTranscript, type JsonPath } from '../../transcript/codec';
import type { Block, ToolDefinition, ToolResultBlock, Transcript, Turn } from '../../transcript/schema';
import type { HistoryReadOptions } from '../types';
import { CHAT_API, assistantBlocks } from './read-openai-chat-message';
import {
  expectArray,
  expectRecord,
  expectString,
  extraFields,
  fail,
  imageTypeFromUrl,
  optionalString,
  parseDataUrl,
  joinTextParts,
} from './read-openai-chat-util';

/** The provider an openai-chat history belongs to when the caller does not say. */
export const DEFAULT_CHAT_PROVIDER = 'openai';

/**
 * Reads a Chat Completions request body into a transcript:
 * - `system` / `developer` messages → `transcript.system` (several are joined with a blank line;
 *   `meta.systemRole: "developer"` when that role was used; one that appears after the
 *   conversation started is moved there too, with a note in `meta.warnings`);
 * - `tools` (`{type: "function", function: {name, description?, parameters?}}`, and legacy
 *   `functions`) → `tools` (`inputSchema` = `parameters`, `{type: "object", properties: {}}` when
 *   absent); when a tool cannot be represented exactly (custom tools, `strict`, …) the whole list
 *   is also kept verbatim in `meta.nativeTools`;
 * - `user` messages → user turns: text → `text`, `image_url` → `image` (base64 data URLs split
 *   into `mediaType` + `data`; other URLs kept as `url` with the media type guessed from the
 *   extension, else `image/*`; `detail` in block meta), `file` with `file_data` → `document`;
 *   `name` and other extra fields → turn / block `meta`;
 * - `assistant` messages → assistant turns (blocks as in `readOpenAIChatResponse`, legacy
 *   `function_call` as a tool call with the generated id `<name>_<n>`), `native` = the message
 *   verbatim, `origin = {provider: opts.provider ?? "openai", api: "openai-chat", model:
 *   opts.model ?? body.model}`;
 * - consecutive `tool` messages (and legacy `function` messages) → one tool turn of
 *   `tool_result` blocks (`callId` = `tool_call_id`, content string or text/image blocks).
 * Turn ids are `t1`, `t2`, …; the transcript id is `opts.id ?? "imported"`; `source.kind` is
 * `openai-chat`.
 * @throws TranscriptError naming the JSON path (e.g. `messages[2].content[0].type`) when the body
 *   is not an object, a message has an unknown role or a missing field, a user part cannot be
 *   kept (audio, files referenced only by id), or an assistant message needs a model and none is
 *   known (`model`).
 */
export function readOpenAIChatHistory(body: unknown, opts: HistoryReadOptions = {}): Transcript {
  const b = expectRecord(body, []);
  assertNoPrototypeKeys(b);
  const messages = expectArray(b.messages, ['messages']);
  const model = opts.model ?? (typeof b.model === 'string' && b.model ? b.model : undefined);
  const provider = opts.provider ?? DEFAULT_CHAT_PROVIDER;
  const turns: Turn[] = [];
  const system: string[] = [];
  const warnings: string[] = [];
  let developer = false;
  let toolTurn: Turn | undefined;
  let legacySeq = 0;
  const legacyOpen = new Map<string, string[]>(); // legacy function_call ids awaiting a result, by name

  const pushToolResult = (block: ToolResultBlock) => {
    if (!toolTurn) {
      toolTurn = { id: `t${turns.length + 1}`, role: 'tool', blocks: [] };
      turns.push(toolTurn);
    }
    toolTurn.blocks.push(block);
  };

  messages.forEach((raw, i) => {
    const p: JsonPath = ['messages', i];
    const m = expectRecord(raw, p);
    const role = expectString(m.role, [...p, 'role']);
    if (role !== 'tool' && role !== 'function') toolTurn = undefined;
    switch (role) {
      case 'system':
      case 'developer': {
        if (role === 'developer') developer = true;
        if (turns.length > 0)
          warnings.push(`messages[${i}]: ${role} message inside the conversation moved to transcript.system`);
        const extra = extraFields(m, ['role', 'content']);
        if (extra) warnings.push(`messages[${i}]: fields not kept: ${Object.keys(extra).join(', ')}`);
        const text = joinTextParts(m.content, [...p, 'content'], 'text');
        if (text) system.push(text);
        return;
      }
      case 'user': {
        const turn: Turn = {
          id: `t${turns.length + 1}`,
          role: 'user',
          blocks: userBlocks(m.content, [...p, 'content']),
        };
        const extra = extraFields(m, ['role', 'content']);
        if (extra) turn.meta = extra;
        turns.push(turn);
        return;
      }
      case 'assistant': {
        if (!model)
          fail(['model'], 'required field missing: no model for the assistant turns (pass one or set body.model)');
        const blocks = assistantBlocks(m, p, {
          legacyCallId: (name) => {
            const id = `${name}_${legacySeq++}`;
            legacyOpen.set(name, [...(legacyOpen.get(name) ?? []), id]);
            return id;
          },
        });
        turns.push({
          id: `t${turns.length + 1}`,
          role: 'assistant',
          origin: { provider, api: CHAT_API, model },
          blocks,
          native: { api: CHAT_API, payload: m },
        });
        return;
      }
      case 'tool': {
        const callId = expectString(m.tool_call_id, [...p, 'tool_call_id'], true);
        const block: ToolResultBlock = {
          type: 'tool_result',
          callId,
          content: toolContent(m.content, [...p, 'content']),
        };
        const extra = extraFields(m, ['role', 'content', 'tool_call_id']);
        if (extra) block.meta = extra;
        pushToolResult(block);
        return;
      }
      case 'function': {
        const name = expectString(m.name, [...p, 'name'], true);
        const open = legacyOpen.get(name);
        const callId = open?.shift();
        if (!callId) fail([...p, 'name'], `no earlier function_call named ${JSON.stringify(name)} awaits this result`);
        pushToolResult({
          type: 'tool_result',
          callId,
          content: toolContent(m.content, [...p, 'content']),
          meta: { legacyFunctionResult: true },
        });
        return;
      }
      default:
        fail(
          [...p, 'role'],
          `unknown role ${JSON.stringify(role)} (expected system, developer, user, assistant or tool)`,
        );
    }
  });

  const transcript: Transcript = {
    format: 'baton.transcript',
    version: 1,
    id: opts.id ?? 'imported',
    source: { kind: CHAT_API },
    turns,
  };
  if (system.length) transcript.system = system.join('\n\n');
  const tools = readTools(b);
  if (tools.tools.length) transcript.tools = tools.tools;
  const meta: Record<string, unknown> = {};
  if (developer) meta.systemRole = 'developer';
  if (tools.keepNative) {
    const nativeTools: Record<string, unknown> = {};
    if (b.tools !== undefined) nativeTools.tools = b.tools;
    if (b.functions !== undefined) nativeTools.functions = b.functions;
    meta.nativeTools = nativeTools;
  }
  if (warnings.length) meta.warnings = warnings;
  if (Object.keys(meta).length) transcript.meta = meta;
  return decodeTranscript(transcript);
}

function userBlocks(content: unknown, path: JsonPath): Block[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  const blocks: Block[] = [];
  expectArray(content, path).forEach((raw, j) => {
    const p = [...path, j];
    const part = expectRecord(raw, p);
    const type = expectString(part.type, [...p, 'type']);
    let block: Block;
    let known: string[];
    if (type === 'text') {
      const text = expectString(part.text, [...p, 'text']);
      if (!text) return;
      block = { type: 'text', text };
      known = ['type', 'text'];
    } else if (type === 'image_url') {
      block = imageBlock(part, p);
      known = ['type', 'image_url'];
    } else if (type === 'file') {
      block = documentBlock(part, p);
      known = ['type', 'file'];
    } else if (type === 'input_audio') {
      return fail([...p, 'type'], 'audio input cannot be kept in a Baton transcript');
    } else {
      return fail(
        [...p, 'type'],
        `unknown content part type ${JSON.stringify(type)} (expected text, image_url or file)`,
      );
    }
    const extra = extraFields(part, known);
    if (extra) block.meta = { ...block.meta, extra };
    blocks.push(block);
  });
  return blocks;
}

function imageBlock(part: Record<string, unknown>, p: JsonPath): Block {
  const img = expectRecord(part.image_url, [...p, 'image_url']);
  const url = expectString(img.url, [...p, 'image_url', 'url'], true);
  const data = parseDataUrl(url);
  const block: Block = data
    ? { type: 'image', mediaType: data.mediaType, data: data.data }
    : { type: 'image', mediaType: imageTypeFromUrl(url), url };
  const detail = optionalString(img.detail, [...p, 'image_url', 'detail']);
  if (detail) block.meta = { detail };
  return block;
}

function documentBlock(part: Record<string, unknown>, p: JsonPath): Block {
  const file = expectRecord(part.file, [...p, 'file']);
  const fileData = optionalString(file.file_data, [...p, 'file', 'file_data']);
  const filename = optionalString(file.filename, [...p, 'file', 'filename']);
  if (!fileData) fail([...p, 'file', 'file_data'], 'a file referenced only by file_id cannot be kept (no data)');
  const parsed = parseDataUrl(fileData);
  // file_data is a data URL in the SDK docs; bare base64 is taken as a PDF, the only type Chat accepts.
  const block: Block = parsed
    ? { type: 'document', mediaType: parsed.mediaType, data: parsed.data }
    : { type: 'document', mediaType: 'application/pdf', data: fileData };
  if (filename) block.title = filename;
  if (typeof file.file_id === 'string') block.meta = { fileId: file.file_id };
  return block;
}

function toolContent(content: unknown, path: JsonPath): ToolResultBlock['content'] {
  if (typeof content === 'string') return content;
  const out: Exclude<ToolResultBlock['content'], string> = [];
  expectArray(content, path).forEach((raw, j) => {
    const part = expectRecord(raw, [...path, j]);
    const type = expectString(part.type, [...path, j, 'type']);
    if (type === 'text') out.push({ type: 'text', text: expectString(part.text, [...path, j, 'text']) });
    else if (type === 'image_url') out.push(imageBlock(part, [...path, j]) as Extract<Block, { type: 'image' }>);
    else fail([...path, j, 'type'], `unknown tool content part type ${JSON.stringify(type)} (expected text)`);
  });
  return out;
}

const EMPTY_SCHEMA = { type: 'object', properties: {} };

function readTools(b: Record<string, unknown>): { tools: ToolDefinition[]; keepNative: boolean } {
  const tools: ToolDefinition[] = [];
  let keepNative = false;
  const fromFunction = (fn: Record<string, unknown>, p: JsonPath) => {
    const def: ToolDefinition = {
      name: expectString(fn.name, [...p, 'name'], true),
      inputSchema: fn.parameters === undefined ? EMPTY_SCHEMA : expectRecord(fn.parameters, [...p, 'parameters']),
    };
    const description = optionalString(fn.description, [...p, 'description']);
    if (description !== undefined) def.description = description;
    if (extraFields(fn, ['name', 'description', 'parameters'])) keepNative = true;
    tools.push(def);
  };
  if (b.tools !== undefined && b.tools !== null) {
    expectArray(b.tools, ['tools']).forEach((raw, i) => {
      const t = expectRecord(raw, ['tools', i]);
      const type = t.type === undefined ? 'function' : expectString(t.type, ['tools', i, 'type']);
      if (type !== 'function') {
        keepNative = true; // custom (free-form) tools have no JSON-Schema input
        return;
      }
      fromFunction(expectRecord(t.function, ['tools', i, 'function']), ['tools', i, 'function']);
      if (extraFields(t, ['type', 'function'])) keepNative = true;
    });
  }
  if (b.functions !== undefined && b.functions !== null) {
    expectArray(b.functions, ['functions']).forEach((raw, i) =>
      fromFunction(expectRecord(raw, ['functions', i]), ['functions', i]),
    );
  }
  return { tools, keepNative };
}
