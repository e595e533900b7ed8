/**
 * A linearised ChatGPT branch → Baton turns. Users' messages become user turns; the assistant's
 * messages (text, code as fenced Markdown, `thoughts` and `reasoning_recap` as thinking, messages
 * addressed to a tool as `tool_call`) join one assistant turn until a user or tool message comes;
 * a `tool` author's message answers the oldest open call (of the same tool name when there is one)
 * as a `tool` turn's `tool_result`. System and hidden nodes are skipped.
 */
import type { Block, Origin, ToolCallBlock, Turn } from '../transcript/schema';
import type { ChatNode } from './chatgpt-tree';
import { applyCitations, contentText, fencedCode, partsTexts, thoughtTexts, toolCallInput } from './chatgpt-content';
import { isoFromSeconds, isRecord, str, type JsonObject } from './common';

/** The origin of every ChatGPT assistant turn: captured web output, nothing replayable. */
export function chatgptOrigin(model: string | undefined): Origin {
  return { provider: 'chatgpt-web', api: 'web', model: model ?? 'chatgpt' };
}

/** Content types that are settings, not conversation (hidden in the app). */
const CONTEXT_TYPES = new Set(['user_editable_context', 'model_editable_context']);

const text = (t: string): Block => ({ type: 'text', text: t });

class TurnBuilder {
  readonly turns: Turn[] = [];

  constructor(private readonly warnings: string[]) {}

  /** Calls of the current exchange that no tool message has answered yet. */
  private pending: ToolCallBlock[] = [];

  private last(): Turn | undefined {
    return this.turns[this.turns.length - 1];
  }

  user(node: ChatNode, content: JsonObject, createdAt: string | undefined): void {
    this.pending = [];
    const texts =
      str(content.content_type) === 'code'
        ? [fencedCode(String(content.text ?? ''), str(content.language))]
        : partsTexts(content.parts);
    if (!texts.length) {
      const other = contentText(content);
      if (other.trim()) texts.push(other);
    }
    if (!texts.length) return;
    const turn: Turn = { id: node.key, role: 'user', blocks: texts.map(text) };
    if (createdAt) turn.createdAt = createdAt;
    this.turns.push(turn);
  }

  /** The assistant turn to add to: the last turn when it is one, else a new one for `node`. */
  private assistantTurn(node: ChatNode, msg: JsonObject, createdAt: string | undefined): Turn {
    const slug = isRecord(msg.metadata) ? str(msg.metadata.model_slug) : undefined;
    const last = this.last();
    if (last && last.role === 'assistant') {
      if (slug && last.origin?.model === 'chatgpt') last.origin = chatgptOrigin(slug);
      return last;
    }
    const turn: Turn = { id: node.key, role: 'assistant', origin: chatgptOrigin(slug), blocks: [] };
    if (createdAt) turn.createdAt = createdAt;
    this.turns.push(turn);
    return turn;
  }

  assistant(node: ChatNode, msg: JsonObject, content: JsonObject, createdAt: string | undefined): void {
    const recipient = str(msg.recipient) ?? 'all';
    const type = str(content.content_type);
    const blocks: Block[] = [];
    if (recipient !== 'all' && recipient !== 'assistant') {
      const call: ToolCallBlock = { type: 'tool_call', id: node.key, name: recipient, input: toolCallInput(content) };
      this.pending.push(call);
      blocks.push(call);
    } else if (type === 'thoughts') {
      for (const t of thoughtTexts(content)) blocks.push({ type: 'thinking', text: t, meta: { chatgpt: 'thoughts' } });
    } else if (type === 'reasoning_recap') {
      const recap = contentText(content);
      if (recap.trim()) blocks.push({ type: 'thinking', text: recap, meta: { chatgpt: 'reasoning_recap' } });
    } else if (type === 'code') {
      const code = typeof content.text === 'string' ? content.text : '';
      if (code.trim()) blocks.push(text(fencedCode(code, str(content.language))));
    } else {
      const texts = Array.isArray(content.parts)
        ? partsTexts(content.parts)
        : [contentText(content)].filter((t) => t.trim());
      // docs/security.md: citations become links and a sources list; nothing is dropped without a note.
      const citations = isRecord(msg.metadata) ? msg.metadata.citations : undefined;
      const joined = texts.join('\n\n');
      const cited = texts.length ? applyCitations(joined, citations) : { text: joined };
      if (cited.note) this.warnings.push(`message ${node.key}: ${cited.note}`);
      if (cited.text !== joined) blocks.push(text(cited.text));
      else for (const t of texts) blocks.push(text(t));
    }
    const last = this.last();
    const status = finishState(msg);
    if (!blocks.length && !(last?.role === 'assistant' && status.any)) return;
    const turn = this.assistantTurn(node, msg, createdAt);
    turn.blocks.push(...blocks);
    if (status.interrupted) turn.status = 'interrupted';
    if (status.stopReason) turn.stopReason = status.stopReason;
    if (status.raw) turn.meta = { ...(turn.meta ?? {}), rawStopReason: status.raw };
  }

  tool(node: ChatNode, msg: JsonObject, content: JsonObject, createdAt: string | undefined): void {
    const author = isRecord(msg.author) ? msg.author : {};
    const name = str(author.name) ?? 'tool';
    const output = contentText(content);
    let idx = this.pending.findIndex((c) => c.name === name);
    if (idx < 0 && this.pending.length) idx = 0;
    const last = this.last();
    if (idx >= 0) {
      const call = this.pending.splice(idx, 1)[0]!;
      let turn = last;
      if (!turn || turn.role !== 'tool') {
        turn = { id: node.key, role: 'tool', blocks: [] };
        if (createdAt) turn.createdAt = createdAt;
        this.turns.push(turn);
      }
      turn.blocks.push({ type: 'tool_result', callId: call.id, content: output });
      return;
    }
    const prev = last?.role === 'tool' ? last.blocks[last.blocks.length - 1] : undefined;
    if (prev && prev.type === 'tool_result' && typeof prev.content === 'string') {
      // A second message of the same tool run (e.g. two browser quotes after one mclick).
      if (output.trim()) prev.content = prev.content.trim() ? `${prev.content}\n\n${output}` : output;
      return;
    }
    if (!output.trim()) return;
    // Tool output no call asked for (image generation, internal tools): kept as a web item whose
    // text other models can read as labelled text.
    const turn = this.assistantTurn(node, msg, createdAt);
    turn.blocks.push({
      type: 'provider_item',
      api: 'web',
      item: { author: { role: 'tool', name }, content },
      text: `[${name} output]\n${output}`,
    });
  }
}

function finishState(msg: JsonObject): {
  any: boolean;
  interrupted: boolean;
  stopReason?: Turn['stopReason'];
  raw?: string;
} {
  const details =
    isRecord(msg.metadata) && isRecord(msg.metadata.finish_details) ? msg.metadata.finish_details : undefined;
  const raw = details ? str(details.type) : undefined;
  const interrupted = msg.status === 'in_progress' || raw === 'interrupted';
  const stopReason = raw === 'stop' ? 'end_turn' : raw === 'max_tokens' ? 'max_tokens' : undefined;
  const out: ReturnType<typeof finishState> = { any: interrupted || raw !== undefined, interrupted };
  if (stopReason) out.stopReason = stopReason;
  if (raw) out.raw = raw;
  return out;
}

/** Turns of one linearised branch (see the module comment); `warnings` receives what was dropped. */
export function branchToTurns(nodes: readonly ChatNode[], warnings: string[]): Turn[] {
  const b = new TurnBuilder(warnings);
  const unknownRoles = new Set<string>();
  for (const node of nodes) {
    const msg = node.message;
    if (!msg || !isRecord(msg.content)) continue;
    const role = isRecord(msg.author) ? str(msg.author.role) : undefined;
    if (role === 'system') continue;
    const metadata = isRecord(msg.metadata) ? msg.metadata : {};
    if (metadata.is_visually_hidden_from_conversation === true) continue;
    const content = msg.content;
    if (CONTEXT_TYPES.has(str(content.content_type) ?? '')) continue;
    const createdAt = isoFromSeconds(msg.create_time);
    if (role === 'user') b.user(node, content, createdAt);
    else if (role === 'assistant') b.assistant(node, msg, content, createdAt);
    else if (role === 'tool') b.tool(node, msg, content, createdAt);
    else unknownRoles.add(String(role));
  }
  if (unknownRoles.size) warnings.push(`messages with unknown author roles skipped: ${[...unknownRoles].join(', ')}`);
  return b.turns;
}
