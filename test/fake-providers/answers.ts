/**
 * Scripted answers rendered as each wire API's stream events and non-stream JSON.
 */
import type { ContractApi } from '../contract';
import type { Answer, AnswerContext, RenderedAnswer } from './answer-model';
import { anthropicAnswer } from './answers-anthropic';
import { chatAnswer } from './answers-chat';
import { geminiAnswer } from './answers-gemini';
import { interactionsAnswer } from './answers-interactions';
import { responsesAnswer } from './answers-responses';

/** The tool-call id style of each API (Anthropic `toolu_`, OpenAI `call_`, Gemini `call_`). */
export const ID_PREFIX: Record<ContractApi, string> = {
  'anthropic-messages': 'toolu_',
  'openai-chat': 'call_',
  'openai-responses': 'call_',
  'gemini-generate-content': 'call_',
  'gemini-interactions': 'fc',
};

/** Renders an answer for one wire API. */
export function renderAnswer(api: ContractApi, answer: Answer, ctx: AnswerContext): RenderedAnswer {
  switch (api) {
    case 'anthropic-messages':
      return anthropicAnswer(answer, ctx);
    case 'openai-chat':
      return chatAnswer(answer, ctx);
    case 'openai-responses':
      return responsesAnswer(answer, ctx);
    case 'gemini-generate-content':
      return geminiAnswer(answer, ctx);
    case 'gemini-interactions':
      // A stored interaction gets a `v1_` id; the server sets `interactionId` in the context (GI-P2).
      return interactionsAnswer(answer, ctx);
  }
}
