/**
 * Rich answers for trying Baton by hand (`npm run fake-providers`, docs/side-panel.md item 7): streamed
 * Markdown with headings, a list, a table, highlighted code and math; thinking when the request
 * asks for it; a tool call when the request defines tools (and a summary once its result is back);
 * a slow mode to try Stop. Tests keep the short scripted answer: this is used only when the
 * `rich` setting is on (main.ts turns it on) and no reply is queued.
 */
import type { ContractApi } from '../contract';
import type { ScriptedCall, TextReply, ThinkingReply, ToolCallReply } from './types';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Pause between streamed events: quick enough to read along, slow enough to press Stop in slow mode. */
export const RICH_DELAY_MS = { normal: 30, slow: 400 } as const;

/** The Markdown every rich answer shows (all the things the side panel renders). */
export function richMarkdown(prompt: string): string {
  const asked = prompt.trim().replace(/\s+/g, ' ').slice(0, 80);
  return [
    '## A rich answer from the fake provider',
    '',
    asked ? `You asked: *${asked}*. Here is everything Baton renders:` : 'Here is everything Baton renders:',
    '',
    '- **Bold**, *italic*, `inline code` and a [link](https://example.com)',
    '- A nested list:',
    '  1. first',
    '  2. second',
    '',
    '### A table',
    '',
    '| Provider | API | Thinking |',
    '| --- | --- | --- |',
    '| OpenAI | Responses | reasoning items |',
    '| Anthropic | Messages | thinking blocks |',
    '| Google | Gemini | thought parts |',
    '',
    '### Code',
    '',
    '```ts',
    'export function greet(name: string): string {',
    '  // Template literals keep it short.',
    '  return `Hello, ${name}!`;',
    '}',
    '```',
    '',
    '### Math',
    '',
    'Inline: $a^2 + b^2 = c^2$, and displayed:',
    '',
    '$$e^{i\\pi} + 1 = 0$$',
    '',
    '> Type **slow** in a message to get a slow answer you can stop.',
  ].join('\n');
}

/** Every string inside `v` (depth-first), for the text of a message whatever its shape. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (isObj(v))
    for (const [k, x] of Object.entries(v))
      if (k !== 'type' && k !== 'role' && k !== 'signature' && k !== 'thoughtSignature') strings(x, out);
  return out;
}

/** The request's last message (or input item) in each API's shape. */
function lastMessage(api: ContractApi, body: Obj): unknown {
  if (api === 'gemini-generate-content') return arr(body.contents).at(-1);
  if (api === 'openai-responses' || api === 'gemini-interactions')
    return typeof body.input === 'string' ? body.input : arr(body.input).at(-1);
  return arr(body.messages).at(-1);
}

/** The tools a request defines: name and JSON Schema of its arguments. */
export function requestTools(api: ContractApi, body: Obj): { name: string; schema: Obj }[] {
  const out: { name: string; schema: Obj }[] = [];
  for (const t of arr(body.tools)) {
    if (!isObj(t)) continue;
    if (api === 'gemini-generate-content') {
      for (const d of arr(t.functionDeclarations))
        if (isObj(d) && typeof d.name === 'string')
          out.push({
            name: d.name,
            schema: isObj(d.parameters) ? d.parameters : isObj(d.parametersJsonSchema) ? d.parametersJsonSchema : {},
          });
    } else if (api === 'openai-chat') {
      const f = t.function;
      if (isObj(f) && typeof f.name === 'string')
        out.push({ name: f.name, schema: isObj(f.parameters) ? f.parameters : {} });
    } else if (typeof t.name === 'string') {
      out.push({
        name: t.name,
        schema: isObj(t.input_schema) ? t.input_schema : isObj(t.parameters) ? t.parameters : {},
      });
    }
  }
  return out;
}

/** True when the last message carries a tool result (the model's call was answered). */
function endsWithToolResult(api: ContractApi, last: unknown): boolean {
  if (!isObj(last)) return false;
  if (api === 'openai-chat') return last.role === 'tool';
  if (api === 'openai-responses') return last.type === 'function_call_output';
  if (api === 'gemini-interactions') return last.type === 'function_result';
  if (api === 'gemini-generate-content')
    return arr(last.parts).some((p) => isObj(p) && p.functionResponse !== undefined);
  return arr(last.content).some((b) => isObj(b) && b.type === 'tool_result');
}

/** The request asks for reasoning (Anthropic `thinking`, Responses `reasoning`, Gemini `thinkingConfig`); Chat never shows it. */
export function wantsThinking(api: ContractApi, body: Obj): boolean {
  if (api === 'anthropic-messages') return isObj(body.thinking) && body.thinking.type !== 'disabled';
  if (api === 'openai-responses')
    return isObj(body.reasoning) && body.reasoning.effort !== 'none' && body.reasoning.effort !== 'minimal';
  if (api === 'gemini-generate-content') {
    const cfg = isObj(body.generationConfig) ? body.generationConfig.thinkingConfig : undefined;
    return isObj(cfg) && cfg.thinkingBudget !== 0;
  }
  if (api === 'gemini-interactions')
    return isObj(body.generation_config) && body.generation_config.thinking_summaries === 'auto';
  return false;
}

/** Plausible arguments for a JSON Schema: each required (else first) property with a value of its type. */
function sampleArguments(schema: Obj): Obj {
  const props = isObj(schema.properties) ? schema.properties : {};
  const names = arr(schema.required).filter((n): n is string => typeof n === 'string');
  const out: Obj = {};
  for (const name of names.length ? names : Object.keys(props).slice(0, 1)) {
    const p = isObj(props[name]) ? (props[name] as Obj) : {};
    const type = Array.isArray(p.type) ? p.type[0] : p.type;
    out[name] =
      Array.isArray(p.enum) && p.enum.length
        ? p.enum[0]
        : type === 'number' || type === 'integer'
          ? 1
          : type === 'boolean'
            ? true
            : type === 'array'
              ? []
              : type === 'object'
                ? {}
                : 'example';
  }
  return out;
}

/** Words in small pieces, so a stream visibly grows. */
export function smallChunks(text: string, wordsPer = 3): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [text];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += wordsPer) out.push(words.slice(i, i + wordsPer).join(''));
  return out;
}

/**
 * The rich reply to one request: a tool call when tools are defined and no result came back yet,
 * else the rich Markdown (after thinking when asked). `slow`: always slow; otherwise a message
 * containing the word "slow" is.
 */
export function richReply(
  api: ContractApi,
  body: unknown,
  opts: { slow?: boolean } = {},
): TextReply | ToolCallReply | ThinkingReply {
  const b = isObj(body) ? body : {};
  const last = lastMessage(api, b);
  const prompt = endsWithToolResult(api, last) ? '' : strings(last).join(' ');
  const slow = opts.slow === true || /\bslow\b/i.test(prompt);
  const delayMs = slow ? RICH_DELAY_MS.slow : RICH_DELAY_MS.normal;
  const tools = requestTools(api, b);
  if (tools.length && !endsWithToolResult(api, last)) {
    const calls: ScriptedCall[] = tools
      .slice(0, 2)
      .map((t) => ({ name: t.name, arguments: sampleArguments(t.schema) }));
    return { kind: 'tool-call', calls, text: `Let me use ${calls.map((c) => c.name).join(' and ')} first.`, delayMs };
  }
  const text = endsWithToolResult(api, last) ? `The tool answered. ${richMarkdown('')}` : richMarkdown(prompt);
  const chunks = smallChunks(text, slow ? 1 : 3);
  if (wantsThinking(api, b)) {
    return {
      kind: 'thinking',
      thinking:
        'The person wants to see what Baton renders. I will show a heading, a list, a table, code and math, in that order.',
      signature: `fakesig${Buffer.from(prompt.slice(0, 24)).toString('base64').replace(/=+$/, '')}`,
      text,
      chunks,
      delayMs,
    };
  }
  return { kind: 'text', text, chunks, delayMs };
}
