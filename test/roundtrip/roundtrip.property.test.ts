/**
 * Round trip and cross trip (issue "Readers"): a native history read into a transcript and
 * converted back to the same API and origin equals the original; converted to any other API it
 * passes that API's contract validator.
 *
 * Generated histories are the converters' own outputs for generated transcripts, so they cover
 * every shape the converters produce (tool loops, parallel calls, images, thinking…).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertTranscript, WIRE_API_MODULES } from '../../lib/providers';
import type { WireApi } from '../../lib/transcript/schema';
import type { ConvertTarget } from '../../lib/transcript/target';
import { validateRequest } from '../contract';
import { transcriptArb } from '../property/arbitraries';

/** One origin per API: the target the history is produced for and read back from. */
const SAME: Record<WireApi, ConvertTarget> = {
  'anthropic-messages': { api: 'anthropic-messages', model: 'claude-sonnet-4-5', maxOutputTokens: 1000 },
  'openai-chat': { api: 'openai-chat', model: 'gpt-4o', maxOutputTokens: 1000 },
  'openai-responses': { api: 'openai-responses', model: 'gpt-5.5', maxOutputTokens: 1000 },
  'gemini-generate-content': { api: 'gemini-generate-content', model: 'gemini-2.5-flash', maxOutputTokens: 1000 },
  'gemini-interactions': { api: 'gemini-interactions', model: 'gemini-2.5-flash', maxOutputTokens: 1000 },
};
const APIS = Object.keys(SAME) as WireApi[];

/** The part of a body that is history (the rest — limits, stream flags — is request configuration). */
function historyOf(api: WireApi, body: Record<string, unknown>): unknown {
  switch (api) {
    case 'anthropic-messages':
      return { system: body.system, messages: body.messages, tools: body.tools };
    case 'openai-chat':
      return { messages: body.messages, tools: body.tools };
    case 'openai-responses':
      return { instructions: body.instructions, input: body.input, tools: body.tools };
    case 'gemini-generate-content':
      return { systemInstruction: body.systemInstruction, contents: body.contents, tools: body.tools };
    case 'gemini-interactions':
      return { system_instruction: body.system_instruction, input: body.input, tools: body.tools };
  }
}

describe.each(APIS)('round trip through %s', (api) => {
  const target = SAME[api];
  it('read(convert(t)) converts back to the same history', () => {
    fc.assert(
      fc.property(transcriptArb, (transcript) => {
        const first = convertTranscript(transcript, target).body;
        const read = WIRE_API_MODULES[api].readHistory(first, { model: target.model, provider: undefined });
        const second = convertTranscript(read, target).body;
        expect(historyOf(api, second)).toEqual(historyOf(api, first));
      }),
      { numRuns: 100 },
    );
  });

  it.each(APIS.filter((other) => other !== api))('cross trip: history read from it converts validly to %s', (other) => {
    fc.assert(
      fc.property(transcriptArb, (transcript) => {
        const native = convertTranscript(transcript, target).body;
        const read = WIRE_API_MODULES[api].readHistory(native, { model: target.model });
        const { body } = convertTranscript(read, SAME[other]);
        expect(validateRequest(other, body, { model: SAME[other].model })).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
