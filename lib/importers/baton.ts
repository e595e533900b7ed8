/**
 * `baton`: Baton transcripts (transcript-v1.md) — one transcript, a JSON array of them, or JSONL
 * with one per line. Each is decoded on its own; a broken one is skipped with the decoder's
 * message, which names the JSON path.
 */
import { decodeTranscript } from '../transcript/codec';
import { Collector, isRecord, str } from './common';
import { droppedKeysWarning, parseJsonOrLines } from './safe-json';
import type { ImportOptions, ImportResult } from './types';

/**
 * Imports Baton transcripts. Ids are kept (so a Baton export imported again lands on the same
 * conversation); `source` is kept when present, else set to `{kind: "baton", id}`. Like every
 * import, a `system` prompt becomes a labelled user preamble (N5, I4).
 * @throws TranscriptError when the text is neither JSON nor JSONL.
 */
export function importBaton(text: string, opts: ImportOptions = {}): ImportResult {
  const parsed = parseJsonOrLines(text);
  const docs: { label: string; value?: unknown; error?: string }[] = [];
  let dropped = 0;
  if (parsed.kind === 'json') {
    dropped = parsed.doc.droppedKeys;
    const v = parsed.doc.value;
    if (Array.isArray(v)) v.forEach((value, i) => docs.push({ label: `[${i}]`, value }));
    else docs.push({ label: '', value: v });
  } else {
    for (const l of parsed.lines) {
      if ('error' in l) docs.push({ label: `line ${l.line}`, error: l.error });
      else {
        dropped += l.droppedKeys;
        docs.push({ label: `line ${l.line}`, value: l.value });
      }
    }
  }
  const collector = new Collector('baton', opts, droppedKeysWarning(dropped));
  for (const d of docs) {
    const v = d.value;
    const info = isRecord(v) ? { ...(str(v.id) ? { sourceId: str(v.id)! } : {}), ...(str(v.title) ? { title: str(v.title)! } : {}) } : {};
    if (d.error !== undefined) {
      collector.skip(info, `${d.label}: ${d.error}`);
      continue;
    }
    collector.add(info, () => {
      try {
        const t = decodeTranscript(v);
        return t.source ? t : { ...t, source: { kind: 'baton', id: t.id } };
      } catch (e) {
        throw d.label ? new Error(`${d.label}: ${(e as Error).message}`) : e;
      }
    });
  }
  return collector.result();
}
