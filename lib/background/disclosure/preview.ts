/**
 * The preview of one send (docs/disclosure.md, "In the side panel"): the plan summary, each turn's and
 * block's fate, and the exact JSON body — for the one line above the composer, its expanded
 * list and "View request". Pure.
 */
import type {
  DisclosurePreview,
  PreviewBlock,
  PreviewSummary,
  PreviewTurn,
  UnknownExclusions,
} from '../../messaging/disclosure-types';
import type { Transcript, Turn } from '../../transcript/schema';
import type { CountInfo } from '../../context/count-state';
import { countingFamily, documentTokens, tokenizerFamily } from '../../context/tokens';
import type { Exclusions, PlannedSend } from './sendable';
import { holdsOpaqueState, isImportedState } from '../../transcript/imported-state';
import { isSameOrigin, resolveTarget } from '../../transcript/target';
import { PREVIOUS_ID_FIELD } from '../../context/delivery';
import type { InstructionsChange } from '../../context/prefix-binding';
import { sentBlockReports } from '../../context/plan';
import type { Plan } from '../../context/types';

const PREVIEW_CHARS = 80;
/** Why a turn the active summary stands for is not sent (docs/disclosure.md, "Fitting"). */
export const SUMMARISED_REASON = 'summarised: replaced by the summary turn';

export interface PreviewInput {
  planned: PlannedSend;
  /** The stored turns plus the draft (before an active summary is applied: `planned.transcript` is after). */
  transcript: Transcript;
  /** The draft turn's id (not stored yet), if any. */
  draftId?: string | undefined;
  target: { providerId: string; api: string; model: string; origin: string };
  needsConfirmation: boolean;
  /** Whether an exact count may be asked for, and where the estimate comes from (default: no count, the plan's own estimate). */
  count?: CountInfo | undefined;
  /** How the instructions differ from those of the last send to this provider (docs/disclosure.md#instructions). */
  instructionsChange?: InstructionsChange | undefined;
  /** The person's exclusions for this send: those naming nothing in `transcript` are reported. */
  exclusions?: Exclusions | undefined;
  /**
   * docs/architecture.md#long-conversations-and-speed: leave out the per-turn list and the body (`countsOnly`), which for a long
   * conversation are megabytes to build and to pass to the page; every count is the same.
   */
  countsOnly?: boolean | undefined;
}

/**
 * Builds the {@link DisclosurePreview} of a planned send. With an applied summary, its turn is
 * listed (included, `summary`) followed by the stored turns it stands for (not sent, `summarised`).
 */
export function buildPreview(input: PreviewInput): DisclosurePreview {
  const { planned } = input;
  const transcript = planned.transcript;
  const applied = planned.summary?.state === 'applied' ? planned.summary : undefined;
  const p = planned.plan;
  const droppedByReason: Record<string, number> = {};
  for (const d of p.dropped) droppedByReason[d.reason] = (droppedByReason[d.reason] ?? 0) + 1;
  let convertedBlocks = 0;
  // Counts only: the count the per-turn list below makes, from the sent turns' report entries
  // alone — no map of every block's fate, no report entries for the turns not sent (a long
  // conversation's thousands: docs/architecture.md#the-path-index).
  if (input.countsOnly)
    for (const b of sentBlockReports(p)) if (b.fates[b.fates.length - 1]?.fate === 'converted') convertedBlocks++;
  const planned_ = new Map<string, Plan['turns'][number]>();
  const dropped = new Map<string, Plan['dropped'][number]>();
  const fates = new Map<string, PreviewBlock['fate'] | undefined>();
  const details = new Map<string, string>();
  if (!input.countsOnly) {
    for (const t of p.turns) planned_.set(t.id, t);
    for (const d of p.dropped) dropped.set(d.turn, d);
    for (const b of p.report.blocks) {
      const last = b.fates[b.fates.length - 1];
      fates.set(`${b.turn}\u0000${b.index}`, last?.fate);
      if (last) details.set(`${b.turn}\u0000${b.index}`, last.detail);
    }
  }
  // Tool names for the preview's block lines ("3 tool calls: Bash, Glob ×2 — sent", docs/side-panel.md).
  const toolNames = new Map<string, string>();
  const family = countingFamily(tokenizerFamily(input.target.model));
  if (!input.countsOnly)
    for (const t of transcript.turns) for (const b of t.blocks) if (b.type === 'tool_call') toolNames.set(b.id, b.name);
  const rows: PreviewTurn[] = input.countsOnly
    ? []
    : transcript.turns.map((turn) => {
        const pt = planned_.get(turn.id);
        const held = !pt && planned.delivery.mode === 'delta';
        const blocks = turn.blocks.map((b, index): PreviewBlock => {
          const key = `${turn.id}\u0000${index}`;
          const fate = pt ? (fates.get(key) ?? 'kept') : 'dropped';
          if (pt?.included && fate === 'converted') convertedBlocks++;
          const name = b.type === 'tool_call' ? b.name : b.type === 'tool_result' ? toolNames.get(b.callId) : undefined;
          // A document is its own row with its tokens (docs/side-panel.md#add-this-page).
          const doc =
            b.type === 'document'
              ? {
                  ...(b.title ? { title: b.title } : {}),
                  ...(pt?.included && fate !== 'dropped'
                    ? { tokens: documentTokens(b.mediaType, b.data, family) }
                    : {}),
                }
              : {};
          return {
            index,
            type: b.type,
            fate,
            ...doc,
            detail: pt
              ? (details.get(key) ?? '')
              : held
                ? 'held by the provider from an earlier response'
                : 'turn not sent',
            ...(name ? { name } : {}),
          };
        });
        const why = dropped.get(turn.id);
        return {
          id: turn.id,
          role: turn.role,
          ...(turn.id === input.draftId ? { draft: true } : {}),
          included: pt?.included === true,
          pinned: turn.meta?.pinned === true,
          tokens: pt?.tokens ?? 0,
          ...(why
            ? { droppedReason: why.detail }
            : held
              ? {
                  droppedReason: `already stored by the provider (sent as ${PREVIOUS_ID_FIELD[p.target.api] ?? 'previous_response_id'})`,
                }
              : {}),
          preview: firstText(turn),
          blocks,
        };
      });
  const originals = applied ? new Map(input.transcript.turns.map((t) => [t.id, t] as const)) : undefined;
  const perTurn = applied
    ? withSummaryRows(
        rows,
        applied.turnId,
        applied.summary.replaces.map((id) => originals!.get(id)!),
        applied.summary.origin,
      )
    : rows;
  if (applied) droppedByReason.summarised = applied.summary.replaces.length;
  return {
    target: input.target,
    allowed: p.allowed,
    ...(p.forbidden ? { forbidden: p.forbidden.message } : {}),
    // Every row of the full list (the summary turn and the turns it stands for), also when counts only.
    turns: transcript.turns.length + (applied ? applied.summary.replaces.length : 0),
    includedTurns: p.included.length,
    estimatedInputTokens: p.estimatedInputTokens,
    ...(p.estimatedCostUsd !== undefined ? { estimatedCostUsd: p.estimatedCostUsd } : {}),
    contextWindow: p.contextWindow,
    maxOutputTokens: p.maxOutputTokens,
    inputBudget: p.inputBudget,
    fits: p.fits,
    ...(p.notFit ? { notFit: p.notFit.message } : {}),
    thinkingDropped: p.stats.thinkingDropped,
    ...(p.stats.reasoningUnused?.length ? { reasoningUnused: p.stats.reasoningUnused } : {}),
    ...(p.stats.toolsWithReasoning ? { toolsWithReasoning: p.stats.toolsWithReasoning } : {}),
    imagesOmitted: p.stats.imagesOmitted,
    blocksDropped: p.stats.blocksDropped,
    droppedByReason,
    convertedBlocks,
    perTurn,
    delivery:
      planned.delivery.mode === 'delta'
        ? {
            mode: 'delta',
            detail: `only the ${planned.delivery.newTurnIds.length} new turn(s) with ${PREVIOUS_ID_FIELD[p.target.api] ?? 'previous_response_id'}; the provider keeps the rest`,
          }
        : { mode: 'snapshot', detail: planned.delivery.detail, ...(planned.stateful ? { stateful: true } : {}) },
    needsConfirmation: input.needsConfirmation,
    ...instructionsRow(transcript.system, p.systemTokens, p.allowed, input.instructionsChange),
    // Against the stored turns and the summary turn: a turn the summary stands for still exists.
    ...withUnknown(
      unknownExclusions(
        transcript === input.transcript ? transcript.turns : [...input.transcript.turns, ...transcript.turns],
        input.exclusions ?? {},
      ),
    ),
    ...importedStateLine(planned, input.exclusions?.replayImportedState === true),
    body: input.countsOnly ? {} : planned.body,
    ...(input.countsOnly ? { countsOnly: true as const } : {}),
    exactCountAvailable: input.count?.exactCountAvailable ?? false,
    estimateSource:
      input.count?.estimateSource ??
      (p.tokenizer === 'o200k' || p.tokenizer === 'cl100k'
        ? 'tokenizer'
        : p.correction !== 1
          ? 'corrected'
          : 'estimate'),
    ...(input.count?.providerCount ? { providerCount: input.count.providerCount } : {}),
    ...(planned.summary ? { summary: previewSummary(planned.summary) } : {}),
  };
}

/**
 * docs/security.md ("Hostile providers and files"): the sent turns holding provider state from an
 * imported file that claims this target's origin — dropped unless the person chooses to send it,
 * so the preview says so and offers the choice. A tool turn's items belong to the assistant turn
 * before it (as in `prepare.ts`).
 */
function importedStateLine(planned: PlannedSend, replayed: boolean): Pick<DisclosurePreview, 'importedState'> {
  const p = planned.plan;
  const target = resolveTarget(p.target);
  const included = new Set(p.included);
  let turns = 0;
  let lastAssistant: Turn | undefined;
  for (const t of planned.transcript.turns) {
    if (t.role === 'assistant') lastAssistant = t;
    else if (t.role === 'user') lastAssistant = undefined;
    const owner = t.role === 'tool' ? lastAssistant : t;
    if (t.role === 'user' || !owner || !included.has(t.id)) continue;
    if (isImportedState(owner) && holdsOpaqueState(t) && isSameOrigin(owner.origin, target)) turns++;
  }
  return turns > 0 ? { importedState: { turns, replayed } } : {};
}

/** `rows` with the summary turn labelled and the turns it stands for listed after it, not sent. */
function withSummaryRows(
  rows: PreviewTurn[],
  turnId: string,
  replaced: readonly Turn[],
  by: { provider: string; model: string },
): PreviewTurn[] {
  return rows.flatMap((row) =>
    row.id !== turnId
      ? [row]
      : [
          { ...row, summary: { by: { provider: by.provider, model: by.model }, replaces: replaced.length } },
          ...replaced.map((turn): PreviewTurn => ({
            id: turn.id,
            role: turn.role,
            included: false,
            pinned: turn.meta?.pinned === true,
            tokens: 0,
            droppedReason: SUMMARISED_REASON,
            summarised: true,
            preview: firstText(turn),
            blocks: turn.blocks.map((b, index) => ({
              index,
              type: b.type,
              fate: 'dropped',
              detail: 'turn replaced by the summary',
            })),
          })),
        ],
  );
}

function previewSummary(s: NonNullable<PlannedSend['summary']>): PreviewSummary {
  return {
    state: s.state,
    ...(s.state === 'applied' ? { turnId: s.turnId } : { reason: s.reason }),
    replaces: s.summary.replaces.length,
    by: { provider: s.summary.origin.provider, model: s.summary.origin.model },
  };
}

/**
 * The exclusions naming a turn id that is not in `turns`, or a block of a turn that is not there
 * or an index past the end of its turn's blocks (docs/disclosure.md: a stale panel may still hold toggles of
 * turns deleted since, e.g. by another window's edit-and-resend). The planner ignores them
 * (`selectTurns`), so they change nothing. Each list holds exactly the given entries that name
 * nothing, in the given order, without duplicates.
 */
export function unknownExclusions(turns: readonly Turn[], x: Exclusions): UnknownExclusions {
  // None asked (the usual case): no map of every turn of a long conversation.
  if (!x.excludeTurns?.length && !x.excludeBlocks?.length) return { turns: [], blocks: [] };
  const blocksOf = new Map(turns.map((t) => [t.id, t.blocks.length] as const));
  const seen = new Set<string>();
  const blocks = (x.excludeBlocks ?? []).filter((b) => {
    const k = `${b.index}\u0000${b.turn}`;
    if (seen.has(k) || b.index < (blocksOf.get(b.turn) ?? 0)) return false;
    seen.add(k);
    return true;
  });
  return {
    turns: [...new Set((x.excludeTurns ?? []).filter((id) => !blocksOf.has(id)))],
    blocks: blocks.map((b) => ({ turn: b.turn, index: b.index })),
  };
}

function withUnknown(u: UnknownExclusions): { unknownExclusions?: UnknownExclusions } {
  return u.turns.length || u.blocks.length ? { unknownExclusions: u } : {};
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

/**
 * docs/disclosure.md#instructions: the instructions' own row (always sent, never left out to fit)
 * and, on the first send after they changed, how — also when they were removed.
 */
function instructionsRow(
  system: string | undefined,
  tokens: number,
  allowed: boolean,
  change: InstructionsChange | undefined,
): Pick<DisclosurePreview, 'instructions'> {
  const sent = allowed && system !== undefined && system.trim() !== '';
  if (!sent && !change) return {};
  return {
    instructions: {
      sent,
      tokens: sent ? tokens : 0,
      preview: sent ? oneLine(system!) : '',
      ...(change ? { change } : {}),
    },
  };
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}
