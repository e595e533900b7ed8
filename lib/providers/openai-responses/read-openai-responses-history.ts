/**
 * A native OpenAI Responses request body (`{instructions?, input, tools?, model?, …}`) → a Baton
 * transcript (transcript-v1.md, `baton convert --from openai-responses`).
 */
import { assertNoPrototypeKeys, decodeTranscript, type JsonPath } from '../../transcript/codec';
import type { Block, ToolDefinition, ToolResultBlock, Transcript, Turn } from '../../transcript/schema';
import type { HistoryReadOptions } from '../types';
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
} from '../openai-chat/read-openai-chat-util';
import { RESPONSES_API, outputItemBlocks } from './read-openai-responses-items';

/** The provider an openai-responses history belongs to when the caller does not say. */
export const DEFAULT_RESPONSES_PROVIDER = 'openai';

/** Items the client sends back to answer a call: they form tool turns. */
const TOOL_OUTPUTS = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'computer_call_output',
  'local_shell_call_output',
  'shell_call_output',
  'apply_patch_call_output',
  'tool_search_output',
  'mcp_approval_response',
  'program_output',
]);

/** Items produced on the model's side (R-1 input item types): they join the assistant turn. */
const ASSISTANT_ITEMS = new Set([
  'reasoning',
  'function_call',
  'custom_tool_call',
  'file_search_call',
  'web_search_call',
  'computer_call',
  'tool_search_call',
  'image_generation_call',
  'code_interpreter_call',
  'local_shell_call',
  'shell_call',
  'apply_patch_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_call',
  'compaction',
  'compaction_trigger',
  'additional_tools',
  'configuration_update',
  'program',
  'item_reference',
]);

/**
 * Reads a Responses request body into a transcript:
 * - `instructions` and `system` / `developer` message items → `transcript.system` (joined with a
 *   blank line; `meta.systemRole: "developer"` when that role was used; one inside the
 *   conversation is moved there with a note in `meta.warnings`); `input` as a plain string → one
 *   user turn;
 * - `tools` (`{type: "function", name, description?, parameters?}`) → `tools`; when a tool cannot
 *   be represented exactly (hosted tools, custom tools, `strict`) the list is also kept verbatim in
 *   `meta.nativeTools`;
 * - user messages → user turns (`input_text` → text, `input_image` → image, `input_file` with data
 *   or URL → document; `detail` and extra fields in block meta);
 * - consecutive model-side items (assistant messages, `reasoning`, `function_call`, and hosted or
 *   custom tool items) → one assistant turn, blocks as in `readOpenAIResponsesResponse`
 *   (reasoning `encrypted_content` as the thinking block's signature, the item id in
 *   `meta.itemId`), `native` = those items verbatim, `origin = {provider: opts.provider ??
 *   "openai", api: "openai-responses", model: opts.model ?? body.model}`;
 * - consecutive `function_call_output` items → one tool turn of `tool_result` blocks (other call
 *   outputs, e.g. `custom_tool_call_output`, as `provider_item` in that turn).
 * Turn ids are `t1`, `t2`, …; the transcript id is `opts.id ?? "imported"`; `source.kind` is
 * `openai-responses`.
 * @throws TranscriptError naming the JSON path (e.g. `input[3].type`) when the body is not an
 *   object, an item has an unknown type or role or misses a field, a part cannot be kept (audio,
 *   files referenced only by id), or an assistant item needs a model and none is known (`model`).
 */
export function readOpenAIResponsesHistory(body: unknown, opts: HistoryReadOptions = {}): Transcript {
  const b = expectRecord(body, []);
  assertNoPrototypeKeys(b);
  const model = opts.model ?? (typeof b.model === 'string' && b.model ? b.model : undefined);
  const provider = opts.provider ?? DEFAULT_RESPONSES_PROVIDER;
  const turns: Turn[] = [];
  const system: string[] = [];
  const warnings: string[] = [];
  let developer = false;
  let assistant: { turn: Turn; items: unknown[] } | undefined;
  let toolTurn: Turn | undefined;
  const nextId = () => `t${turns.length + 1}`;

  const instructions = optionalString(b.instructions, ['instructions']);
  if (instructions) system.push(instructions);

  const addAssistant = (item: Record<string, unknown>, p: JsonPath) => {
    toolTurn = undefined;
    if (!assistant) {
      if (!model)
        fail(['model'], 'required field missing: no model for the assistant turns (pass one or set body.model)');
      const items: unknown[] = [];
      const turn: Turn = {
        id: nextId(),
        role: 'assistant',
        origin: { provider, api: RESPONSES_API, model },
        blocks: [],
        native: { api: RESPONSES_API, payload: items },
      };
      turns.push(turn);
      assistant = { turn, items };
    }
    assistant.items.push(item);
    // An EasyInputMessage may leave out `type: "message"`; the native item stays as it was sent.
    assistant.turn.blocks.push(...outputItemBlocks(item.type === undefined ? { ...item, type: 'message' } : item, p));
  };
  const addTool = (block: Block) => {
    assistant = undefined;
    if (!toolTurn) {
      toolTurn = { id: nextId(), role: 'tool', blocks: [] };
      turns.push(toolTurn);
    }
    toolTurn.blocks.push(block);
  };

  if (typeof b.input === 'string') {
    if (b.input) turns.push({ id: nextId(), role: 'user', blocks: [{ type: 'text', text: b.input }] });
  } else {
    expectArray(b.input, ['input']).forEach((raw, i) => {
      const p: JsonPath = ['input', i];
      const item = expectRecord(raw, p);
      const type =
        item.type === undefined && item.role !== undefined ? 'message' : expectString(item.type, [...p, 'type']);
      if (type === 'message') {
        const role = expectString(item.role, [...p, 'role']);
        if (role === 'assistant') return addAssistant(item, p);
        assistant = undefined;
        toolTurn = undefined;
        if (role === 'user') {
          const turn: Turn = { id: nextId(), role: 'user', blocks: userBlocks(item.content, [...p, 'content']) };
          const extra = extraFields(item, ['type', 'role', 'content']);
          if (extra) turn.meta = extra;
          turns.push(turn);
        } else if (role === 'system' || role === 'developer') {
          if (role === 'developer') developer = true;
          if (turns.length > 0)
            warnings.push(`input[${i}]: ${role} message inside the conversation moved to transcript.system`);
          const text = joinTextParts(item.content, [...p, 'content'], 'input_text');
          if (text) system.push(text);
        } else
          fail([...p, 'role'], `unknown role ${JSON.stringify(role)} (expected user, assistant, system or developer)`);
      } else if (type === 'function_call_output') {
        const block: ToolResultBlock = {
          type: 'tool_result',
          callId: expectString(item.call_id, [...p, 'call_id'], true),
          content: toolOutput(item.output, [...p, 'output']),
        };
        const extra = extraFields(item, ['type', 'call_id', 'output']);
        if (extra) block.meta = extra;
        addTool(block);
      } else if (TOOL_OUTPUTS.has(type)) {
        const block: Block = { type: 'provider_item', api: RESPONSES_API, item };
        if (typeof item.output === 'string' && item.output) block.text = item.output;
        addTool(block);
      } else if (ASSISTANT_ITEMS.has(type)) {
        addAssistant(item, p);
      } else fail([...p, 'type'], `unknown input item type ${JSON.stringify(type)}`);
    });
  }

  const transcript: Transcript = {
    format: 'baton.transcript',
    version: 1,
    id: opts.id ?? 'imported',
    source: { kind: RESPONSES_API },
    turns,
  };
  if (system.length) transcript.system = system.join('\n\n');
  const tools = readTools(b.tools);
  if (tools.tools.length) transcript.tools = tools.tools;
  const meta: Record<string, unknown> = {};
  if (developer) meta.systemRole = 'developer';
  if (tools.keepNative) meta.nativeTools = { tools: b.tools };
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
    if (type === 'input_text') {
      const text = expectString(part.text, [...p, 'text']);
      if (!text) return;
      block = { type: 'text', text };
      known = ['type', 'text'];
    } else if (type === 'input_image') {
      block = imageBlock(part, p);
      known = ['type', 'image_url', 'detail'];
    } else if (type === 'input_file') {
      block = documentBlock(part, p);
      known = ['type', 'file_data', 'file_url', 'filename'];
    } else if (type === 'input_audio') {
      return fail([...p, 'type'], 'audio input cannot be kept in a Baton transcript');
    } else {
      return fail(
        [...p, 'type'],
        `unknown content part type ${JSON.stringify(type)} (expected input_text, input_image or input_file)`,
      );
    }
    const extra = extraFields(part, known);
    if (extra) block.meta = { ...block.meta, extra };
    blocks.push(block);
  });
  return blocks;
}

function imageBlock(part: Record<string, unknown>, p: JsonPath): Extract<Block, { type: 'image' }> {
  const url = optionalString(part.image_url, [...p, 'image_url']);
  if (!url) fail([...p, 'image_url'], 'an image referenced only by file_id cannot be kept (no data or URL)');
  const data = parseDataUrl(url);
  const block: Extract<Block, { type: 'image' }> = data
    ? { type: 'image', mediaType: data.mediaType, data: data.data }
    : { type: 'image', mediaType: imageTypeFromUrl(url), url };
  const detail = optionalString(part.detail, [...p, 'detail']);
  if (detail) block.meta = { detail };
  return block;
}

function documentBlock(part: Record<string, unknown>, p: JsonPath): Block {
  const filename = optionalString(part.filename, [...p, 'filename']);
  const fileData = optionalString(part.file_data, [...p, 'file_data']);
  const fileUrl = optionalString(part.file_url, [...p, 'file_url']);
  let block: Block;
  if (fileData) {
    const parsed = parseDataUrl(fileData);
    // Bare base64 is taken as a PDF, the file type the API documents for input_file.
    block = parsed
      ? { type: 'document', mediaType: parsed.mediaType, data: parsed.data }
      : { type: 'document', mediaType: 'application/pdf', data: fileData };
  } else if (fileUrl) {
    block = { type: 'document', mediaType: 'application/pdf', url: fileUrl };
  } else return fail([...p, 'file_data'], 'a file referenced only by file_id cannot be kept (no data or URL)');
  if (filename) block.title = filename;
  return block;
}

function toolOutput(output: unknown, path: JsonPath): ToolResultBlock['content'] {
  if (typeof output === 'string') return output;
  const out: Exclude<ToolResultBlock['content'], string> = [];
  expectArray(output, path).forEach((raw, j) => {
    const part = expectRecord(raw, [...path, j]);
    const type = expectString(part.type, [...path, j, 'type']);
    if (type === 'input_text') out.push({ type: 'text', text: expectString(part.text, [...path, j, 'text']) });
    else if (type === 'input_image') out.push(imageBlock(part, [...path, j]));
    else
      fail(
        [...path, j, 'type'],
        `tool output part type ${JSON.stringify(type)} cannot be kept (expected input_text or input_image)`,
      );
  });
  return out;
}

const EMPTY_SCHEMA = { type: 'object', properties: {} };

function readTools(v: unknown): { tools: ToolDefinition[]; keepNative: boolean } {
  const tools: ToolDefinition[] = [];
  let keepNative = false;
  if (v === undefined || v === null) return { tools, keepNative };
  expectArray(v, ['tools']).forEach((raw, i) => {
    const p = ['tools', i];
    const t = expectRecord(raw, p);
    const type = expectString(t.type, [...p, 'type']);
    if (type !== 'function') {
      keepNative = true; // hosted tools (web_search, image_generation, mcp, …) and custom tools
      return;
    }
    const def: ToolDefinition = {
      name: expectString(t.name, [...p, 'name'], true),
      inputSchema:
        t.parameters === undefined || t.parameters === null
          ? EMPTY_SCHEMA
          : expectRecord(t.parameters, [...p, 'parameters']),
    };
    const description = optionalString(t.description, [...p, 'description']);
    if (description !== undefined) def.description = description;
    if (extraFields(t, ['type', 'name', 'description', 'parameters'])) keepNative = true;
    tools.push(def);
  });
  return { tools, keepNative };
}
