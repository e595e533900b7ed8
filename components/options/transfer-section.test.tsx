// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExportFile, ImportSummary } from '../../lib/messaging/transfer-protocol';
import { MAX_IMPORT_BYTES } from '../../lib/ui/transfer';
import { MockRequestError, mockConnector } from '../testing/mock-connector';
import { TransferSection } from './transfer-section';

afterEach(cleanup);

const SUMMARY: ImportSummary = {
  kind: 'chatgpt-export',
  file: 'export.zip',
  imported: [
    {
      id: 'chatgpt-export:a',
      title: 'Oslo weather',
      turns: 2,
      warnings: ['image sediment://file_1: the ChatGPT export has no image bytes'],
    },
  ],
  skipped: [
    { id: 'chatgpt-export:b', title: 'Pasta', why: 'duplicate', reason: 'already imported (unchanged)' },
    { id: 'c-bad', title: 'Broken', why: 'invalid', reason: 'mapping: missing: the conversation has no message tree' },
  ],
};

function choose(input: HTMLElement, file: File) {
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  fireEvent.change(input);
}

describe('TransferSection', () => {
  it('imports the chosen file as base64 with the chosen kind and shows the summary with every reason', async () => {
    const m = mockConnector({ importFile: () => SUMMARY });
    render(<TransferSection connector={m.connector} />);
    fireEvent.change(screen.getByLabelText('Kind of file'), { target: { value: 'chatgpt-export' } });
    choose(screen.getByLabelText('Import a file'), new File(['PK\u0003\u0004zip?'], 'export.zip'));
    await screen.findByText(
      'export.zip: Imported 1 conversation; skipped 2 (1 already in Baton, 1 could not be read).',
    );
    expect(m.callsOf('importFile')).toEqual([
      { name: 'export.zip', data: btoa('PK\u0003\u0004zip?'), encoding: 'base64', kind: 'chatgpt-export' },
    ]);
    expect(screen.getByRole('list', { name: 'Imported conversations' }).textContent).toBe(
      'Oslo weather (2 turns)1 note on what was left outimage sediment://file_1: the ChatGPT export has no image bytes',
    );
    expect(
      [...screen.getByRole('list', { name: 'Skipped conversations' }).querySelectorAll('li')].map(
        (li) => li.textContent,
      ),
    ).toEqual([
      'Pasta: already in Baton — already imported (unchanged)',
      'Broken: could not be read — mapping: missing: the conversation has no message tree',
    ]);
  });

  it('I3 refuses a file over the cap without reading or sending it', async () => {
    const m = mockConnector({ importFile: () => SUMMARY });
    render(<TransferSection connector={m.connector} />);
    const big = new File(['x'], 'huge.zip');
    Object.defineProperty(big, 'size', { value: MAX_IMPORT_BYTES + 1 });
    Object.defineProperty(big, 'arrayBuffer', { value: () => Promise.reject(new Error('must not be read')) });
    choose(screen.getByLabelText('Import a file'), big);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'huge.zip is 32.0 MiB, over the 32 MiB import limit. For a larger export zip, unpack it and import its conversations.json.',
    );
    expect(m.calls).toEqual([]);
  });

  it('shows the background error for a file it cannot read; detects the kind when none is chosen', async () => {
    const m = mockConnector({
      importFile: () => {
        throw new MockRequestError({
          code: 'bad_request',
          message: 'notes.json: could not tell what kind of file this is: choose its kind and import it again',
        });
      },
    });
    render(<TransferSection connector={m.connector} />);
    choose(screen.getByLabelText('Import a file'), new File(['{"hello":1}'], 'notes.json'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'notes.json: could not tell what kind of file this is: choose its kind and import it again',
    );
    expect(m.callsOf('importFile')).toEqual([{ name: 'notes.json', data: btoa('{"hello":1}'), encoding: 'base64' }]);
  });

  it('exports everything in parts into one download', async () => {
    const part = (content: string, count: number, next?: string): ExportFile => ({
      filename: 'baton-export-2026-11-30.jsonl',
      mimeType: 'application/json',
      content,
      count,
      failed: [],
      ...(next ? { next } : {}),
    });
    const m = mockConnector({
      exportAll: ({ after }) => (after === undefined ? part('{"a":1}\n', 1, 'a') : part('{"b":2}\n', 1)),
    });
    const saved: { name: string; text: Promise<string>; type: string }[] = [];
    render(
      <TransferSection
        connector={m.connector}
        save={(blob, name) => saved.push({ name, text: blob.text(), type: blob.type })}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Export all (Baton JSON)' }));
    await screen.findByText('Exported 2 conversations to baton-export-2026-11-30.jsonl.');
    expect(m.callsOf('exportAll')).toEqual([{ format: 'baton' }, { format: 'baton', after: 'a' }]);
    expect(saved.map((s) => [s.name, s.type])).toEqual([['baton-export-2026-11-30.jsonl', 'application/json']]);
    expect(await saved[0]!.text).toBe('{"a":1}\n{"b":2}\n');
  });

  it('says so when there is nothing to export, and saves nothing', async () => {
    const m = mockConnector({
      exportAll: () => ({ filename: 'x.md', mimeType: 'text/markdown', content: '', count: 0, failed: [] }),
    });
    const saved: string[] = [];
    render(<TransferSection connector={m.connector} save={(_b, name) => saved.push(name)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Export all (Markdown)' }));
    await waitFor(() =>
      expect(document.querySelector('[data-export-note]')?.textContent).toBe('There are no conversations to export.'),
    );
    expect(m.callsOf('exportAll')).toEqual([{ format: 'markdown' }]);
    expect(saved).toEqual([]);
  });
});
