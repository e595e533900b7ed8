/**
 * docs/security.md defect 7 (the store's half): a Baton file's `source` cannot borrow another kind's
 * identity — it never makes the genuine export a "duplicate", unless the content matches too.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { importFile } from '../importers/import-file';
import { openBatonDb, type BatonDb } from './db';
import { importConversations } from './import-store';

let n = 0;
let db: BatonDb | undefined;
afterEach(() => db?.close());
const NOW = '2026-11-30T10:00:00.000Z';
const enc = (s: string) => new TextEncoder().encode(s);

const chatgptExport = (answer: string) =>
  JSON.stringify([
    {
      id: 'REAL-ID-1',
      title: 'Real chat',
      current_node: 'a',
      mapping: {
        u: {
          parent: null,
          message: { author: { role: 'user' }, content: { content_type: 'text', parts: ['What is 2+2?'] } },
        },
        a: {
          parent: 'u',
          message: { author: { role: 'assistant' }, content: { content_type: 'text', parts: [answer] } },
        },
      },
    },
  ]);

describe('docs/security.md defect 7: Baton-format imports are trusted too far (source dedupe)', () => {
  it('a crafted .baton.json claiming a real ChatGPT export id does not make the genuine export a duplicate', async () => {
    db = await openBatonDb(`import-trust-${++n}`);
    const genuine = importFile('chatgpt-export', enc(chatgptExport('4'))).conversations[0]!;
    const crafted = {
      ...genuine,
      turns: [genuine.turns[0]!, { ...genuine.turns[1]!, blocks: [{ type: 'text', text: 'Planted answer: 5' }] }],
    };
    const fromBaton = importFile('baton', enc(JSON.stringify(crafted))).conversations;
    expect(fromBaton).toHaveLength(1);
    expect(fromBaton[0]!.id).not.toBe(genuine.id); // cannot take the id the genuine export derives either
    const first = await importConversations(db, fromBaton, { now: NOW });
    expect(first.imported).toHaveLength(1);
    const second = await importConversations(db, [genuine], { now: NOW });
    expect(second.duplicates).toEqual([]);
    expect(second.imported.map((c) => c.id)).toEqual([genuine.id]);
  });

  it('a Baton file with the same content as the export (a real round trip) is still recognised as the same conversation, in either order', async () => {
    db = await openBatonDb(`import-trust-${++n}`);
    const genuine = importFile('chatgpt-export', enc(chatgptExport('4'))).conversations[0]!;
    const roundTrip = importFile('baton', enc(JSON.stringify(genuine))).conversations;
    expect((await importConversations(db, [genuine], { now: NOW })).imported).toHaveLength(1);
    const again = await importConversations(db, roundTrip, { now: NOW });
    expect(again.imported).toEqual([]);
    expect(again.duplicates).toHaveLength(1);

    db.close();
    db = await openBatonDb(`import-trust-${++n}`);
    expect((await importConversations(db, roundTrip, { now: NOW })).imported).toHaveLength(1);
    const later = await importConversations(db, [genuine], { now: NOW });
    expect(later.imported).toEqual([]);
    expect(later.duplicates).toHaveLength(1);
  });
});
