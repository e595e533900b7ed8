/** The settings feature: providers, keys, base URLs, endpoints and models (`handlers.ts`), and the vault's passphrase (`vault-handlers.ts`, security-requirements.md S2, S3). */
export { settingsHandlers } from './handlers';
export { createVaultHandlers } from './vault-handlers';
