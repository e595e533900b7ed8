// @vitest-environment happy-dom
import '../testing/happy-dom-compat';
import { cleanup, render } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationList } from './conversation-list';
import { plainPreview } from './preview-text';

afterEach(cleanup);

describe('plainPreview', () => {
  it('drops heading, emphasis, code, link and image syntax, keeping the words', () => {
    expect(
      plainPreview(
        '## Where the trip stands The weather tool says **Lisbon** is *sunny*; run `npm test`, see [the docs](https://example.com) ![map](https://x.test/m.png)',
      ),
    ).toBe('Where the trip stands The weather tool says Lisbon is sunny; run npm test, see the docs map');
  });

  it('flattens tables and fences as the store flattened them (one line)', () => {
    expect(plainPreview('| Flight | Price | |---|---:| | TP 1351 | €142 | ```python def f(): pass ```')).toBe(
      'Flight Price TP 1351 €142 def f(): pass',
    );
  });

  it('removes a leading list or quote marker and stray markers of a cut-off preview', () => {
    expect(plainPreview('- first item with __bold__ text')).toBe('first item with bold text');
    expect(plainPreview('> quoted words')).toBe('quoted words');
  });

  it('keeps text that only looks like markdown', () => {
    expect(plainPreview('C# and F# for issue #12: 2 * 3 = 6, snake_case_name, a - b')).toBe(
      'C# and F# for issue #12: 2 * 3 = 6, snake_case_name, a - b',
    );
    expect(plainPreview('Plain words.')).toBe('Plain words.');
  });
});

describe('ConversationList previews', () => {
  it('shows a markdown answer as plain words, and markup in a preview as literal text', () => {
    const at = '2026-01-01T00:00:00Z';
    render(
      <ConversationList
        conversations={[
          {
            id: 'a',
            title: 'Trip',
            createdAt: at,
            updatedAt: at,
            turnCount: 2,
            preview: '## Where the trip stands The weather tool says **Lisbon** is sunny',
          },
          {
            id: 'b',
            title: 'Odd',
            createdAt: at,
            updatedAt: at,
            turnCount: 2,
            preview: '**<img src=x onerror=alert(1)>**',
          },
        ]}
        currentId="a"
        onOpen={() => undefined}
      />,
    );
    const previews = [...document.querySelectorAll('.conversation-preview')].map((e) => e.textContent);
    expect(previews).toEqual([
      'Where the trip stands The weather tool says Lisbon is sunny',
      '<img src=x onerror=alert(1)>',
    ]);
    expect(document.querySelector('img')).toBeNull();
  });
});
