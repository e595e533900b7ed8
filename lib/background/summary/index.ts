/** The summary feature (docs/disclosure.md, "Fitting"): summarise the earlier part of a conversation (`handlers.ts`, planned by `plan.ts`). */
export { summaryHandlers } from './handlers';
