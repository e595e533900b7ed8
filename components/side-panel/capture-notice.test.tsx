// @vitest-environment happy-dom
import '../testing/happy-dom-compat';
import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { Turn } from '../../lib/transcript/schema';
import { CaptureNotice } from './capture-notice';

afterEach(cleanup);

const user = (meta?: Turn['meta'], blocks: Turn['blocks'] = [{ type: 'text', text: 'Hi' }]): Turn => ({
  id: 'u1',
  role: 'user',
  blocks,
  ...(meta ? { meta } : {}),
});

describe('CaptureNotice', () => {
  it('says the page showed only part of the conversation, with the reason, and that page images were not sent', () => {
    const turns = [
      user(
        {
          capture: {
            site: 'chatgpt',
            partial: true,
            partialReason: 'The page starts at turn 5: earlier turns are not loaded.',
          },
        },
        [
          {
            type: 'text',
            text: '[An image from the page: not sent to the model]',
            meta: { pageImage: 'https://files.example/x.png' },
          },
        ],
      ),
    ];
    const { container } = render(<CaptureNotice turns={turns} />);
    expect(container.textContent).toBe(
      'The page showed only part of this conversation. The page starts at turn 5: earlier turns are not loaded.' +
        'Images from the page are kept as references and are not sent to the model.',
    );
    // The image URL itself is not rendered (nothing to fetch).
    expect(container.innerHTML).not.toContain('files.example');
  });

  it('shows nothing for a whole capture without images, or a conversation that was not captured', () => {
    expect(
      render(<CaptureNotice turns={[user({ capture: { site: 'claude', partial: false, partialReason: 'x' } })]} />)
        .container.innerHTML,
    ).toBe('');
    expect(render(<CaptureNotice turns={[user()]} />).container.innerHTML).toBe('');
    expect(render(<CaptureNotice turns={[]} />).container.innerHTML).toBe('');
  });
});
