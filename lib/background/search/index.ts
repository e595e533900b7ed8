/** The search feature: full-text search over every conversation (`handlers.ts`; the index lives in lib/store). */
export { searchHandlers } from './handlers';
