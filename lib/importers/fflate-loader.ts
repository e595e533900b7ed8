/**
 * fflate's `unzipSync`, reached through a function so the extension build can defer fflate's module
 * code (it builds its Huffman tables at load) to the first zip import
 * (docs/architecture.md#the-service-workers-start-up). Node runs this file as it is; the extension
 * build replaces it (`scripts/lazy-modules.ts`) by a loader that holds fflate in its body.
 */
import { unzipSync } from 'fflate';

/** fflate's `unzipSync`. */
export function loadUnzipSync(): typeof unzipSync {
  return unzipSync;
}
