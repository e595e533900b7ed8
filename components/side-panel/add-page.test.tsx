// @vitest-environment happy-dom
import '../testing/happy-dom-compat';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { AddPageButton } from './add-page';

afterEach(cleanup);

describe('AddPageButton', () => {
  it('is named Add this page, reads once per click and is busy while reading', async () => {
    let calls = 0;
    let finish: () => void = () => undefined;
    render(<AddPageButton onAddPage={() => (calls++, new Promise<void>((r) => (finish = r)))} />);
    const button = screen.getByRole('button', { name: 'Add this page' });
    expect(button.getAttribute('title')).toMatch(/read only when you click/);
    fireEvent.click(button);
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(button);
    expect(calls).toBe(1);
    finish();
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    expect(button.getAttribute('aria-busy')).toBeNull();
  });

  it('is disabled while an answer streams', () => {
    render(<AddPageButton onAddPage={async () => undefined} disabled />);
    expect((screen.getByRole('button', { name: 'Add this page' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
