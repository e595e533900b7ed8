/**
 * The background of the adversarial summary tests (docs/disclosure.md, "Fitting"): fake providers on
 * 127.0.0.1 started for the file, and per test a real background (`createTestBackground`) whose
 * conversation c1 holds four exchanges answered by OpenAI under a policy of at most 4 turns per
 * send, so a send of the draft "Next" drops the three oldest exchanges (`EARLY`). Requests go
 * through the real router as the side panel sends them.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { CONVERTER_CONTRACT_RULES } from '../../../test/contract';
import { startFakeProviders, type FakeProviders } from '../../../test/fake-providers';
import type { Reply } from '../../messaging/protocol';
import type { SummaryPreview } from '../../messaging/summary-types';
import type { BatonDb } from '../../store/db';
import {
  ANTHROPIC,
  answer,
  createTestBackground,
  NOW,
  OPENAI,
  user,
  type TestBackground,
  turnRecords,
} from '../background.test-helper';
import { route, type Sender } from '../core/router';

export const OWN = 'abcdefghijklmnopabcdefghijklmnop';
export const EXT = `chrome-extension://${OWN}`;
/** The side panel as a sender. */
export const PANEL: Sender = { id: OWN, url: `${EXT}/sidepanel.html`, origin: EXT };
/** The turns the draft "Next" drops to fit. */
export const EARLY = ['u1', 'a1', 'u2', 'a2', 'u3', 'a3'];
/** The summary the tests ask for: what sending "Next" to OpenAI drops, written by Anthropic. */
export const ASK = { conversationId: 'c1', target: OPENAI, summariser: ANTHROPIC, text: 'Next' };

/** A background with a router `call` (default sender: the side panel) and `denyHost` (N1: from then on no host is granted). */
export type SummaryBackground = TestBackground & {
  call(type: string, payload: unknown, sender?: Sender): Promise<Reply<unknown>>;
  denyHost(): void;
};

/** The reply's data; throws with the error code and message for a refusal. */
export const data = <T>(r: Reply<unknown>): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.data as T;
};
/** `ok` or the error code. */
export const codeOf = (r: Reply<unknown>) => (r.ok ? 'ok' : r.error.code);
/** Waits `ms` milliseconds of real time. */
export const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));

/** Registers the file's hooks; the returned kit's `fake` is set once the file's `beforeAll` ran. */
export function useSummaryKit() {
  const kit = {
    fake: undefined as unknown as FakeProviders,
    db: undefined as unknown as BatonDb,
    /** The POST requests the fake providers received (model lists excluded). */
    posts: () => kit.fake.requests.filter((r) => r.method === 'POST'),
    /** The stored conversations, turns and ledger, raw. */
    dump: async () => ({
      conversations: await kit.db.getAll('conversations'),
      turns: await turnRecords(kit.db),
      disclosures: await kit.db.getAll('disclosures'),
    }),
    /** A fresh background with c1 holding `exchanges` exchanges (default 4) and `maxTurns: 4`. */
    setup: async (exchanges = 4): Promise<SummaryBackground> => {
      let granted = true;
      const bg = await createTestBackground(kit.fake, { name: 'adv-summary', hasHostPermission: async () => granted });
      kit.db = bg.db;
      for (let i = 1; i <= exchanges; i++) {
        await bg.store.appendTurn('c1', user(`u${i}`, `Question ${i}: remember the number ${i * 11}.`), NOW);
        await bg.store.appendTurn('c1', answer(`a${i}`, `Noted ${i * 11}.`), NOW);
      }
      await bg.h.setDisclosurePolicy({ conversationId: 'c1', policy: { maxTurns: 4 } }, 'extension');
      const call = (type: string, payload: unknown, sender: Sender = PANEL) =>
        route({ type, payload }, sender, {
          ownId: OWN,
          extensionOrigin: EXT,
          handlers: bg.h,
          secrets: () => Object.values(kit.fake.keys),
        }) as Promise<Reply<unknown>>;
      return { ...bg, call, denyHost: () => void (granted = false) };
    },
    /** The preview of ASK, and the summariseEarlier payload that consents to it. */
    consent: async (call: SummaryBackground['call']) => {
      const preview = data<SummaryPreview>(await call('previewSummary', ASK));
      return { preview, ask: { ...ASK, turnIds: preview.turnIds, confirmedDisclosure: true } };
    },
  };
  beforeAll(async () => {
    kit.fake = await startFakeProviders({ ignoreRules: [...CONVERTER_CONTRACT_RULES] });
  });
  afterAll(() => kit.fake.close());
  beforeEach(() => kit.fake.reset());
  afterEach(() => kit.db?.close());
  return kit;
}
