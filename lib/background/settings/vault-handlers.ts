/**
 * Passphrase requests (security-requirements.md S2, S3), spread into `createHandlers`. Every
 * reply is the resulting lock state; a wrong passphrase is the vault's one generic `locked` error.
 */
import type { Vault } from '../../vault/vault';
import type { Handlers } from '../core/router';

type VaultHandlers = Pick<Handlers, 'vaultStatus' | 'setPassphrase' | 'unlockVault' | 'lockVault' | 'removePassphrase'>;

/** The handlers over one {@link Vault}. */
export function createVaultHandlers(d: { vault: Vault }): VaultHandlers {
  const state = async () => {
    const s = await d.vault.status();
    return { passphrase: s.passphrase, locked: s.locked };
  };
  return {
    vaultStatus: state,
    setPassphrase: async ({ passphrase, current }) => {
      await d.vault.setPassphrase(passphrase, current);
      return state();
    },
    unlockVault: async ({ passphrase }) => {
      await d.vault.unlock(passphrase);
      return state();
    },
    lockVault: async () => {
      await d.vault.lock();
      return state();
    },
    removePassphrase: async ({ passphrase }) => {
      await d.vault.removePassphrase(passphrase);
      return state();
    },
  };
}
