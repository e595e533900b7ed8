/**
 * One claude.ai export message → turns. Human messages: their text, attachments (extracted text,
 * fenced and labelled with the file name) and files (placeholders: the export holds no file bytes).
 * Assistant messages: text, thinking, `tool_use` → `tool_call`; a `tool_result` inside the message
 * splits it into assistant turn, tool turn, assistant turn, so calls and results stay calls and
 * results.
 */
import type { Block, Origin, ToolCallBlock, ToolResultContentBlock, Turn } from '../transcript/schema';
import { fenced } from '../transcript/text';
import { isoFromString, isRecord, str, type JsonObject } from './common';

/** The origin of every claude.ai assistant turn: captured web output, nothing replayable. */
export const CLAUDE_WEB_ORIGIN: Readonly<Origin> = { provider: 'claude-web', api: 'web', model: 'claude' };

function uniqueId(base: string, used: Set<string>): string {
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}#${n}`;
  used.add(id);
  return id;
}

function attachmentBlocks(m: JsonObject): Block[] {
  const out: Block[] = [];
  for (const a of Array.isArray(m.attachments) ? m.attachments : []) {
    if (!isRecord(a)) continue;
    const name = str(a.file_name) ?? 'attachment';
    const type = str(a.file_type);
    const label = `[Attachment ${name}${type ? ` (${type})` : ''}]`;
    const body = typeof a.extracted_content === 'string' ? a.extracted_content : '';
    out.push({
      type: 'text',
      text: body.trim() ? fenced(label, body) : `${label.slice(0, -1)}: its content is not in the export]`,
    });
  }
  for (const key of ['files', 'files_v2'] as const) {
    for (const f of Array.isArray(m[key]) ? m[key] : []) {
      if (!isRecord(f)) continue;
      out.push({
        type: 'text',
        text: `[File ${str(f.file_name) ?? str(f.file_uuid) ?? 'unnamed'}: not included in the Claude export]`,
      });
    }
  }
  return out;
}

function resultContent(content: unknown): string | ToolResultContentBlock[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return content.map((c): ToolResultContentBlock => {
    if (isRecord(c) && typeof c.text === 'string') return { type: 'text', text: c.text };
    return { type: 'text', text: typeof c === 'string' ? c : JSON.stringify(c) };
  });
}

/**
 * Turns of one message; `used` keeps turn ids unique across the conversation (`<uuid>`,
 * `<uuid>#2`, …) and `warnings` receives what was left out.
 */
export function claudeMessageTurns(m: JsonObject, index: number, used: Set<string>, warnings: string[]): Turn[] {
  const base = str(m.uuid) ?? `message-${index}`;
  const createdAt = isoFromString(m.created_at);
  const content = Array.isArray(m.content) && m.content.length > 0 ? m.content : undefined;
  const stamp = (t: Turn): Turn => (createdAt ? { ...t, createdAt } : t);
  if (m.sender === 'human') {
    const blocks: Block[] = [];
    if (content) {
      for (const b of content)
        if (isRecord(b) && typeof b.text === 'string' && b.text.trim()) blocks.push({ type: 'text', text: b.text });
    } else if (typeof m.text === 'string' && m.text.trim()) blocks.push({ type: 'text', text: m.text });
    blocks.push(...attachmentBlocks(m));
    return blocks.length ? [stamp({ id: uniqueId(base, used), role: 'user', blocks })] : [];
  }
  if (m.sender !== 'assistant') {
    warnings.push(`message ${JSON.stringify(base)} with sender ${JSON.stringify(m.sender)} skipped`);
    return [];
  }
  const turns: Turn[] = [];
  let assistant: Block[] = [];
  const pending: ToolCallBlock[] = [];
  const flush = () => {
    if (assistant.length)
      turns.push(
        stamp({ id: uniqueId(base, used), role: 'assistant', origin: { ...CLAUDE_WEB_ORIGIN }, blocks: assistant }),
      );
    assistant = [];
  };
  const items: unknown[] = content ?? (typeof m.text === 'string' ? [{ type: 'text', text: m.text }] : []);
  items.forEach((b, k) => {
    if (!isRecord(b)) return;
    switch (b.type) {
      case 'text':
        if (typeof b.text === 'string' && b.text.trim()) assistant.push({ type: 'text', text: b.text });
        return;
      case 'thinking': {
        const summaries = Array.isArray(b.summaries)
          ? b.summaries.map((s) => (isRecord(s) ? str(s.summary) : undefined)).filter((s): s is string => !!s)
          : [];
        const text = typeof b.thinking === 'string' && b.thinking.trim() ? b.thinking : summaries.join('\n\n');
        if (text.trim()) assistant.push({ type: 'thinking', text });
        return;
      }
      case 'tool_use': {
        const call: ToolCallBlock = {
          type: 'tool_call',
          id: str(b.id) ?? `${base}-call-${k}`,
          name: str(b.name) ?? 'tool',
          input: b.input === undefined || b.input === null ? {} : (b.input as ToolCallBlock['input']),
        };
        pending.push(call);
        assistant.push(call);
        return;
      }
      case 'tool_result': {
        const id = str(b.tool_use_id);
        const idx = id !== undefined ? pending.findIndex((c) => c.id === id) : 0;
        const call = idx >= 0 ? pending.splice(idx, 1)[0] : undefined;
        const callId = id ?? call?.id;
        if (callId === undefined) {
          warnings.push(`message ${JSON.stringify(base)}: a tool_result with no call to answer was kept as text`);
          const out = resultContent(b.content);
          assistant.push({
            type: 'text',
            text: fenced(
              '[Tool result]',
              typeof out === 'string' ? out : out.map((x) => (x.type === 'text' ? x.text : '')).join('\n'),
            ),
          });
          return;
        }
        flush();
        const result: Block = { type: 'tool_result', callId, content: resultContent(b.content) };
        if (b.is_error === true) result.isError = true;
        const last = turns[turns.length - 1];
        if (last && last.role === 'tool') last.blocks.push(result);
        else turns.push(stamp({ id: uniqueId(`${base}-result`, used), role: 'tool', blocks: [result] }));
        return;
      }
      default:
        if (typeof b.text === 'string' && b.text.trim()) assistant.push({ type: 'text', text: b.text });
        else
          warnings.push(
            `message ${JSON.stringify(base)}: content block of type ${JSON.stringify(b.type)} not imported`,
          );
    }
  });
  flush();
  return turns;
}
