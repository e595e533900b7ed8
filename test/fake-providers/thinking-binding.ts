/**
 * Anthropic preserved thinking as the real API enforces it (provider-rules-2026-anthropic-openai.md
 * §1b): a thinking block the fake minted is bound to the model that produced it (A-B1) and to the
 * request before it — `system`, `tools` and every earlier message (A-B2). The real API keeps the
 * binding inside the signature; the fake keeps it in a table by signature (cleared by `reset()`).
 * Signatures the fake did not mint (written by a test into a transcript) carry no binding and pass.
 *
 * On a replay: a block of another model is dropped without an error (A-B1); a block whose prefix
 * changed fails the request with the API's 400 text, or with the beta
 * `thinking-binding-controls-2026-08-01` and `thinking.block_binding.prefix_mismatch_behavior:
 * "drop_block"` is dropped (A-B3). Under that beta every answer lists what was dropped in
 * `input_transformations` (A-B5).
 */

/** A-B3: the beta of the thinking-binding controls. */
export const THINKING_BINDING_BETA = 'thinking-binding-controls-2026-08-01';

/** A-B1: models that read other models' thinking besides their own (not symmetric). */
const ALSO_READS: Readonly<Record<string, readonly string[]>> = {
  'claude-fable-5-1': ['claude-opus-5', 'claude-opus-5-5'],
};

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One `input_transformations` entry (SDK `BetaThinkingDroppedInputTransformation`). */
export interface ThinkingDropped {
  type: 'thinking_dropped';
  path: string;
  reason: 'model_binding_mismatch' | 'prefix_binding_mismatch';
}

/** What a replay check found: a 400 text, or the blocks the API drops. */
export interface BindingVerdict {
  rejection?: string;
  dropped: ThinkingDropped[];
}

/** A value without `cache_control` anywhere (a cache breakpoint does not change the conversation). */
function withoutCacheControl(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutCacheControl);
  if (!isRec(v)) return v;
  const out: Rec = {};
  for (const [k, x] of Object.entries(v)) if (k !== 'cache_control') out[k] = withoutCacheControl(x);
  return out;
}

/** The system prompt as text: a string and the same text as blocks are one system prompt. */
function systemText(system: unknown): unknown {
  if (Array.isArray(system))
    return system.map((b) => (isRec(b) && typeof b.text === 'string' ? b.text : JSON.stringify(b))).join('\n\n');
  return system ?? '';
}

/** The bytes a block made after `messages[0..n)` is bound to (A-B2). */
export function prefixOf(body: Rec, n: number): string {
  const messages = Array.isArray(body.messages) ? body.messages.slice(0, n) : [];
  return JSON.stringify([
    systemText(body.system),
    withoutCacheControl(body.tools ?? []),
    withoutCacheControl(messages),
  ]);
}

/** The binding table of one fake server. */
export class ThinkingBindings {
  private readonly minted = new Map<string, { model: string; prefix: string }>();

  /** Records a thinking block the fake answers with: bound to `model` and to the whole request `body`. */
  mint(signature: string, model: string, body: Rec): void {
    this.minted.set(signature, {
      model,
      prefix: prefixOf(body, Array.isArray(body.messages) ? body.messages.length : 0),
    });
  }

  reset(): void {
    this.minted.clear();
  }

  /** Checks the thinking blocks a request sends back (see the module comment). */
  check(body: Rec, betas: readonly string[]): BindingVerdict {
    const dropped: ThinkingDropped[] = [];
    const model = typeof body.model === 'string' ? body.model : '';
    const thinking = isRec(body.thinking) ? body.thinking : {};
    const binding = isRec(thinking.block_binding) ? thinking.block_binding : {};
    const dropOnMismatch = betas.includes(THINKING_BINDING_BETA) && binding.prefix_mismatch_behavior === 'drop_block';
    const messages = Array.isArray(body.messages) ? body.messages : [];
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      if (!isRec(m) || m.role !== 'assistant' || !Array.isArray(m.content)) continue;
      for (let j = 0; j < m.content.length; j++) {
        const b = m.content[j];
        if (!isRec(b) || b.type !== 'thinking' || typeof b.signature !== 'string') continue;
        const bound = this.minted.get(b.signature);
        if (!bound) continue;
        const path = `messages.${i}.content.${j}`;
        if (bound.model !== model && !(ALSO_READS[model] ?? []).includes(bound.model)) {
          dropped.push({ type: 'thinking_dropped', path, reason: 'model_binding_mismatch' });
          continue;
        }
        if (bound.prefix === prefixOf(body, i)) continue;
        if (!dropOnMismatch)
          return {
            rejection: `${path}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation: the system prompt, tools or messages before it differ from the request that produced it.`,
            dropped,
          };
        dropped.push({ type: 'thinking_dropped', path, reason: 'prefix_binding_mismatch' });
      }
    }
    return { dropped };
  }
}

/** The `anthropic-beta` values of a request (comma-separated header). */
export function betasOf(headers: Record<string, string>): string[] {
  return (headers['anthropic-beta'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
