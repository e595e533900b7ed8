/**
 * `codex`: a Codex CLI rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl`). `response_item`
 * records are Responses API items, read by `readOpenAIResponsesHistory`: function and custom tool
 * calls and their outputs stay calls and results, reasoning keeps `encrypted_content` as its
 * signature. `session_meta` gives the id, provider and start time; `turn_context` the model of
 * the items that follow. `event_msg` records repeat what the items hold (they only give the title).
 * The older rollout format (raw items, one per line after a `{id, timestamp}` header) is read too.
 */
import { readOpenAIResponsesHistory } from '../providers/openai-responses/read-openai-responses';
import { TranscriptError } from '../transcript/codec';
import type { Block, Turn } from '../transcript/schema';
import { Collector, contentHash, isoFromString, isRecord, reasonOf, str, type JsonObject } from './common';
import { sessionTitle } from './session-title';
import { droppedKeysWarning, parseJsonLines } from './safe-json';
import type { ImportOptions, ImportResult } from './types';

/** Item types the Responses history reader takes (R-1 input items). Others are left out with a warning. */
const ITEM_TYPES = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'file_search_call',
  'web_search_call',
  'computer_call',
  'computer_call_output',
  'tool_search_call',
  'tool_search_output',
  'image_generation_call',
  'code_interpreter_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'compaction',
  'item_reference',
]);

interface Item {
  item: JsonObject;
  model?: string;
  line: number;
}

/**
 * Imports one rollout as `codex:<session id>` (source `{kind: "codex", id}`); assistant turns get
 * origin `{provider: session_meta.model_provider or "openai", api: "openai-responses", model:
 * <turn_context model>}`. Unknown record types are ignored; unknown item types and items the reader
 * rejects are left out with a warning naming the line. A developer or system message becomes a
 * labelled user preamble (N5).
 * @throws TranscriptError when the file holds no response items.
 */
export function importCodex(text: string, opts: ImportOptions = {}): ImportResult {
  const warnings: string[] = [];
  const items: Item[] = [];
  let sessionId: string | undefined;
  let provider: string | undefined;
  let createdAt: string | undefined;
  let model: string | undefined;
  let firstPrompt: string | undefined;
  let dropped = 0;
  const ignored = new Map<string, number>();
  for (const l of parseJsonLines(text)) {
    if ('error' in l) {
      warnings.push(`line ${l.line}: ${l.error}`);
      continue;
    }
    dropped += l.droppedKeys;
    const v = l.value;
    if (!isRecord(v)) {
      warnings.push(`line ${l.line}: not a JSON object`);
      continue;
    }
    const payload = isRecord(v.payload) ? v.payload : undefined;
    const type = str(v.type);
    if (type === 'session_meta' && payload) {
      sessionId ??= str(payload.id);
      provider ??= str(payload.model_provider);
      createdAt ??= isoFromString(payload.timestamp) ?? isoFromString(v.timestamp);
    } else if (type === 'turn_context' && payload) {
      model = str(payload.model) ?? model;
    } else if (type === 'response_item' && payload) {
      items.push({ item: payload, line: l.line, ...(model ? { model } : {}) });
    } else if (type === 'event_msg' && payload) {
      if (payload.type === 'user_message' && typeof payload.message === 'string') firstPrompt ??= payload.message;
    } else if (type !== undefined && ITEM_TYPES.has(type) && !payload) {
      items.push({ item: v, line: l.line, ...(model ? { model } : {}) }); // older format: a raw item per line
    } else if (
      type === undefined &&
      l.line === items.length + warnings.length + 1 &&
      str(v.id) &&
      v.timestamp !== undefined
    ) {
      sessionId ??= str(v.id); // older format's header line
      createdAt ??= isoFromString(v.timestamp);
    } else {
      const key = type ?? (typeof v.record_type === 'string' ? `record_type ${v.record_type}` : 'untyped');
      ignored.set(key, (ignored.get(key) ?? 0) + 1);
    }
  }
  if (!items.length) throw new TranscriptError('', 'no Codex response items in the file');
  if (ignored.size)
    warnings.push(
      `records without conversation content ignored: ${[...ignored].map(([t, n]) => `${t} ×${n}`).join(', ')}`,
    );
  const sourceId = sessionId ?? `h${contentHash(text)}`;
  const collector = new Collector('codex', opts, droppedKeysWarning(dropped));
  // The first sentence typed, without agent markup (docs/side-panel.md; session-title.ts).
  const title = firstPrompt !== undefined ? sessionTitle([{ text: firstPrompt }]) : undefined;
  collector.add({ sourceId, ...(title ? { title } : {}) }, () => {
    const w = [...warnings];
    const { turns, system } = readItems(items, provider ?? 'openai', w);
    return {
      sourceId,
      turns,
      warnings: w,
      ...(system ? { system } : {}),
      ...(title ? { title } : {}),
      ...(createdAt ? { createdAt } : {}),
    };
  });
  return collector.result();
}

/**
 * A call output kept as a `provider_item` (e.g. `custom_tool_call_output` with an array output)
 * gets a readable `text`, so another provider still sees the result as labelled text.
 */
function withOutputText(b: Block): Block {
  if (b.type !== 'provider_item' || b.text !== undefined || !isRecord(b.item) || !Array.isArray(b.item.output))
    return b;
  const text = b.item.output
    .map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : ''))
    .filter((x) => x.trim())
    .join('\n');
  return text ? { ...b, text } : b;
}

/** Reads the items in runs of one model; items the reader rejects on their own are left out first. */
function readItems(items: readonly Item[], provider: string, warnings: string[]): { turns: Turn[]; system?: string } {
  const fallbackModel = items.find((i) => i.model)?.model ?? 'unknown';
  if (fallbackModel === 'unknown')
    warnings.push('no turn_context names the model: assistant turns have model "unknown"');
  const kept: (Item & { model: string })[] = [];
  for (const i of items) {
    const type = str(i.item.type) ?? (i.item.role !== undefined ? 'message' : undefined);
    if (type === undefined || !ITEM_TYPES.has(type)) {
      warnings.push(
        `line ${i.line}: response item of type ${JSON.stringify(i.item.type)} left out (not a Responses input item)`,
      );
      continue;
    }
    const m = i.model ?? fallbackModel;
    try {
      readOpenAIResponsesHistory({ model: m, input: [i.item] }, { provider });
      kept.push({ ...i, model: m });
    } catch (e) {
      warnings.push(`line ${i.line}: ${type} item left out: ${reasonOf(e)}`);
    }
  }
  const turns: Turn[] = [];
  const systems: string[] = [];
  let emptyReasoning = 0;
  for (let start = 0; start < kept.length;) {
    let end = start + 1;
    while (end < kept.length && kept[end]!.model === kept[start]!.model) end++;
    const t = readOpenAIResponsesHistory(
      { model: kept[start]!.model, input: kept.slice(start, end).map((i) => i.item) },
      { provider },
    );
    if (t.system) systems.push(t.system);
    for (const turn of t.turns) {
      // docs/security.md: a reasoning item with no summary, no content and no encrypted_content reads as an
      // empty thinking block; it says nothing and carries no state, so it is left out (counted below).
      const blocks = turn.blocks.filter(
        (b) => !(b.type === 'thinking' && b.text.trim() === '' && b.signature === undefined && ++emptyReasoning),
      );
      if (blocks.length) turns.push({ ...turn, id: `t${turns.length + 1}`, blocks: blocks.map(withOutputText) });
    }
    start = end;
  }
  if (emptyReasoning)
    warnings.push(`${emptyReasoning} reasoning item(s) with no content, no summary and no encrypted_content left out`);
  return systems.length ? { turns, system: systems.join('\n\n') } : { turns };
}
