/**
 * One `DisclosurePreview` for the side panel's component tests (docs/disclosure.md), so a field added to
 * the protocol's preview is added here once rather than in every test file. The sample is the
 * preview of the draft "Next" to OpenAI gpt-5 over a conversation [u1 user, a1 assistant whose
 * thinking block is dropped]: 3 of 3 turns, ~3,240 tokens, ~$0.0123, snapshot delivery, no
 * confirmation needed. Tests override what they are about.
 */
import type { DisclosurePreview, PreviewTurn } from '../../lib/messaging/disclosure-types';

/** The `target` of a preview to OpenAI gpt-5 at its default origin. */
export const OPENAI_PREVIEW_TARGET: DisclosurePreview['target'] = {
  providerId: 'openai',
  api: 'openai-responses',
  model: 'gpt-5',
  origin: 'https://api.openai.com',
};

/** The body of {@link samplePreview} (the Responses body of the first question). */
export const SAMPLE_BODY = {
  model: 'gpt-5',
  input: [{ role: 'user', content: [{ type: 'input_text', text: 'First question' }] }],
  store: false,
};

/** One included, unpinned turn row of `tokens` tokens whose single text block is kept. */
export function previewRow(id: string, role: PreviewTurn['role'], text: string, tokens = 5): PreviewTurn {
  return {
    id,
    role,
    included: true,
    pinned: false,
    tokens,
    preview: text,
    blocks: [{ index: 0, type: 'text', fate: 'kept', detail: '' }],
  };
}

/**
 * The sample preview (see the module comment) with `over` applied on top (shallow). A key set to
 * `undefined` in `over` is removed, so an optional field of the sample (e.g. `estimatedCostUsd`:
 * the price is unknown) can be left out.
 */
export function samplePreview(over: Partial<DisclosurePreview> = {}): DisclosurePreview {
  const merged: DisclosurePreview = {
    target: OPENAI_PREVIEW_TARGET,
    allowed: true,
    turns: 3,
    includedTurns: 3,
    estimatedInputTokens: 3240,
    exactCountAvailable: false,
    estimateSource: 'tokenizer',
    estimatedCostUsd: 0.0123,
    contextWindow: 400000,
    maxOutputTokens: 16000,
    inputBudget: 384000,
    fits: true,
    thinkingDropped: 1,
    imagesOmitted: 0,
    blocksDropped: 1,
    droppedByReason: {},
    convertedBlocks: 0,
    perTurn: [
      previewRow('u1', 'user', 'First question'),
      {
        ...previewRow('a1', 'assistant', 'First answer', 7),
        blocks: [
          { index: 0, type: 'thinking', fate: 'dropped', detail: 'reasoning from another model' },
          { index: 1, type: 'text', fate: 'kept', detail: '' },
        ],
      },
      { ...previewRow('draft', 'user', 'Next', 3), draft: true },
    ],
    delivery: { mode: 'snapshot', detail: 'the conversation sends the bounded snapshot every time' },
    needsConfirmation: false,
    body: SAMPLE_BODY,
    ...over,
  };
  for (const k of Object.keys(over) as (keyof DisclosurePreview)[]) if (over[k] === undefined) delete merged[k];
  return merged;
}
