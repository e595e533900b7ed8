/**
 * The one retry without opaque state (docs/architecture.md): when a provider rejects reasoning state it
 * produced itself (an invalid signature, A-K5, G-K5, R-K2), the history is sent once without it.
 */
import type { Block, Transcript, Turn } from '../transcript/schema';

/** The history without any opaque state (signatures, redacted thinking, native payloads) — for the one retry. */
export function withoutOwnOpaqueState(t: Transcript): Transcript {
  return {
    ...t,
    turns: t.turns.map((turn) => {
      if (turn.role !== 'assistant') return turn;
      const { native: _n, ...rest } = turn;
      return {
        ...rest,
        blocks: turn.blocks
          .filter((b) => b.type !== 'redacted_thinking' && !(b.type === 'thinking'))
          .map(
            (b) => ('signature' in b && b.signature !== undefined ? (({ signature: _s, ...x }) => x)(b) : b) as Block,
          ),
      };
    }),
  };
}

/** Notes on the answer that earlier reasoning state was left out. */
export function noteStripped(turn: Turn): Turn {
  return {
    ...turn,
    meta: {
      ...turn.meta,
      opaqueStateStripped: 'the provider rejected earlier reasoning state; it was sent without it',
    },
  };
}
