/**
 * The send feature (DESIGN.md, "Data flows one way on a send"): the engine that accepts a send,
 * retry or exclusive job (`engine.ts`), streams and stores its answer (`answer.ts`, checkpointed
 * by `checkpoint.ts`), keeps one request in flight per conversation (`in-flight.ts`) and holds
 * long retry waits as alarms (`retry-alarm.ts`); its requests are `handlers.ts`. Other features use it through this file only.
 */
export { SendEngine } from './engine';
export { sendHandlers } from './handlers';
export { RetryAlarms, sessionPendingStore } from './retry-alarm';
