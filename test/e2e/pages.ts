/**
 * Page-side helpers: the side panel driven through its accessible names, the options page,
 * protocol requests and IndexedDB reads made from an extension page (same origin as the worker,
 * so they work even while the worker is stopped).
 */
import type { Locator, Page } from 'playwright-core';
import type { Turn } from '../../lib/transcript/schema';
import type { BuiltinId, FakeSet } from './fakes';
import { E2E_KEYS } from './fakes';
import { waitFor } from './harness';

/** The slice of the `chrome` API that callbacks evaluated in extension pages use. */
export interface PageChrome {
  runtime: { sendMessage(message: unknown): Promise<unknown> };
  storage: Record<'sync' | 'local' | 'session', { get(keys: null): Promise<Record<string, unknown>> }>;
}

/** Sends one protocol request from an extension page; returns `data` or throws with the error. */
export async function request<T = unknown>(page: Page, type: string, payload: unknown): Promise<T> {
  const reply = (await page.evaluate(
    (m) => (globalThis as unknown as { chrome: PageChrome }).chrome.runtime.sendMessage(m),
    { type, payload },
  )) as { ok: boolean; data?: T; error?: unknown };
  if (!reply?.ok) throw new Error(`${type} failed: ${JSON.stringify(reply)}`);
  return reply.data as T;
}

/**
 * Points the three built-in providers at their fake servers and saves their keys, over the
 * protocol (the options page UI path is covered by `options-keys.e2e.ts`). Base URL first: a key
 * is bound to the provider's origin when it is saved (N2).
 */
export async function configureProviders(page: Page, fakes: FakeSet): Promise<void> {
  for (const id of ['openai', 'anthropic', 'google'] as BuiltinId[]) {
    await request(page, 'setBaseUrl', { providerId: id, baseUrl: fakes.baseUrls[id] });
    await request(page, 'setKey', { providerId: id, key: E2E_KEYS[id] });
  }
}

/** What IndexedDB holds about conversations, read from an extension page. */
export interface DbDump {
  conversations: { id: string; title: string; turnCount: number; [k: string]: unknown }[];
  turns: { conversationId: string; seq: number; turn: Turn }[];
}

/**
 * Reads the `conversations` and `turns` stores of the `baton` database (opened without a version,
 * closed after); turn records without their stored token counts.
 */
export function readDb(page: Page): Promise<DbDump> {
  return page.evaluate(
    () =>
      new Promise<DbDump>((resolve, reject) => {
        const open = indexedDB.open('baton');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const t = db.transaction(['conversations', 'turns'], 'readonly');
          const conv = t.objectStore('conversations').getAll();
          const turns = t.objectStore('turns').getAll();
          t.oncomplete = () => {
            db.close();
            // Stored token counts are a cache of the turn (docs/architecture.md#token-counts-with-the-turn), left out.
            const records = turns.result as (DbDump['turns'][number] & { counts?: unknown })[];
            resolve({ conversations: conv.result, turns: records.map(({ counts: _counts, ...r }) => r) });
          };
          t.onerror = () => reject(t.error);
        };
      }),
  );
}

/** The turns of one conversation in order. */
export async function storedTurns(page: Page, conversationId: string): Promise<Turn[]> {
  const db = await readDb(page);
  return db.turns
    .filter((r) => r.conversationId === conversationId)
    .sort((a, b) => a.seq - b.seq)
    .map((r) => r.turn);
}

/** The concatenated text blocks of a turn. */
export const textOf = (t: Turn): string => t.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');

/** Statuses a finished answer can have. */
const FINAL = ['complete', 'error', 'interrupted', 'stopped'];

/** The side panel (opened as a tab), driven through its accessible names. */
export class SidePanel {
  constructor(readonly page: Page) {}

  turns(): Locator {
    return this.page.locator('[data-turn-id]');
  }

  /** `role:status` of every turn shown, in order. */
  async turnSummary(): Promise<string[]> {
    return this.turns().evaluateAll((els) =>
      els.map((e) => `${e.getAttribute('data-role')}:${e.getAttribute('data-status')}`),
    );
  }

  async ready(): Promise<void> {
    // Attached, not visible: on first run (no provider, no conversation) the composer waits hidden behind one call to action (docs/side-panel.md).
    await this.page.getByLabel('Message', { exact: true }).waitFor({ state: 'attached' });
  }

  async newChat(): Promise<void> {
    // The header's button (a conversation titled "New chat" in the list has the same name).
    await this.page.getByRole('banner').getByRole('button', { name: 'New chat', exact: true }).click();
    await waitFor('an empty chat', async () => (await this.turns().count()) === 0);
  }

  /** Chooses the provider and types the model id. */
  async choose(providerId: string, model: string): Promise<void> {
    await this.page.getByLabel('Provider', { exact: true }).selectOption(providerId);
    const field = this.page.getByLabel('Model', { exact: true });
    // The provider's model list can arrive during the fill and put its first model into the empty
    // field, and the typed text then lands after it: fill until the field holds exactly `model`.
    await waitFor(`the Model field to hold ${model}`, async () => {
      if ((await field.inputValue()) !== model) await field.fill(model);
      return (await field.inputValue()) === model;
    });
  }

  /**
   * Types `text` and clicks Send. A first disclosure of the conversation to a provider opens a
   * confirmation (docs/disclosure.md): with `confirm` (the default) it is accepted; with `confirm: false`
   * it is left open for the test.
   */
  async send(text: string, opts: { confirm?: boolean } = {}): Promise<void> {
    const box = this.page.getByLabel('Message', { exact: true });
    await box.fill(text);
    const sendButton = this.page.getByRole('button', { name: 'Send', exact: true });
    await sendButton.click();
    if (opts.confirm === false) return;
    const dialog = this.page.getByRole('dialog', { name: /^Send this conversation to / });
    // Settled: the confirmation opened, the draft was taken (sent), or the send was refused (error shown, draft kept: D2).
    const outcome = await waitFor(
      'the send to be taken, refused, or to ask for confirmation',
      async () =>
        (await dialog.isVisible())
          ? 'dialog'
          : (await box.inputValue()) !== text
            ? 'sent'
            : (await this.page.locator('[data-error-code]').count()) > 0 && (await sendButton.isEnabled())
              ? 'refused'
              : undefined,
      5_000,
    ).catch(() => 'unknown');
    if (outcome === 'dialog') await dialog.getByRole('button', { name: 'Disclose and send' }).click();
  }

  /**
   * Waits until `count` assistant turns are shown, the last one finished (not `streaming`), and
   * the panel is idle (no Stop button). Returns the last one's status.
   */
  async waitForAnswer(count: number, timeoutMs = 20_000): Promise<string> {
    const assistants = this.page.locator('[data-turn-id][data-role="assistant"]');
    const status = await waitFor(
      `${count} finished answer(s)`,
      async () => {
        if ((await assistants.count()) !== count) return undefined;
        const s = await assistants.nth(count - 1).getAttribute('data-status');
        return s && FINAL.includes(s) ? s : undefined;
      },
      timeoutMs,
    );
    await this.page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ state: 'hidden', timeout: timeoutMs });
    return status;
  }

  /**
   * Opens conversation `id` from the list, as a person would: in a narrow panel the list is a
   * drawer (docs/side-panel.md), opened with *Conversations* first when it is closed.
   */
  async openConversation(id: string): Promise<void> {
    const row = this.page.locator(`li[data-conversation-id="${id}"] button`).first();
    if (!(await row.isVisible())) await this.page.getByRole('button', { name: 'Conversations', exact: true }).click();
    await row.click();
  }

  /** Opens the chat head's "Conversation actions" menu and clicks its item `name` (docs/side-panel.md). */
  async conversationAction(name: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Conversation actions', exact: true }).click();
    await this.page
      .getByRole('menu', { name: 'Conversation actions' })
      .getByRole('menuitem', { name, exact: true })
      .click();
  }

  /** The open conversation's id (the list item marked current). */
  async currentConversationId(): Promise<string> {
    return waitFor('a current conversation', () =>
      this.page
        .locator('li[data-conversation-id]:has(button[aria-current="true"])')
        .getAttribute('data-conversation-id', { timeout: 5_000 })
        .then((v) => v ?? undefined),
    );
  }

  /** The text shown for the last turn. */
  async lastTurnText(): Promise<string> {
    return (await this.turns().last().innerText()).trim();
  }
}
