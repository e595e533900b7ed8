/**
 * docs/security.md defect 9: the report says what happened to every signature. For every target API, a
 * same-origin history whose text, thinking and tool-call blocks each carry a distinct signature
 * (the origin's own, or one with no place in the target, e.g. a Gemini-style signature on a block
 * of an Anthropic-origin turn): a block reported "kept: sent as is" must have its signature in
 * the request body; a signature missing from the body must be named in the block's report.
 */
import { describe, expect, it } from 'vitest';
import type { Transcript, WireApi } from '../transcript/schema';
import { WIRE_APIS } from '../transcript/schema';
import { convertTranscript } from './index';

const MODEL: Record<WireApi, string> = {
  'anthropic-messages': 'claude-sonnet-4-5',
  'openai-chat': 'gpt-4o',
  'openai-responses': 'gpt-5',
  'gemini-generate-content': 'gemini-2.5-flash',
  'gemini-interactions': 'gemini-2.5-flash',
};
const PROVIDER: Record<WireApi, string> = {
  'anthropic-messages': 'anthropic',
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  'gemini-generate-content': 'google',
  'gemini-interactions': 'google',
};

function history(api: WireApi): Transcript {
  const origin = { provider: PROVIDER[api], api, model: MODEL[api] };
  return {
    format: 'baton.transcript',
    version: 1,
    id: 't',
    turns: [
      { id: 'u1', role: 'user', blocks: [{ type: 'text', text: 'Question?' }] },
      {
        id: 'a1',
        role: 'assistant',
        origin,
        status: 'complete',
        blocks: [
          { type: 'thinking', text: 'Let me think.', signature: 'SIG-THINKING-0001' },
          { type: 'text', text: 'Calling a tool.', signature: 'SIG-TEXT-0002' },
          { type: 'tool_call', id: 'call_1', name: 'lookup', input: { q: 1 }, signature: 'SIG-CALL-0003' },
        ],
      },
      { id: 't1', role: 'tool', blocks: [{ type: 'tool_result', callId: 'call_1', content: 'found' }] },
      {
        id: 'a2',
        role: 'assistant',
        origin,
        status: 'complete',
        blocks: [{ type: 'text', text: 'Done.', signature: 'SIG-TEXT-0004' }],
      },
      { id: 'u2', role: 'user', blocks: [{ type: 'text', text: 'Thanks.' }] },
    ],
  };
}

describe('docs/security.md defect 9: a signature with no place in the target is dropped while the report says "kept: sent as is"', () => {
  for (const api of WIRE_APIS) {
    for (const thinking of [true, false]) {
      it(`${api} (thinking ${thinking ? 'on' : 'off'}): every signature is in the body or named in its block's report`, () => {
        const t = history(api);
        const { body, report } = convertTranscript(t, { api, model: MODEL[api], thinking });
        const sent = JSON.stringify(body);
        for (const turn of t.turns)
          turn.blocks.forEach((b, index) => {
            if (!('signature' in b) || b.signature === undefined) return;
            const fates = report.blocks.find((r) => r.turn === turn.id && r.index === index)!.fates;
            if (sent.includes(b.signature)) return;
            // Not in the body: the report must not claim it went as is, and must say what became of the signature.
            expect(fates, `${turn.id}[${index}] ${b.type}`).not.toContainEqual({ fate: 'kept', detail: 'sent as is' });
            const dropped = fates.some((f) => f.fate === 'dropped');
            expect(
              dropped || fates.some((f) => /signature/i.test(f.detail)),
              `${turn.id}[${index}] ${b.type}: ${JSON.stringify(fates)}`,
            ).toBe(true);
          });
      });
    }
  }
});
