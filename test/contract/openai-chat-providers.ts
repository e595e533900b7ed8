/**
 * §5 rules of the backends that take the Chat Completions shape (Mistral, DeepSeek, Groq,
 * OpenRouter, Ollama), plus C-R4 for OpenAI itself. Written from provider-rules.md only.
 */
import { isRecord, MISTRAL_TOOL_CALL_ID, type Sink } from './common';

/** Model ids of the Mistral family, for templates served locally (O-3). */
const MISTRAL_FAMILY = /mistral|mixtral|ministral|codestral|devstral|magistral|pixtral/i;
/** Reasoning fields that third-party backends add to assistant messages (C-R4). */
const REASONING_FIELDS = ['reasoning_content', 'reasoning_details', 'reasoning'];

/**
 * Applies the provider-specific rules to an already shape-checked Chat body.
 * `provider` is one of openai, mistral, deepseek, groq, openrouter, ollama; others add nothing.
 */
export function checkProviderRules(
  body: Record<string, unknown>,
  messages: unknown[],
  provider: string,
  sink: Sink,
): void {
  const model = typeof body.model === 'string' ? body.model : '';
  const msgs = messages.map((m) => (isRecord(m) ? m : {}));
  switch (provider) {
    case 'openai':
      // C-R4: OpenAI's assistant message has no reasoning field; reasoning cannot be replayed here.
      msgs.forEach((m, i) => {
        if (m.role !== 'assistant') return;
        for (const f of REASONING_FIELDS)
          if (f in m) sink.add('C-R4', ['messages', i, f], `OpenAI assistant messages have no \`${f}\` field`);
      });
      return;
    case 'mistral':
      checkMistralIds(msgs, 'M-1', sink);
      checkMistralOrder(msgs, sink);
      return;
    case 'openrouter':
      // OR-1: the upstream provider's rules still apply; Mistral models keep the 9-char ids.
      if (/^mistralai\//.test(model)) checkMistralIds(msgs, 'via OpenRouter (OR-1)', sink);
      return;
    case 'ollama':
      // O-3: the chat template brings the model family's own rules.
      if (MISTRAL_FAMILY.test(model)) checkMistralIds(msgs, 'in a Mistral chat template (O-3)', sink);
      return;
    case 'groq':
      // D-G1: Groq rejects unknown assistant fields such as reasoning_content (D-G2: `reasoning` is accepted).
      msgs.forEach((m, i) => {
        if (m.role === 'assistant' && 'reasoning_content' in m) {
          sink.add('D-G1', ['messages', i, 'reasoning_content'], "property 'reasoning_content' is unsupported");
        }
      });
      return;
    case 'deepseek':
      checkDeepSeek(body, msgs, model, sink);
      return;
  }
}

/** M-1: tool-call ids are exactly 9 characters [a-zA-Z0-9], on calls and on results. */
function checkMistralIds(msgs: Record<string, unknown>[], where: string, sink: Sink): void {
  const why = where === 'M-1' ? '' : ` ${where}`;
  msgs.forEach((m, i) => {
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      m.tool_calls.forEach((tc, k) => {
        if (isRecord(tc) && typeof tc.id === 'string' && !MISTRAL_TOOL_CALL_ID.test(tc.id)) {
          sink.add(
            'M-1',
            ['messages', i, 'tool_calls', k, 'id'],
            `Tool call id was ${tc.id} but must be a-z, A-Z, 0-9, with a length of 9${why}`,
          );
        }
      });
    }
    if (m.role === 'tool' && typeof m.tool_call_id === 'string' && !MISTRAL_TOOL_CALL_ID.test(m.tool_call_id)) {
      sink.add(
        'M-1',
        ['messages', i, 'tool_call_id'],
        `Tool call id was ${m.tool_call_id} but must be a-z, A-Z, 0-9, with a length of 9${why}`,
      );
    }
  });
}

/** M-2: no user right after tool, no tool right after user. M-3: the last role. */
function checkMistralOrder(msgs: Record<string, unknown>[], sink: Sink): void {
  for (let i = 1; i < msgs.length; i++) {
    const prev = msgs[i - 1]!.role;
    const role = msgs[i]!.role;
    if (prev === 'tool' && role === 'user')
      sink.add('M-2', ['messages', i, 'role'], "Unexpected role 'user' after role 'tool'");
    if (prev === 'user' && role === 'tool')
      sink.add('M-2', ['messages', i, 'role'], "Unexpected role 'tool' after role 'user'");
  }
  const i = msgs.length - 1;
  const last = msgs[i];
  if (!last) return;
  const ok = last.role === 'user' || last.role === 'tool' || (last.role === 'assistant' && last.prefix === true);
  if (!ok) sink.add('M-3', ['messages', i, 'role'], 'Expected last role User or Tool (or Assistant with prefix True)');
}

/** D-1: a thinking model needs `reasoning_content` (string) on assistant turns with tool calls. D-3: it is a string. */
function checkDeepSeek(
  body: Record<string, unknown>,
  msgs: Record<string, unknown>[],
  model: string,
  sink: Sink,
): void {
  const thinking = /deepseek-reasoner/.test(model) || (isRecord(body.thinking) && body.thinking.type === 'enabled');
  msgs.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const has = 'reasoning_content' in m && m.reasoning_content !== undefined && m.reasoning_content !== null;
    if (has && typeof m.reasoning_content !== 'string') {
      sink.add('D-3', ['messages', i, 'reasoning_content'], '`reasoning_content` must be a string');
    }
    const calls = Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
    if (thinking && calls && !has) {
      sink.add(
        'D-1',
        ['messages', i, 'reasoning_content'],
        `Missing \`reasoning_content\` field in the assistant message at message index ${i}`,
      );
    }
  });
}
