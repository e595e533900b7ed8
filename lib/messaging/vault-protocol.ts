/**
 * The passphrase part of the background protocol (security-requirements.md S2, S3), spread into
 * `REQUESTS` and `Responses` of `protocol.ts`. Only extension pages may send these (M1).
 */
import { z } from 'zod';
import { onFirstUse } from '../transcript/on-first-use';

/** Passphrase length in characters: at least 8, at most 1,000 (M3 size cap). */
export const PASSPHRASE_LIMITS = { min: 8, max: 1_000 } as const;
const passphrase = onFirstUse(() => z.string().min(PASSPHRASE_LIMITS.min).max(PASSPHRASE_LIMITS.max));

export const VAULT_REQUESTS = onFirstUse(
  () =>
    ({
      /** Whether a passphrase is set and whether Baton is locked. */
      vaultStatus: { input: onFirstUse(() => z.strictObject({})), from: ['extension'] },
      /** Sets the passphrase (every key sealed), or changes it when `current` is given; Baton stays unlocked. */
      setPassphrase: {
        input: onFirstUse(() =>
          z.strictObject({ passphrase, current: z.string().max(PASSPHRASE_LIMITS.max).optional() }),
        ),
        from: ['extension'],
      },
      /** Unlocks until Lock or the browser closes (survives a worker restart). A wrong passphrase → `locked`. */
      unlockVault: {
        input: onFirstUse(() => z.strictObject({ passphrase: z.string().min(1).max(PASSPHRASE_LIMITS.max) })),
        from: ['extension'],
      },
      /** Forgets the key: every provider send is refused with `locked` until unlocked. */
      lockVault: { input: onFirstUse(() => z.strictObject({})), from: ['extension'] },
      /** Stores the keys without a passphrase again (needs the passphrase). */
      removePassphrase: {
        input: onFirstUse(() => z.strictObject({ passphrase: z.string().min(1).max(PASSPHRASE_LIMITS.max) })),
        from: ['extension'],
      },
    }) as const,
);

/** Lock state as the options page shows it. */
export interface VaultState {
  /** A passphrase is set (keys are sealed at rest). */
  passphrase: boolean;
  /** Keys cannot be read until unlocked. */
  locked: boolean;
}

export interface VaultResponses {
  vaultStatus: VaultState;
  setPassphrase: VaultState;
  unlockVault: VaultState;
  lockVault: VaultState;
  removePassphrase: VaultState;
}
