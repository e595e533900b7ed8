// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportSummary } from '../../lib/messaging/transfer-protocol';
import { IMPORT_LIMITS } from '../../lib/messaging/transfer-protocol';
import { fileToBase64, MAX_IMPORT_BYTES } from '../../lib/ui/transfer';
import { mockConnector } from '../testing/mock-connector';
import { ExportMenu, ImportEntry, pickFile } from './transfer-actions';

afterEach(cleanup);

describe('ExportMenu', () => {
  it('saves the open conversation as Baton JSON or Markdown', async () => {
    const m = mockConnector({
      exportConversation: ({ format }) =>
        format === 'baton'
          ? {
              filename: 'Oslo.baton.json',
              mimeType: 'application/json',
              content: '{"format":"baton.transcript"}\n',
              count: 1,
              failed: [],
            }
          : { filename: 'Oslo.md', mimeType: 'text/markdown', content: '# Oslo\n', count: 1, failed: [] },
    });
    const saved: [string, string, Promise<string>][] = [];
    render(
      <ExportMenu
        connector={m.connector}
        conversationId="c1"
        save={(b, name) => saved.push([name, b.type, b.text()])}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Baton JSON' }));
    await new Promise((r) => setTimeout(r, 0));
    fireEvent.click(screen.getByRole('button', { name: 'Markdown' }));
    await new Promise((r) => setTimeout(r, 0));
    expect(m.callsOf('exportConversation')).toEqual([
      { id: 'c1', format: 'baton' },
      { id: 'c1', format: 'markdown' },
    ]);
    expect(await Promise.all(saved.map(async ([n, t, text]) => [n, t, await text]))).toEqual([
      ['Oslo.baton.json', 'application/json', '{"format":"baton.transcript"}\n'],
      ['Oslo.md', 'text/markdown', '# Oslo\n'],
    ]);
  });
});

describe('ImportEntry', () => {
  it('imports the picked file, says what happened and hands over the imported conversations', async () => {
    const summary: ImportSummary = {
      kind: 'claude-code',
      file: 's.jsonl',
      imported: [{ id: 'claude-code:s', title: 'Fix the build', turns: 12 }],
      skipped: [],
    };
    const m = mockConnector({ importFile: () => summary });
    const got: ImportSummary[] = [];
    render(
      <ImportEntry
        connector={m.connector}
        onImported={(s) => got.push(s)}
        pick={() => Promise.resolve(new File(['{"type":"user"}\n'], 's.jsonl'))}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Import…' }));
    await screen.findByText('Imported 1 conversation.');
    expect(m.callsOf('importFile')).toEqual([{ name: 's.jsonl', data: btoa('{"type":"user"}\n'), encoding: 'base64' }]);
    expect(got).toEqual([summary]);
  });

  it('the default picker resolves with the file chosen in a detached file input, leaving no input in the page', async () => {
    const clicked: HTMLInputElement[] = [];
    const orig = HTMLInputElement.prototype.click;
    HTMLInputElement.prototype.click = function (this: HTMLInputElement) {
      clicked.push(this);
    };
    try {
      const picked = pickFile();
      expect(clicked.map((i) => [i.type, i.accept, i.isConnected])).toEqual([
        ['file', '.json,.jsonl,.zip,application/json,application/zip', false],
      ]);
      const file = new File(['x'], 'a.json');
      Object.defineProperty(clicked[0], 'files', { value: [file] });
      clicked[0]!.dispatchEvent(new Event('change'));
      expect(await picked).toBe(file);
      expect(document.querySelector('input[type="file"]')).toBeNull();
    } finally {
      HTMLInputElement.prototype.click = orig;
    }
  });

  it('does not hand over an import that added nothing', async () => {
    const summary: ImportSummary = {
      kind: 'baton',
      file: 'b.json',
      imported: [],
      skipped: [{ id: 'x', why: 'duplicate', reason: 'already imported (unchanged)' }],
    };
    const m = mockConnector({ importFile: () => summary });
    const got: ImportSummary[] = [];
    render(
      <ImportEntry
        connector={m.connector}
        onImported={(s) => got.push(s)}
        pick={() => Promise.resolve(new File(['{}'], 'b.json'))}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Import…' }));
    await screen.findByText('Imported 0 conversations; skipped 1 (1 already in Baton).');
    expect(got).toEqual([]);
  });
});

describe('page helpers', () => {
  it('the page cap equals the background cap', () => {
    expect(MAX_IMPORT_BYTES).toBe(IMPORT_LIMITS.fileBytes);
  });

  it('encodes any bytes as base64 across chunk boundaries', async () => {
    const bytes = new Uint8Array(3 * 8192 * 2 + 7).map((_, i) => (i * 37) % 256);
    expect(await fileToBase64(new Blob([bytes]))).toBe(Buffer.from(bytes).toString('base64'));
  });
});
