import { Icon, KeyRound } from '../icons';

export interface FirstRunProps {
  /** Opens the options page (where keys are added); absent in pages that cannot open it. */
  openOptions?: (() => void) | undefined;
}

/**
 * The side panel with no usable provider (docs/side-panel.md, item 6): one clear call to action instead of
 * an empty chat plus a picker notice. The icon comes from the extension's own files (CSP img-src 'self').
 */
export function FirstRun({ openOptions }: FirstRunProps) {
  return (
    <section class="first-run" aria-labelledby="first-run-h" data-first-run>
      <img src="/icon/128.png" alt="" width={56} height={56} />
      <h2 id="first-run-h">Add your first API key</h2>
      <p>
        Baton answers with your own key for OpenAI, Anthropic or Google Gemini, or a local server. Keys stay in this
        browser.
      </p>
      {openOptions ? (
        <button type="button" class="primary" onClick={() => openOptions()}>
          <Icon icon={KeyRound} />
          Add an API key
        </button>
      ) : (
        <p>Open Baton's options page to add one.</p>
      )}
      <p class="hint">Conversations you import or capture can be read here without a key.</p>
    </section>
  );
}
