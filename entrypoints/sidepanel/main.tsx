import { render } from 'preact';
import { browser } from 'wxt/browser';
import { loadMarkdown } from '../../components/markdown/markdown-view';
import { SidePanel } from '../../components/side-panel/side-panel';
import { createClient } from '../../lib/messaging/client';
import '../../components/base.css';
import { zodWithoutEval } from '../../lib/messaging/zod-no-eval';
import { requestPersistentStorage } from '../../lib/ui/persist';
import { applyTheme, loadTheme } from '../../lib/ui/theme';
import { realPageBrowser } from './page-browser';

// D5: ask once for persistent storage, so the browser does not evict conversations under pressure; the answer is recorded.
void requestPersistentStorage();

// zod never probes for eval here (the CSP forbids it; see zod-no-eval.ts).
zodWithoutEval();

// The person's light/dark choice (or the system's), before the first paint.
applyTheme(loadTheme());

// The markdown renderer is not in the first load (docs/side-panel.md): fetch it now, while the
// conversation loads, so turns render as Markdown from their first paint.
void loadMarkdown();

// Test builds expose the markdown renderers to the Chromium benchmarks (bench/chromium-render.ts).
if (__BATON_TEST_BUILD__)
  void Promise.all([
    import('../../components/markdown/markdown-stream'),
    import('../../components/markdown/markdown-html'),
    import('../../components/markdown/sanitize'),
  ]).then(([{ MarkdownStream }, { markdownToHtml }, { sanitizeToFragment }]) => {
    (globalThis as { batonBench?: unknown }).batonBench = { MarkdownStream, markdownToHtml, sanitizeToFragment };
  });

render(
  <SidePanel
    connector={createClient()}
    openOptions={() => void browser.runtime.openOptionsPage()}
    pages={realPageBrowser()}
  />,
  document.getElementById('app')!,
);
