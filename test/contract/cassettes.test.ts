import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { validateRequest, type ContractApi } from './index';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SHARED = path.resolve(ROOT, '../shared/fixtures');
const STREAMS = path.join(SHARED, 'recorded-streams');
const has = fs.existsSync(STREAMS);
if (!has) console.warn('skipping: ../shared/fixtures not found');

const API_OF_DIR: Record<string, ContractApi> = {
  anthropic: 'anthropic-messages',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  gemini: 'gemini-generate-content',
};

interface Recorded {
  file: string;
  api: ContractApi;
  uri: string;
  body: Record<string, unknown>;
  /** The recorded `anthropic-version` header, for Anthropic requests. */
  anthropicVersion?: string;
}

/** Every request of every `llm-cassette-*` file, with its parsed JSON body. */
function loadRequests(): Recorded[] {
  const out: Recorded[] = [];
  for (const dir of Object.keys(API_OF_DIR)) {
    const abs = path.join(STREAMS, dir);
    if (!fs.existsSync(abs)) continue;
    for (const name of fs
      .readdirSync(abs)
      .filter((n) => /^llm-cassette-.*\.(ya?ml|json)$/.test(n))
      .sort()) {
      const text = fs.readFileSync(path.join(abs, name), 'utf8');
      const doc = (name.endsWith('.json') ? JSON.parse(text) : YAML.parse(text)) as {
        interactions: { request: { uri: string; body: unknown; headers?: Record<string, string[] | string> } }[];
      };
      doc.interactions.forEach((inter, n) => {
        const raw = inter.request.body;
        const str = typeof raw === 'string' ? raw : (raw as { string: string }).string;
        const version = inter.request.headers?.['anthropic-version'];
        out.push({
          file: `${dir}/${name}#${n}`,
          api: API_OF_DIR[dir]!,
          uri: inter.request.uri,
          body: JSON.parse(str) as Record<string, unknown>,
          ...(version !== undefined ? { anthropicVersion: Array.isArray(version) ? version[0] : version } : {}),
        });
      });
    }
  }
  return out;
}

describe.skipIf(!has)('recorded real requests (../shared/fixtures/recorded-streams/**/llm-cassette-*)', () => {
  const requests = has ? loadRequests() : [];

  it('finds the cassettes of all four APIs', () => {
    expect(new Set(requests.map((r) => r.api))).toEqual(new Set(Object.values(API_OF_DIR)));
    expect(requests.length).toBeGreaterThanOrEqual(20);
  });

  it.each(requests.map((r) => [r.file, r] as const))('%s passes its validator', (_name, r) => {
    const model = /\/models\/([^:/]+):/.exec(r.uri)?.[1];
    // Some cassettes were recorded without streaming (`stream: false`); the rest must stream.
    const violations = validateRequest(r.api, r.body, {
      stream: r.body.stream !== false,
      model,
      vertex: r.uri.includes('aiplatform.googleapis.com'),
      provider: 'openai',
      // A-V1 depends on the API version the request was recorded with.
      ...(r.anthropicVersion !== undefined ? { anthropicVersion: r.anthropicVersion } : {}),
    });
    expect(violations).toEqual([]);
  });
});
