/**
 * Shared set-up of the store tests: the turns they write, a fresh store seeded with conversations,
 * and, for the tests that climb the schema ladder (docs/transcript.md#versions-and-branches, D4), a
 * database written as an older version stored it and an upgrade that fails.
 */
import type { Turn } from '../transcript/schema';
import { ConversationStore } from './conversations';
import { openBatonDb, type BatonDb } from './db';

/** A user turn `id` holding one text block. */
export const user = (id: string, text: string): Turn => ({ id, role: 'user', blocks: [{ type: 'text', text }] });

/** An assistant turn `id` holding one text block, answered by OpenAI's Responses API. */
export const answer = (id: string, text: string): Turn => ({
  id,
  role: 'assistant',
  origin: { provider: 'openai', api: 'openai-responses', model: 'gpt-5.5' },
  blocks: [{ type: 'text', text }],
});

/** One conversation a seeded store holds: created at the seed's time, its turns appended in order. */
export interface SeedConversation {
  readonly id: string;
  readonly title?: string;
  readonly turns: readonly Turn[];
}

/** The databases `seededStore` opened and `closeSeededStores` has not closed yet. */
const opened: BatonDb[] = [];
let seeded = 0;

/**
 * A `ConversationStore` over a fresh database (named `prefix` and a number not used before in this
 * test file), holding `conversations`, each created and its turns appended at `now`. Close it with
 * `closeSeededStores` after each test.
 */
export async function seededStore(
  prefix: string,
  now: string,
  conversations: readonly SeedConversation[],
): Promise<ConversationStore> {
  const db = await openBatonDb(`${prefix}-${++seeded}`);
  opened.push(db);
  const s = new ConversationStore(db);
  for (const c of conversations) {
    await s.create({ id: c.id, now, title: c.title });
    for (const t of c.turns) await s.appendTurn(c.id, t, now);
  }
  return s;
}

/** Closes every database `seededStore` opened (for `afterEach`), so the next test starts unblocked. */
export function closeSeededStores(): void {
  for (const db of opened.splice(0)) db.close();
}

/**
 * Creates database `name` at schema `version` (older than the current one) holding `conversation`
 * and its `turns`, as records of that version (their shapes are the old ones, so they are not
 * typed against today's schema), then closes it.
 */
export async function seedOldVersion(
  name: string,
  version: number,
  conversation: object,
  turns: readonly object[],
): Promise<void> {
  const db = await openBatonDb(name, {}, version);
  await db.add('conversations', conversation as never);
  for (const t of turns) await db.add('turns', t as never);
  db.close();
}

/**
 * Opens database `name` at `version` with an upgrade that aborts (what an exception inside a
 * migration step does to the versionchange transaction). Resolves with the open request's error
 * name (`AbortError`), or `opened` should the upgrade not have failed.
 */
export function failUpgrade(name: string, version: number): Promise<string> {
  return new Promise<string>((resolve) => {
    const req = indexedDB.open(name, version);
    req.onupgradeneeded = () => req.transaction!.abort();
    req.onerror = (e) => {
      e.preventDefault();
      resolve(req.error?.name ?? 'error');
    };
    req.onsuccess = () => (req.result.close(), resolve('opened'));
  });
}
