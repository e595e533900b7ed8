/**
 * "Add your first key" (docs/side-panel.md, item 6): what the options page shows first while no provider is
 * set up, and what opens on install. Three short steps; the forms are the provider cards below.
 */
export function FirstKey() {
  return (
    <section class="first-key" aria-labelledby="first-key-h" data-first-key>
      <h2 id="first-key-h">Add your first key</h2>
      <p>Baton sends your conversations with your own API key. One provider is enough to start.</p>
      <ol>
        <li>
          Create a key with the provider: OpenAI (platform.openai.com), Anthropic (console.anthropic.com) or Google
          Gemini (aistudio.google.com).
        </li>
        <li>
          Paste it into <strong>API key</strong> under that provider below and press <strong>Save key</strong>, then{' '}
          <strong>Test key</strong>.
        </li>
        <li>Open Baton from the toolbar button: the side panel is ready to chat.</li>
      </ol>
      <p class="hint">No key? Add a local server (Ollama, LM Studio) under “Add an OpenAI-compatible endpoint”.</p>
    </section>
  );
}
