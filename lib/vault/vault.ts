/**
 * Provider keys in the extension's IndexedDB (`vault` store): never in `storage.sync` or
 * `storage.local`, never exported, never logged, shown again only masked (security-requirements.md
 * S1, S5). Each key is bound to the origin it may be sent to (N2). Passphrase mode (S2, S3) is a
 * later addition that changes only how `secret` is stored.
 */
import { tx, type BatonDb, type VaultRecord } from '../store/db';

/** At most the last 4 characters, e.g. `••••7f3a` (S5). Keys of 8 characters or fewer show no characters. */
export function maskKey(secret: string): string {
  return secret.length > 8 ? `••••${secret.slice(-4)}` : '••••';
}

export class Vault {
  constructor(private readonly db: BatonDb) {}

  /** Saves (replaces) a provider's key, bound to `boundOrigin`. Written with strict durability (D4). */
  async setKey(providerId: string, secret: string, boundOrigin: string, now: string): Promise<void> {
    const rec: VaultRecord = { providerId, version: 1, secret, boundOrigin, savedAt: now };
    await tx(this.db, ['vault'], 'readwrite', async (t) => void (await t.objectStore('vault').put(rec)), 'strict');
  }

  /** The key and the origin it is bound to, or undefined. Only the background calls this. */
  async getKey(providerId: string): Promise<{ secret: string; boundOrigin: string } | undefined> {
    const rec = await this.db.get('vault', providerId);
    return rec ? { secret: rec.secret, boundOrigin: rec.boundOrigin } : undefined;
  }

  async deleteKey(providerId: string): Promise<void> {
    await tx(this.db, ['vault'], 'readwrite', async (t) => void (await t.objectStore('vault').delete(providerId)), 'strict');
  }

  /** Masked keys of every provider that has one (S5: never the full key). */
  async masked(): Promise<Map<string, { masked: string; boundOrigin: string }>> {
    const out = new Map<string, { masked: string; boundOrigin: string }>();
    for (const rec of await this.db.getAll('vault')) out.set(rec.providerId, { masked: maskKey(rec.secret), boundOrigin: rec.boundOrigin });
    return out;
  }

  /** Every secret, for redaction of logs and error text (S4). */
  async allSecrets(): Promise<string[]> {
    return (await this.db.getAll('vault')).map((r) => r.secret);
  }
}
