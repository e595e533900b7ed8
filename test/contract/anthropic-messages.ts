/**
 * Contract validator for Anthropic Messages request bodies (`POST /v1/messages`), written from
 * ../shared/docs/provider-rules.md §0 and §1 and provider-rules-2026-anthropic-openai.md §1a–§1c
 * (`anthropic-2026.ts`) only. It judges a body the way the API would,
 * plus Baton's converter contract (see `CONVERTER_CONTRACT_RULES` in `common.ts`).
 */
import { checkMessages2026, checkRequest2026, opensWithCompaction } from './anthropic-2026';
import { ANTHROPIC_TOOL_NAME, checkBlock, isServerToolResult, type BlockStats } from './anthropic-blocks';
import {
  checkLoneSurrogates,
  checkPortableToolName,
  isBlank,
  isNonEmptyString,
  isPositiveInteger,
  isRecord,
  jsonByteLength,
  Sink,
  type Path,
} from './common';
import type { Violation } from './types';

/** Options of {@link validateAnthropicMessagesRequest}. */
export interface AnthropicValidateOptions {
  /** Thinking enabled, when the body has no `thinking` field (the field wins when present). */
  thinking?: boolean;
  /** The body is a streaming request and must carry `stream: true` (default `true`). */
  stream?: boolean;
  /** The request's `anthropic-beta` values, when known (A-B3, A-P2 need the header); unknown skips those checks. */
  betas?: readonly string[];
  /** The request's `anthropic-version` header, when known (A-V1 depends on it); default the SDK's 2026-10-21. */
  version?: string;
}

/** A-R5: at most 100,000 messages; standard endpoints cap the request at 32 MB. */
const MAX_MESSAGES = 100_000;
const MAX_REQUEST_BYTES = 32 * 1024 * 1024;
/** A-I2: 600 images per request on the larger-context models (100 on 200k models). */
const MAX_IMAGES = 600;
const TOOL_CHOICE_TYPES = new Set(['auto', 'any', 'none', 'tool']);

type Msg = { role: unknown; content: unknown };
const blocksOf = (m: Msg | undefined): Record<string, unknown>[] =>
  m && Array.isArray(m.content) ? m.content.filter(isRecord) : [];
const isThinking = (b: Record<string, unknown>): boolean => b.type === 'thinking' || b.type === 'redacted_thinking';

/**
 * Validates an Anthropic Messages request body as the official SDK sends it for streaming.
 * Returns every violation found (empty when the body is valid); never throws.
 *
 * Thinking is taken from `body.thinking` when present (`type` other than `disabled` means
 * enabled), otherwise from `opts.thinking`. Rules: A-R1..A-R5, A-E1, A-E2, A-T1..A-T9, A-K1..A-K5,
 * A-I1, A-I2 (count only), A-C1, X1, X2, X4, X5, X6, body shape (`A-SHAPE`), and the 2026 rules
 * A-V1..A-V5, A-M1, A-P1, A-P2, A-B3, A-S1, A-S2 (model-specific ones read `body.model`).
 */
export function validateAnthropicMessagesRequest(body: unknown, opts: AnthropicValidateOptions = {}): Violation[] {
  const sink = new Sink();
  if (!isRecord(body)) {
    sink.add('A-SHAPE', [], 'request body must be a JSON object');
    return sink.list;
  }
  checkLoneSurrogates(body, sink); // X6
  if (jsonByteLength(body) > MAX_REQUEST_BYTES) sink.add('A-R5', [], 'request exceeds 32 MB');
  if (!isNonEmptyString(body.model)) sink.add('A-SHAPE', ['model'], '`model` is required');
  if (!isPositiveInteger(body.max_tokens))
    sink.add('A-SHAPE', ['max_tokens'], '`max_tokens` must be a positive integer');
  if ((opts.stream ?? true) && body.stream !== true)
    sink.add('A-SHAPE', ['stream'], 'a streaming request carries `stream: true`');
  checkSystem(body.system, sink);
  const thinking = checkThinkingConfig(body.thinking, sink) ?? opts.thinking ?? false;
  const toolNames = checkTools(body.tools, sink);
  checkToolChoice(body.tool_choice, toolNames, sink);
  checkRequest2026(body, opts.betas, sink, opts.version); // A-V1, A-V5, A-B3, A-S2

  if (!Array.isArray(body.messages)) {
    sink.add('A-SHAPE', ['messages'], '`messages` must be an array');
    return sink.list;
  }
  const messages = body.messages as unknown[];
  if (messages.length === 0) sink.add('A-SHAPE', ['messages'], '`messages` must not be empty');
  if (messages.length > MAX_MESSAGES) sink.add('A-R5', ['messages'], 'at most 100,000 messages per request');

  const stats: BlockStats = { images: 0, documents: 0, citationRefs: [], toolUseIds: [] };
  const msgs: Msg[] = [];
  messages.forEach((m, i) => {
    msgs.push(checkMessage(m, i, sink, stats));
  });
  checkMessages2026(body, msgs, opts.betas, sink); // A-V2, A-V3, A-V4, A-M1, A-P1, A-P2, A-S1
  checkSequence(msgs, sink);
  checkToolPairing(msgs, sink);
  checkThinkingPlacement(msgs, thinking, sink);

  // A-T1: tool_use ids are unique within the request.
  const seen = new Set<string>();
  for (const [path, id] of stats.toolUseIds) {
    if (seen.has(id)) sink.add('A-T1', path, `tool_use ids must be unique (${id})`);
    seen.add(id);
  }
  // A-T6: tool activity requires a tool definition list (X8: synthesise stubs).
  const toolActivity = msgs.some((m) => blocksOf(m).some((b) => b.type === 'tool_use' || b.type === 'tool_result'));
  if (toolActivity && !(Array.isArray(body.tools) && body.tools.length > 0)) {
    sink.add('A-T6', ['tools'], 'Requests which include tool_use or tool_result blocks must define tools');
  }
  if (stats.images > MAX_IMAGES) sink.add('A-I2', ['messages'], `more than ${MAX_IMAGES} images in one request`);
  for (const [path, index] of stats.citationRefs) {
    // A-C1: document_index refers to the documents in this request.
    if (!Number.isInteger(index) || index < 0 || index >= stats.documents) {
      sink.add('A-C1', path, `document_index ${index} has no document in this request (${stats.documents} documents)`);
    }
  }
  return sink.list;
}

/** A-R1: `system` is a string or an array of text blocks (A-E1 applies to them). */
function checkSystem(system: unknown, sink: Sink): void {
  if (system === undefined || typeof system === 'string') return;
  if (!Array.isArray(system)) {
    sink.add('A-R1', ['system'], '`system` must be a string or an array of text blocks');
    return;
  }
  system.forEach((b, k) => {
    if (!isRecord(b) || b.type !== 'text' || typeof b.text !== 'string')
      sink.add('A-R1', ['system', k], 'system blocks must be text blocks');
    else if (b.text.length === 0) sink.add('A-E1', ['system', k, 'text'], 'text content blocks must be non-empty');
    else if (isBlank(b.text))
      sink.add('A-E1', ['system', k, 'text'], 'text content blocks must contain non-whitespace text');
  });
}

/** Returns whether thinking is enabled by `body.thinking`, or undefined when the field is absent. */
function checkThinkingConfig(t: unknown, sink: Sink): boolean | undefined {
  if (t === undefined || t === null) return undefined;
  if (!isRecord(t) || typeof t.type !== 'string') {
    sink.add('A-SHAPE', ['thinking'], '`thinking` must be an object with a string `type`');
    return undefined;
  }
  if (t.type === 'enabled' && !isPositiveInteger(t.budget_tokens)) {
    sink.add('A-SHAPE', ['thinking', 'budget_tokens'], 'enabled thinking needs a positive integer `budget_tokens`');
  }
  return t.type !== 'disabled';
}

/** Tools: custom tools need `name` + object `input_schema`; A-T8 names, X5 portable names. */
function checkTools(tools: unknown, sink: Sink): Set<string> {
  const names = new Set<string>();
  if (tools === undefined) return names;
  if (!Array.isArray(tools)) {
    sink.add('A-SHAPE', ['tools'], '`tools` must be an array');
    return names;
  }
  tools.forEach((tool, k) => {
    const at: Path = ['tools', k];
    if (!isRecord(tool)) {
      sink.add('A-SHAPE', at, 'tool must be an object');
      return;
    }
    const custom = tool.type === undefined || tool.type === null || tool.type === 'custom';
    if (!custom && typeof tool.type !== 'string') sink.add('A-SHAPE', [...at, 'type'], 'tool `type` must be a string');
    if (typeof tool.name !== 'string' || !ANTHROPIC_TOOL_NAME.test(tool.name)) {
      sink.add('A-T8', [...at, 'name'], 'tool name must match ^[a-zA-Z0-9_-]{1,128}$');
    } else {
      if (names.has(tool.name)) sink.add('A-SHAPE', [...at, 'name'], `duplicate tool name ${tool.name}`);
      names.add(tool.name);
      if (custom) checkPortableToolName(tool.name, [...at, 'name'], sink);
    }
    if (custom && (!isRecord(tool.input_schema) || tool.input_schema.type !== 'object')) {
      sink.add('A-SHAPE', [...at, 'input_schema'], 'custom tools need an `input_schema` object with type "object"');
    }
  });
  return names;
}

function checkToolChoice(choice: unknown, toolNames: Set<string>, sink: Sink): void {
  if (choice === undefined) return;
  if (!isRecord(choice) || typeof choice.type !== 'string' || !TOOL_CHOICE_TYPES.has(choice.type)) {
    sink.add('A-SHAPE', ['tool_choice'], '`tool_choice.type` must be auto, any, none or tool');
    return;
  }
  if (choice.type === 'tool' && (typeof choice.name !== 'string' || !toolNames.has(choice.name))) {
    sink.add('A-SHAPE', ['tool_choice', 'name'], 'tool_choice of type tool must name a defined tool');
  }
  if (choice.disable_parallel_tool_use !== undefined && typeof choice.disable_parallel_tool_use !== 'boolean') {
    sink.add('A-SHAPE', ['tool_choice', 'disable_parallel_tool_use'], 'must be a boolean');
  }
}

/** A-R1 roles, X4 non-empty content, per-block checks. */
function checkMessage(m: unknown, i: number, sink: Sink, stats: BlockStats): Msg {
  const at: Path = ['messages', i];
  if (!isRecord(m)) {
    sink.add('A-SHAPE', at, 'message must be an object');
    return { role: undefined, content: undefined };
  }
  // A-M1 (supersedes A-R6): `system` messages are judged by checkMessages2026.
  if (m.role === 'system') return { role: m.role, content: m.content };
  if (m.role !== 'user' && m.role !== 'assistant') {
    sink.add('A-R1', [...at, 'role'], `role must be user, assistant or system, got ${JSON.stringify(m.role)}`);
  }
  const role = typeof m.role === 'string' ? m.role : '';
  if (typeof m.content === 'string') {
    if (isBlank(m.content)) sink.add('X4', [...at, 'content'], 'message content is empty or whitespace-only');
  } else if (Array.isArray(m.content)) {
    if (m.content.length === 0) sink.add('X4', [...at, 'content'], 'message has no content blocks');
    m.content.forEach((b, k) => checkBlock(b, role, [...at, 'content', k], sink, stats));
  } else {
    sink.add('A-SHAPE', [...at, 'content'], 'content must be a string or an array of blocks');
  }
  return { role: m.role, content: m.content };
}

/** A-R2 merge same-role turns, A-R3 first message user, A-R4 no trailing whitespace on a prefill. */
function checkSequence(msgs: Msg[], sink: Sink): void {
  // A-P1: a compaction block opens the conversation, with no user message in front of it.
  if (msgs.length > 0 && msgs[0]!.role !== 'user' && !opensWithCompaction(msgs))
    sink.add('A-R3', ['messages', 0, 'role'], 'first message must use the "user" role');
  for (let i = 1; i < msgs.length; i++) {
    const role = msgs[i]!.role;
    if ((role === 'user' || role === 'assistant') && role === msgs[i - 1]!.role) {
      sink.add('A-R2', ['messages', i], `consecutive ${role} messages; merge them client-side`);
    }
  }
  const last = msgs[msgs.length - 1];
  if (last?.role !== 'assistant') return;
  const at: Path = ['messages', msgs.length - 1, 'content'];
  if (typeof last.content === 'string' && last.content.length > 0 && last.content !== last.content.trimEnd()) {
    sink.add('A-R4', at, 'final assistant content cannot end with trailing whitespace');
  } else if (Array.isArray(last.content)) {
    const k = last.content.length - 1;
    const b: unknown = last.content[k];
    if (
      isRecord(b) &&
      b.type === 'text' &&
      typeof b.text === 'string' &&
      !isBlank(b.text) &&
      b.text !== b.text.trimEnd()
    ) {
      sink.add('A-R4', [...at, k, 'text'], 'final assistant content cannot end with trailing whitespace');
    }
  }
}

/** A-T2..A-T5, X1: every tool_use answered in the next user message, results first. */
function checkToolPairing(msgs: Msg[], sink: Sink): void {
  msgs.forEach((m, i) => {
    const blocks = Array.isArray(m.content) ? (m.content as unknown[]) : [];
    if (m.role === 'assistant') {
      const next = msgs[i + 1];
      const answered = new Set(
        next?.role === 'user'
          ? blocksOf(next)
              .filter((b) => b.type === 'tool_result')
              .map((b) => b.tool_use_id)
          : [],
      );
      blocks.forEach((b, k) => {
        if (isRecord(b) && b.type === 'tool_use' && typeof b.id === 'string' && !answered.has(b.id)) {
          sink.add(
            'A-T3',
            ['messages', i, 'content', k, 'id'],
            `tool_use ${b.id} has no tool_result in the next message`,
          );
        }
      });
      return;
    }
    if (m.role !== 'user') return;
    const prev = msgs[i - 1];
    const prevBlocks = prev?.role === 'assistant' ? blocksOf(prev) : [];
    const calls = new Set(prevBlocks.filter((b) => b.type === 'tool_use').map((b) => b.id));
    const serverDone = new Set(prevBlocks.filter((b) => isServerToolResult(b.type)).map((b) => b.tool_use_id));
    const serverPending = prevBlocks.some((b) => b.type === 'server_tool_use' && !serverDone.has(b.id));
    const seen = new Set<unknown>();
    let firstOther = -1;
    let misplaced = false;
    blocks.forEach((b, k) => {
      if (!isRecord(b)) return;
      if (b.type !== 'tool_result') {
        if (firstOther < 0) firstOther = k;
        return;
      }
      if (firstOther >= 0) misplaced = true;
      const at: Path = ['messages', i, 'content', k, 'tool_use_id'];
      if (!calls.has(b.tool_use_id))
        sink.add(
          'A-T4',
          at,
          'unexpected `tool_use_id` found in `tool_result` blocks: no tool_use in the previous message',
        );
      else if (seen.has(b.tool_use_id)) sink.add('X1', at, 'a tool_use is answered by more than one tool_result');
      seen.add(b.tool_use_id);
    });
    // A-T2: all tool_result blocks first; with a pending server tool, only tool_result blocks.
    if (seen.size > 0 && (misplaced || (serverPending && firstOther >= 0))) {
      sink.add(
        'A-T2',
        ['messages', i, 'content', firstOther],
        'tool_result blocks must come first in the user message',
      );
    }
  });
}

/** A-K2, A-K3, A-K4: where thinking blocks may and must stand. */
function checkThinkingPlacement(msgs: Msg[], thinking: boolean, sink: Sink): void {
  msgs.forEach((m, i) => {
    const blocks = blocksOf(m);
    if (m.role === 'assistant' && blocks.some(isThinking) && !isThinking(blocks[0]!)) {
      sink.add(
        'A-K3',
        ['messages', i, 'content', 0],
        'if an assistant message contains thinking blocks, the first block must be thinking or redacted_thinking',
      );
    }
  });
  const lastIdx = msgs.length - 1;
  const last = msgs[lastIdx];
  if (!last) return;
  if (thinking) {
    const lastBlocks = Array.isArray(last.content) ? (last.content as unknown[]) : [];
    const toolLoop =
      last.role === 'user' && lastBlocks.length > 0 && lastBlocks.every((b) => isRecord(b) && b.type === 'tool_result');
    if (!toolLoop) return;
    let a = lastIdx - 1;
    while (a >= 0 && msgs[a]!.role !== 'assistant') a--;
    if (a < 0) return;
    const first = Array.isArray(msgs[a]!.content) ? (msgs[a]!.content as unknown[])[0] : undefined;
    if (!isRecord(first) || !isThinking(first)) {
      const path: Path = Array.isArray(msgs[a]!.content) ? ['messages', a, 'content', 0] : ['messages', a, 'content'];
      sink.add('A-K2', path, 'when thinking is enabled, a final assistant message must start with a thinking block');
    }
  } else if (last.role === 'assistant') {
    const idx = Array.isArray(last.content)
      ? (last.content as unknown[]).findIndex((b) => isRecord(b) && isThinking(b))
      : -1;
    if (idx >= 0) {
      sink.add(
        'A-K4',
        ['messages', lastIdx, 'content', idx],
        'when thinking is disabled, an assistant message in the final position cannot contain thinking',
      );
    }
  }
}
