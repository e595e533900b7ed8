/**
 * The send requests: send a message, retry, regenerate, edit and resend, stop. `createHandlers`
 * spreads them in; payloads arrive parsed and sender-checked by the router.
 */
import type { SendTarget } from '../../messaging/protocol';
import { BatonError } from '../../messaging/errors';
import { confirmationOf, planResend, turnAttachments } from '../disclosure';
import type { BackgroundDeps } from '../core/deps';
import { assertReachable, existingConversation, refuseBusy } from '../core/guards';
import { keyFor, resolveProvider } from '../core/providers';
import type { Handlers } from '../core/router';
import type { SendEngine } from './engine';

type SendHandlers = Pick<
  Handlers,
  | 'sendMessage'
  | 'retryTurn'
  | 'stopGeneration'
  | 'resumeStream'
  | 'regenerateTurn'
  | 'editAndResend'
  | 'sendCompare'
  | 'getCompare'
  | 'endCompare'
>;

export type SendHandlerDeps = Pick<BackgroundDeps, 'store' | 'settings' | 'vault' | 'hasHostPermission'> & {
  engine: SendEngine;
};

/** `sendMessage`, `sendCompare`, `getCompare`, `endCompare`, `retryTurn`, `stopGeneration`, `resumeStream`, `regenerateTurn`, `editAndResend`. */
export function sendHandlers(d: SendHandlerDeps): SendHandlers {
  /**
   * The checks a send makes before it starts (the engine's own `connect`), run before turns are
   * removed, so a regenerate or edit that cannot be sent removes nothing.
   * @throws BatonError `busy`, `endpoint_not_permitted`, `no_key`
   */
  const checkSendable = async (conversationId: string, target: SendTarget): Promise<void> => {
    refuseBusy(d.engine.isBusy(conversationId));
    const p = resolveProvider(target.providerId, await d.settings.get(), target);
    await assertReachable(p, (o) => d.hasHostPermission(o));
    await keyFor(p, d.vault);
  };
  const turnsOf = async (conversationId: string) => {
    await existingConversation(d.store, conversationId);
    return (await d.store.get(conversationId)).turns;
  };

  return {
    // docs/disclosure.md: a first disclosure to a provider needs `confirmedDisclosure: true` (with `confirmedFor`: for that provider only); exclusions leave turns or blocks out.
    sendMessage: (p) =>
      d.engine.send({
        conversationId: p.conversationId,
        text: p.text,
        target: p.target,
        ...(p.attachments ? { attachments: p.attachments } : {}),
        confirmed: confirmationOf(p),
        exclusions: {
          excludeTurns: p.excludeTurns,
          excludeBlocks: p.excludeBlocks,
          ...(p.replayImportedState ? { replayImportedState: true } : {}),
        },
      }),
    // docs/side-panel.md#ask-several-models-at-once: each target with its own confirmation; the exclusions apply to every target.
    sendCompare: (p) =>
      d.engine.sendCompare({
        conversationId: p.conversationId,
        text: p.text,
        ...(p.attachments ? { attachments: p.attachments } : {}),
        targets: p.targets.map((t) => ({ target: t.target, confirmed: confirmationOf(t) })),
        exclusions: {
          excludeTurns: p.excludeTurns,
          excludeBlocks: p.excludeBlocks,
          ...(p.replayImportedState ? { replayImportedState: true } : {}),
        },
      }),
    // docs/side-panel.md#ask-several-models-at-once: the answers shown side by side until one is picked.
    getCompare: async ({ conversationId }) => (await d.store.compareGroup(conversationId)) ?? null,
    endCompare: async ({ conversationId }) => {
      await d.store.endCompare(conversationId);
      return null;
    },
    retryTurn: async (p) => {
      await d.engine.retry({ conversationId: p.conversationId, target: p.target, confirmed: confirmationOf(p) });
      return null;
    },
    stopGeneration: async ({ conversationId }) => {
      d.engine.stop(conversationId);
      return null;
    },
    resumeStream: async ({ conversationId }) => d.engine.live(conversationId) ?? null,
    // docs/disclosure.md: like sendMessage, a first disclosure needs `confirmedDisclosure: true`; the engine
    // removes the replaced turns only once the send is accepted.
    regenerateTurn: async (p) => {
      const { conversationId, target } = p;
      const turns = await turnsOf(conversationId);
      planResend(turns, { kind: 'regenerate' });
      await checkSendable(conversationId, target);
      // The engine removes the last answer and answers the last user turn without adding one.
      await d.engine.retry({ conversationId, target, kind: 'regenerate', confirmed: confirmationOf(p) });
      return null;
    },
    editAndResend: async (p) => {
      const { conversationId, turnId, text, target } = p;
      const turns = await turnsOf(conversationId);
      planResend(turns, { kind: 'edit', turnId });
      const attachments = turnAttachments(turns.find((t) => t.id === turnId)!);
      if (!text.trim() && attachments.length === 0) throw new BatonError('bad_request', 'Nothing to send.');
      await checkSendable(conversationId, target);
      return d.engine.send({
        conversationId,
        text,
        target,
        ...(attachments.length ? { attachments } : {}),
        confirmed: confirmationOf(p),
        replaceFrom: turnId,
      });
    },
  };
}
