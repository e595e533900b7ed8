/**
 * The rank tables out of the JavaScript (docs/architecture.md#the-service-workers-start-up): an
 * encoding built from the JSON data file the build writes counts exactly as gpt-tokenizer's own
 * module does; until it is loaded, OpenAI models are planned as labelled estimates, never as exact.
 */
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { countTokens as libraryO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { encodingFor, loadEncoding, resetEncodings, setRanksSource, type RawRanks } from './tokenizer-ranks';
import { countText, countingFamily, ensureTokenizer } from './tokens';
import { plan } from './plan';
import { createTokenCache } from './token-cache';
import type { Transcript } from '../transcript/schema';

const require = createRequire(import.meta.url);
/** What the build writes to tokenizer/<encoding>.json (wxt.config.ts), read back as the worker's fetch does. */
const dataFile = (encoding: string): RawRanks =>
  JSON.parse(JSON.stringify(require(`gpt-tokenizer/cjs/bpeRanks/${encoding}`).default)) as RawRanks;
const nodeSync = { sync: (e: 'o200k_base' | 'cl100k_base') => dataFile(e) };

const TEXT = 'Héllo, wörld! 你好 🌍 <|endoftext|> `code` \u0000 \uD83D tail';
const transcript: Transcript = {
  format: 'baton.transcript',
  version: 1,
  turns: [{ id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Count me, please. '.repeat(50) }] }],
} as unknown as Transcript;

afterEach(() => {
  resetEncodings();
  setRanksSource(nodeSync);
});

describe('tokenizer rank tables', () => {
  it('counts from the JSON data file exactly as gpt-tokenizer’s bundled ranks', () => {
    resetEncodings();
    setRanksSource(nodeSync);
    const plain = { disallowedSpecial: new Set<string>() };
    expect(countText(TEXT, 'o200k')).toBe(libraryO200k(TEXT, plain));
    expect(countText(TEXT.repeat(40), 'o200k')).toBe(libraryO200k(TEXT.repeat(40), plain));
  });

  it('estimates (as generic, labelled so) until the ranks are loaded, then counts exactly', async () => {
    resetEncodings();
    let resolveLoad!: (r: RawRanks) => void;
    setRanksSource({ load: () => new Promise<RawRanks>((r) => (resolveLoad = r)) });
    expect(countingFamily('o200k')).toBe('generic');
    expect(countText('abcdefg', 'o200k')).toBe(Math.ceil(7 / 3.5));
    const before = plan(transcript, { api: 'openai-responses', model: 'gpt-5' });
    expect(before.tokenizer).toBe('generic');

    const loading = ensureTokenizer('gpt-5');
    resolveLoad(dataFile('o200k_base'));
    await loading;
    expect(countingFamily('o200k')).toBe('o200k');
    const after = plan(transcript, { api: 'openai-responses', model: 'gpt-5' });
    expect(after.tokenizer).toBe('o200k');
    expect(after.uncorrectedInputTokens).not.toBe(before.uncorrectedInputTokens);
    // cl100k was not asked for: still not built.
    expect(countingFamily('cl100k')).toBe('generic');
  });

  it('loads once for concurrent callers; a failed load leaves estimates and is tried again', async () => {
    resetEncodings();
    let calls = 0;
    let fail = true;
    setRanksSource({
      load: async (e) => {
        calls++;
        if (fail) throw new Error('offline');
        return dataFile(e);
      },
    });
    const warn = console.warn;
    console.warn = () => {};
    try {
      expect(await Promise.all([loadEncoding('cl100k_base'), loadEncoding('cl100k_base')])).toEqual([
        undefined,
        undefined,
      ]);
    } finally {
      console.warn = warn;
    }
    expect(calls).toBe(1);
    expect(encodingFor('cl100k_base')).toBeUndefined();
    fail = false;
    expect(await loadEncoding('cl100k_base')).toBeDefined();
    expect(calls).toBe(2);
    expect(countingFamily('cl100k')).toBe('cl100k');
  });

  it('refuses a data file that is not a rank table', async () => {
    resetEncodings();
    setRanksSource({ sync: () => ({ not: 'ranks' }) as unknown as RawRanks });
    expect(() => encodingFor('o200k_base')).toThrow(/o200k_base are not a rank table/);
  });

  it('an estimate standing in for an unloaded rank table is not kept with the turns; exact counts are', () => {
    const sets: string[] = [];
    const stored = { get: () => undefined, set: (_t: unknown, variant: string) => void sets.push(variant) };
    resetEncodings();
    setRanksSource({}); // as in the worker before the first fetch
    plan(transcript, { api: 'openai-chat', model: 'gpt-4o' }, {}, createTokenCache({ stored }));
    expect(sets).toEqual([]); // docs/architecture.md#token-counts-with-the-turn
    setRanksSource(nodeSync);
    plan(transcript, { api: 'openai-chat', model: 'gpt-4o' }, {}, createTokenCache({ stored }));
    expect(sets).toEqual(['o200k:other:ds']);
  });
});
