/**
 * Typesetting of rendered markdown that needs large libraries (docs/side-panel.md): highlight.js for fenced
 * code with a language, KaTeX for `.md-math`. Both are loaded with `import()` the first time a
 * block needs them, so the side panel's first load stays small; until then the code shows plain
 * and the math as its TeX source. Once loaded, every later block is typeset synchronously in the
 * same update that renders it, so a streamed answer does not flicker between plain and typeset.
 *
 * The blocks of a stored text shown when a conversation opens are typeset when they come near the
 * screen instead ({@link enhanceBlockLater}, docs/side-panel.md#opening-a-long-conversation).
 */

import type * as HighlightLazy from './highlight-lazy';
import type * as KatexLazy from './katex-lazy';
import { whenNear } from './near-render';

type Highlighter = typeof HighlightLazy;
type Typesetter = typeof KatexLazy;

let highlighter: Highlighter | undefined;
let typesetter: Typesetter | undefined;
let loadingHighlighter: Promise<void> | undefined;
let loadingTypesetter: Promise<void> | undefined;
/** Blocks that asked before a library was there; typeset when it arrives (if still shown). */
const waiting = new Set<HTMLElement>();

const CODE = '.md-code code[class*="language-"]:not(.hljs)';
const MATH = '.md-math:not(.md-math-done)';

function retry(): void {
  const blocks = [...waiting];
  waiting.clear();
  for (const b of blocks) if (b.isConnected) enhanceBlock(b);
}

function loadHighlighter(): Promise<void> {
  loadingHighlighter ??= import('./highlight-lazy').then(
    (m) => {
      highlighter = m;
      retry();
    },
    () => undefined, // a failed load leaves code plain
  );
  return loadingHighlighter;
}

function loadTypesetter(): Promise<void> {
  loadingTypesetter ??= import('./katex-lazy').then(
    (m) => {
      typesetter = m;
      retry();
    },
    () => undefined, // a failed load leaves math as TeX source
  );
  return loadingTypesetter;
}

/** Highlights the code and typesets the math in `block` (one rendered markdown block), now or once loaded. */
export function enhanceBlock(block: HTMLElement): void {
  const codes = block.querySelectorAll<HTMLElement>(CODE);
  if (codes.length) {
    if (highlighter) for (const c of codes) highlighter.highlightCode(c);
    else {
      waiting.add(block);
      void loadHighlighter();
    }
  }
  const maths = block.querySelectorAll<HTMLElement>(MATH);
  if (maths.length) {
    if (typesetter) for (const m of maths) typesetter.renderMath(m);
    else {
      waiting.add(block);
      void loadTypesetter();
    }
  }
}

/**
 * Like {@link enhanceBlock}, for a block of a stored text shown when a conversation opens: typeset
 * once it comes near the visible part of its scroller (`near-render.ts`), else now.
 */
export function enhanceBlockLater(block: HTMLElement): void {
  if (!block.querySelector(`${CODE}, ${MATH}`)) return;
  if (!whenNear(block, () => enhanceBlock(block))) enhanceBlock(block);
}

/** Resolves once both libraries are loaded (or failed to load) and waiting blocks are typeset; for tests. */
export async function enhancersLoaded(): Promise<void> {
  await Promise.all([loadHighlighter(), loadTypesetter()]);
}
