/**
 * Transcript → Chrome's built-in Prompt API (`LanguageModel`, Gemini Nano on the device):
 * `LanguageModel.create({ initialPrompts })` with the history, then
 * `session.promptStreaming(prompt)` with the last user message.
 * (https://developer.chrome.com/docs/ai/prompt-api; explainer:
 * https://github.com/webmachinelearning/prompt-api)
 *
 * Text only: the shared pre-pass (`lib/transcript/prepare.ts`, X1–X8) runs with no image or
 * document support, so media become labelled placeholders; tool calls and tool results become
 * labelled, fenced text (the on-device model has no tool calling); reasoning from other models is
 * dropped or, on request, sent as labelled text (X3). Every change is in the report. Pure and
 * synchronous.
 */
import { PORTABLE_ID_POLICY } from '../../transcript/ids';
import {
  prepareTranscript,
  type PrepareCapabilities,
  type PreparedBlock,
  type PreparedTurn,
} from '../../transcript/prepare';
import type { ConversionReport } from '../../transcript/report';
import { ReportBuilder } from '../../transcript/report';
import type { Transcript, WireApi } from '../../transcript/schema';
import { describeOrigin, type ResolvedTarget } from '../../transcript/target';
import { fenced } from '../../transcript/text';

/** The origin API name of on-device turns (transcript-v1.md, `origin.api`). */
export const CHROME_PROMPT_API = 'chrome-prompt';
/** Provider id of on-device turns. */
export const CHROME_PROMPT_PROVIDER = 'chrome';
/** The model id Baton records for on-device turns (the Prompt API does not name its model). */
export const CHROME_PROMPT_MODEL = 'gemini-nano';

/** One `initialPrompts` entry (`LanguageModelMessage` with string content). */
export interface ChromePromptMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What the page passes to the Prompt API. */
export interface ChromePromptBody {
  /** For `LanguageModel.create({ initialPrompts })`: the system prompt first (if any), then the history before the last user message. */
  initialPrompts: ChromePromptMessage[];
  /** For `session.promptStreaming(prompt)`: the last user message (or labelled tool results). */
  prompt: string;
}

export interface ChromePromptTarget {
  /** Default {@link CHROME_PROMPT_MODEL}. */
  model?: string;
  /** Reasoning from other models: `drop` (default, reported) or `text` (fenced and labelled, X3). */
  foreignReasoning?: 'drop' | 'text';
}

export interface ChromePromptConvertResult {
  api: typeof CHROME_PROMPT_API;
  model: string;
  body: ChromePromptBody;
  report: ConversionReport;
}

/** Text only: no images, no documents (X7 moves tool-result images out, then they become placeholders). */
const CAPS: PrepareCapabilities = {
  vision: false,
  imageMediaTypes: [],
  imageUrls: false,
  assistantImages: false,
  documentMediaTypes: [],
  documentUrls: false,
  idPolicy: PORTABLE_ID_POLICY,
  toolResultImages: false,
};

/**
 * Converts a transcript for the Prompt API. Never throws for a valid transcript: what the
 * on-device model can't take becomes labelled text or a placeholder, and is reported.
 */
export function convertToChromePrompt(
  transcript: Transcript,
  target: ChromePromptTarget = {},
): ChromePromptConvertResult {
  const model = target.model ?? CHROME_PROMPT_MODEL;
  // `chrome-prompt` is an origin API but not one of lib/transcript's wire APIs; the pre-pass only
  // compares `api` with turn origins (X3), so on-device turns count as this target's own.
  const resolved: ResolvedTarget = {
    api: CHROME_PROMPT_API as unknown as WireApi,
    model,
    provider: CHROME_PROMPT_PROVIDER,
    thinking: false,
    foreignReasoning: target.foreignReasoning ?? 'drop',
    importedState: 'drop',
  };
  const report = new ReportBuilder(transcript);
  const prepared = prepareTranscript(transcript, resolved, CAPS, report);
  if ((transcript.tools?.length ?? 0) > 0)
    report.warn(`${transcript.tools!.length} tool definition(s) not sent: the on-device model cannot call tools`);

  const messages: ChromePromptMessage[] = [];
  const push = (role: ChromePromptMessage['role'], content: string) => {
    if (!content.trim()) return;
    const last = messages[messages.length - 1];
    // Adjacent messages of one role become one (a tool turn is sent as the user's).
    if (last && last.role === role && role !== 'system') last.content = `${last.content}\n\n${content}`;
    else messages.push({ role, content });
  };
  if (prepared.system !== undefined) push('system', prepared.system);
  for (const turn of prepared.turns) push(turn.role === 'assistant' ? 'assistant' : 'user', turnText(turn, report));

  // The pre-pass never ends on an assistant turn, so the last message is the user's.
  const last = messages[messages.length - 1];
  const prompt = last?.role === 'user' ? messages.pop()!.content : '';
  const finished = report.finish();
  // No tool definitions are sent at all, so the pre-pass's stub tools (X8) never reach the model.
  finished.synthesized = finished.synthesized.filter((x) => x.kind !== 'stub-tool');
  return { api: CHROME_PROMPT_API, model, body: { initialPrompts: messages, prompt }, report: finished };
}

function json(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}

/** The text of one prepared turn, blocks separated by blank lines. */
function turnText(turn: PreparedTurn, report: ReportBuilder): string {
  return turn.blocks
    .map((pb) => blockText(pb, report))
    .filter((t) => t.trim() !== '')
    .join('\n\n');
}

function blockText(pb: PreparedBlock, report: ReportBuilder): string {
  const b = pb.block;
  const by = pb.origin ? ` by ${describeOrigin(pb.origin)}` : '';
  switch (b.type) {
    case 'text':
      return b.text;
    case 'tool_call':
      report.add(pb.ref, 'converted', 'tool call sent as labelled text: the on-device model cannot call tools');
      return fenced(`[Tool call ${b.name}${by}, id ${b.id}, with this input]`, json(b.input), 'json');
    case 'tool_result': {
      report.add(pb.ref, 'converted', 'tool result sent as labelled user text: the on-device model cannot call tools');
      const body =
        typeof b.content === 'string'
          ? b.content
          : b.content.map((c) => (c.type === 'text' ? c.text : '[image omitted]')).join('\n');
      return fenced(
        `[Result of tool call ${pb.toolName ?? ''}${pb.toolName ? ', ' : ''}id ${b.callId}${b.isError ? ' (error)' : ''}]`,
        body,
      );
    }
    case 'thinking':
      // Only this target's own (text-only) reasoning gets here; shared as labelled text.
      report.add(pb.ref, 'converted', 'reasoning sent as labelled text');
      return b.text.trim() ? fenced('[Earlier reasoning, as text]', b.text) : '';
    case 'image':
    case 'document':
      report.add(pb.ref, 'converted', `${b.type} replaced by a placeholder: the on-device model takes text only`);
      return `[${b.type} omitted: the on-device model takes text only]`;
    case 'redacted_thinking':
    case 'provider_item':
      report.add(pb.ref, 'dropped', `${b.type} has no text form for the on-device model`);
      return '';
    default: {
      const never: never = b;
      throw new Error(`unhandled block ${(never as { type: string }).type}`);
    }
  }
}
