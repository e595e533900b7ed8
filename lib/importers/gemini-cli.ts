/**
 * `gemini-cli`: a Gemini CLI chat recording (see `readGeminiCliSession` for both file formats).
 * `user` messages → user turns; `gemini` messages → an assistant turn (thought summaries as
 * thinking, text, `toolCalls[]` as `tool_call`) followed by a tool turn with each call's recorded
 * result (`functionResponse` parts) as `tool_result`. `info` / `error` / `warning` messages are the
 * CLI's own notices and are counted in a warning.
 */
import { TranscriptError } from '../transcript/codec';
import type { Block, ToolCallBlock, ToolResultBlock, ToolResultContentBlock, Turn, Usage } from '../transcript/schema';
import { Collector, contentHash, firstUserText, isoFromString, isRecord, str, type JsonObject } from './common';
import { sessionTitleOf } from './session-title';
import { readGeminiCliSession } from './gemini-cli-records';
import { droppedKeysWarning } from './safe-json';
import type { ImportOptions, ImportResult } from './types';

/** A `PartListUnion` (string, one part, or a list of strings and parts) → a list of parts. */
function partList(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** Text, image and document blocks of user-side parts; other parts are named in `warnings`. */
function mediaBlocks(parts: unknown[], where: string, warnings: string[]): Block[] {
  const out: Block[] = [];
  for (const p of parts) {
    if (typeof p === 'string') {
      if (p.trim()) out.push({ type: 'text', text: p });
    } else if (isRecord(p) && typeof p.text === 'string') {
      if (p.text.trim()) out.push({ type: 'text', text: p.text });
    } else if (isRecord(p) && isRecord(p.inlineData) && str(p.inlineData.data)) {
      const mediaType = str(p.inlineData.mimeType) ?? 'application/octet-stream';
      out.push(
        mediaType.startsWith('image/')
          ? { type: 'image', mediaType, data: str(p.inlineData.data)! }
          : { type: 'document', mediaType, data: str(p.inlineData.data)! },
      );
    } else if (isRecord(p) && isRecord(p.fileData) && str(p.fileData.fileUri)) {
      const mediaType = str(p.fileData.mimeType) ?? 'application/octet-stream';
      out.push(
        mediaType.startsWith('image/')
          ? { type: 'image', mediaType, url: str(p.fileData.fileUri)! }
          : { type: 'document', mediaType, url: str(p.fileData.fileUri)! },
      );
    } else {
      warnings.push(`${where}: part ${JSON.stringify(Object.keys(isRecord(p) ? p : {}))} not imported`);
    }
  }
  return out;
}

function thoughtText(t: unknown): string | undefined {
  if (typeof t === 'string') return t.trim() ? t : undefined;
  if (!isRecord(t)) return undefined;
  const subject = str(t.subject);
  const description = str(t.description);
  const text = [subject ? `**${subject}**` : undefined, description].filter(Boolean).join('\n\n');
  return text || undefined;
}

function usageOf(tokens: unknown): Usage | undefined {
  if (!isRecord(tokens)) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
  const u: Usage = {};
  const set = (k: keyof Usage, v: unknown) => {
    if (n(v) !== undefined) u[k] = n(v)!;
  };
  set('inputTokens', tokens.input);
  set('outputTokens', tokens.output);
  set('cacheReadTokens', tokens.cached);
  set('reasoningTokens', tokens.thoughts);
  return Object.keys(u).length ? u : undefined;
}

/** The recorded result of one tool call, or undefined when the call has none. */
function toolResult(call: ToolCallBlock, tc: JsonObject): ToolResultBlock | undefined {
  const content: ToolResultContentBlock[] = [];
  let isError = tc.status === 'error' || tc.status === 'cancelled';
  for (const p of partList(tc.result)) {
    if (typeof p === 'string') content.push({ type: 'text', text: p });
    else if (isRecord(p) && isRecord(p.functionResponse)) {
      const r = p.functionResponse.response;
      if (isRecord(r) && r.error !== undefined) isError = true;
      const text =
        isRecord(r) && typeof r.output === 'string' && Object.keys(r).length === 1
          ? r.output
          : isRecord(r) && typeof r.error === 'string' && Object.keys(r).length === 1
            ? r.error
            : JSON.stringify(r ?? {});
      content.push({ type: 'text', text });
    } else if (isRecord(p) && typeof p.text === 'string') content.push({ type: 'text', text: p.text });
    else if (
      isRecord(p) &&
      isRecord(p.inlineData) &&
      str(p.inlineData.data) &&
      (str(p.inlineData.mimeType) ?? '').startsWith('image/')
    )
      content.push({ type: 'image', mediaType: str(p.inlineData.mimeType)!, data: str(p.inlineData.data)! });
  }
  if (!content.length) {
    if (!isError) return undefined;
    content.push({
      type: 'text',
      text: `[tool call ${str(tc.status) ?? 'failed'}${typeof tc.resultDisplay === 'string' && tc.resultDisplay ? `: ${tc.resultDisplay}` : ''}]`,
    });
  }
  const block: ToolResultBlock = {
    type: 'tool_result',
    callId: call.id,
    content: content.every((c) => c.type === 'text')
      ? content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
      : content,
  };
  if (isError) block.isError = true;
  return block;
}

/** Turns of one `gemini` message: the assistant turn, then a tool turn with the recorded results. */
function geminiTurns(m: JsonObject, id: string, warnings: string[]): Turn[] {
  const blocks: Block[] = [];
  for (const t of Array.isArray(m.thoughts) ? m.thoughts : []) {
    const text = thoughtText(t);
    if (text) blocks.push({ type: 'thinking', text });
  }
  blocks.push(
    ...mediaBlocks(partList(m.content), `message ${id}`, warnings).filter(
      (b) => b.type === 'text' || b.type === 'image',
    ),
  );
  const results: ToolResultBlock[] = [];
  (Array.isArray(m.toolCalls) ? m.toolCalls : []).forEach((tc, k) => {
    if (!isRecord(tc)) return;
    const call: ToolCallBlock = {
      type: 'tool_call',
      id: str(tc.id) ?? `${id}-call-${k}`,
      name: str(tc.name) ?? 'tool',
      input: isRecord(tc.args) ? tc.args : {},
    };
    blocks.push(call);
    const r = toolResult(call, tc);
    if (r) results.push(r);
  });
  const turn: Turn = {
    id,
    role: 'assistant',
    origin: { provider: 'google', api: 'gemini-generate-content', model: str(m.model) ?? 'unknown' },
    blocks,
  };
  const createdAt = isoFromString(m.timestamp);
  if (createdAt) turn.createdAt = createdAt;
  const usage = usageOf(m.tokens);
  if (usage) turn.usage = usage;
  if (results.length) turn.stopReason = 'tool_use';
  const out = [turn];
  if (results.length)
    out.push({ id: `${id}-results`, role: 'tool', blocks: results, ...(createdAt ? { createdAt } : {}) });
  return out;
}

/**
 * Imports one recording as `gemini-cli:<sessionId>` (source `{kind: "gemini-cli", id}`);
 * assistant turns have origin `{provider: "google", api: "gemini-generate-content", model}`
 * (the recording holds no thought signatures, so none are replayed).
 * @throws TranscriptError when the text is not a Gemini CLI recording.
 */
export function importGeminiCli(text: string, opts: ImportOptions = {}): ImportResult {
  const session = readGeminiCliSession(text);
  const sourceId = session.sessionId ?? `h${contentHash(text)}`;
  const collector = new Collector('gemini-cli', opts, droppedKeysWarning(session.droppedKeys));
  collector.add({ sourceId }, () => {
    const warnings = [...session.warnings];
    const turns: Turn[] = [];
    const used = new Set<string>();
    const notices = new Map<string, number>();
    session.messages.forEach((m, i) => {
      let id = str(m.id) ?? `message-${i}`;
      while (used.has(id)) id += '_';
      used.add(id);
      if (m.type === 'user') {
        const blocks = mediaBlocks(partList(m.content), `message ${id}`, warnings);
        const createdAt = isoFromString(m.timestamp);
        if (blocks.length) turns.push({ id, role: 'user', blocks, ...(createdAt ? { createdAt } : {}) });
      } else if (m.type === 'gemini') turns.push(...geminiTurns(m, id, warnings));
      else notices.set(String(m.type), (notices.get(String(m.type)) ?? 0) + 1);
    });
    if (notices.size)
      warnings.push(`CLI notices not imported: ${[...notices].map(([t, n]) => `${t} ×${n}`).join(', ')}`);
    if (!turns.length) throw new TranscriptError('messages', 'no user or gemini messages');
    const title = session.summary ?? sessionTitleOf(firstUserText(turns));
    const createdAt = isoFromString(session.startTime);
    return { sourceId, turns, warnings, ...(title ? { title } : {}), ...(createdAt ? { createdAt } : {}) };
  });
  return collector.result();
}
