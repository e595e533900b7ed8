/**
 * Importer rows (bench/README.md): the ChatGPT export importer on malformed trees of
 * security-requirements.md I3 — a 20,000-node cycle (skipped) and a 20,000-node chain (one
 * conversation of 20,000 turns) in one file — must finish in well under 5 s, since its walks are
 * linear. The unit test (lib/importers/chatgpt-export.test.ts) checks what is imported, untimed.
 */
import { importFile } from '../lib/importers/import-file';
import { measure, timeSync, type MeasureOptions } from './harness';
import type { Row } from './table';

/** Whole import of the cycle-and-chain export (ms). */
export const CHATGPT_TREE_TARGET_MS = 5_000;

/** A ChatGPT export (UTF-8 JSON) of a `n`-node ring (`current_node` on the cycle) and a `n`-node chain. */
export function chatgptRingAndChain(n: number): Uint8Array {
  const node = (id: string, parent: string | null, i: number) => ({
    id,
    parent,
    children: [],
    message: {
      id,
      author: { role: i % 2 ? 'assistant' : 'user' },
      content: { content_type: 'text', parts: [`m${i}`] },
      create_time: 1700000000,
      recipient: 'all',
      metadata: {},
    },
  });
  const ring: Record<string, unknown> = {};
  const chain: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    ring[`r${i}`] = node(`r${i}`, `r${(i + 1) % n}`, i);
    chain[`c${i}`] = node(`c${i}`, i ? `c${i - 1}` : null, i);
  }
  return new TextEncoder().encode(
    JSON.stringify([
      { id: 'ring', current_node: 'r0', mapping: ring },
      { id: 'chain', current_node: `c${n - 1}`, mapping: chain },
    ]),
  );
}

/** Times the import of {@link chatgptRingAndChain} of `n` nodes; one row. */
export async function importerRows(n: number, options: MeasureOptions): Promise<Row[]> {
  const bytes = chatgptRingAndChain(n);
  const [m] = await measure(
    [{ name: 'chatgpt-export', run: () => timeSync(() => importFile('chatgpt-export', bytes)) }],
    options,
  );
  const ms = m!.medianMs;
  return [
    {
      section: 'import',
      figure: `ChatGPT export · ${n.toLocaleString('en')}-node cycle + ${n.toLocaleString('en')}-node chain (I3)`,
      value: `${ms.toFixed(0)} ms`,
      target: `< ${CHATGPT_TREE_TARGET_MS.toLocaleString('en')} ms`,
      met: ms < CHATGPT_TREE_TARGET_MS ? 'yes' : 'no',
    },
  ];
}
