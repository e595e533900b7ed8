import { describe, expect, it } from 'vitest';
import { captureFetch, captureOne } from './capture';
import type { ConversionCell } from './conversion';
import { measure, median } from './harness';
import { bundleRows, conversionRows, formatTable, growthOf, planningRows } from './table';

describe('captureOne', () => {
  it('captures the one request, its body and the time until fetch', async () => {
    const { capture, elapsedMs } = await captureOne(async () => {
      const res = await captureFetch('https://api.example/v1/messages', { method: 'POST', body: '{"a":1}' });
      expect(res.status).toBe(400);
      return res.json();
    });
    expect(capture.url).toBe('https://api.example/v1/messages');
    expect(capture.body).toBe('{"a":1}');
    expect(elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it('fails when the library made no request', async () => {
    await expect(captureOne(async () => 1)).rejects.toThrow('the library made no request');
  });

  it('counts a request even when the library throws on the 400 reply', async () => {
    const { capture } = await captureOne(async () => {
      await captureFetch('https://x/y', { body: new TextEncoder().encode('bytes') });
      throw new Error('400');
    });
    expect(capture.body).toBe('bytes');
  });
});

describe('measure', () => {
  it('interleaves candidates, rotating the order each round, after the warm-up', async () => {
    const calls: string[] = [];
    const c = (name: string, ms: number) => ({ name, run: () => (calls.push(name), ms) });
    const out = await measure([c('a', 1), c('b', 2), c('c', 3)], {
      warmup: 1,
      minSamples: 2,
      budgetMs: 0,
      maxSamples: 2,
      gc: 'minor',
    });
    expect(calls).toEqual(['a', 'b', 'c', 'b', 'c', 'a', 'c', 'a', 'b']);
    expect(out).toEqual([
      { name: 'a', samples: [1, 1], medianMs: 1 },
      { name: 'b', samples: [2, 2], medianMs: 2 },
      { name: 'c', samples: [3, 3], medianMs: 3 },
    ]);
  });

  it('takes the median of odd and even counts', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

const cell = (
  turns: number,
  api: ConversionCell['api'],
  baton: number,
  floor: number,
  pi: number | null,
  ai: number,
): ConversionCell => ({
  input: `${turns.toLocaleString('en')} turns`,
  turns,
  generated: true,
  api,
  batonMs: baton,
  floorMs: floor,
  batonSamples: [baton],
  floorSamples: [floor],
  batonBodyChars: 1,
  peers: [
    {
      name: 'pi-ai',
      medianMs: pi,
      samples: pi === null ? [] : [pi],
      bodyChars: pi === null ? null : 1,
      ...(pi === null ? { note: 'could not be driven: x' } : {}),
    },
    { name: 'AI SDK', medianMs: ai, samples: [ai], bodyChars: 1 },
  ],
});

describe('table rows', () => {
  it('judges Baton against the faster peer and the floor, and growth against the floor’s', () => {
    const cells = [cell(1000, 'openai-chat', 4, 3.5, 10, 8), cell(10000, 'openai-chat', 90, 60, null, 200)];
    expect(conversionRows(cells, [1000, 10000])).toEqual([
      {
        section: 'conversion',
        figure: '1,000 turns · chat · vs faster peer',
        value: 'Baton 4.00 ms; pi-ai 10.0 ms, AI SDK 8.00 ms → 0.50× AI SDK',
        target: '≤ 0.80× (≥ 20% faster)',
        met: 'yes',
      },
      {
        section: 'conversion',
        figure: '1,000 turns · chat · vs floor',
        value: 'Baton 4.00 ms / floor 3.50 ms = 1.14×',
        target: '≤ 1.25×',
        met: 'yes',
      },
      {
        section: 'conversion',
        figure: '10,000 turns · chat · vs faster peer',
        value: 'Baton 90.0 ms; pi-ai n/a, AI SDK 200 ms → 0.45× AI SDK (pi-ai: could not be driven: x)',
        target: '≤ 0.80× (≥ 20% faster)',
        met: 'yes',
      },
      {
        section: 'conversion',
        figure: '10,000 turns · chat · vs floor',
        value: 'Baton 90.0 ms / floor 60.0 ms = 1.50×',
        target: '≤ 1.25×',
        met: 'no',
      },
      {
        section: 'conversion',
        figure: 'growth 1,000→10,000 turns · chat',
        value: 'Baton ×22.50, floor ×17.14',
        target: 'Baton ≤ floor',
        met: 'no',
      },
    ]);
    expect(growthOf(cells)).toEqual([{ api: 'openai-chat', from: 1000, to: 10000, baton: 22.5, floor: 60 / 3.5 }]);
  });

  it('marks planning pending when lib/context is missing, and judges the warm figure otherwise', () => {
    expect(planningRows({ ok: false, note: 'pending: x' }, 10000)).toEqual([
      {
        section: 'planning',
        figure: 'plan() · 10,000 turns · warm cache',
        value: 'pending: x',
        target: '< 50 ms',
        met: 'pending',
      },
    ]);
    const rows = planningRows(
      {
        ok: true,
        cells: [
          {
            api: 'gemini-generate-content',
            turns: 10000,
            warmMs: 12,
            warmWithReportMs: 20,
            coldMs: 300,
            coldWithReportMs: 700,
            coldStoredMs: 120,
            previewAppendMs: 80,
            previewColdMs: 700,
            includedTurns: 5000,
            estimatedInputTokens: 1,
            tokenizer: 'gemini',
          },
        ],
      },
      10000,
    );
    expect(rows.map((r) => [r.figure, r.met])).toEqual([
      ['plan() · 10,000 turns · gemini · warm cache', 'yes'],
      ['plan() · 10,000 turns · gemini · cold, counts stored with the turns', 'yes'],
      ['preview (plan + report) · append 1 turn to 10,000 turns · gemini', 'no'],
    ]);
    expect(rows[2]!.value).toBe('80.0 ms vs cold 700 ms (11 %)');
  });

  it('judges the side panel bundle only', () => {
    const rows = bundleRows({
      ok: true,
      built: false,
      bundles: [
        { name: 'background', files: ['background.js'], rawBytes: 4096, gzipBytes: 1024 },
        { name: 'side panel', files: ['a', 'b'], rawBytes: 200 * 1024, gzipBytes: 81 * 1024 },
      ],
    });
    expect(rows).toEqual([
      { section: 'bundle', figure: 'background (gzip)', value: '1.0 KB (raw 4.0 KB)', target: 'report', met: '—' },
      {
        section: 'bundle',
        figure: 'side panel (gzip, 2 files)',
        value: '81.0 KB (raw 200.0 KB)',
        target: '< 80 KB',
        met: 'no',
      },
    ]);
  });

  it("reports the worker's bytes inside the lazy loader bodies", () => {
    const rows = bundleRows({
      ok: true,
      built: false,
      bundles: [
        {
          name: 'background',
          files: ['background.js'],
          rawBytes: 2048 * 1024,
          gzipBytes: 512 * 1024,
          loaderBytes: { loadOpenAI: 400 * 1024, loadUnzipSync: 6 * 1024 },
        },
      ],
    });
    expect(rows[1]).toEqual({
      section: 'bundle',
      figure: 'background: inside lazy loader bodies (raw)',
      value: '406.0 KB of 2048.0 KB (loadOpenAI 400.0, loadUnzipSync 6.0)',
      target: 'report',
      met: '—',
    });
  });

  it('reports each lazy script beside the worker, after the worker rows', () => {
    const rows = bundleRows({
      ok: true,
      built: false,
      bundles: [
        {
          name: 'background',
          files: ['background.js'],
          rawBytes: 700 * 1024,
          gzipBytes: 200 * 1024,
          loaderBytes: { loadOpenAI: 300, loadUnzipSync: 6 * 1024 },
          lazyScripts: { 'lazy/openai.js': { raw: 400 * 1024, gzip: 100 * 1024 } },
        },
      ],
    });
    expect(rows).toHaveLength(3);
    expect(rows[2]).toEqual({
      section: 'bundle',
      figure: 'background: lazy/openai.js, imported on first use (gzip)',
      value: '100.0 KB (raw 400.0 KB)',
      target: 'report',
      met: '—',
    });
  });

  it('formats one aligned table with a header', () => {
    expect(
      formatTable([{ section: 'bundle', figure: 'x', value: '1', target: '< 2', met: 'yes' }]).split('\n'),
    ).toEqual([
      'section │ figure │ value (medians) │ target │ met',
      '────────┼────────┼─────────────────┼────────┼────',
      'bundle  │ x      │ 1               │ < 2    │ yes',
    ]);
  });
});
