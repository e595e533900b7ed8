/**
 * Ask several models at once (docs/side-panel.md#ask-several-models-at-once), the panel's side:
 * the extra targets beside the picker's, the send to all of them (each first disclosure confirmed
 * on its own, through a preview of exactly that target's request), the answers as they stream
 * (versions of one assistant turn, gathered from the ordinary turn events), and **Continue with
 * this**, which makes one answer the active version and its target the picker's.
 *
 * The background does the sending (`sendCompare`): every answer is a normal send there.
 */
import { COMPARE_TARGETS } from '../messaging/compare-limits';
import type { DisclosureEntry, DisclosurePreview } from '../messaging/disclosure-types';
import type { BackgroundEvent, SendTarget } from '../messaging/protocol';
import type { Turn } from '../transcript/schema';
import { extrasOf, type SendExtras } from './chat-state';
import { saveLastModel } from './model-memory';
import { ON_DEVICE_ID } from './on-device';
import { PanelModel } from './panel-model';
import { Store } from './store';
import { toProtocolError } from './targets';
import { upsertMeta } from './turns';

/** One answer of a compare, as shown. */
export interface CompareAnswer {
  turn: Turn;
  /** The target it answers for (undefined until the background said which turn is whose). */
  target?: SendTarget | undefined;
  /** When its final state arrived, in ms since the epoch (its time is this minus `turn.createdAt`). */
  endedAt?: number | undefined;
  /** Its ledger record (tokens and cost as the provider reported them), once the compare ended. */
  entry?: DisclosureEntry | undefined;
}

/** A compare sent from this panel: its answers as they stream, and the targets that did not go. */
export interface CompareRun {
  conversationId: string;
  /** Known once the background accepted the send. */
  userTurnId?: string | undefined;
  /** The targets in the order asked, with their answer turn ids (after acceptance). */
  order: { target: SendTarget; turnId: string }[];
  answers: Record<string, CompareAnswer>;
  /** Targets that did not go, with the reason in words. */
  dropped: { target: SendTarget; reason: string }[];
  /** Every answer has ended (the background said `idle`). */
  done: boolean;
}

/** A first disclosure waiting for the person's answer, one target at a time. */
export interface CompareConfirming {
  target: SendTarget;
  preview: DisclosurePreview;
  answer(ok: boolean): void;
}

export interface CompareState {
  /** The targets added beside the picker's (at most {@link COMPARE_TARGETS}.max − 1). */
  extra: { providerId: string; model: string }[];
  run?: CompareRun | undefined;
  confirming?: CompareConfirming | undefined;
}

/** The compare state, observable on its own (so `ChatState` keeps its shape). */
export class CompareStore extends Store<CompareState> {
  update(p: Partial<CompareState> | ((s: CompareState) => Partial<CompareState>)): void {
    this.set(p);
  }
}

const sameTarget = (a: { providerId: string; model: string }, b: { providerId: string; model: string }) =>
  a.providerId === b.providerId && a.model.trim() === b.model.trim();

/** The answers of `run` in the order asked (those not yet placed after them, in arrival order). */
export function orderedAnswers(run: CompareRun): CompareAnswer[] {
  const placed = run.order.flatMap((o) => {
    const a = run.answers[o.turnId];
    return a ? [{ ...a, target: o.target }] : [];
  });
  const rest = Object.values(run.answers).filter((a) => !run.order.some((o) => o.turnId === a.turn.id));
  return [...placed, ...rest];
}

export class ComparePanelModel extends PanelModel {
  readonly compare = new CompareStore({ extra: [] });

  /** Every target of the next send: the picker's first, then the added ones that are complete and distinct. */
  compareTargets(): SendTarget[] {
    const first = this.sendTarget();
    if (!first) return [];
    const out: SendTarget[] = [first];
    for (const x of this.compare.state.extra) {
      const model = x.model.trim();
      if (!x.providerId || !model || out.some((t) => sameTarget(t, x))) continue;
      out.push({
        providerId: x.providerId,
        model,
        ...(first.thinking !== undefined ? { thinking: first.thinking } : {}),
      });
    }
    return out.slice(0, COMPARE_TARGETS.max);
  }

  /** Whether the next send goes to several targets. */
  comparing(): boolean {
    return this.compare.state.extra.length > 0;
  }

  /** Adds a target: the first usable provider not yet asked, with its model (else the picker's provider again). */
  addTarget(): void {
    const x = this.compare.state.extra;
    if (x.length >= COMPARE_TARGETS.max - 1) return;
    const used = [this.state.target, ...x];
    const usable = this.state.providers.filter((p) => p.id !== ON_DEVICE_ID);
    const p = usable.find((q) => !used.some((u) => u.providerId === q.id)) ?? usable[0];
    if (!p) return;
    const listed = this.state.models[p.id]?.find(
      (m) => m.listed !== false && !used.some((u) => sameTarget(u, { providerId: p.id, model: m.id })),
    )?.id;
    this.compare.update({ extra: [...x, { providerId: p.id, model: p.defaultModel ?? listed ?? '' }] });
    void this.loadModels(p.id);
  }

  /** Changes added target `i`'s provider (its model becomes that provider's default). */
  setExtraProvider(i: number, providerId: string): void {
    const p = this.state.providers.find((q) => q.id === providerId);
    const listed = this.state.models[providerId]?.find((m) => m.listed !== false)?.id;
    this.compare.update((s) => ({
      extra: s.extra.map((t, j) => (j === i ? { providerId, model: p?.defaultModel ?? listed ?? '' } : t)),
    }));
    void this.loadModels(providerId);
  }

  setExtraModel(i: number, model: string): void {
    this.compare.update((s) => ({ extra: s.extra.map((t, j) => (j === i ? { ...t, model } : t)) }));
  }

  removeTarget(i: number): void {
    this.compare.update((s) => ({ extra: s.extra.filter((_, j) => j !== i) }));
  }

  /**
   * Sends the draft to every target (creating the conversation first for a new chat). Before it
   * goes, each target's request is previewed; a first disclosure to a target opens the
   * confirmation for that target alone (`confirming`), and a target the person does not confirm
   * drops out, said so. The background may drop more (no key, not permitted, refused by a
   * policy): the others still go. Returns whether anything was sent.
   */
  async sendCompare(extra: SendExtras = {}): Promise<boolean> {
    const text = this.state.draft;
    const pending = this.state.attachments;
    const targets = this.compareTargets();
    if ((!text.trim() && pending.length === 0) || targets.length < 2 || this.state.busy || this.sendBlocked())
      return false;
    this.set({ busy: true, phase: 'sending', error: undefined, answerError: undefined });
    const attachments = pending.map(({ id: _id, bytes: _bytes, ...a }) => a);
    const { confirmedDisclosure: _c, confirmedFor: _f, ...exclusions } = extrasOf(extra);
    try {
      let id = this.state.currentId;
      if (!id) {
        const meta = await this.connector.request('createConversation', { target: targets[0]! });
        id = meta.id;
        this.set((s) => ({ currentId: meta.id, turns: [], conversations: upsertMeta(s.conversations, meta) }));
      }
      const going: {
        target: SendTarget;
        confirmedDisclosure?: true;
        confirmedFor?: { providerId: string; origin: string };
      }[] = [];
      const dropped: CompareRun['dropped'] = [];
      for (const target of targets) {
        const preview = await this.connector
          .request('previewSend', {
            conversationId: id,
            target,
            ...(text.trim() ? { text } : {}),
            ...(attachments.length ? { attachments } : {}),
            ...exclusions,
          })
          .catch(() => undefined);
        if (!preview?.needsConfirmation) {
          // No preview: the background checks this target itself and says why it cannot go.
          going.push({ target });
          continue;
        }
        if (await this.askConfirm(target, preview))
          going.push({
            target,
            confirmedDisclosure: true,
            confirmedFor: { providerId: preview.target.providerId, origin: preview.target.origin },
          });
        else dropped.push({ target, reason: 'Not sent: you did not confirm the disclosure.' });
      }
      if (going.length === 0) {
        this.set({ busy: false, phase: 'idle' });
        return false;
      }
      const run: CompareRun = { conversationId: id, order: [], answers: {}, dropped, done: false };
      this.compare.update({ run });
      const out = await this.connector.request('sendCompare', {
        conversationId: id,
        text,
        ...(attachments.length ? { attachments } : {}),
        targets: going,
        ...exclusions,
      });
      this.updateRun((r) => ({
        ...r,
        userTurnId: out.userTurnId,
        order: out.answers,
        dropped: [
          ...r.dropped,
          ...out.dropped.map((d) => ({ target: d.target, reason: toProtocolError(d.error).message })),
        ],
      }));
      for (const t of out.answers) saveLastModel(t.target.providerId, t.target.model);
      this.set((s) => ({
        draft: s.draft === text ? '' : s.draft,
        attachments: s.attachments === pending ? [] : s.attachments,
      }));
      if (this.state.currentId === id && !this.state.turns.some((t) => t.id === out.userTurnId))
        await this.open(id, { keepTarget: true });
      return true;
    } catch (e) {
      this.compare.update({ run: undefined });
      this.set({ busy: false, phase: 'idle', error: toProtocolError(e) });
      return false;
    }
  }

  /** Opens the confirmation for `target` and resolves with the person's answer. */
  private askConfirm(target: SendTarget, preview: DisclosurePreview): Promise<boolean> {
    return new Promise((resolve) =>
      this.compare.update({
        confirming: {
          target,
          preview,
          answer: (ok) => {
            this.compare.update({ confirming: undefined });
            resolve(ok);
          },
        },
      }),
    );
  }

  private updateRun(f: (r: CompareRun) => CompareRun): void {
    this.compare.update((s) => (s.run ? { run: f(s.run) } : {}));
  }

  /**
   * **Continue with this**: answer `turnId` of the compare becomes the active version, its target
   * the picker's (the next send goes there), and the compare closes; the other answers stay as
   * versions of the turn.
   */
  async continueWith(turnId: string): Promise<void> {
    const run = this.compare.state.run;
    const id = this.state.currentId;
    if (!run || !id || run.conversationId !== id || this.state.busy) return;
    const answer = orderedAnswers(run).find((a) => a.turn.id === turnId);
    const target = answer?.target;
    try {
      await this.connector.request('selectVersion', { conversationId: id, turnId });
      // Picked: the answers are no longer shown side by side when the conversation is opened again.
      await this.connector.request('endCompare', { conversationId: id });
      if (target) {
        this.set((s) => ({
          target: {
            providerId: target.providerId,
            model: target.model,
            ...(s.target.thinking !== undefined ? { thinking: s.target.thinking } : {}),
          },
        }));
        saveLastModel(target.providerId, target.model);
        void this.loadModels(target.providerId);
      }
      this.compare.update({ run: undefined, extra: [] });
      await this.open(id, { keepTarget: true });
    } catch (e) {
      this.set({ error: toProtocolError(e) });
    }
  }

  /** Closes the side-by-side view (the answers stay as versions). */
  closeCompare(): void {
    if (!this.state.busy) this.compare.update({ run: undefined });
  }

  /**
   * Opening another conversation closes the side-by-side view (its answers stay as versions).
   * Opening one whose last send to several models has no answer picked yet — after a reload of
   * the panel, mid-compare or later — shows its answers side by side again (`getCompare`).
   */
  override async open(id: string, opts: { keepTarget?: boolean } = {}): Promise<void> {
    if (this.compare.state.run && this.compare.state.run.conversationId !== id) this.compare.update({ run: undefined });
    await super.open(id, opts);
    if (!this.compare.state.run && this.state.currentId === id) await this.restore(id);
  }

  /** Rebuilds the compare of conversation `id` from what is stored, when it has one not yet picked. */
  private async restore(id: string): Promise<void> {
    let group;
    try {
      group = await this.connector.request('getCompare', { conversationId: id });
    } catch {
      return;
    }
    if (!group || this.compare.state.run || this.state.currentId !== id) return;
    const order = group.answers.flatMap((t) =>
      t.origin ? [{ target: { providerId: t.origin.provider, model: t.origin.model }, turnId: t.id }] : [],
    );
    const answers: Record<string, CompareAnswer> = {};
    for (const t of group.answers) answers[t.id] = { turn: this.state.turns.find((x) => x.id === t.id) ?? t };
    const done = !this.state.busy;
    this.compare.update({
      run: { conversationId: id, userTurnId: group.userTurnId, order, answers, dropped: [], done },
    });
    if (done) await this.fillEntries();
  }

  override newChat(): void {
    this.compare.update({ run: undefined });
    super.newChat();
  }

  override onEvent(e: BackgroundEvent): void {
    super.onEvent(e);
    const run = this.compare.state.run;
    // Another conversation open: its turns are not this compare's (the stored versions stay reachable).
    if (!run || run.done || !('conversationId' in e) || e.conversationId !== run.conversationId) return;
    if (this.state.currentId !== run.conversationId) return;
    if (e.type === 'turnUpdated' || e.type === 'textDelta') this.gather();
    else if (e.type === 'sendStateChanged' && e.state === 'idle') void this.ended();
  }

  /** The compare's answers as the panel has them: the assistant turns after the last user turn. */
  private gather(): void {
    const turns = this.state.turns;
    let u = turns.length - 1;
    while (u >= 0 && turns[u]!.role !== 'user') u--;
    const now = Date.now();
    this.updateRun((r) => {
      if (r.userTurnId && turns[u]?.id !== r.userTurnId) return r;
      const answers = { ...r.answers };
      for (const t of turns.slice(u + 1)) {
        if (t.role !== 'assistant' || answers[t.id]?.turn === t) continue;
        const ended = t.status !== 'streaming';
        answers[t.id] = { ...answers[t.id], turn: t, ...(ended && !answers[t.id]?.endedAt ? { endedAt: now } : {}) };
      }
      return { ...r, answers };
    });
  }

  /** Every answer ended: the ledger records give each its tokens and cost; the turns reload as stored. */
  private async ended(): Promise<void> {
    this.gather();
    this.updateRun((r) => ({ ...r, done: true }));
    const run = this.compare.state.run;
    if (!run) return;
    await this.fillEntries();
    // The stored turns replace the streamed ones; the panel's own answers stay in the run.
    const keep = this.compare.state.run;
    if (this.state.currentId === run.conversationId) await this.open(run.conversationId, { keepTarget: true });
    if (keep) this.compare.update({ run: keep });
  }

  /** Each answer's ledger record: its tokens, cost and end time as stored. */
  private async fillEntries(): Promise<void> {
    const run = this.compare.state.run;
    if (!run) return;
    try {
      const ledger = await this.connector.request('listDisclosures', { conversationId: run.conversationId });
      this.updateRun((r) => {
        const answers = { ...r.answers };
        for (const o of r.order) {
          const a = answers[o.turnId];
          const entry = [...ledger.entries]
            .reverse()
            .find(
              (x) =>
                x.providerId === o.target.providerId &&
                x.model === o.target.model &&
                r.userTurnId !== undefined &&
                x.turns.some(([t]) => t === r.userTurnId),
            );
          if (a && entry) answers[o.turnId] = { ...a, entry };
        }
        return { ...r, answers };
      });
    } catch {
      // No ledger: the answers show their own token counts.
    }
  }
}
