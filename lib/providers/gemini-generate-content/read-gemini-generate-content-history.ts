/**
 * A native Gemini `generateContent` request body (`{systemInstruction?, contents, tools?, …}`) →
 * a Baton transcript (transcript-v1.md, `baton convert --from gemini-generate-content`).
 */
import { assertNoPrototypeKeys, decodeTranscript, type JsonPath } from '../../transcript/codec';
import type { Block, Meta, ToolDefinition, Transcript, Turn } from '../../transcript/schema';
import type { HistoryReadOptions } from '../types';
import {
  GEMINI_API,
  describe,
  fail,
  isObject,
  partView,
  readFunctionResponse,
  readMedia,
  readModelPart,
  str,
  type JsonObject,
} from './read-gemini-generate-content-parts';

/** `systemInstruction` (a Content, or a plain string as `@google/genai` allows) → text parts joined with blank lines. */
function readSystem(body: JsonObject): { text: string; native?: unknown } | undefined {
  const key = body.systemInstruction !== undefined ? 'systemInstruction' : 'system_instruction';
  const si = body[key];
  if (si === undefined || si === null) return undefined;
  if (typeof si === 'string') return { text: si };
  if (!isObject(si) || !Array.isArray(si.parts)) return fail([key, 'parts'], 'required array missing');
  const texts = si.parts.map((p: unknown, i: number) => {
    if (!isObject(p) || typeof p.text !== 'string') return fail([key, 'parts', i, 'text'], 'expected a text part');
    return p.text;
  });
  const plain = si.parts.length === 1 && Object.keys(si.parts[0] as object).length === 1;
  return plain ? { text: texts.join('\n\n') } : { text: texts.join('\n\n'), native: si };
}

/** `functionDeclarations` → ToolDefinition (`parametersJsonSchema`, else `parameters`); other tools → meta. */
function readTools(tools: unknown): { defs: ToolDefinition[]; server: unknown[] } {
  const defs: ToolDefinition[] = [];
  const server: unknown[] = [];
  if (tools === undefined || tools === null) return { defs, server };
  if (!Array.isArray(tools)) return fail(['tools'], `expected array, got ${describe(tools)}`);
  tools.forEach((tool, i) => {
    if (!isObject(tool)) fail(['tools', i], `expected object, got ${describe(tool)}`);
    const key = tool.functionDeclarations !== undefined ? 'functionDeclarations' : 'function_declarations';
    const decls = tool[key];
    const others = Object.keys(tool).filter((k) => k !== key);
    if (others.length) server.push(decls === undefined ? tool : Object.fromEntries(others.map((k) => [k, tool[k]])));
    if (decls === undefined) return;
    if (!Array.isArray(decls)) fail(['tools', i, key], `expected array, got ${describe(decls)}`);
    decls.forEach((d: unknown, j: number) => {
      const p = ['tools', i, key, j];
      if (!isObject(d)) fail(p, `expected object, got ${describe(d)}`);
      const name = str(d, 'name', p);
      if (!name) fail([...p, 'name'], 'must not be empty');
      const schema = d.parametersJsonSchema ?? d.parameters_json_schema ?? d.parameters;
      if (schema !== undefined && schema !== null && !isObject(schema))
        fail([...p, 'parameters'], `expected object, got ${describe(schema)}`);
      const def: ToolDefinition = { name, inputSchema: schema ?? { type: 'object', properties: {} } };
      if (typeof d.description === 'string') def.description = d.description;
      defs.push(def);
    });
  });
  return { defs, server };
}

/** Calls of the latest model turn, for pairing function responses that carry no id (G-T3). */
interface PendingCall {
  id: string;
  name: string;
  used: boolean;
}

/**
 * Reads a Gemini request body into a Baton transcript: `systemInstruction` → `system` (text parts
 * joined with blank lines; a richer Content kept in `meta.nativeSystem`), `functionDeclarations`
 * → `tools` (other tools such as `googleSearch` in `meta.serverTools`), user contents → `user`
 * turns, `functionResponse` parts → `tool` turns (text sharing the content becomes the next user
 * turn), `model` contents → `assistant` turns with `origin = {provider: opts.provider ??
 * "google", api: "gemini-generate-content", model: opts.model ?? body.model}` and `native =
 * {api, payload: <the content's parts>}`. `thoughtSignature` stays on the block of its own part
 * (G-K1), also on empty text parts (G-E2). A function call without an id gets `<name>_<n>` (`n`
 * counts the generated ids of the transcript, so they are unique) with `meta.generatedId: true`,
 * and a response without an id is paired with the first unanswered call of that name in the
 * preceding model turn. Snake_case spellings (`function_call`, `inline_data`, …) are accepted.
 * Turn ids are `t1`, `t2`, …; the transcript id is `opts.id ?? "imported"`.
 * @throws TranscriptError naming the JSON path (e.g. `contents[2].parts[0]`) for a body that is
 *   not an object, a wrong role, a missing field, a part that cannot be kept, a model content when
 *   no model is known, or a `__proto__`-style key (I2).
 */
export function readGeminiGenerateContentHistory(body: unknown, opts: HistoryReadOptions = {}): Transcript {
  if (!isObject(body)) return fail([], `expected a Gemini generateContent request body object, got ${describe(body)}`);
  assertNoPrototypeKeys(body);
  if (!Array.isArray(body.contents))
    fail(
      ['contents'],
      body.contents === undefined ? 'required array missing' : `expected array, got ${describe(body.contents)}`,
    );
  const model =
    opts.model ?? (typeof body.model === 'string' && body.model ? body.model.replace(/^models\//, '') : undefined);
  const provider = opts.provider ?? 'google';

  const turns: Turn[] = [];
  let generated = 0;
  let pending: PendingCall[] = [];

  body.contents.forEach((c: unknown, i: number) => {
    const p: JsonPath = ['contents', i];
    if (!isObject(c)) fail(p, `expected object, got ${describe(c)}`);
    if (!Array.isArray(c.parts))
      fail(
        [...p, 'parts'],
        c.parts === undefined ? 'required array missing' : `expected array, got ${describe(c.parts)}`,
      );
    const role = c.role ?? 'user'; // G-R1: the service defaults a missing role to user
    if (role === 'model') {
      if (!model) fail(['model'], 'no model known for the model turns: pass a model or include "model" in the body');
      const blocks = c.parts.map((part: unknown, j: number) =>
        readModelPart(part, [...p, 'parts', j], (name) => ({ id: `${name}_${generated++}`, generated: true })),
      );
      pending = blocks.flatMap((b) => (b.type === 'tool_call' ? [{ id: b.id, name: b.name, used: false }] : []));
      turns.push({
        id: `t${turns.length + 1}`,
        role: 'assistant',
        origin: { provider, api: GEMINI_API, model },
        blocks,
        native: { api: GEMINI_API, payload: c.parts },
      });
      return;
    }
    if (role !== 'user' && role !== 'function')
      fail([...p, 'role'], `expected "user" | "model", got ${describe(role)}`);
    // One content → user and tool segments in order (function responses become a tool turn).
    const segments: { role: 'user' | 'tool'; blocks: Block[] }[] = [];
    const add = (segRole: 'user' | 'tool', block: Block) => {
      const last = segments[segments.length - 1];
      if (last && last.role === segRole) last.blocks.push(block);
      else segments.push({ role: segRole, blocks: [block] });
    };
    c.parts.forEach((part: unknown, j: number) => {
      const pp = [...p, 'parts', j];
      if (!isObject(part)) fail(pp, `expected object, got ${describe(part)}`);
      const v = partView(part);
      if (v.functionResponse !== undefined) {
        if (!isObject(v.functionResponse))
          fail([...pp, 'functionResponse'], `expected object, got ${describe(v.functionResponse)}`);
        const fr = v.functionResponse;
        const name = str(fr, 'name', [...pp, 'functionResponse']);
        let callId = typeof fr.id === 'string' && fr.id ? fr.id : undefined;
        const match = pending.find((call) => !call.used && (callId ? call.id === callId : call.name === name));
        if (match) match.used = true;
        callId ??= match?.id;
        const block = readFunctionResponse(fr, [...pp, 'functionResponse'], callId ?? `${name}_${generated++}`);
        if (!callId) block.meta = { ...block.meta, generatedId: true, unmatched: true };
        return add('tool', block);
      }
      if (role === 'function') return fail(pp, 'a "function" content may hold only functionResponse parts');
      if (typeof v.text === 'string') {
        if (v.thought === true) return fail([...pp, 'thought'], 'thought parts cannot be kept in a user turn');
        return add('user', { type: 'text', text: v.text });
      }
      if (v.text !== undefined) return fail([...pp, 'text'], `expected string, got ${describe(v.text)}`);
      if (v.inlineData !== undefined || v.fileData !== undefined) return add('user', readMedia(v, pp));
      return fail(pp, `part with keys ${JSON.stringify(Object.keys(part))} cannot be kept in a user turn`);
    });
    for (const seg of segments) turns.push({ id: `t${turns.length + 1}`, role: seg.role, blocks: seg.blocks });
  });

  const transcript: Transcript = {
    format: 'baton.transcript',
    version: 1,
    id: opts.id ?? 'imported',
    source: { kind: GEMINI_API },
    turns,
  };
  const system = readSystem(body);
  if (system) transcript.system = system.text;
  const tools = readTools(body.tools);
  if (tools.defs.length) transcript.tools = tools.defs;
  const meta: Meta = {};
  if (system?.native !== undefined) meta.nativeSystem = { api: GEMINI_API, payload: system.native };
  if (tools.server.length) meta.serverTools = { api: GEMINI_API, tools: tools.server };
  if (Object.keys(meta).length) transcript.meta = meta;
  return decodeTranscript(transcript);
}
