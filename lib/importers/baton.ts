/**
 * `baton`: Baton transcripts (transcript-v1.md) — one transcript, a JSON array of them, or JSONL
 * with one per line. Each is decoded on its own; a broken one is skipped with the decoder's
 * message, which names the JSON path.
 */
import { decodeTranscript, decodeTurn } from '../transcript/codec';
import { VERSIONS_META } from '../transcript/versions';
import { holdsOpaqueState, IMPORTED_STATE_META } from '../transcript/imported-state';
import type { Transcript, Turn } from '../transcript/schema';
import { Collector, isRecord, str } from './common';
import { droppedKeysWarning, parseJsonOrLines } from './safe-json';
import { IMPORT_KINDS, type ImportOptions, type ImportResult } from './types';

/**
 * Imports Baton transcripts. Ids are kept (so a Baton export imported again lands on the same
 * conversation); `source` is kept when present, else set to `{kind: "baton", id}`. Like every
 * import, a `system` prompt becomes a labelled user preamble (N5, I4). A file cannot borrow
 * trust (docs/security.md): see {@link withoutBorrowedTrust}.
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
    const info = isRecord(v)
      ? { ...(str(v.id) ? { sourceId: str(v.id)! } : {}), ...(str(v.title) ? { title: str(v.title)! } : {}) }
      : {};
    if (d.error !== undefined) {
      collector.skip(info, `${d.label}: ${d.error}`);
      continue;
    }
    collector.add(info, () => {
      try {
        return withoutBorrowedTrust(decodeTranscript(v));
      } catch (e) {
        throw d.label ? new Error(`${d.label}: ${(e as Error).message}`) : e;
      }
    });
  }
  return collector.result();
}

/** `transcript.meta` key: the `source` names another kind than `baton` and is only the file's claim (docs/security.md). */
export const CLAIMED_SOURCE_META = 'sourceClaimedByFile';

/**
 * docs/security.md, defect 7: what a Baton file says about itself is a claim.
 * - A `source` of another kind (`{kind: "chatgpt-export", id}`) is kept but marked
 *   `meta[CLAIMED_SOURCE_META]`, so the store deduplicates against it only when the content
 *   matches too; an id in another importer's namespace (`chatgpt-export:…`) gets a `baton:`
 *   prefix, so the file cannot take the id the genuine import will use.
 * - Every turn holding opaque provider state (signatures, encrypted reasoning, provider items,
 *   citations, a native payload) is marked `meta[IMPORTED_STATE_META]`: it is replayed only after
 *   the person confirms it (lib/transcript/imported-state.ts); a file's own value of the mark is
 *   overwritten, never trusted.
 */
export function withoutBorrowedTrust(t: Transcript): Transcript {
  const kind = t.source?.kind ?? 'baton';
  const claimed = kind !== 'baton';
  const reserved = IMPORT_KINDS.some((k) => k !== 'baton' && t.id.startsWith(`${k}:`));
  const mark = (turn: Turn): Turn => {
    const { [IMPORTED_STATE_META]: _own, ...meta } = turn.meta ?? {};
    if (turn.role === 'user' || !holdsOpaqueState(turn))
      return turn.meta && _own !== undefined ? { ...turn, meta } : turn;
    return { ...turn, meta: { ...meta, [IMPORTED_STATE_META]: true } };
  };
  const turns = t.turns.map(mark);
  const { [CLAIMED_SOURCE_META]: _claim, ...ownMeta } = t.meta ?? {};
  // The other versions (docs/transcript.md#versions-and-branches) are marked the same way; a
  // malformed entry is left for the store's check, which refuses the conversation naming it.
  const versions = ownMeta[VERSIONS_META] as { turns?: unknown } | undefined;
  if (versions && typeof versions === 'object' && Array.isArray(versions.turns))
    ownMeta[VERSIONS_META] = {
      ...versions,
      turns: versions.turns.map((x: unknown) => {
        try {
          return mark(decodeTurn(x));
        } catch {
          return x;
        }
      }),
    };
  const out: Transcript = {
    ...t,
    id: reserved ? `baton:${t.id}` : t.id,
    source: t.source ?? { kind: 'baton', id: t.id },
    turns,
  };
  if (claimed) out.meta = { ...ownMeta, [CLAIMED_SOURCE_META]: true };
  else if (t.meta) {
    if (Object.keys(ownMeta).length) out.meta = ownMeta;
    else delete out.meta;
  }
  return out;
}
