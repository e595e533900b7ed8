/**
 * "Add this page" (docs/side-panel.md#add-this-page): injected into the active tab with
 * `scripting.executeScript({files: ['page-reader.js']})` only when the person clicks, under the
 * `activeTab` grant (no host permission, docs/security.md#reading-the-page-you-are-on). It reads the
 * page and returns {@link PageReadResult} to the caller; it registers no listener and leaves nothing
 * behind. Readability is bundled here only, so no extension page loads it.
 */
import { readPage } from '../lib/page/read-page';

export default defineUnlistedScript(() => readPage(document));
