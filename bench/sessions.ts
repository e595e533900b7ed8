/**
 * The real agent sessions the conversion benchmark runs beside the generated transcripts
 * (bench/README.md, "Inputs"): the pi session (`loadPiSession`), the largest Claude Code session
 * and the Codex rollout of `../shared/fixtures/agent-transcripts/`, each imported with the
 * project's importer (`importFile`). A session that is absent or does not import becomes a note.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Transcript } from '../lib/transcript/schema';
import { loadPiSession, SHARED_FIXTURES } from './pi-session';

/** One loaded session (`name` is the table label's stem), or why it is not there. */
export type AgentSession =
  { ok: true; name: string; transcript: Transcript; note?: string } | { ok: false; name: string; note: string };

/** The imported sessions besides pi: kind and file under `agent-transcripts/`. */
const OTHER_SESSIONS = [
  { name: 'Claude Code session', kind: 'claude-code', file: 'claude-code-session-thinking.jsonl' },
  { name: 'Codex session', kind: 'codex', file: 'codex-rollout-synthetic.jsonl' },
] as const;

type ImportFile = (kind: string, bytes: Uint8Array) => { conversations: Transcript[] };

/** Loads the pi, Claude Code and Codex sessions, in that order (never throws). */
export async function loadAgentSessions(): Promise<AgentSession[]> {
  const out: AgentSession[] = [];
  const pi = await loadPiSession();
  out.push(
    pi.ok
      ? { ok: true, name: 'pi session', transcript: pi.transcript, ...(pi.note ? { note: pi.note } : {}) }
      : { ok: false, name: 'pi session', note: pi.note },
  );
  for (const s of OTHER_SESSIONS) {
    const file = path.join(SHARED_FIXTURES, 'agent-transcripts', s.file);
    if (!fs.existsSync(file)) {
      out.push({ ok: false, name: s.name, note: `skipped: ${s.file} not found (../shared/fixtures absent)` });
      continue;
    }
    try {
      const mod = (await import(new URL('../lib/importers/index.ts', import.meta.url).href)) as {
        importFile: ImportFile;
      };
      const [transcript] = mod.importFile(s.kind, new Uint8Array(fs.readFileSync(file))).conversations;
      if (!transcript) throw new Error(`importFile("${s.kind}") returned no conversation`);
      out.push({ ok: true, name: s.name, transcript });
    } catch (e) {
      out.push({ ok: false, name: s.name, note: `skipped: ${s.file} did not import (${(e as Error).message})` });
    }
  }
  return out;
}
