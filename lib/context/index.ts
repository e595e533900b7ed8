/**
 * The context planner (docs/disclosure.md; DESIGN.md layer 2, pure): what each request discloses, within
 * which budget, at what cost, and whether a stateful target may receive only the new turns.
 */
export { plan } from './plan';
export { mergePolicies, validatePolicy, forbiddenReason } from './policy';
export { planSummary, applySummary, SUMMARY_INSTRUCTION, SUMMARY_OUTPUT_TOKENS, type SummaryPlan } from './summary';
export { addCacheBreakpoints, MAX_CACHE_BREAKPOINTS, MIN_CACHEABLE_TOKENS } from './cache-breakpoints';
export {
  chooseDelivery,
  providerSessionKey,
  type Delivery,
  type DeliveryInput,
  type DeliveryReceipt,
  type SnapshotReason,
} from './delivery';
export {
  createTokenCache,
  recordUsage,
  correctionRatio,
  type TokenCache,
  type Correction,
  type StoredCounts,
} from './token-cache';
export {
  tokenizerFamily,
  countText,
  countingFamily,
  documentTokens,
  ensureTokenizer,
  shouldUseCountEndpoint,
} from './tokens';
export { setRanksSource, loadEncoding, type RanksSource, type EncodingName, type RawRanks } from './tokenizer-ranks';
export { contentHash, turnContentHash } from './hash';
export type {
  DropReason,
  DroppedTurn,
  ForbiddenReason,
  NotFitReason,
  Plan,
  PlannedTurn,
  PlanStats,
  PlanTarget,
  Policy,
  TokenizerFamily,
} from './types';
