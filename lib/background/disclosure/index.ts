/**
 * The disclosure feature (docs/disclosure.md): what a send would disclose and to whom, planned by the context
 * planner (`plan.ts`), previewed (`preview.ts`), confirmed before a first disclosure
 * (`resend.ts`), and recorded in the ledger with the answer (`ledger.ts`); the exact counts of the
 * provider token-count endpoints (`token-count.ts`). The send and summary features use it
 * through this file only.
 */
export { countHandlers } from './count-handlers';
export { Discloser, previewInputOf, previewSend, userBlocks, type PreparedSend, type PreviewSendInput } from './engine';
export { disclosureHandlers, type DisclosingEngine } from './handlers';
export { costOf } from './ledger';
export { assertSendable, type Exclusions } from './sendable';
export {
  confirmationOf,
  planResend,
  refuseUnconfirmed,
  retryNewTurnId,
  turnAttachments,
  type Confirmation,
  type Resend,
} from './resend';
