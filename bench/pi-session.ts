/**
 * The largest real transcript of the shared fixtures, `agent-transcripts/pi-coding-agent-session.jsonl`
 * (bench/README.md: "the pi session, imported"), read with the project's importer `importFile('pi', bytes)`
 * from `lib/importers/`. When that module cannot be loaded, a minimal bench-local reader stands in
 * and the result says so. Skipped with a visible note when `../shared/fixtures` is absent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeTranscript } from '../lib/transcript/codec';
import type { Block, OriginApi, Transcript, Turn } from '../lib/transcript/schema';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SHARED_FIXTURES = path.resolve(ROOT, '../shared/fixtures');
export const PI_SESSION = path.join(SHARED_FIXTURES, 'agent-transcripts/pi-coding-agent-session.jsonl');

/** The loaded session, or why it is not there. */
export type PiSession =
  | { ok: true; transcript: Transcript; reader: 'lib/importers importFile' | 'bench-local reader'; note?: string }
  | { ok: false; note: string };

type ImportFile = (kind: 'pi', bytes: Uint8Array) => { conversations: Transcript[] };

/** Loads and imports the pi session (never throws: a failure becomes a note). */
export async function loadPiSession(): Promise<PiSession> {
  if (!fs.existsSync(PI_SESSION))
    return { ok: false, note: `skipped: ${path.relative(ROOT, PI_SESSION)} not found (../shared/fixtures absent)` };
  const bytes = fs.readFileSync(PI_SESSION);
  let importerNote: string;
  try {
    // Loaded by URL so the benchmark still typechecks and runs while lib/importers is being written.
    const mod = (await import(new URL('../lib/importers/index.ts', import.meta.url).href)) as {
      importFile?: ImportFile;
    };
    if (typeof mod.importFile !== 'function') throw new Error('lib/importers/index.ts exports no importFile');
    const [transcript] = mod.importFile('pi', new Uint8Array(bytes)).conversations;
    if (!transcript) throw new Error('importFile("pi") returned no conversation');
    return { ok: true, transcript, reader: 'lib/importers importFile' };
  } catch (e) {
    importerNote = `lib/importers importFile unavailable (${(e as Error).message}); used the bench-local reader`;
  }
  return {
    ok: true,
    transcript: readPiLocally(bytes.toString('utf8')),
    reader: 'bench-local reader',
    note: importerNote,
  };
}

const PI_API: Record<string, OriginApi> = {
  'anthropic-messages': 'anthropic-messages',
  'openai-responses': 'openai-responses',
  'openai-completions': 'openai-chat',
  'google-generative-ai': 'gemini-generate-content',
};

type PiBlock = {
  type: string;
  text?: string;
  thinking?: string;
  thinkingSignature?: string;
  id?: string;
  name?: string;
  arguments?: unknown;
  data?: string;
  mimeType?: string;
};
type PiMessage = {
  role: string;
  content: string | PiBlock[];
  api?: string;
  provider?: string;
  model?: string;
  stopReason?: string;
  toolCallId?: string;
  isError?: boolean;
};

function piBlocks(content: PiMessage['content'], role: string): Block[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  const out: Block[] = [];
  for (const b of content) {
    if (b.type === 'text' && b.text) out.push({ type: 'text', text: b.text });
    else if (b.type === 'image' && b.data)
      out.push({ type: 'image', mediaType: b.mimeType ?? 'image/png', data: b.data });
    else if (role === 'assistant' && b.type === 'thinking' && b.thinking)
      out.push({
        type: 'thinking',
        text: b.thinking,
        ...(b.thinkingSignature ? { signature: b.thinkingSignature } : {}),
      });
    else if (role === 'assistant' && b.type === 'toolCall' && b.id && b.name)
      out.push({ type: 'tool_call', id: b.id.split('|')[0]!, name: b.name, input: b.arguments ?? {} });
  }
  return out;
}

/**
 * Minimal reader for the fallback: user, assistant and toolResult messages only (consecutive
 * results form one tool turn); settings entries are skipped. @throws TranscriptError when the
 * result is not a valid transcript.
 */
export function readPiLocally(text: string): Transcript {
  const turns: Turn[] = [];
  let n = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { type?: string; message?: PiMessage };
    const m = entry.message;
    if (entry.type !== 'message' || !m) continue;
    const id = `pi-${++n}`;
    if (m.role === 'user') turns.push({ id, role: 'user', blocks: piBlocks(m.content, 'user') });
    else if (m.role === 'assistant') {
      const api = PI_API[m.api ?? ''] ?? 'web';
      const status = m.stopReason === 'aborted' ? 'stopped' : m.stopReason === 'error' ? 'error' : 'complete';
      turns.push({
        id,
        role: 'assistant',
        origin: { provider: m.provider ?? 'unknown', api, model: m.model ?? 'unknown' },
        status,
        blocks: piBlocks(m.content, 'assistant'),
      });
    } else if (m.role === 'toolResult' && m.toolCallId) {
      const content = piBlocks(m.content, 'tool').filter(
        (b): b is Extract<Block, { type: 'text' | 'image' }> => b.type === 'text' || b.type === 'image',
      );
      const block: Block = {
        type: 'tool_result',
        callId: m.toolCallId.split('|')[0]!,
        content,
        ...(m.isError ? { isError: true } : {}),
      };
      const last = turns.at(-1);
      if (last?.role === 'tool') last.blocks.push(block);
      else turns.push({ id, role: 'tool', blocks: [block] });
    }
  }
  return decodeTranscript({ format: 'baton.transcript', version: 1, id: 'pi-session', source: { kind: 'pi' }, turns });
}
