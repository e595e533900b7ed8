/**
 * Protocol handlers of the disclosure preview, ledger and policies (docs/disclosure.md); `createHandlers`
 * spreads them in. Payloads arrive parsed and sender-checked by the router.
 */
import { validatePolicy } from '../../context/policy';
import type { DisclosurePolicy, DisclosurePreview } from '../../messaging/disclosure-types';
import { toEntry, type DisclosureStore } from '../../store/disclosures';
import type { ConversationStore } from '../../store/conversations';
import { TranscriptError } from '../../transcript/codec';
import { previewInputOf, type Discloser, type PreviewSendInput } from './engine';
import { whoHasSeen } from './ledger';
import { BatonError } from '../../messaging/errors';
import type { Handlers } from '../core/router';
import { existingConversation } from '../core/guards';

/**
 * What the disclosure handlers use of the send engine (`SendEngine`): its Discloser and its
 * preview. Named here, so the disclosure feature does not import the send feature that uses it.
 */
export interface DisclosingEngine {
  readonly discloser: Discloser;
  preview(input: PreviewSendInput): Promise<DisclosurePreview>;
}

export interface DisclosureHandlerDeps {
  store: ConversationStore;
  engine: DisclosingEngine;
}

type DisclosureHandlers = Pick<
  Handlers,
  'previewSend' | 'listDisclosures' | 'getDisclosurePolicy' | 'setDisclosurePolicy'
>;

/** `previewSend`, `listDisclosures`, `getDisclosurePolicy`, `setDisclosurePolicy`. */
export function disclosureHandlers(d: DisclosureHandlerDeps): DisclosureHandlers {
  // Looked up per call: the engine owns the store (and tests may pass a stub engine).
  const ledger = (): DisclosureStore => d.engine.discloser.store;
  const exists = async (id: string) => {
    await existingConversation(d.store, id);
  };
  return {
    previewSend: (p) => d.engine.preview(previewInputOf(p)),
    listDisclosures: async ({ conversationId }) => {
      await exists(conversationId);
      const records = await ledger().list(conversationId);
      return { entries: records.map(toEntry), ...whoHasSeen(records) };
    },
    getDisclosurePolicy: async ({ conversationId }) => {
      const global = await ledger().getGlobalPolicy();
      if (!conversationId) return { global };
      await exists(conversationId);
      return { global, conversation: (await ledger().getConversationState(conversationId)).policy };
    },
    setDisclosurePolicy: async ({ conversationId, policy }) => {
      const clean = stripUndefined(policy);
      try {
        validatePolicy(clean);
      } catch (e) {
        if (e instanceof TranscriptError)
          throw new BatonError('bad_request', `Invalid disclosure policy: ${e.message}`);
        throw e;
      }
      if (conversationId) {
        await exists(conversationId);
        await ledger().setConversationPolicy(conversationId, clean);
      } else await ledger().setGlobalPolicy(clean);
      return null;
    },
  };
}

function stripUndefined(p: DisclosurePolicy): DisclosurePolicy {
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as DisclosurePolicy;
}
