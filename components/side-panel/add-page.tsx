import { useState } from 'preact/hooks';
import { FileText, Icon } from '../icons';

export interface AddPageButtonProps {
  /** Reads the active tab and attaches it (resolves when done, whether or not it worked). */
  onAddPage(): Promise<void>;
  /** Attaching is not possible now (e.g. an answer is streaming). */
  disabled?: boolean | undefined;
}

/**
 * **Add this page** (docs/side-panel.md#add-this-page): attaches the readable text of the tab the
 * person is reading, read only on this click. Busy while reading, so a double click reads once.
 */
export function AddPageButton(p: AddPageButtonProps) {
  const [reading, setReading] = useState(false);
  return (
    <button
      type="button"
      class="attach add-page"
      aria-label="Add this page"
      title="Add the readable text of the page you are reading (read only when you click)"
      aria-busy={reading ? 'true' : undefined}
      disabled={p.disabled === true || reading}
      onClick={() => {
        setReading(true);
        void p.onAddPage().finally(() => setReading(false));
      }}
    >
      <Icon icon={FileText} />
      <span class="action-label">{reading ? 'Reading…' : 'Add this page'}</span>
    </button>
  );
}
