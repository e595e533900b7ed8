/**
 * Fake providers for tests and manual runs: see `server.ts` (the server), `types.ts` (replies,
 * records) and `errors.ts` (provider-shaped error bodies for `{kind: 'error'}` replies).
 */
export { startFakeProviders, DEFAULT_FAKE_KEYS, DEFAULT_FIXTURES_DIR } from './server';
export { errorBody, authErrorBody, defaultErrorEvent } from './errors';
export { CHAT_FLAVOURS } from './routes';
export type * from './types';
