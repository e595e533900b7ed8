/**
 * Shared by the four native-history kinds (`anthropic-messages`, `openai-chat`,
 * `openai-responses`, `gemini-generate-content`): one request body per file, a JSON array of
 * bodies, or JSONL with one body per line, each read by the API's own history reader.
 */
import type { HistoryReadOptions } from '../providers/types';
import type { Transcript, WireApi } from '../transcript/schema';
import { Collector, contentHash, firstUserText, isRecord, stableId, titleFrom } from './common';
import { droppedKeysWarning, parseJsonOrLines } from './safe-json';
import type { ImportOptions, ImportResult } from './types';

/** A history reader: `read<Api>History` of `lib/providers/<api>/read-<api>.ts`. */
export type HistoryReader = (body: unknown, opts?: HistoryReadOptions) => Transcript;

/**
 * Imports native request bodies of `api` with `read`. Each body's source id is a hash of its JSON
 * (`h<16 chars>`), so the same body always gets the same id `<api>:h…`; the title is the first user
 * text. A body without `model` gets `unknown` as the model of its assistant turns (with a
 * warning). A body the reader rejects is skipped with the reader's message (naming the JSON path).
 * @throws TranscriptError when the text is neither JSON nor JSONL.
 */
export function importNativeHistories(
  api: WireApi,
  read: HistoryReader,
  text: string,
  opts: ImportOptions = {},
): ImportResult {
  const parsed = parseJsonOrLines(text);
  const bodies: { label: string; value?: unknown; error?: string }[] = [];
  let dropped = 0;
  if (parsed.kind === 'json') {
    dropped = parsed.doc.droppedKeys;
    const v = parsed.doc.value;
    if (Array.isArray(v)) v.forEach((value, i) => bodies.push({ label: `[${i}]`, value }));
    else bodies.push({ label: '', value: v });
  } else {
    for (const l of parsed.lines) {
      if ('error' in l) bodies.push({ label: `line ${l.line}`, error: l.error });
      else {
        dropped += l.droppedKeys;
        bodies.push({ label: `line ${l.line}`, value: l.value });
      }
    }
  }
  const collector = new Collector(api, opts, droppedKeysWarning(dropped));
  for (const b of bodies) {
    if (b.error !== undefined) {
      collector.skip({}, `${b.label}: ${b.error}`);
      continue;
    }
    const sourceId = `h${contentHash(JSON.stringify(b.value) ?? '')}`;
    collector.add({ sourceId }, () => {
      const warnings: string[] = [];
      const readOpts: HistoryReadOptions = { id: stableId(api, sourceId) };
      if (isRecord(b.value) && (typeof b.value.model !== 'string' || !b.value.model)) {
        readOpts.model = 'unknown';
        warnings.push('the body names no model: assistant turns have model "unknown"');
      }
      let t: Transcript;
      try {
        t = read(b.value, readOpts);
      } catch (e) {
        throw b.label ? new Error(`${b.label}: ${(e as Error).message}`) : e;
      }
      const title = titleFrom(firstUserText(t.turns));
      const meta = { ...(t.meta ?? {}) };
      if (warnings.length) meta.importWarnings = warnings;
      const out: Transcript = { ...t, source: { kind: api, id: sourceId } };
      if (title) out.title = title;
      if (Object.keys(meta).length) out.meta = meta;
      return out;
    });
  }
  return collector.result();
}
