/**
 * File importers (layer 2, pure): `importFile(kind, bytes, opts) → {conversations, skipped}`.
 * See `import-file.ts`.
 */
export { importFile, IMPORTERS } from './import-file';
export { IMPORT_KINDS, isImportKind, DEFAULT_MAX_BYTES, DEFAULT_MAX_UNCOMPRESSED_BYTES } from './types';
export type { ImportKind, ImportOptions, ImportResult, SkippedConversation } from './types';
