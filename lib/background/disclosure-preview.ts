/**
 * The preview of one send (issue 6, "In the side panel"): the plan summary, each turn's and
 * block's fate, and the exact JSON body — for the one line above the composer, its expanded
 * list and "View request". Pure.
 */
import type { DisclosurePreview, PreviewBlock, PreviewTurn } from '../messaging/disclosure-types';
import type { Transcript, Turn } from '../transcript/schema';
import type { PlannedSend } from './disclosure-plan';

const PREVIEW_CHARS = 80;

export interface PreviewInput {
  planned: PlannedSend;
  /** The transcript planned (stored turns plus the draft). */
  transcript: Transcript;
  /** The draft turn's id (not stored yet), if any. */
  draftId?: string | undefined;
  target: { providerId: string; api: string; model: string; origin: string };
  needsConfirmation: boolean;
  /**
   * Issue 9: leave out the per-turn list and the body (`summaryOnly`), which for a long
   * conversation are megabytes to build and to pass to the page; every count is the same.
   */
  summary?: boolean | undefined;
}

/** Builds the {@link DisclosurePreview} of a planned send. */
export function buildPreview(input: PreviewInput): DisclosurePreview {
  const { planned, transcript } = input;
  const p = planned.plan;
  const planned_ = new Map(p.turns.map((t) => [t.id, t] as const));
  const dropped = new Map(p.dropped.map((d) => [d.turn, d] as const));
  const fates = new Map<string, PreviewBlock['fate'] | undefined>();
  const details = new Map<string, string>();
  for (const b of p.report.blocks) {
    const last = b.fates[b.fates.length - 1];
    fates.set(`${b.turn}\u0000${b.index}`, last?.fate);
    if (last) details.set(`${b.turn}\u0000${b.index}`, last.detail);
  }
  const droppedByReason: Record<string, number> = {};
  for (const d of p.dropped) droppedByReason[d.reason] = (droppedByReason[d.reason] ?? 0) + 1;
  let convertedBlocks = 0;
  if (input.summary) {
    // The count the per-turn list below makes, without building it.
    for (const turn of transcript.turns) {
      if (planned_.get(turn.id)?.included !== true) continue;
      for (let index = 0; index < turn.blocks.length; index++) if (fates.get(`${turn.id}\u0000${index}`) === 'converted') convertedBlocks++;
    }
  }
  const perTurn: PreviewTurn[] = input.summary ? [] : transcript.turns.map((turn) => {
    const pt = planned_.get(turn.id);
    const held = !pt && planned.delivery.mode === 'delta';
    const blocks = turn.blocks.map((b, index): PreviewBlock => {
      const key = `${turn.id}\u0000${index}`;
      const fate = pt ? (fates.get(key) ?? 'kept') : 'dropped';
      if (pt?.included && fate === 'converted') convertedBlocks++;
      return { index, type: b.type, fate, detail: pt ? (details.get(key) ?? '') : held ? 'held by the provider from an earlier response' : 'turn not sent' };
    });
    const why = dropped.get(turn.id);
    return {
      id: turn.id,
      role: turn.role,
      ...(turn.id === input.draftId ? { draft: true } : {}),
      included: pt?.included === true,
      pinned: turn.meta?.pinned === true,
      tokens: pt?.tokens ?? 0,
      ...(why ? { droppedReason: why.detail } : held ? { droppedReason: 'already stored by the provider (sent as previous_response_id)' } : {}),
      preview: firstText(turn),
      blocks,
    };
  });
  return {
    target: input.target,
    allowed: p.allowed,
    ...(p.forbidden ? { forbidden: p.forbidden.message } : {}),
    turns: transcript.turns.length,
    includedTurns: p.included.length,
    estimatedInputTokens: p.estimatedInputTokens,
    ...(p.estimatedCostUsd !== undefined ? { estimatedCostUsd: p.estimatedCostUsd } : {}),
    contextWindow: p.contextWindow,
    maxOutputTokens: p.maxOutputTokens,
    inputBudget: p.inputBudget,
    fits: p.fits,
    ...(p.notFit ? { notFit: p.notFit.message } : {}),
    thinkingDropped: p.stats.thinkingDropped,
    imagesOmitted: p.stats.imagesOmitted,
    blocksDropped: p.stats.blocksDropped,
    droppedByReason,
    convertedBlocks,
    perTurn,
    delivery: planned.delivery.mode === 'delta'
      ? { mode: 'delta', detail: `only the ${planned.delivery.newTurnIds.length} new turn(s); the provider keeps the rest` }
      : { mode: 'snapshot', detail: planned.delivery.detail },
    needsConfirmation: input.needsConfirmation,
    body: input.summary ? {} : planned.body,
    ...(input.summary ? { summaryOnly: true as const } : {}),
  };
}

function firstText(turn: Turn): string {
  for (const b of turn.blocks) {
    if (b.type === 'text' && b.text.trim()) {
      const flat = b.text.replace(/\s+/g, ' ').trim();
      return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
    }
  }
  return turn.blocks.length ? `[${turn.blocks.map((b) => b.type).join(', ')}]` : '';
}
