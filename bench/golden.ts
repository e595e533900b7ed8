/**
 * The golden hash of conversion (bench/README.md, "Byte-identical"): SHA-256 over the body,
 * headers and report of every conversion of a fixed corpus — the generated transcripts (100 and
 * 1,000 turns), the real agent sessions of `../shared/fixtures/agent-transcripts/` when present,
 * and 400 seeded property-test transcripts — for each of 16 targets. A change meant to be
 * byte-identical (a faster pass, a cache) must leave the printed hash unchanged:
 *
 *   npx tsx bench/golden.ts            # prints `<hash> <conversions>`
 *   npx tsx bench/golden.ts --cached   # the same corpus through a shared ConversionCache, twice
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { convertTranscript } from '../lib/providers/index';
import type { Transcript } from '../lib/transcript/schema';
import type { ConvertTarget } from '../lib/transcript/target';
import { transcriptArb } from '../test/property/arbitraries';
import { generateTranscript } from './generate';
import { loadAgentSessions } from './sessions';

const TARGETS: ConvertTarget[] = [
  { api: 'anthropic-messages', model: 'claude-sonnet-4-5' },
  { api: 'anthropic-messages', model: 'claude-sonnet-4-5', thinking: true },
  { api: 'anthropic-messages', model: 'claude-opus-4-5', foreignReasoning: 'text' },
  { api: 'openai-chat', model: 'gpt-4o' },
  { api: 'openai-chat', model: 'gpt-4.1' },
  { api: 'openai-chat', model: 'deepseek-reasoner', provider: 'deepseek' },
  { api: 'openai-chat', model: 'mistral-large-latest', provider: 'mistral' },
  { api: 'openai-chat', model: 'llama3.1', provider: 'ollama', endpoint: 'http://localhost:11434/v1' },
  { api: 'openai-responses', model: 'gpt-5.5' },
  { api: 'openai-responses', model: 'gpt-5.1' },
  { api: 'openai-responses', model: 'gpt-5.5', thinking: true, foreignReasoning: 'text' },
  { api: 'openai-responses', model: 'gpt-4.1' },
  { api: 'gemini-generate-content', model: 'gemini-3-pro-preview' },
  { api: 'gemini-generate-content', model: 'gemini-2.5-pro' },
  { api: 'gemini-generate-content', model: 'gemini-2.5-flash', thinking: true },
  { api: 'gemini-generate-content', model: 'gemini-2.5-flash', foreignReasoning: 'text' },
];

const corpus: Transcript[] = [generateTranscript({ turns: 100 }), generateTranscript({ turns: 1000 })];
for (const s of await loadAgentSessions()) if (s.ok) corpus.push(s.transcript);
corpus.push(...fc.sample(transcriptArb, { numRuns: 400, seed: 20261201 }));

const cached = process.argv.includes('--cached');
// Loaded only when asked for, so the script also runs on code from before the cache (a baseline).
const cache = cached
  ? (
      (await import(new URL('../lib/providers/index.ts', import.meta.url).href)) as {
        createConversionCache: () => unknown;
      }
    ).createConversionCache()
  : undefined;
// With --cached: a first pass fills the cache (hits across targets of the same transcript), a
// second runs on it warm; each pass must print the cold hash.
for (let pass = 0; pass < (cached ? 2 : 1); pass++) {
  const hash = createHash('sha256');
  let n = 0;
  for (const t of corpus)
    for (const target of TARGETS) {
      const r = (convertTranscript as (...a: unknown[]) => ReturnType<typeof convertTranscript>)(
        t,
        { ...target, maxOutputTokens: 8192 },
        cache ? { cache } : undefined,
      );
      hash.update(JSON.stringify([r.api, r.model, r.headers ?? null, r.body, r.report]));
      n++;
    }
  console.log(`${hash.digest('hex')} ${n}`);
}
