/**
 * The Anthropic rules of API version 2026-10-21 and the preserved-thinking, compaction and
 * mid-conversation-system rules (../shared/docs/provider-rules-2026-anthropic-openai.md §1a–§1c),
 * for the Messages contract validator. Written from that fragment only; imports nothing from
 * `lib/`. Where the fragment quotes the API's 400 text, the violation's message is that text, so
 * the fake providers answer with it.
 */
import { isNonEmptyString, isRecord, type Path, type Sink } from './common';

/** A-B3: the beta of the thinking-binding controls. */
export const THINKING_BINDING_BETA = 'thinking-binding-controls-2026-08-01';
/** A-P2: the betas under which a compaction block may be sent back. */
export const COMPACTION_BETAS = ['compact-2026-09-04', 'compact-2026-01-12'];

/** Rules whose violation message is the API's own 400 text (the fakes answer with it as is). */
export const API_TEXT_RULES: ReadonlySet<string> = new Set([
  'A-V1',
  'A-V2',
  'A-V3',
  'A-V4',
  'A-V5',
  'A-M1',
  'A-P1',
  'A-P2',
  'A-B3',
  'A-S1',
  'A-S2',
]);

/** A Claude model id read for the per-model rules: family and version (`claude-opus-4-8` → opus 4.8). */
interface Claude {
  family: string;
  version: number;
}

/** Reads a Claude id (dated snapshots, `-YYYYMMDD`, included); undefined for anything else. */
export function claudeModel(id: unknown): Claude | undefined {
  if (typeof id !== 'string') return undefined;
  const line = /^claude-(fable|mythos)-(\d+)(?:-(\d{1,2}))?/.exec(id);
  if (line) return { family: line[1]!, version: Number(line[2]) + Number(line[3] ?? 0) / 10 };
  const m = /^claude-(opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?:-\d{8})?$/.exec(id);
  return m ? { family: m[1]!, version: Number(m[2]) + Number(m[3] ?? 0) / 10 } : undefined;
}

const newLine = (c: Claude) => c.family === 'fable' || c.family === 'mythos';

/** A-V4: Opus 5, the Claude 5.5 family and Fable/Mythos take no prefill. */
export function takesNoPrefill(c: Claude | undefined): boolean {
  return c !== undefined && (newLine(c) || c.version >= 5.5 || (c.family === 'opus' && c.version >= 5));
}

/** A-V5: `budget_tokens` thinking returns 400 on Opus 4.7+, Sonnet 5.x and Fable/Mythos. */
export function refusesBudgetThinking(c: Claude | undefined): boolean {
  return (
    c !== undefined &&
    (newLine(c) ||
      (c.family === 'opus' && c.version >= 4.7) ||
      (c.family === 'sonnet' && c.version >= 5) ||
      (c.family === 'haiku' && c.version >= 5.5))
  );
}

/** A-M1: `role: "system"` inside messages from Opus 4.8 on (Opus 5/5.5, Sonnet 5, Sonnet 5.5, Haiku 5.5, Fable/Mythos). */
export function takesSystemMessages(c: Claude | undefined): boolean {
  return (
    c !== undefined &&
    (newLine(c) ||
      (c.family === 'opus' && c.version >= 4.8) ||
      (c.family === 'sonnet' && c.version >= 5) ||
      (c.family === 'haiku' && c.version >= 5.5))
  );
}

/** A-V5: forced tool use returns an error on Sonnet 5.5. */
export function refusesForcedToolUse(c: Claude | undefined): boolean {
  return c !== undefined && c.family === 'sonnet' && c.version === 5.5;
}

/** The request path in the API's own form (`messages.1.content.0`). */
export function apiPath(path: Path): string {
  return path.join('.');
}

/**
 * Request-level 2026 checks: A-V1 sampling parameters, A-V5 thinking type and forced tool use,
 * A-B3 block binding (beta header, thinking type), A-S2 cache breakpoints.
 * @param betas the request's `anthropic-beta` values, when known (the fakes pass them).
 */
export function checkRequest2026(
  body: Record<string, unknown>,
  betas: readonly string[] | undefined,
  sink: Sink,
  version?: string,
): void {
  const model = claudeModel(body.model);
  // A-V1: 400 under 2026-10-21 on every model, even at the default value; on an older
  // `anthropic-version` only Claude 4.7 and later refuse them. Unknown version: the SDK's (2026-10-21).
  const samplingRefused =
    version === undefined ||
    version >= '2026-10-21' ||
    (model !== undefined && (newLine(model) || model.version >= 4.7));
  for (const key of ['temperature', 'top_p', 'top_k']) {
    if (samplingRefused && body[key] !== undefined) sink.add('A-V1', [key], `\`${key}\` is deprecated for this model.`);
  }
  const thinking = body.thinking;
  if (isRecord(thinking)) {
    if (thinking.type === 'enabled' && refusesBudgetThinking(model))
      sink.add(
        'A-V5',
        ['thinking', 'type'],
        '`thinking.type: "enabled"` with `budget_tokens` is not supported for this model. Use `thinking.type: "adaptive"` and `output_config.effort` to control thinking.',
      );
    if (thinking.block_binding != null) {
      if (thinking.type !== 'adaptive' && thinking.type !== 'enabled')
        sink.add('A-B3', ['thinking', 'block_binding'], 'thinking.block_binding: Extra inputs are not permitted');
      else if (betas !== undefined && !betas.includes(THINKING_BINDING_BETA))
        sink.add(
          'A-B3',
          ['thinking', 'block_binding'],
          `thinking.block_binding: this field requires the \`anthropic-beta: ${THINKING_BINDING_BETA}\` header`,
        );
    }
  }
  const choice = body.tool_choice;
  if (isRecord(choice) && (choice.type === 'any' || choice.type === 'tool') && refusesForcedToolUse(model))
    sink.add(
      'A-V5',
      ['tool_choice', 'type'],
      'Forced tool use is not supported on this model: tool_choice must be "auto" or "none".',
    );
  checkCacheControl(body, sink);
}

/** A-S2: at most 4 breakpoints, and no `1h` entry after a `5m` one, in the order tools → system → messages. */
function checkCacheControl(body: Record<string, unknown>, sink: Sink): void {
  const holders: [Path, Record<string, unknown>][] = [];
  if (Array.isArray(body.tools)) body.tools.forEach((t, k) => isRecord(t) && holders.push([['tools', k], t]));
  if (Array.isArray(body.system)) body.system.forEach((b, k) => isRecord(b) && holders.push([['system', k], b]));
  if (Array.isArray(body.messages))
    body.messages.forEach((m, i) => {
      if (isRecord(m) && Array.isArray(m.content))
        m.content.forEach((b, k) => isRecord(b) && holders.push([['messages', i, 'content', k], b]));
    });
  let count = 0;
  let seen5m = false;
  for (const [path, h] of holders) {
    if (!isRecord(h.cache_control)) continue;
    count++;
    const ttl = h.cache_control.ttl === '1h' ? '1h' : '5m';
    if (count === 5)
      sink.add('A-S2', [...path, 'cache_control'], 'A maximum of 4 blocks with cache_control may be provided.');
    if (ttl === '1h' && seen5m)
      sink.add(
        'A-S2',
        [...path, 'cache_control'],
        "a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block",
      );
    if (ttl === '5m') seen5m = true;
  }
}

type Msg = { role: unknown; content: unknown };
const blocks = (m: Msg | undefined): unknown[] => (m && Array.isArray(m.content) ? m.content : []);

/**
 * True when `messages` opens on an assistant message whose first block is a compaction block
 * (A-P1: the exception to A-R3).
 */
export function opensWithCompaction(msgs: readonly Msg[]): boolean {
  const first = blocks(msgs[0])[0];
  return msgs[0]?.role === 'assistant' && isRecord(first) && first.type === 'compaction';
}

/**
 * Message-level 2026 checks: A-V2 (documents in assistant messages), A-V3 (citations on user
 * text), A-V4 (prefill), A-M1 (system messages), A-P1/A-P2 (compaction), A-S1 (server tool
 * results after their call).
 */
export function checkMessages2026(
  body: Record<string, unknown>,
  msgs: readonly Msg[],
  betas: readonly string[] | undefined,
  sink: Sink,
): void {
  const model = claudeModel(body.model);
  let compactions = 0;
  msgs.forEach((m, i) => {
    const content = blocks(m);
    if (m.role === 'system') return checkSystemMessage(msgs, i, model, sink);
    const serverCalls = new Set<unknown>();
    content.forEach((b, k) => {
      if (!isRecord(b)) return;
      const at: Path = ['messages', i, 'content', k];
      if (b.type === 'document' && m.role === 'assistant')
        sink.add(
          'A-V2',
          at,
          'document blocks are not supported in assistant messages; place the document in a user message or a tool_result.',
        );
      if (m.role === 'user') checkUserCitations(b, at, sink);
      if (b.type === 'server_tool_use' || b.type === 'mcp_tool_use') serverCalls.add(b.id);
      else if (
        typeof b.tool_use_id === 'string' &&
        b.type !== 'tool_result' &&
        m.role === 'assistant' &&
        !serverCalls.has(b.tool_use_id)
      )
        sink.add(
          'A-S1',
          at,
          `Each \`${String(b.type)}\` block must have a corresponding \`server_tool_use\` block before it`,
        );
      if (b.type === 'compaction') {
        compactions++;
        if (i !== 0 || k !== 0 || m.role !== 'assistant')
          sink.add(
            'A-P1',
            at,
            'compaction_block_misplaced: the compaction block is not the first block of the conversation, or is in a `system` message',
          );
        else if (compactions > 1) sink.add('A-P1', at, 'compaction_block_ambiguous: more than one compaction block');
        if (betas !== undefined && !betas.some((x) => COMPACTION_BETAS.includes(x)))
          sink.add(
            'A-P2',
            at,
            'compaction blocks are only accepted with the `anthropic-beta: compact-2026-09-04` or `compact-2026-01-12` header on the beta Messages endpoint',
          );
        if (!isNonEmptyString(b.content) && b.content !== undefined)
          sink.add('A-P2', [...at, 'content'], 'a compaction block without content cannot be sent back');
      }
    });
  });
  // A-V4: no prefill on the models that dropped it.
  const last = msgs[msgs.length - 1];
  if (last?.role === 'assistant' && takesNoPrefill(model))
    sink.add(
      'A-V4',
      ['messages', msgs.length - 1],
      'This model does not support assistant message prefill. The conversation must end with a user message.',
    );
}

/** A-V3: no non-empty `citations` on user text, directly or inside a `search_result`. */
function checkUserCitations(b: Record<string, unknown>, at: Path, sink: Sink): void {
  const cited = (x: unknown) => isRecord(x) && Array.isArray(x.citations) && x.citations.length > 0;
  if (b.type === 'text' && cited(b))
    sink.add('A-V3', [...at, 'citations'], 'citations are not supported on text blocks in user messages.');
  if (b.type === 'search_result' && Array.isArray(b.content))
    b.content.forEach(
      (c, j) =>
        cited(c) &&
        sink.add(
          'A-V3',
          [...at, 'content', j, 'citations'],
          'citations are not supported on text blocks in user messages.',
        ),
    );
}

/** A-M1: where a `role: "system"` message may stand, on which models, with what content. */
function checkSystemMessage(msgs: readonly Msg[], i: number, model: Claude | undefined, sink: Sink): void {
  const m = msgs[i]!;
  if (!takesSystemMessages(model)) {
    sink.add('A-M1', ['messages', i, 'role'], "role 'system' is not supported on this model");
    return;
  }
  const next = msgs[i + 1];
  let prev = i - 1;
  while (prev >= 0 && msgs[prev]!.role === 'system') prev--;
  if (
    prev < 0 ||
    msgs[prev]!.role !== 'user' ||
    (next !== undefined && next.role !== 'assistant' && next.role !== 'system')
  )
    sink.add('A-M1', ['messages', i, 'role'], "role 'system' must precede an 'assistant' message or end the array");
  if (typeof m.content === 'string') return;
  if (!Array.isArray(m.content))
    return sink.add('A-M1', ['messages', i, 'content'], 'system message content must be a string or text blocks');
  m.content.forEach((b, k) => {
    if (isRecord(b) && b.type === 'compaction')
      sink.add(
        'A-P1',
        ['messages', i, 'content', k],
        'compaction_block_misplaced: the compaction block is not the first block of the conversation, or is in a `system` message',
      );
    else if (!isRecord(b) || b.type !== 'text')
      sink.add('A-M1', ['messages', i, 'content', k], 'system message content must be text blocks');
  });
}
