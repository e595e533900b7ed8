import { describe, expect, it } from 'vitest';
import { chromiumRows, type ChromiumResult } from './chromium-rows';

const stats = (medianMs: number, firstMs: number, lastMs: number) => ({
  chunks: 2_000,
  medianMs,
  firstMs,
  lastMs,
  totalMs: medianMs * 2_000,
  maxMs: 9,
});

const RESULT: ChromiumResult = {
  ok: true,
  sizes: { turns: 10_000, conversations: 5_000, chars: 200_000, chunks: 2_000 },
  builtNow: false,
  startup: {
    ok: true,
    value: {
      samples: 10,
      evaluatedMs: 40,
      readyMs: 55.5,
      wallMs: 120,
      empty: { evaluatedMs: 31, readyMs: 31.5, batonMinusEmpty: { evaluatedMs: 8.5, readyMs: 23 } },
    },
  },
  startupSync: { ok: true, value: { samples: 10, evaluatedMs: 41, readyMs: 56, wallMs: 121 } },
  append: { ok: true, value: { batonMs: 2, floorMs: 1, batonSamples: [2], floorSamples: [1] } },
  list: { ok: true, value: { batonMs: 120, floorMs: 60, batonSamples: [120], floorSamples: [60], listed: 5_001 } },
  roundTrip: { ok: false, note: 'failed: boom' },
  open: {
    ok: true,
    value: {
      samples: [],
      paintMs: 140,
      domMs: 120,
      loadMs: 50,
      shownTurns: 10_000,
      heapBytes: 200 * 1024 * 1024,
      baselineHeapBytes: 5 * 1024 * 1024,
    },
  },
  render: {
    ok: true,
    value: {
      chars: 200_000,
      floorStride: 10,
      baton: stats(0.5, 0.4, 0.5),
      batonUpdate: stats(0.3, 0.2, 0.25),
      floor: stats(20, 1, 40),
      sameText: true,
    },
  },
  preview: { ok: true, value: { samples: [310, 290, 320], coldMs: 310, warmMs: 80, turns: 10_000, included: 412 } },
};

describe('chromiumRows', () => {
  it('gives every figure with its target and verdict', () => {
    expect(chromiumRows(RESULT).map((r) => [r.section, r.figure, r.value, r.met])).toEqual([
      ['storage', 'append 1 turn to a 10,000-turn conversation', 'Baton 2.00 ms / floor 1.00 ms = 2.00×', 'yes'],
      [
        'storage',
        'open a 10,000-turn conversation (load + first paint of newest 50)',
        '140 ms (in the DOM at 120 ms; getConversation alone 50.0 ms; 10,000 turns rendered)',
        'yes',
      ],
      [
        'storage',
        'cold preview of a 10,000-turn conversation (previewSend from a page after a worker restart, counts stored)',
        '310 ms (then warm 80.0 ms; 412 of 10,000 turns fit; median of 3)',
        'no',
      ],
      [
        'storage',
        'list 5,000 conversations (store.list() in the worker)',
        'Baton 120 ms / floor 60.0 ms = 2.00× (5,001 listed)',
        'no',
      ],
      ['storage', 'list 5,000 conversations (listConversations from the side panel)', 'failed: boom', 'skipped'],
      [
        'rendering',
        'streaming 200 KB in 2,000 chunks · main-thread ms per chunk',
        '0.50 ms (max 9.00 ms, total 1000 ms)',
        'yes',
      ],
      [
        'rendering',
        'streaming 200 KB in 2,000 chunks · first-100 vs last-100 chunks',
        '0.40 → 0.50 ms (update alone, without style and layout: 0.20 → 0.25 ms; floor 1.00 → 40.0 ms)',
        'yes',
      ],
      [
        'rendering',
        'streaming 200 KB in 2,000 chunks · vs floor (naive full re-render per chunk)',
        'Baton 0.50 ms / floor 20.0 ms per chunk = 0.03× (floor timed on every 10th chunk)',
        'yes',
      ],
      ['heap', 'a 10,000-turn conversation open in the side panel', '200.0 MB (with an empty chat: 5.0 MB)', 'no'],
      [
        'start-up',
        'service worker cold start, seeded database (background.js evaluated; ready)',
        'evaluated at 40.0 ms, ready (DB open) at 55.5 ms; startWorker → running 120 ms (median of 10); an empty extension worker, same run: evaluated at 31.0 ms, ready at 31.5 ms (Baton − empty worker: evaluated 8.50 ms, ready 23.0 ms)',
        'yes',
      ],
      [
        'start-up',
        'service worker cold start, seeded database, sync switched on (evaluated; ready)',
        'evaluated at 41.0 ms, ready at 56.0 ms; startWorker → running 121 ms (median of 10)',
        'yes',
      ],
    ]);
  });

  it('judges the start-up row by the absolute figure, the empty worker only beside it', () => {
    const slow: ChromiumResult = {
      ...RESULT,
      startup: {
        ok: true,
        value: {
          samples: 10,
          evaluatedMs: 80,
          readyMs: 90,
          wallMs: 150,
          empty: { evaluatedMs: 70, readyMs: 70.2, batonMinusEmpty: { evaluatedMs: 10, readyMs: 19.8 } },
        },
      },
    } as ChromiumResult;
    const row = chromiumRows(slow).find((r) => r.figure.startsWith('service worker cold start, seeded database ('))!;
    expect(row.met).toBe('no');
    expect(row.value).toContain('Baton − empty worker: evaluated 10.0 ms, ready 19.8 ms');
  });

  it('skips every figure with the reason when the section could not run', () => {
    const rows = chromiumRows({ ok: false, note: 'no Chromium at /usr/bin/chromium (set CHROMIUM_PATH)' });
    expect(rows).toHaveLength(11);
    expect(new Set(rows.map((r) => `${r.met}: ${r.value}`))).toEqual(
      new Set(['skipped: no Chromium at /usr/bin/chromium (set CHROMIUM_PATH)']),
    );
    expect(rows[0]!.figure).toBe('append 1 turn to a 10,000-turn conversation');
  });

  it('flags a final text that differs from the floor', () => {
    const bad: ChromiumResult = {
      ...RESULT,
      render: {
        ok: true,
        value: {
          chars: 200_000,
          floorStride: 1,
          baton: stats(3, 1, 5),
          batonUpdate: stats(3, 1, 5),
          floor: stats(2, 1, 3),
          sameText: false,
        },
      },
    } as ChromiumResult;
    const rows = chromiumRows(bad).filter((r) => r.section === 'rendering');
    expect(rows.map((r) => r.met)).toEqual(['no', 'no', 'no']);
    expect(rows[2]!.value).toContain('final text differs from the floor!');
  });
});
