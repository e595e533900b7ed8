/**
 * A native Interactions request body (`{model, input, system_instruction?, tools?, …}`) → a Baton
 * transcript (transcript-v1.md, `baton convert --from gemini-interactions`;
 * provider-rules-2026-gemini.md §9).
 */
import { assertNoPrototypeKeys, decodeTranscript, type JsonPath } from '../../transcript/codec';
import type { Block, Meta, ToolDefinition, Transcript, Turn } from '../../transcript/schema';
import type { HistoryReadOptions } from '../types';
import {
  GEMINI_INTERACTIONS_API,
  contentToBlock,
  describe,
  fail,
  isObject,
  readResultContent,
  stepsToBlocks,
  str,
  type JsonObject,
} from './read-gemini-interactions-steps';

/** Steps a model turn is made of (GI-R3); `user_input` and `function_result` are the client's. */
const isModelStep = (s: JsonObject) => s.type !== 'user_input' && s.type !== 'function_result';

/** `tools` (GI-R6): flat `function` tools → definitions; other tools (built-ins) → meta. */
function readTools(tools: unknown): { defs: ToolDefinition[]; server: unknown[] } {
  const defs: ToolDefinition[] = [];
  const server: unknown[] = [];
  if (tools === undefined || tools === null) return { defs, server };
  if (!Array.isArray(tools)) return fail(['tools'], `expected array, got ${describe(tools)}`);
  tools.forEach((t: unknown, i: number) => {
    if (!isObject(t)) fail(['tools', i], `expected object, got ${describe(t)}`);
    if (t.type !== 'function') return void server.push(t);
    const name = str(t, 'name', ['tools', i]);
    if (!name) fail(['tools', i, 'name'], 'must not be empty');
    const schema = t.parameters;
    if (schema !== undefined && schema !== null && !isObject(schema))
      fail(['tools', i, 'parameters'], `expected object, got ${describe(schema)}`);
    const def: ToolDefinition = { name, inputSchema: schema ?? { type: 'object', properties: {} } };
    if (typeof t.description === 'string') def.description = t.description;
    defs.push(def);
  });
  return { defs, server };
}

/** `input` as steps: a string is one user text, a Content or a Content array one `user_input` (GI-R2). */
function inputSteps(input: unknown): { steps: unknown[]; path: (i: number) => JsonPath } {
  if (typeof input === 'string')
    return { steps: [{ type: 'user_input', content: [{ type: 'text', text: input }] }], path: () => ['input'] };
  if (isObject(input)) return { steps: [{ type: 'user_input', content: [input] }], path: () => ['input'] };
  if (!Array.isArray(input))
    return fail(['input'], input === undefined ? 'required field missing' : `expected array, got ${describe(input)}`);
  const contents = input.length > 0 && input.every((s) => isObject(s) && CONTENT_TYPES.has(s.type as string));
  if (contents) return { steps: [{ type: 'user_input', content: input }], path: () => ['input'] };
  return { steps: input, path: (i) => ['input', i] };
}

const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'document', 'video']);

/**
 * Reads an Interactions request body into a Baton transcript: `system_instruction` (a string,
 * GI-R5) → `system`; flat `function` tools → `tools` (built-in tools in `meta.serverTools`);
 * `user_input` steps → user turns; each run of model steps (`thought`, `model_output`,
 * `function_call`, built-in tool steps) → one assistant turn with `origin = {provider:
 * opts.provider ?? "google", api: "gemini-interactions", model: opts.model ?? body.model}` and
 * `native = {api, payload: <those steps>}`; `function_result` steps → tool turns (`call_id` →
 * `callId`, `is_error` → `isError`, GI-T1, GI-T3). `previous_interaction_id` is kept in
 * `meta.previousInteractionId` (the history before it lives on the server, GI-P1). Turn ids are
 * `t1`, `t2`, …; the transcript id is `opts.id ?? "imported"`.
 * @throws TranscriptError naming the JSON path (e.g. `input[2].call_id`) for a body that is not
 *   an object, a step without its required fields, a model step when no model is known, or a
 *   `__proto__`-style key (I2).
 */
export function readGeminiInteractionsHistory(body: unknown, opts: HistoryReadOptions = {}): Transcript {
  if (!isObject(body)) return fail([], `expected a Gemini Interactions request body object, got ${describe(body)}`);
  assertNoPrototypeKeys(body);
  const model = opts.model ?? (typeof body.model === 'string' && body.model ? body.model : undefined);
  const provider = opts.provider ?? 'google';
  const { steps, path } = inputSteps(body.input);
  const turns: Turn[] = [];
  let run: { steps: JsonObject[]; start: number } | undefined;
  const flush = () => {
    if (!run) return;
    if (!model) fail(['model'], 'no model known for the model steps: pass a model or include "model" in the body');
    const blocks = stepsToBlocks(run.steps, ['input']);
    turns.push({
      id: `t${turns.length + 1}`,
      role: 'assistant',
      origin: { provider, api: GEMINI_INTERACTIONS_API, model },
      blocks,
      native: { api: GEMINI_INTERACTIONS_API, payload: run.steps },
    });
    run = undefined;
  };
  steps.forEach((s, i) => {
    const p = path(i);
    if (!isObject(s)) fail(p, `expected a step object, got ${describe(s)}`);
    const type = str(s, 'type', p);
    if (isModelStep(s)) {
      (run ??= { steps: [], start: i }).steps.push(s);
      return;
    }
    flush();
    if (type === 'user_input') {
      const content = s.content ?? [];
      if (!Array.isArray(content)) fail([...p, 'content'], `expected array, got ${describe(content)}`);
      const blocks: Block[] = content.map((c: unknown, j: number) => contentToBlock(c, [...p, 'content', j], 'user'));
      if (blocks.length) turns.push({ id: `t${turns.length + 1}`, role: 'user', blocks });
      return;
    }
    // function_result (GI-T1): a step of its own; consecutive results share one tool turn.
    const callId = str(s, 'call_id', p);
    if (!callId) fail([...p, 'call_id'], 'must not be empty (GI-T1)');
    const block: Block = { type: 'tool_result', callId, content: readResultContent(s.result, [...p, 'result']) };
    if (s.is_error === true) block.isError = true;
    const last = turns[turns.length - 1];
    if (last?.role === 'tool') last.blocks.push(block);
    else turns.push({ id: `t${turns.length + 1}`, role: 'tool', blocks: [block] });
  });
  flush();

  const transcript: Transcript = {
    format: 'baton.transcript',
    version: 1,
    id: opts.id ?? 'imported',
    source: { kind: GEMINI_INTERACTIONS_API },
    turns,
  };
  const si = body.system_instruction;
  if (si !== undefined && si !== null) {
    if (typeof si !== 'string') fail(['system_instruction'], `expected string (GI-R5), got ${describe(si)}`);
    transcript.system = si;
  }
  const tools = readTools(body.tools);
  if (tools.defs.length) transcript.tools = tools.defs;
  const meta: Meta = {};
  if (tools.server.length) meta.serverTools = { api: GEMINI_INTERACTIONS_API, tools: tools.server };
  if (typeof body.previous_interaction_id === 'string' && body.previous_interaction_id)
    meta.previousInteractionId = body.previous_interaction_id;
  if (Object.keys(meta).length) transcript.meta = meta;
  return decodeTranscript(transcript);
}
