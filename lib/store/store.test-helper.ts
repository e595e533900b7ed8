/**
 * Shared set-up of the store tests that climb the schema ladder (docs/transcript.md#versions-and-branches,
 * D4): a database written as an older version stored it, and an upgrade that fails.
 */
import { openBatonDb } from './db';

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
