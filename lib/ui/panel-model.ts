/**
 * The side panel's model beyond sending ({@link ChatModel}): attachments and what the chosen
 * model accepts, regenerate and edit-and-resend, and the conversation list's actions (rename,
 * pin, delete with undo).
 *
 * Delete with undo: the conversation disappears from the list at once, and the `deleteConversation`
 * request is sent only when the undo window ends (or when another delete starts, or the page is
 * hidden). Until then nothing is removed from storage, so Undo is exact; closing the browser in
 * that window keeps the conversation (the safe direction). Deleting one version of a message works
 * the same way (docs/transcript.md#versions-and-branches): the panel shows the version beside it at
 * once, and `deleteVersion` is sent only when the undo window ends.
 */
import type { BackgroundEvent, ConversationMeta, ModelCapabilities } from '../messaging/protocol';
import type { OnDeviceAvailability } from './on-device';
import { attachmentVerdict, MAX_ATTACHMENTS, readAttachment, type AttachmentVerdict } from './attachments';
import { ChatModel, type ResendExtras } from './chat-model';
import { PAGE_TRUNCATED_NOTE, readActivePage, type PageBrowser } from './page-context';
import { extrasOf } from './chat-state';
import { toProtocolError } from './targets';
import { Store } from './store';
import { upsertMeta } from './turns';

export interface PanelExtras {
  /** What each `providerId|model` accepts (undefined: not asked yet, or the background could not say). */
  caps: Record<string, ModelCapabilities>;
  /** Why some picked files were not attached (cleared by the next pick). */
  attachNote?: string | undefined;
  /** A conversation hidden from the list, waiting for its delete (undo possible). */
  pendingDelete?: ConversationMeta | undefined;
  /** A version of a message set aside, waiting for its delete (undo possible). */
  pendingVersionDelete?: { conversationId: string; turnId: string } | undefined;
  /** Chrome's built-in model in this page (undefined until checked). */
  onDevice?: OnDeviceAvailability | undefined;
}

const capsKey = (providerId: string, model: string) => `${providerId}|${model}`;

/** The panel's extra state, observable on its own (so `ChatState` keeps its shape). */
export class ExtrasStore extends Store<PanelExtras> {
  update(p: Partial<PanelExtras>): void {
    this.set(p);
  }
}

export class PanelModel extends ChatModel {
  readonly extras = new ExtrasStore({ caps: {} });

  private capsTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly capsAsked = new Set<string>();
  private deleteTimer: ReturnType<typeof setTimeout> | undefined;
  private versionTimer: ReturnType<typeof setTimeout> | undefined;
  /** A regenerate or edit added a version: reload the open conversation when its answer is done, for its version labels. */
  private versionsStale = false;
  private nextAttachment = 0;

  /** `undoMs`: how long a delete can be undone. `capsDelayMs`: wait after typing a model id before asking what it accepts. */
  constructor(
    connector: ConstructorParameters<typeof ChatModel>[0],
    private readonly undoMs = 8000,
    private readonly capsDelayMs = 250,
  ) {
    super(connector);
  }

  override dispose(): void {
    clearTimeout(this.capsTimer);
    this.flushDelete();
    this.flushVersionDelete();
    super.dispose();
  }

  /** Reloads as {@link ChatModel.reload}, keeping a conversation whose delete is pending hidden. */
  override async reload(): Promise<void> {
    await super.reload();
    this.hidePending();
    this.askCaps(0);
  }

  override onEvent(e: BackgroundEvent): void {
    super.onEvent(e);
    if (e.type === 'conversationUpdated') this.hidePending();
    if (
      e.type === 'sendStateChanged' &&
      e.state === 'idle' &&
      this.versionsStale &&
      e.conversationId === this.state.currentId
    ) {
      this.versionsStale = false;
      void this.open(e.conversationId, { keepTarget: true });
    }
  }

  private hidePending(): void {
    const p = this.extras.state.pendingDelete;
    if (p && this.state.conversations.some((c) => c.id === p.id))
      this.set((s) => ({ conversations: s.conversations.filter((c) => c.id !== p.id) }));
  }

  // ---- What the chosen model accepts

  /** Capabilities of the current target's model, if known. */
  currentCaps(): ModelCapabilities | undefined {
    const t = this.state.target;
    return this.extras.state.caps[capsKey(t.providerId, t.model.trim())];
  }

  /** Whether the draft's attachments can go to the current model. */
  attachmentVerdict(): AttachmentVerdict {
    return attachmentVerdict(this.state.attachments, this.state.target.model.trim(), this.currentCaps());
  }

  protected override sendBlocked(): boolean {
    return this.attachmentVerdict().blocked;
  }

  override setProvider(providerId: string): void {
    super.setProvider(providerId);
    this.askCaps(0);
  }

  override setModel(model: string, remember = false): void {
    super.setModel(model, remember);
    this.askCaps(this.capsDelayMs);
  }

  /** Asks the background what the current model accepts (once per provider and model), after `delayMs`. */
  askCaps(delayMs = 0): void {
    clearTimeout(this.capsTimer);
    const run = () => {
      const { providerId, model } = this.state.target;
      const key = capsKey(providerId, model.trim());
      if (!providerId || !model.trim() || this.capsAsked.has(key)) return;
      this.capsAsked.add(key);
      this.connector
        .request('getModelInfo', { providerId, model: model.trim() })
        .then((caps) => this.extras.update({ caps: { ...this.extras.state.caps, [key]: caps } }))
        .catch(() => this.capsAsked.delete(key));
    };
    if (delayMs <= 0) run();
    else this.capsTimer = setTimeout(run, delayMs);
  }

  // ---- Attachments

  /** Reads and attaches files (pasted, dropped or picked); refused files are named in `attachNote`. */
  async addFiles(files: readonly File[]): Promise<void> {
    const notes: string[] = [];
    const room = MAX_ATTACHMENTS - this.state.attachments.length;
    if (files.length > room) notes.push(`At most ${MAX_ATTACHMENTS} attachments per message.`);
    const read = await Promise.all(
      files.slice(0, Math.max(0, room)).map((f) =>
        readAttachment(f, `att-${++this.nextAttachment}`).catch((e: unknown) => {
          notes.push(e instanceof Error ? e.message : String(e));
          return undefined;
        }),
      ),
    );
    const ok = read.filter((a) => a !== undefined);
    if (ok.length) this.set((s) => ({ attachments: [...s.attachments, ...ok] }));
    this.extras.update({ attachNote: notes.length ? notes.join(' ') : undefined });
    this.askCaps(0);
  }

  /**
   * Reads the active tab and attaches its text (docs/side-panel.md#add-this-page); a page that
   * cannot be read leaves the attachments as they are and says why in `attachNote`.
   */
  async addPage(pages: PageBrowser): Promise<void> {
    if (this.state.attachments.length >= MAX_ATTACHMENTS) {
      this.extras.update({ attachNote: `At most ${MAX_ATTACHMENTS} attachments per message.` });
      return;
    }
    const read = await readActivePage(pages, `att-${++this.nextAttachment}`);
    if ('problem' in read) {
      this.extras.update({ attachNote: read.problem });
      return;
    }
    this.set((s) => ({ attachments: [...s.attachments, read.attachment] }));
    this.extras.update({ attachNote: read.note ?? (read.truncated ? PAGE_TRUNCATED_NOTE : undefined) });
  }

  removeAttachment(id: string): void {
    this.set((s) => ({ attachments: s.attachments.filter((a) => a.id !== id) }));
    this.extras.update({ attachNote: undefined });
  }

  // ---- Regenerate and edit

  /**
   * Answers the last user message again with the current target; the new answer is a new version
   * beside the earlier one (docs/transcript.md#versions-and-branches). A first disclosure asks first (docs/disclosure.md).
   */
  async regenerate(extra: ResendExtras = {}): Promise<void> {
    const id = this.state.currentId;
    const target = this.sendTarget();
    if (!id || !target || this.state.busy) return;
    let lastUser = -1;
    this.state.turns.forEach((t, i) => (t.role === 'user' ? (lastUser = i) : undefined));
    const removed = new Set(this.state.turns.slice(lastUser + 1).map((t) => t.id));
    this.set({ busy: true, phase: 'sending', error: undefined, answerError: undefined });
    try {
      await this.connector.request('regenerateTurn', { conversationId: id, target, ...extrasOf(extra) });
      this.versionsStale = true;
      if (this.state.currentId === id) this.set((s) => ({ turns: s.turns.filter((t) => !removed.has(t.id)) }));
    } catch (e) {
      if (!(await this.askToConfirm(e, id, target, { kind: 'regenerate' }, extra)))
        this.set({ busy: false, phase: 'idle', error: toProtocolError(e) });
    }
  }

  /**
   * Adds `text` as a new version of user message `turnId` (any of them) and sends it: the shown
   * path continues from it, the earlier version and its answers stay as another branch
   * (docs/transcript.md#versions-and-branches). A first disclosure asks first (docs/disclosure.md).
   */
  async editResend(turnId: string, text: string, extra: ResendExtras = {}): Promise<void> {
    const id = this.state.currentId;
    const target = this.sendTarget();
    if (!id || !target || this.state.busy) return;
    const at = this.state.turns.findIndex((t) => t.id === turnId);
    if (at < 0) return;
    const removed = new Set(this.state.turns.slice(at).map((t) => t.id));
    this.set({ busy: true, phase: 'sending', error: undefined, answerError: undefined });
    try {
      await this.connector.request('editAndResend', { conversationId: id, turnId, text, target, ...extrasOf(extra) });
      this.versionsStale = true;
      if (this.state.currentId === id) this.set((s) => ({ turns: s.turns.filter((t) => !removed.has(t.id)) }));
    } catch (e) {
      if (await this.askToConfirm(e, id, target, { kind: 'edit', turnId, text }, extra)) return;
      // Nothing was removed: keep the edited words in the box so they are not lost.
      this.set((s) => ({
        busy: false,
        phase: 'idle',
        error: toProtocolError(e),
        draft: s.draft.trim() ? s.draft : text,
      }));
    }
  }

  /**
   * Confirm in the dialog of a refused Retry, Regenerate or Edit: the same action again, with
   * `confirmedDisclosure: true` for the provider the dialog showed (`confirmedFor`, docs/disclosure.md).
   */
  async confirmResend(): Promise<void> {
    const p = this.state.pendingResend;
    this.set({ pendingResend: undefined });
    // The dialog is modal; should the conversation or target have changed anyway, nothing is sent.
    const t = this.sendTarget();
    if (!p || p.conversationId !== this.state.currentId || !t || JSON.stringify(t) !== JSON.stringify(p.target)) return;
    const confirmed: ResendExtras = {
      confirmedDisclosure: true,
      confirmedFor: { providerId: p.preview.target.providerId, origin: p.preview.target.origin },
    };
    if (p.action.kind === 'retry') await this.retry(confirmed);
    else if (p.action.kind === 'regenerate') await this.regenerate(confirmed);
    else await this.editResend(p.action.turnId, p.action.text, confirmed);
  }

  /** Cancel in that dialog: nothing is sent and nothing changes; an edit's words are kept in the message box. */
  cancelResend(): void {
    const p = this.state.pendingResend;
    this.set((s) => ({
      pendingResend: undefined,
      ...(p?.action.kind === 'edit' && !s.draft.trim() ? { draft: p.action.text } : {}),
    }));
  }

  // ---- Versions (docs/transcript.md#versions-and-branches)

  /** Shows version `turnId` of a message and continues from it: the conversation is reloaded along that branch. */
  async showVersion(turnId: string): Promise<void> {
    const id = this.state.currentId;
    if (!id || this.state.busy) return;
    try {
      await this.connector.request('selectVersion', { conversationId: id, turnId });
      await this.open(id, { keepTarget: true });
    } catch (e) {
      this.set({ error: toProtocolError(e) });
    }
  }

  /** Sets version `turnId` aside at once (the version before it, else after it, is shown) and deletes it when the undo window ends. */
  async removeVersion(turnId: string): Promise<void> {
    const id = this.state.currentId;
    const v = this.state.versions[turnId];
    const other = v?.previous ?? v?.next;
    if (!id || !other || this.state.busy) return;
    this.flushVersionDelete();
    this.extras.update({ pendingVersionDelete: { conversationId: id, turnId } });
    this.versionTimer = setTimeout(() => this.flushVersionDelete(), this.undoMs);
    await this.showVersion(other);
  }

  /** Brings the version being deleted back and shows it again (nothing was removed from storage yet). */
  async undoRemoveVersion(): Promise<void> {
    const p = this.extras.state.pendingVersionDelete;
    if (!p) return;
    clearTimeout(this.versionTimer);
    this.extras.update({ pendingVersionDelete: undefined });
    if (p.conversationId === this.state.currentId) await this.showVersion(p.turnId);
  }

  /** Sends the pending version delete now (undo window over, another delete, or the page is going away). */
  flushVersionDelete(): void {
    const p = this.extras.state.pendingVersionDelete;
    clearTimeout(this.versionTimer);
    if (!p) return;
    this.extras.update({ pendingVersionDelete: undefined });
    this.connector
      .request('deleteVersion', { conversationId: p.conversationId, turnId: p.turnId })
      .then(() =>
        p.conversationId === this.state.currentId ? this.open(p.conversationId, { keepTarget: true }) : undefined,
      )
      .catch((e: unknown) => this.set({ error: toProtocolError(e) }));
  }

  // ---- Conversation list

  async rename(id: string, title: string): Promise<boolean> {
    const t = title.replace(/\s+/g, ' ').trim();
    if (!t) return false;
    try {
      const meta = await this.connector.request('renameConversation', { id, title: t.slice(0, 500) });
      this.set((s) => ({ conversations: upsertMeta(s.conversations, meta) }));
      return true;
    } catch (e) {
      this.set({ error: toProtocolError(e) });
      return false;
    }
  }

  async pin(id: string, pinned: boolean): Promise<void> {
    try {
      const meta = await this.connector.request('pinConversation', { id, pinned });
      this.set((s) => ({ conversations: upsertMeta(s.conversations, meta) }));
    } catch (e) {
      this.set({ error: toProtocolError(e) });
    }
  }

  /** Hides a conversation at once and deletes it when the undo window ends. */
  remove(id: string): void {
    const meta = this.state.conversations.find((c) => c.id === id);
    if (!meta) return;
    this.flushDelete();
    this.set((s) => ({ conversations: s.conversations.filter((c) => c.id !== id) }));
    if (this.state.currentId === id) this.newChat();
    this.extras.update({ pendingDelete: meta });
    this.deleteTimer = setTimeout(() => this.flushDelete(), this.undoMs);
  }

  /** Brings the conversation being deleted back (nothing was removed from storage yet). */
  undoRemove(): void {
    const meta = this.extras.state.pendingDelete;
    if (!meta) return;
    clearTimeout(this.deleteTimer);
    this.extras.update({ pendingDelete: undefined });
    this.set((s) => ({ conversations: upsertMeta(s.conversations, meta) }));
  }

  /** Sends the pending delete now (undo window over, another delete, or the page is going away). */
  flushDelete(): void {
    const meta = this.extras.state.pendingDelete;
    clearTimeout(this.deleteTimer);
    if (!meta) return;
    this.extras.update({ pendingDelete: undefined });
    this.connector.request('deleteConversation', { id: meta.id }).catch((e: unknown) => {
      // It could not be deleted: show it again, with the reason.
      this.set((s) => ({ conversations: upsertMeta(s.conversations, meta), error: toProtocolError(e) }));
    });
  }
}
