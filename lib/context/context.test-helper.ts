/** Small transcript builders for the context planner's tests. */
import { decodeTranscript } from '../transcript/codec';
import type { Block, Origin, Transcript, Turn } from '../transcript/schema';

export const CLAUDE: Origin = { provider: 'anthropic', api: 'anthropic-messages', model: 'claude-sonnet-4-5' };
export const GPT: Origin = { provider: 'openai', api: 'openai-chat', model: 'gpt-4o' };
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export function user(id: string, text: string, meta?: Record<string, unknown>): Turn {
  return { id, role: 'user', blocks: [{ type: 'text', text }], ...(meta ? { meta } : {}) };
}

export function assistant(id: string, text: string, origin: Origin = GPT, meta?: Record<string, unknown>): Turn {
  return { id, role: 'assistant', origin, blocks: [{ type: 'text', text }], ...(meta ? { meta } : {}) };
}

export function turn(id: string, role: Turn['role'], blocks: Block[], extra: Partial<Turn> = {}): Turn {
  return { id, role, blocks, ...(role === 'assistant' && !extra.origin ? { origin: GPT } : {}), ...extra };
}

/** A valid transcript (checked by the decoder). */
export function transcript(turns: Turn[], extra: Partial<Transcript> = {}): Transcript {
  return decodeTranscript({ format: 'baton.transcript', version: 1, id: 'conv', ...extra, turns });
}

/** `n` user/assistant exchanges `u0,a0,u1,a1,…`, each text `words` long. */
export function exchanges(n: number, text = 'hello there, how are you today?'): Turn[] {
  const out: Turn[] = [];
  for (let i = 0; i < n; i++) out.push(user(`u${i}`, `${text} #${i}`), assistant(`a${i}`, `${text} reply #${i}`));
  return out;
}
