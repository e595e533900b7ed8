/**
 * How many targets one compare send takes (docs/side-panel.md#ask-several-models-at-once), apart
 * from the zod schemas of compare-protocol.ts so the side panel can import it without pulling zod's
 * schemas (and their `Function` probe) into its bundle.
 */

/** Fewest and most targets of one compare send. */
export const COMPARE_TARGETS = { min: 2, max: 4 } as const;
