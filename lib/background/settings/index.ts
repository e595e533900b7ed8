/** The settings feature: the vault's passphrase handlers (security-requirements.md S2, S3). */
export { createVaultHandlers } from './vault-handlers';
