/**
 * The side panel's model with the on-device provider ({@link PanelModel} plus Chrome's built-in
 * model). When the page has the Prompt API, an "On-device" entry joins the provider picker; a
 * send to it stores the user turn through the background (`startOnDevice`, which also converts
 * the conversation with the `chrome-prompt` converter), streams the answer in this page, and
 * checkpoints it (`saveOnDeviceAnswer`) at least once a second (D1) and at the end.
 */
import type { Connector } from '../messaging/client';
import type { OnDeviceStart, ProtocolError } from '../messaging/protocol';
import type { Turn } from '../transcript/schema';
import {
  ON_DEVICE_ID,
  ON_DEVICE_MODEL,
  ON_DEVICE_PROVIDER,
  onDeviceAvailability,
  onDeviceUsable,
  promptApi,
  streamOnDevice,
  type PromptApi,
} from './on-device';
import type { RefusedSend, ResendExtras, SendExtras } from './chat-model';
import { ComparePanelModel } from './compare-model';
import { toProtocolError } from './targets';
import { upsertMeta, upsertTurn } from './turns';

/** Checkpoint cadence of an on-device answer, in ms (D1). */
const CHECKPOINT_MS = 1000;

export class SidePanelModel extends ComparePanelModel {
  private onDeviceAbort: AbortController | undefined;
  private detecting: Promise<void> | undefined;

  /** `api`: the page's Prompt API (tests pass a fake; undefined where it is missing). */
  constructor(
    connector: Connector,
    private readonly api: PromptApi | undefined = promptApi(),
    undoMs?: number,
  ) {
    super(connector, undoMs);
  }

  /** True when the current target is the on-device model. */
  onDeviceTarget(): boolean {
    return this.state.target.providerId === ON_DEVICE_ID;
  }

  override async reload(): Promise<void> {
    const before = this.state.target;
    this.detecting ??= onDeviceAvailability(this.api).then((a) => this.extras.update({ onDevice: a }));
    await Promise.all([super.reload(), this.detecting]);
    if (!onDeviceUsable(this.extras.state.onDevice)) return;
    this.set((s) => {
      const providers = s.providers.some((p) => p.id === ON_DEVICE_ID)
        ? s.providers
        : [...s.providers, ON_DEVICE_PROVIDER];
      // Keep the on-device choice across reloads; use it when nothing else is set up.
      const target =
        before.providerId === ON_DEVICE_ID || !s.target.providerId
          ? { providerId: ON_DEVICE_ID, model: ON_DEVICE_MODEL }
          : s.target;
      return { providers, target, models: { ...s.models, [ON_DEVICE_ID]: [{ id: ON_DEVICE_MODEL }] } };
    });
    this.askCaps(0);
  }

  override loadModels(providerId: string, refresh = false): Promise<void> {
    return providerId === ON_DEVICE_ID ? Promise.resolve() : super.loadModels(providerId, refresh);
  }

  override askCaps(delayMs = 0): void {
    if (!this.onDeviceTarget()) return super.askCaps(delayMs);
    // Text only (the converter sends no media); a window of a few thousand tokens.
    const key = `${ON_DEVICE_ID}|${this.state.target.model.trim()}`;
    if (!this.extras.state.caps[key])
      this.extras.update({
        caps: { ...this.extras.state.caps, [key]: { vision: false, pdf: false, contextWindow: 6144, known: true } },
      });
  }

  override async send(
    extra: SendExtras = {},
    askToConfirm?: (refused: RefusedSend) => Promise<boolean>,
  ): Promise<boolean> {
    return this.onDeviceTarget() ? this.sendOnDevice() : super.send(extra, askToConfirm);
  }

  override async stop(): Promise<void> {
    if (this.onDeviceAbort) this.onDeviceAbort.abort();
    else await super.stop();
  }

  override async retry(extra: ResendExtras = {}): Promise<void> {
    if (this.onDeviceTarget()) return this.notOnDevice('Retry');
    return super.retry(extra);
  }

  override async regenerate(extra: ResendExtras = {}): Promise<void> {
    if (this.onDeviceTarget()) return this.notOnDevice('Regenerate');
    return super.regenerate(extra);
  }

  override async editResend(turnId: string, text: string, extra: ResendExtras = {}): Promise<void> {
    if (this.onDeviceTarget()) return this.notOnDevice('Edit and resend');
    return super.editResend(turnId, text, extra);
  }

  override dispose(): void {
    this.onDeviceAbort?.abort();
    super.dispose();
  }

  private notOnDevice(what: string): void {
    this.set({
      error: {
        code: 'bad_request',
        message: `${what} is not available with the on-device model yet: choose another provider for it, or send a new message.`,
      },
    });
  }

  private async sendOnDevice(): Promise<boolean> {
    const text = this.state.draft;
    if (!text.trim() || this.state.busy || this.sendBlocked()) return false;
    const api = this.api;
    if (!api) {
      this.set({ error: { code: 'internal', message: "Chrome's built-in model is not available in this browser." } });
      return false;
    }
    this.set({ busy: true, phase: 'sending', error: undefined, answerError: undefined });
    let start: OnDeviceStart;
    let id = this.state.currentId;
    try {
      if (!id) {
        const meta = await this.connector.request('createConversation', {});
        id = meta.id;
        this.set((s) => ({ currentId: meta.id, turns: [], conversations: upsertMeta(s.conversations, meta) }));
      }
      start = await this.connector.request('startOnDevice', { conversationId: id, text });
    } catch (e) {
      this.set({ busy: false, phase: 'idle', error: toProtocolError(e) });
      return false;
    }
    const conversationId = id;
    this.set((s) => ({
      draft: s.draft === text ? '' : s.draft,
      turns:
        s.currentId === conversationId ? upsertTurn(upsertTurn(s.turns, start.userTurn), start.answerTurn) : s.turns,
      conversations: upsertMeta(s.conversations, start.meta),
    }));

    const abort = new AbortController();
    this.onDeviceAbort = abort;
    let answer = '';
    let lastSave = Date.now();
    const show = (status: Turn['status'], error?: ProtocolError) => {
      const turn: Turn = {
        ...start.answerTurn,
        status,
        blocks: answer ? [{ type: 'text', text: answer }] : [],
        ...(error ? { error: { type: error.code, message: error.message } } : {}),
      };
      this.set((s) => (s.currentId === conversationId ? { turns: upsertTurn(s.turns, turn) } : {}));
    };
    const save = (status: 'streaming' | 'complete' | 'stopped' | 'error', error?: string) =>
      this.connector
        .request('saveOnDeviceAnswer', {
          conversationId,
          turnId: start.answerTurn.id,
          text: answer,
          status,
          ...(error ? { error } : {}),
        })
        .then((meta) => this.set((s) => ({ conversations: upsertMeta(s.conversations, meta) })))
        .catch(() => undefined);
    try {
      answer = await streamOnDevice(
        api,
        start.body,
        (t) => {
          answer = t;
          show('streaming');
          if (this.state.phase !== 'streaming') this.set({ phase: 'streaming' });
          if (Date.now() - lastSave >= CHECKPOINT_MS) {
            lastSave = Date.now();
            void save('streaming');
          }
        },
        abort.signal,
      );
      show('complete');
      await save('complete');
    } catch (e) {
      if (abort.signal.aborted) {
        show('stopped');
        await save('stopped');
      } else {
        const message = (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 500);
        const err: ProtocolError = { code: 'provider_error', message };
        show('error', err);
        this.set({ answerError: err });
        await save('error', message);
      }
    } finally {
      this.onDeviceAbort = undefined;
      this.set({ busy: false, phase: 'idle' });
    }
    return true;
  }
}
