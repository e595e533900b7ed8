/**
 * Where the time of `store.appendTurn` goes, in the service worker of one or more test builds
 * (bench/README.md, "Append with the list pages"): the whole append beside raw transactions over
 * the same stores that issue the append's requests one awaited request after another — without
 * the list page, with its read and write, and with the page read issued at the start beside the
 * record's — interleaved, medians; plus the page's decode and encode on their own.
 *
 * `--turns` sets the conversation's length; `--index 1` has the store build the conversation's path
 * index first (a whole read), as it has for anyone who opened the conversation, so the append also
 * extends the index.
 *
 *   node --import tsx bench/append-probe.ts <build dir> [<build dir> …] [--rounds 1] [--samples 21] [--conversations 5000] [--turns 500] [--index 0]
 */
import os from 'node:os';
import path from 'node:path';
import type { BatonDb } from '../lib/store/db';
import type { ConversationStore } from '../lib/store/conversations';
import { alternateBuilds, parseAbArgs, probeSeed } from './ab';
import { median } from './harness';

const { dirs, flags } = parseAbArgs('append-probe.ts', {
  rounds: 1,
  samples: 21,
  conversations: 5_000,
  turns: 500,
  index: 0,
});
const id = 'bench-conversation';
const seed = probeSeed(id, flags.turns, flags.conversations);
const sample = seed.transcript.turns.find((t) => t.role === 'assistant') ?? seed.transcript.turns[0]!;

await alternateBuilds(dirs, flags.rounds, seed.records, seed.turns, async (browser, r, dir) => {
  const out = await browser.evalInWorker(
    async (a) => {
      const { db, store } = await (
        globalThis as unknown as { batonReady: Promise<{ db: BatonDb; store: ConversationStore }> }
      ).batonReady;
      // The page key of the conversation, as lib/store/list-pages.ts computes it.
      let h = 0x811c9dc5;
      for (let i = 0; i < a.id.length; i++) {
        h ^= a.id.charCodeAt(i);
        h = Math.imul(h, 0x01000193);
      }
      const pageKey = (h >>> 0) % 256;
      const floorId = `${a.id}-probe`;
      const rec0 = await store.getRecord(a.id);
      if (!rec0) throw new Error('not seeded');
      if (a.index) {
        // A whole read has the store build the index soon after (lib/store/path-index-build.ts).
        await store.cachedTranscript(a.id);
        for (let w = 0; w < 100 && (await db.get('paths', [a.id, -1])) === undefined; w++)
          await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const hasIndex = (await db.get('paths', [a.id, -1])) !== undefined;
      const stores = ['conversations', 'turns', 'search', 'paths', 'summaries'] as const;
      type Row = 'append' | 'seq' | 'seqPage' | 'getOnly' | 'putOnly' | 'earlyPage' | 'pipelined' | 'cpu';
      const times: Record<Row, number[]> = {
        append: [],
        seq: [],
        seqPage: [],
        getOnly: [],
        putOnly: [],
        earlyPage: [],
        pipelined: [],
        cpu: [],
      };
      const enc = new TextEncoder();
      const dec = new TextDecoder('utf-8', { ignoreBOM: true });
      let first: string | undefined;
      let seq = 0;
      let held: Uint8Array | undefined;
      const rawTx = async (mode: 'seq' | 'seqPage' | 'getOnly' | 'putOnly' | 'earlyPage' | 'pipelined') => {
        const t0 = performance.now();
        const t = db.transaction([...stores], 'readwrite');
        const conv = t.objectStore('conversations');
        const early =
          mode === 'earlyPage' || mode === 'pipelined' ? t.objectStore('summaries').get(pageKey) : undefined;
        const head = mode === 'pipelined' ? t.objectStore('paths').get([a.id, -1]) : undefined;
        const rec = (await conv.get(a.id))!;
        const tr = { conversationId: floorId, seq: seq++, parentId: '', turn: { ...a.turn, id: `probe-${seq}` } };
        const w: Promise<unknown>[] = [];
        const put = (p: Promise<unknown>) => (mode === 'pipelined' ? w.push(p) : p);
        await put(t.objectStore('turns').add(tr));
        await put(
          t.objectStore('search').put({ conversationId: floorId, seq: tr.seq, kind: 'turn', words: [] } as never),
        );
        if (mode === 'pipelined') await head;
        else await t.objectStore('paths').get([a.id, -1]);
        await put(conv.put({ ...rec, id: floorId }));
        if (mode === 'getOnly') held = (await t.objectStore('summaries').get(pageKey))!;
        else if (mode === 'putOnly') await t.objectStore('summaries').put(enc.encode(dec.decode(held!)), pageKey);
        else if (mode !== 'seq') {
          const page = (await (early ?? t.objectStore('summaries').get(pageKey)))!;
          const text = dec.decode(page);
          await put(t.objectStore('summaries').put(enc.encode(text), pageKey));
        }
        await Promise.all(w);
        await t.done;
        return performance.now() - t0;
      };
      for (let i = 0; i < 3 + a.samples; i++) {
        const mine = { ...a.turn, id: `${a.turn.id}-probe-${i}` };
        first ??= mine.id;
        const t0 = performance.now();
        await store.appendTurn(a.id, mine, new Date().toISOString());
        const app = performance.now() - t0;
        const s = await rawTx('seq');
        const sp = await rawTx('seqPage');
        const go = await rawTx('getOnly');
        const po = await rawTx('putOnly');
        const ep = await rawTx('earlyPage');
        const pl = await rawTx('pipelined');
        // The page's CPU on its own: decode, split, join, encode.
        const page = (await db.get('summaries', pageKey))!;
        const c0 = performance.now();
        for (let k = 0; k < 10; k++) {
          const parts = dec.decode(page).split('\u001f');
          enc.encode(parts.join('\u001f'));
        }
        const cpu = (performance.now() - c0) / 10;
        if (i < 3) continue;
        times.append.push(app);
        times.seq.push(s);
        times.seqPage.push(sp);
        times.getOnly.push(go);
        times.putOnly.push(po);
        times.earlyPage.push(ep);
        times.pipelined.push(pl);
        times.cpu.push(cpu);
      }
      await store.deleteTurnsFrom(a.id, first!, rec0.updatedAt);
      await db.delete('conversations', floorId);
      await db.delete('turns', IDBKeyRange.bound([floorId, -Infinity], [floorId, Infinity]));
      await db.delete('search', IDBKeyRange.bound([floorId, -Infinity], [floorId, Infinity]));
      return { times, hasIndex, pageBytes: (await db.get('summaries', pageKey))!.byteLength };
    },
    { id, turn: sample, samples: flags.samples, index: flags.index === 1 },
  );
  const m = (x: number[]) => `${median(x).toFixed(2)}`;
  const t = out.times;
  console.log(
    `round ${r + 1} ${path.basename(path.dirname(dir))}: append ${m(t.append)} · raw seq ${m(t.seq)} · +page ${m(t.seqPage)} (get only ${m(t.getOnly)}, put only ${m(t.putOnly)}) · page read early ${m(t.earlyPage)} · pipelined ${m(t.pipelined)} · page cpu ${m(t.cpu)} ms (${out.pageBytes} B, path index ${out.hasIndex ? 'yes' : 'no'}) · load ${os.loadavg()[0]!.toFixed(1)}`,
  );
});
