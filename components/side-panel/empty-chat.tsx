import type { ComponentChildren } from 'preact';
import { Code, Icon, MousePointerClick, TextQuote } from '../icons';

/** Example prompts a starter puts in the composer (the person finishes and sends them). */
export const STARTER_PROMPTS: readonly { label: string; line: string; text: string }[] = [
  {
    label: 'Explain some code',
    line: 'Paste code after the prompt',
    text: 'Explain what this code does, step by step, and point out anything risky:\n\n',
  },
  {
    label: 'Summarise a text',
    line: 'Paste a long text after the prompt',
    text: 'Summarise the following text in five short bullet points:\n\n',
  },
];

export interface EmptyChatProps {
  /** Who receives the first message, in words ("GPT-5 · OpenAI"); undefined: no model chosen yet (the picker says so). */
  targetLabel?: string | undefined;
  /** Puts `text` in the composer and focuses it. */
  onPrompt(text: string): void;
  /** The "Import a conversation" starter (an `ImportEntry`, so the import works as the header's does). */
  importStarter?: ComponentChildren;
}

/**
 * The chat before its first message (docs/side-panel.md, "Empty chat"): a short welcome, what Baton
 * does in one line, which provider and model will receive the message, and starters: import a
 * conversation, continue one from a chat site (how, in one line), and example prompts that fill
 * the composer. Nothing here is a primary button: Send stays the one main action.
 */
export function EmptyChat({ targetLabel, onPrompt, importStarter }: EmptyChatProps) {
  return (
    <section class="empty-chat" aria-labelledby="empty-chat-h" data-empty-chat>
      <img src="/icon/128.png" alt="" width={40} height={40} />
      <h2 id="empty-chat-h">Start a conversation</h2>
      <p class="empty-what">
        Baton carries a conversation between OpenAI, Anthropic, Gemini and local models, and shows what each send
        discloses.
      </p>
      {targetLabel ? (
        <p class="empty-target" data-empty-target>
          Your message goes to <strong>{targetLabel}</strong>
        </p>
      ) : null}
      <ul class="starters" aria-label="Ways to start">
        {importStarter ? <li>{importStarter}</li> : null}
        <li>
          <details class="starter-how">
            <summary class="starter">
              <Icon icon={MousePointerClick} />
              <span>
                <strong>Continue a chat from a page</strong>
                <span class="starter-line">From ChatGPT, Claude or Gemini in a tab</span>
              </span>
            </summary>
            <p>
              On chatgpt.com, claude.ai or gemini.google.com, right-click the page and choose{' '}
              <em>Continue this chat in…</em>, then a model. Select text first and choose{' '}
              <em>Continue selection in…</em> to carry only that part.
            </p>
          </details>
        </li>
        {STARTER_PROMPTS.map((s, i) => (
          <li key={s.label}>
            <button type="button" class="starter" aria-label={s.label} onClick={() => onPrompt(s.text)}>
              <Icon icon={i === 0 ? Code : TextQuote} />
              <span>
                <strong>{s.label}</strong>
                <span class="starter-line">{s.line}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
