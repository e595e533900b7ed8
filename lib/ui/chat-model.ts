/**
 * The side panel's model: conversation list, the open conversation, the send target and the
 * draft. It talks to the background only through a {@link Connector} (DESIGN.md, "Style to
 * follow" 4) and reloads everything after the events port reconnects (L2).
 */
import type { Connector } from '../messaging/client';
import type { BackgroundEvent, GeminiApi, ModelOption, SendTarget } from '../messaging/protocol';
import type { Turn } from '../transcript/schema';
import { reduceEvent } from './chat-events';
import {
  extrasOf,
  INITIAL_CHAT_STATE,
  type ChatState,
  type RefusedSend,
  type ResendExtras,
  type SendExtras,
} from './chat-state';
import { Store } from './store';
import { sortNewestFirst, upsertMeta } from './turns';
import { configuredProviders, pickTarget, toProtocolError } from './targets';
import { joinTurns, TURN_WINDOW, windowLimit } from './turn-window';
import { isConfirmationRequired, previewResend, type ResendAction } from './resend-confirm';
import { loadLastModels, loadModelList, MODEL_LIST_TTL_MS, saveLastModel, saveModelList } from './model-memory';

export type { ChatState, RefusedSend, ResendExtras, SendExtras } from './chat-state';

export class ChatModel extends Store<ChatState> {
  private unsubscribe: (() => void) | undefined;
  /** The model last chosen per provider, so switching back restores it (kept across openings, docs/side-panel.md). */
  private readonly lastModel = new Map<string, string>(Object.entries(loadLastModels()));
  private readonly modelRequests = new Map<string, Promise<void>>();
  /** Whether the Model field has focus now, and how often the person has focused or typed in it (see {@link gotModels}). */
  private modelFieldFocused = false;
  private modelFieldTouches = 0;

  private watchdog: ReturnType<typeof setTimeout> | undefined;

  /** `stateTimeoutMs`: after a reconnect, how long "waiting" may show before the reload has answered (L2: < 5 s). */
  constructor(
    protected readonly connector: Connector,
    private readonly stateTimeoutMs = 4000,
  ) {
    super(INITIAL_CHAT_STATE);
  }

  /** Subscribes to background events and loads the initial state. Returns `dispose`. */
  start(): () => void {
    this.unsubscribe ??= this.connector.subscribe(
      (e) => this.onEvent(e),
      () => void this.onReconnect(),
    );
    // A context-menu capture may have finished before this page loaded (docs/architecture.md#the-background-by-feature).
    void this.reload().then(() => this.openPendingCapture());
    return () => this.dispose();
  }

  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearTimeout(this.watchdog);
  }

  /**
   * The worker restarted (L2): reload everything. Should the background not answer in time, stop
   * showing an answer as in flight, so the person is never left with a spinner; the reload still
   * sets the true state when it lands.
   */
  private async onReconnect(): Promise<void> {
    clearTimeout(this.watchdog);
    let done = false;
    this.watchdog = setTimeout(() => {
      if (!done) this.set({ busy: false, phase: 'idle' });
    }, this.stateTimeoutMs);
    await this.reload();
    done = true;
    clearTimeout(this.watchdog);
  }

  /** Reloads settings, the list and the open conversation (after a reconnect: events may have been missed). */
  async reload(): Promise<void> {
    try {
      const [settings, list] = await Promise.all([
        this.connector.request('getSettings', {}),
        this.connector.request('listConversations', {}),
      ]);
      this.set((s) => {
        const providers = configuredProviders(settings);
        const target = providers.some((p) => p.id === s.target.providerId) ? s.target : pickTarget(settings, providers);
        return { settings, providers, target, conversations: sortNewestFirst(list), loading: false };
      });
      if (this.state.currentId) await this.open(this.state.currentId, { keepTarget: true });
      if (this.state.target.providerId) void this.loadModels(this.state.target.providerId);
    } catch (e) {
      // Never leave a spinner behind (L2): show the failure instead.
      this.set({ loading: false, busy: false, phase: 'idle', error: toProtocolError(e) });
    }
  }

  /** Opens a conversation; the target becomes its last target when that provider is usable. */
  async open(id: string, opts: { keepTarget?: boolean } = {}): Promise<void> {
    try {
      // docs/architecture.md#long-conversations-and-speed: only the newest turns (older pages on request), so a long conversation opens fast.
      const view = await this.connector.request('getConversation', {
        id,
        limit: windowLimit(this.state.currentId, this.state.turns.length, id),
      });
      this.set((s) => {
        const fromConversation =
          view.meta.lastTarget && s.providers.some((p) => p.id === view.meta.lastTarget!.providerId)
            ? view.meta.lastTarget
            : undefined;
        const target =
          opts.keepTarget && s.currentId === id
            ? s.target
            : (fromConversation ?? (s.settings ? pickTarget(s.settings, s.providers) : s.target));
        const switched = s.currentId !== id;
        return {
          currentId: id,
          turns: view.turns,
          // Stored turns: a streaming answer's next delta checks itself against them (`at`), else asks for its state.
          streamSeq: undefined,
          hasEarlier: view.hasEarlier === true,
          firstTurn: view.first,
          versions: view.versions ?? {},
          ...(switched ? { loadingEarlier: false } : {}),
          busy: view.busy,
          phase: view.busy ? (s.phase === 'idle' ? 'streaming' : s.phase) : 'idle',
          conversations: upsertMeta(s.conversations, view.meta),
          target,
          ...(switched ? { answerError: undefined, error: undefined, pendingResend: undefined } : {}),
        };
      });
      if (this.state.target.providerId) void this.loadModels(this.state.target.providerId);
    } catch (e) {
      this.set({ busy: false, phase: 'idle', error: toProtocolError(e) });
    }
  }

  /**
   * Loads the {@link TURN_WINDOW} turns before the first one shown and puts them in front (docs/architecture.md#long-conversations-and-speed).
   * Does nothing when there are none or a page is already loading; a failure is shown as `error`.
   */
  async showEarlier(): Promise<void> {
    const id = this.state.currentId;
    const first = this.state.turns[0];
    if (!id || !first || !this.state.hasEarlier || this.state.loadingEarlier) return;
    this.set({ loadingEarlier: true });
    try {
      const view = await this.connector.request('getConversation', { id, limit: TURN_WINDOW, before: first.id });
      // Applied only if the same conversation still starts with the same turn.
      this.set((s) =>
        s.currentId === id && s.turns[0]?.id === first.id
          ? {
              turns: joinTurns(view.turns, s.turns),
              hasEarlier: view.hasEarlier === true,
              versions: { ...view.versions, ...s.versions },
            }
          : {},
      );
    } catch (e) {
      this.set({ error: toProtocolError(e) });
    } finally {
      this.set({ loadingEarlier: false });
    }
  }

  /** Every turn of the open conversation, not just the shown window (copy as Markdown, docs/architecture.md#long-conversations-and-speed). */
  async allTurns(): Promise<Turn[]> {
    const id = this.state.currentId;
    if (!id || !this.state.hasEarlier) return this.state.turns;
    const view = await this.connector.request('getConversation', { id });
    return joinTurns(view.turns, this.state.turns);
  }

  /** Starts a new chat: nothing is created until the first send. */
  newChat(): void {
    this.set((s) => ({
      currentId: undefined,
      turns: [],
      hasEarlier: false,
      versions: {},
      firstTurn: undefined,
      busy: false,
      phase: 'idle',
      answerError: undefined,
      error: undefined,
      pendingResend: undefined,
      target: s.settings ? pickTarget(s.settings, s.providers) : s.target,
    }));
  }

  setDraft(draft: string): void {
    this.set({ draft });
  }

  /**
   * Chooses the provider; the model becomes the one last used with it, else the default target's
   * when it is this provider, else the provider's default (for built-in providers the registry's
   * recommended model), else the first of its model list: never an empty field when any is known (docs/side-panel.md).
   */
  setProvider(providerId: string): void {
    this.set((s) => {
      const p = s.providers.find((x) => x.id === providerId);
      const fromDefault =
        s.settings?.defaultTarget?.providerId === providerId ? s.settings.defaultTarget.model : undefined;
      const listed = s.models[providerId]?.find((m) => m.listed !== false)?.id;
      return {
        target: {
          providerId,
          model: this.lastModel.get(providerId) ?? fromDefault ?? p?.defaultModel ?? listed ?? '',
          ...(s.target.thinking !== undefined ? { thinking: s.target.thinking } : {}),
        },
      };
    });
    void this.loadModels(providerId);
  }

  /**
   * Asks the target to think before answering (`thinking` of the send target), or not; kept across
   * model and provider changes in this panel, sent with every send, resend and preview.
   */
  setThinking(on: boolean): void {
    this.set((s) => ({ target: { ...s.target, thinking: on } }));
  }

  /**
   * Chooses the wire API for a model served by more than one (Gemini: `gemini-generate-content`
   * or `gemini-interactions`); kept across model changes of the provider (a model the API does not
   * serve goes over its default), dropped on a provider change.
   */
  setApi(api: GeminiApi): void {
    this.set((s) => ({ target: { ...s.target, api } }));
  }

  /**
   * Sets the model id (typed or chosen). `remember`: keep it as the provider's last model across
   * openings now (a choice from the list); a typed id is kept when it is sent.
   */
  setModel(model: string, remember = false): void {
    const providerId = this.state.target.providerId;
    if (!remember) this.modelFieldTouches++;
    this.lastModel.set(providerId, model);
    if (remember) saveLastModel(providerId, model);
    this.set((s) => ({ target: { ...s.target, model } }));
  }

  /**
   * The Model field gained (`true`) or lost focus. While it has focus, or once it was focused or
   * typed in after a model list was asked for, that list's arrival never fills the field
   * (docs/side-panel.md): the text the person is typing is theirs alone.
   */
  modelFieldFocus(focused: boolean): void {
    this.modelFieldFocused = focused;
    if (focused) this.modelFieldTouches++;
  }

  /**
   * Loads a provider's model list: from the cache when it is younger than a day (and not
   * `refresh`), else from the background (`listModels`: the provider's own list merged with the
   * registry), then caches it with the time it was fetched. A failure is kept in `modelsError`
   * (the picker still takes any id). Should the target have no model yet, the list's first becomes
   * it, unless the person has the Model field in hand ({@link modelFieldFocus}).
   */
  loadModels(providerId: string, refresh = false): Promise<void> {
    if (!providerId) return Promise.resolve();
    const pending = this.modelRequests.get(providerId);
    if (pending) return pending;
    if (!refresh && this.state.models[providerId]) return Promise.resolve();
    const touches = this.modelFieldTouches;
    const cached = refresh ? undefined : loadModelList(providerId);
    if (cached && Date.now() - cached.at < MODEL_LIST_TTL_MS) {
      this.gotModels(providerId, cached.models, cached.at, touches);
      return Promise.resolve();
    }
    const req = this.connector
      .request('listModels', { providerId, ...(refresh ? { refresh } : {}) })
      .then((list) => {
        const at = Date.now();
        saveModelList(providerId, at, list);
        this.gotModels(providerId, list, at, touches);
      })
      .catch((e: unknown) => {
        const { [providerId]: _old, ...rest } = this.state.modelsError;
        this.set({
          modelsError: { ...rest, [providerId]: toProtocolError(e).message || 'The provider did not list its models.' },
        });
      })
      .finally(() => this.modelRequests.delete(providerId));
    this.modelRequests.set(providerId, req);
    return req;
  }

  /**
   * Keeps a provider's list; fills an empty Model field with its first model only when the person
   * has not had the field in hand since the list was asked for (`touches`: the count then), so
   * a list arriving mid-typing never puts its model in front of the typed text.
   */
  private gotModels(providerId: string, list: ModelOption[], at: number, touches: number): void {
    const untouched = !this.modelFieldFocused && this.modelFieldTouches === touches;
    this.set((s) => {
      const { [providerId]: _err, ...modelsError } = s.modelsError;
      const first = list.find((m) => m.listed !== false)?.id ?? list[0]?.id;
      const fill = untouched && s.target.providerId === providerId && !s.target.model.trim() && first !== undefined;
      return {
        models: { ...s.models, [providerId]: list },
        modelsAt: { ...s.modelsAt, [providerId]: at },
        modelsError,
        ...(fill ? { target: { ...s.target, model: first } } : {}),
      };
    });
  }

  /** The target to send to, or undefined when no provider or model is chosen. */
  sendTarget(): SendTarget | undefined {
    const t = this.state.target;
    const model = t.model.trim();
    if (!t.providerId || !model) return undefined;
    return {
      providerId: t.providerId,
      model,
      ...(t.thinking !== undefined ? { thinking: t.thinking } : {}),
      ...(t.api && t.providerId === 'google' ? { api: t.api } : {}),
    };
  }

  /**
   * Sends the draft (creating the conversation first for a new chat). Returns whether it was accepted.
   * `extra`: the disclosure choices for this send (docs/disclosure.md): a confirmed first disclosure, turns or blocks left out.
   * `askToConfirm`: when the background refuses the send with `confirmation_required` (the panel's
   * preview was stale or missing, or the confirmation named another provider), called with that
   * send; when it resolves true (it opened the confirmation), no error is shown and the draft stays.
   */
  async send(extra: SendExtras = {}, askToConfirm?: (refused: RefusedSend) => Promise<boolean>): Promise<boolean> {
    const text = this.state.draft;
    const pending = this.state.attachments;
    const target = this.sendTarget();
    if ((!text.trim() && pending.length === 0) || !target || this.state.busy || this.sendBlocked()) return false;
    this.set({ busy: true, phase: 'sending', error: undefined, answerError: undefined });
    const attachments = pending.map(({ id: _id, bytes: _bytes, ...a }) => a);
    let id = this.state.currentId;
    try {
      if (!id) {
        const meta = await this.connector.request('createConversation', { target });
        id = meta.id;
        this.set((s) => ({ currentId: meta.id, turns: [], conversations: upsertMeta(s.conversations, meta) }));
      }
      saveLastModel(target.providerId, target.model);
      const { userTurnId } = await this.connector.request('sendMessage', {
        conversationId: id,
        text,
        target,
        ...(attachments.length ? { attachments } : {}),
        ...extrasOf(extra),
      });
      this.set((s) => ({
        draft: s.draft === text ? '' : s.draft,
        attachments: s.attachments === pending ? [] : s.attachments,
      }));
      // The user turn normally arrives as an event first; if it was missed, load it.
      if (this.state.currentId === id && !this.state.turns.some((t) => t.id === userTurnId))
        await this.open(id, { keepTarget: true });
      return true;
    } catch (e) {
      // docs/disclosure.md: nothing was stored; ask (like Retry, Regenerate and Edit do) instead of showing an error.
      if (
        askToConfirm &&
        id &&
        isConfirmationRequired(e) &&
        (await askToConfirm({ conversationId: id, target, text, attachments }))
      )
        this.set({ busy: false, phase: 'idle' });
      else this.set({ busy: false, phase: 'idle', error: toProtocolError(e) });
      return false;
    }
  }

  /** True when something other than the draft forbids sending (e.g. attachments the model refuses). */
  protected sendBlocked(): boolean {
    return false;
  }

  /**
   * Answers again after a failed, interrupted or stopped answer, without a new user turn (L2).
   * A first disclosure to the target opens the confirmation (`pendingResend`, docs/disclosure.md).
   */
  async retry(extra: ResendExtras = {}): Promise<void> {
    const id = this.state.currentId;
    const target = this.sendTarget();
    if (!id || !target || this.state.busy) return;
    const last = this.state.turns[this.state.turns.length - 1];
    const failed =
      last?.role === 'assistant' && last.status !== undefined && last.status !== 'complete' ? last.id : undefined;
    this.set({ busy: true, phase: 'sending', error: undefined, answerError: undefined });
    try {
      await this.connector.request('retryTurn', { conversationId: id, target, ...extrasOf(extra) });
      // The background removed the failed answer before answering again (send.ts `retry`).
      if (failed && this.state.currentId === id) this.set((s) => ({ turns: s.turns.filter((t) => t.id !== failed) }));
    } catch (e) {
      if (!(await this.askToConfirm(e, id, target, { kind: 'retry' }, extra)))
        this.set({ busy: false, phase: 'idle', error: toProtocolError(e) });
    }
  }

  /**
   * When `e` is a `confirmation_required` refusal of an unconfirmed `action`, opens the
   * confirmation with the action's preview and returns true; otherwise false (show the error).
   */
  protected async askToConfirm(
    e: unknown,
    conversationId: string,
    target: SendTarget,
    action: ResendAction,
    extra: ResendExtras,
  ): Promise<boolean> {
    // A confirmation named for one provider refused (the target's provider or origin changed): ask again for this one.
    if ((extra.confirmedDisclosure && !extra.confirmedFor) || !isConfirmationRequired(e)) return false;
    const preview = await previewResend(this.connector, conversationId, target, action);
    if (!preview) return false;
    this.set({ busy: false, phase: 'idle', pendingResend: { conversationId, target, action, preview } });
    return true;
  }

  /** Stops the answer in flight; the partial text is kept as `stopped` (L5). */
  async stop(): Promise<void> {
    const id = this.state.currentId;
    if (!id) return;
    try {
      await this.connector.request('stopGeneration', { conversationId: id });
    } catch (e) {
      this.set({ error: toProtocolError(e) });
    }
  }

  /** Opens the conversation a context-menu capture stored (its `lastTarget` preselects the chosen model), or shows why it failed. */
  private async openPendingCapture(): Promise<void> {
    try {
      const outcome = await this.connector.request('takePendingCapture', {});
      if (outcome) this.onEvent({ type: 'captureReady', ...outcome });
    } catch {
      // An older background without capture: nothing to open.
    }
  }

  /** Deltas held while a `resumeStream` is answered (replayed after it, in order). */
  private resuming: BackgroundEvent[] | undefined;

  /** Applies one background event (see {@link reduceEvent}). */
  onEvent(e: BackgroundEvent): void {
    if (this.resuming && e.type === 'textDelta') {
      this.resuming.push(e);
      return;
    }
    const effect = reduceEvent(this.state, e);
    if (effect.patch) this.set(effect.patch);
    if (effect.newChat) this.newChat();
    if (effect.open) void this.open(effect.open);
    if (effect.resync) void this.resume(effect.resync, e);
  }

  /**
   * Deltas were missed (docs/architecture.md#streaming-to-the-side-panel): asks the worker once for
   * the answer as last broadcast, applies it, then the deltas that arrived meanwhile (older ones
   * are skipped by their `seq`). Nothing in flight any more: the final `turnUpdated` carries it all.
   */
  private async resume(conversationId: string, missed: BackgroundEvent): Promise<void> {
    if (this.resuming) return;
    const held: BackgroundEvent[] = (this.resuming = [missed]);
    try {
      const live = await this.connector.request('resumeStream', { conversationId });
      if (live && this.state.currentId === conversationId)
        this.onEventNow({ type: 'turnUpdated', conversationId, turn: live.turn, seq: live.seq });
    } catch {
      // The worker is gone: the reconnect reloads everything.
    } finally {
      this.resuming = undefined;
    }
    for (const e of held) this.onEventNow(e);
  }

  /** {@link onEvent} without starting another resume for a delta that still does not fit. */
  private onEventNow(e: BackgroundEvent): void {
    const effect = reduceEvent(this.state, e);
    if (effect.patch) this.set(effect.patch);
  }
}
