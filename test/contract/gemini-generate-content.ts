/**
 * Contract validator for Gemini `generateContent` / `streamGenerateContent` request bodies
 * (Gemini API and Vertex), written from ../shared/docs/provider-rules.md §0, §4 and §7 only.
 * The model is part of the URL, so callers pass it in `opts.model`.
 */
import { checkLoneSurrogates, checkPortableToolName, isRecord, Sink, type Path } from './common';
import { checkPart, pick, type PartContext, type PartInfo } from './gemini-parts';
import type { Violation } from './types';

/** Options of {@link validateGeminiGenerateContentRequest}. */
export interface GeminiValidateOptions {
  /** Model id from the URL (`gemini-3-flash-preview`, `models/gemini-2.5-flash`, …). */
  model: string;
  /** Vertex AI (V-G1): no functionCall/functionResponse ids. */
  vertex?: boolean;
}

/** G-T4: `@google/genai` declaration names (letter or `_` first; dots and colons; ≤ 128). */
const DECLARATION_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$/;
/** G-T4: parameter names. */
const PARAMETER_NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/;
const CALLING_MODES = new Set(['AUTO', 'ANY', 'NONE', 'VALIDATED', 'MODE_UNSPECIFIED']);
const SEARCH_TOOLS = ['googleSearch', 'googleSearchRetrieval'];

interface TurnInfo {
  role: string;
  calls: { j: number; name: unknown; id: unknown; signed: boolean }[];
  responses: { j: number; name: unknown; id: unknown }[];
  hasText: boolean;
}

/** True for Gemini 3 model ids (signature rules G-K1..G-K3, functionResponse.parts G-I3). */
export function isGemini3(model: string): boolean {
  return /^gemini-3/.test(model.slice(model.lastIndexOf('/') + 1));
}

/**
 * Validates a Gemini generateContent request body. Returns every violation (empty when valid);
 * never throws. Rules: G-R1, G-R2, G-R5, G-E1, G-T1..G-T5, G-T7, G-T8 (Gemini API), G-K1..G-K3
 * (Gemini 3 only; G-K12 text), G-G1 (Gemini 3.5+), G-I1, G-I3, X1, X4, X5, X6 and body shape
 * (`G-SHAPE`). 2026 rules from ../shared/docs/provider-rules-2026-gemini.md §4b. G-R6 and G-T6 are recommendations / [INF]
 * and are not enforced.
 */
export function validateGeminiGenerateContentRequest(body: unknown, opts: GeminiValidateOptions): Violation[] {
  const sink = new Sink();
  if (!isRecord(body)) {
    sink.add('G-SHAPE', [], 'request body must be a JSON object');
    return sink.list;
  }
  checkLoneSurrogates(body, sink); // X6
  const gemini3 = isGemini3(opts.model);
  const vertex = opts.vertex ?? false;
  const sys = pick(body, 'systemInstruction');
  if (sys) checkSystemInstruction(sys, { role: 'system', gemini3, vertex }, sink);
  const searchTool = checkTools(body.tools, sink);
  const cfg = pick(body, 'toolConfig');
  if (cfg) checkToolConfig(cfg, sink);
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) {
    sink.add('G-E1', ['contents'], 'contents is not specified');
    return sink.list;
  }
  const turns = contents.map((c, i) => checkContent(c, i, { gemini3, vertex }, sink));
  checkTurnOrder(turns, sink);
  if (!vertex) checkCallIds(turns, sink);
  if (gemini3) checkSignatures(turns, sink);
  checkGenerationConfig(body, opts.model, vertex, sink);
  // G-T5: function-call history fails when a search tool is enabled too.
  if (searchTool !== undefined && turns.some((t) => t.calls.length + t.responses.length > 0)) {
    sink.add(
      'G-T5',
      ['tools', searchTool],
      'Tool use with function calling is unsupported together with Google Search',
    );
  }
  return sink.list;
}

function checkSystemInstruction([key, v]: [string, unknown], ctx: PartContext, sink: Sink): void {
  if (!isRecord(v) || !Array.isArray(v.parts))
    return sink.add('G-R1', [key], 'systemInstruction must be a Content with `parts`');
  if (v.parts.length === 0) sink.add('G-E1', [key, 'parts'], 'contents.parts must not be empty');
  v.parts.forEach((p, j) => checkPart(p, [key, 'parts', j], ctx, sink));
}

/** G-T4 declaration and parameter names, X5 portable names. Returns the index of a search tool. */
function checkTools(tools: unknown, sink: Sink): number | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) {
    sink.add('G-SHAPE', ['tools'], '`tools` must be an array');
    return undefined;
  }
  let search: number | undefined;
  tools.forEach((t, k) => {
    if (!isRecord(t)) return sink.add('G-SHAPE', ['tools', k], 'tool must be an object');
    if (SEARCH_TOOLS.some((s) => pick(t, s))) search = k;
    const decls = pick(t, 'functionDeclarations');
    if (!decls) return;
    if (!Array.isArray(decls[1]))
      return sink.add('G-SHAPE', ['tools', k, decls[0]], 'functionDeclarations must be an array');
    decls[1].forEach((d, n) => {
      const at: Path = ['tools', k, decls[0], n];
      if (!isRecord(d)) return sink.add('G-SHAPE', at, 'function declaration must be an object');
      if (typeof d.name !== 'string' || !DECLARATION_NAME.test(d.name)) {
        sink.add(
          'G-T4',
          [...at, 'name'],
          'name must start with a letter or underscore; a-z, A-Z, 0-9, _ . : -; at most 128',
        );
      } else {
        checkPortableToolName(d.name, [...at, 'name'], sink);
      }
      if (d.description !== undefined && d.description !== null && typeof d.description !== 'string') {
        sink.add('G-SHAPE', [...at, 'description'], '`description` must be a string');
      }
      if (d.parameters === undefined || d.parameters === null) return;
      if (!isRecord(d.parameters))
        return sink.add('G-SHAPE', [...at, 'parameters'], '`parameters` must be a Schema object');
      const props = d.parameters.properties;
      if (!isRecord(props)) return;
      for (const p of Object.keys(props)) {
        if (!PARAMETER_NAME.test(p))
          sink.add(
            'G-T4',
            [...at, 'parameters', 'properties', p],
            'parameter names start with a letter or _, then [a-zA-Z0-9_], at most 64',
          );
      }
    });
  });
  return search;
}

function checkToolConfig([key, v]: [string, unknown], sink: Sink): void {
  if (!isRecord(v)) return sink.add('G-SHAPE', [key], 'toolConfig must be an object');
  const fcc = pick(v, 'functionCallingConfig');
  if (!fcc) return;
  const at: Path = [key, fcc[0]];
  if (!isRecord(fcc[1])) return sink.add('G-SHAPE', at, 'functionCallingConfig must be an object');
  const mode = fcc[1].mode;
  if (mode !== undefined && (typeof mode !== 'string' || !CALLING_MODES.has(mode)))
    sink.add('G-SHAPE', [...at, 'mode'], 'mode must be AUTO, ANY, NONE or VALIDATED');
  const names = pick(fcc[1], 'allowedFunctionNames');
  if (names && !(Array.isArray(names[1]) && names[1].every((n) => typeof n === 'string'))) {
    sink.add('G-SHAPE', [...at, names[0]], 'allowedFunctionNames must be an array of strings');
  }
}

/** G-R1 roles, G-E1 non-empty parts, X4 at least one meaningful part; per-part checks. */
function checkContent(c: unknown, i: number, base: Omit<PartContext, 'role'>, sink: Sink): TurnInfo {
  const at: Path = ['contents', i];
  const turn: TurnInfo = { role: 'user', calls: [], responses: [], hasText: false };
  if (!isRecord(c)) {
    sink.add('G-SHAPE', at, 'content must be an object');
    return turn;
  }
  if (c.role !== undefined && c.role !== 'user' && c.role !== 'model') {
    sink.add('G-R1', [...at, 'role'], `role must be either 'user' or 'model', got ${JSON.stringify(c.role)}`);
  }
  turn.role = c.role === 'model' ? 'model' : c.role === undefined || c.role === 'user' ? 'user' : String(c.role);
  if (!Array.isArray(c.parts) || c.parts.length === 0) {
    sink.add('G-E1', [...at, 'parts'], 'contents.parts must not be empty');
    return turn;
  }
  const infos: PartInfo[] = c.parts.map((p, j) =>
    checkPart(p, [...at, 'parts', j], { ...base, role: turn.role }, sink),
  );
  infos.forEach((p, j) => {
    if (p.call) turn.calls.push({ j, ...p.call, signed: p.signed });
    if (p.response) turn.responses.push({ j, ...p.response });
    if (p.text !== undefined) turn.hasText = true;
  });
  // X4: never a turn that holds nothing but blank, unsigned text (user parts are flagged one by one).
  if (turn.role === 'model' && infos.every((p) => p.text !== undefined && p.text.trim() === '' && !p.signed)) {
    sink.add('X4', [...at, 'parts'], 'content holds only empty text parts');
  }
  return turn;
}

/** G-R5 order, G-T2 counts, G-T3 names and ids, X1 unanswered calls. */
function checkTurnOrder(turns: TurnInfo[], sink: Sink): void {
  if (turns[0]!.role !== 'user') sink.add('G-R5', ['contents', 0, 'role'], 'the first content must be a user turn');
  turns.forEach((t, i) => {
    const prev = turns[i - 1];
    const next = turns[i + 1];
    if (t.calls.length > 0) {
      if (!prev || prev.role !== 'user') {
        sink.add(
          'G-R5',
          ['contents', i],
          'function call turn comes immediately after a user turn or after a function response turn',
        );
      }
      if (!next) sink.add('X1', ['contents', i], 'function calls have no function response turn after them');
      else if (next.responses.length === 0) {
        sink.add(
          'G-T2',
          ['contents', i + 1, 'parts'],
          `the number of function response parts (0) must equal the function call parts (${t.calls.length})`,
        );
      }
    }
    if (t.responses.length === 0) return;
    if (!prev || prev.calls.length === 0) {
      sink.add('G-R5', ['contents', i], 'function response turn comes immediately after a function call turn');
      return;
    }
    if (t.responses.length !== prev.calls.length) {
      sink.add(
        'G-T2',
        ['contents', i, 'parts'],
        `the number of function response parts (${t.responses.length}) must equal the function call parts (${prev.calls.length})`,
      );
      return;
    }
    // G-T3: pairing by name; G-T7: by id when the calls carry ids, never by name or position alone.
    const names = prev.calls.map((c) => c.name);
    const ids = prev.calls.map((c) => c.id).filter((id) => id !== undefined);
    for (const r of t.responses) {
      const n = names.indexOf(r.name);
      if (n < 0)
        sink.add(
          'G-T3',
          ['contents', i, 'parts', r.j],
          `functionResponse ${JSON.stringify(r.name)} answers no functionCall of the previous turn`,
        );
      else names.splice(n, 1);
      if (r.id !== undefined && ids.length > 0 && !ids.includes(r.id)) {
        sink.add(
          'G-T7',
          ['contents', i, 'parts', r.j],
          `functionResponse id ${JSON.stringify(r.id)} matches no functionCall id`,
          'functionResponse.id does not match functionCall.id',
        );
      } else if (r.id !== undefined) {
        const c = prev.calls.find((x) => x.id === r.id);
        if (c && c.name !== r.name)
          sink.add(
            'G-T7',
            ['contents', i, 'parts', r.j],
            `functionResponse id ${JSON.stringify(r.id)} names ${JSON.stringify(r.name)}, its call ${JSON.stringify(c.name)}`,
            'functionResponse.id does not match functionCall.id',
          );
      }
    }
  });
}

/**
 * G-T8 (Gemini API, not Vertex): either a call and its response both carry an id or neither
 * does, and ids are unique in the request (two calls, or two responses, with one id cannot be
 * paired).
 */
function checkCallIds(turns: TurnInfo[], sink: Sink): void {
  const seen = { call: new Set<unknown>(), response: new Set<unknown>() };
  turns.forEach((t, i) => {
    for (const [kind, list] of [
      ['call', t.calls],
      ['response', t.responses],
    ] as const)
      for (const x of list) {
        if (x.id === undefined) continue;
        if (seen[kind].has(x.id))
          sink.add(
            'G-T8',
            ['contents', i, 'parts', x.j],
            `a second function${kind === 'call' ? 'Call' : 'Response'} with id ${JSON.stringify(x.id)}: ids must be unique in the request`,
          );
        seen[kind].add(x.id);
      }
    const prev = turns[i - 1];
    if (t.responses.length === 0 || !prev || prev.calls.length !== t.responses.length) return;
    const callIds = prev.calls.filter((c) => c.id !== undefined).length;
    const responseIds = t.responses.filter((r) => r.id !== undefined).length;
    if (callIds !== responseIds) {
      sink.add(
        'G-T8',
        ['contents', i],
        `${callIds} of ${prev.calls.length} calls carry an id but ${responseIds} of their responses do: both sides carry one or neither does`,
      );
    }
  });
}

/** G-K12: the API's exact text for a call without its signature (`default_api:` name, 1-based content position). */
export function missingSignatureText(name: unknown, position: number): string {
  return (
    'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing ' +
    `thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${String(name)}\` , position ${position}. ` +
    'Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.'
  );
}

/**
 * G-K1..G-K3 (Gemini 3): in the current turn (after the last user content holding text), the
 * first functionCall of each model step carries a thoughtSignature (G-K2: only the first). The
 * dummy `skip_thought_signature_validator` is accepted literally and in base64 (G-K12).
 */
function checkSignatures(turns: TurnInfo[], sink: Sink): void {
  let start = 0;
  turns.forEach((t, i) => {
    if (t.role === 'user' && t.hasText) start = i + 1;
  });
  for (let i = start; i < turns.length; i++) {
    const first = turns[i]!.role === 'model' ? turns[i]!.calls[0] : undefined;
    if (first && !first.signed) {
      sink.add(
        'G-K1',
        ['contents', i, 'parts', first.j],
        'Function call is missing a thought_signature in functionCall parts (G-K12)',
        missingSignatureText(first.name, i + 1),
      );
    }
  }
}

/** `major.minor` of a Gemini model id (`gemini-3.5-flash` → 3.5), 0 when unreadable. */
function geminiVersion(model: string): number {
  const m = /^gemini-(\d+)(?:\.(\d+))?/.exec(model.slice(model.lastIndexOf('/') + 1));
  return m ? Number(m[1]) + Number(m[2] ?? 0) / 10 : 0;
}

/**
 * G-G1 (Gemini 3.5 and later): `thinkingConfig.thinkingLevel`, never `thinkingBudget`; no
 * `temperature`, `topP` or `topK`; MINIMAL refused on Pro models and on Vertex.
 */
function checkGenerationConfig(body: Record<string, unknown>, model: string, vertex: boolean, sink: Sink): void {
  if (geminiVersion(model) < 3.5) return;
  const gc = pick(body, 'generationConfig');
  if (!gc || !isRecord(gc[1])) return;
  for (const key of ['temperature', 'topP', 'topK']) {
    const f = pick(gc[1], key);
    if (f) sink.add('G-G1', [gc[0], f[0]], `${key} is not supported on Gemini 3.5 and later`);
  }
  const tc = pick(gc[1], 'thinkingConfig');
  if (!tc || !isRecord(tc[1])) return;
  const budget = pick(tc[1], 'thinkingBudget');
  if (budget)
    sink.add('G-G1', [gc[0], tc[0], budget[0]], 'thinkingBudget is replaced by thinkingLevel on Gemini 3.5 and later');
  const level = pick(tc[1], 'thinkingLevel');
  if (level && level[1] === 'MINIMAL' && (vertex || /-pro/.test(model))) {
    sink.add(
      'G-G1',
      [gc[0], tc[0], level[0]],
      'MINIMAL is not available on this model',
      'Thinking level is unsupported: THINKING_LEVEL_MINIMAL',
    );
  }
}
