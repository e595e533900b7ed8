// @vitest-environment happy-dom
/** D2 in the side panel: a send refused with `storage_full` shows the storage-full notice and keeps the unsent draft. */
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { MockRequestError } from '../testing/mock-connector';
import { conversationMeta as meta, renderPanel } from '../testing/open-conversation';

afterEach(cleanup);

const message = () => screen.getByLabelText('Message') as HTMLTextAreaElement;

describe('storage full', () => {
  it('D2 a send refused with storage_full shows the storage-full notice and keeps the draft; a later send can go out', async () => {
    let full = true;
    const m = await renderPanel({
      createConversation: () => meta('c1'),
      sendMessage: () => {
        if (full)
          throw new MockRequestError({
            code: 'storage_full',
            message: 'Browser storage is full, so nothing was saved. Delete old conversations and try again.',
          });
        return { userTurnId: 'u1' };
      },
      getConversation: () => ({ meta: meta('c1'), turns: [], busy: false }),
    });
    fireEvent.input(message(), { target: { value: 'my long unsent draft' } });
    fireEvent.keyDown(message(), { key: 'Enter' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Browser storage is full');
    expect(alert.textContent).toContain('Your message is still in the box');
    expect(message().value).toBe('my long unsent draft');
    expect(m.callsOf('sendMessage')).toHaveLength(1);

    full = false;
    fireEvent.keyDown(message(), { key: 'Enter' });
    await waitFor(() => expect(m.callsOf('sendMessage')).toHaveLength(2));
    await waitFor(() => expect(message().value).toBe(''));
  });
});
