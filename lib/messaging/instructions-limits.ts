/**
 * The size cap on conversation instructions (M3), apart from the zod schemas of
 * instructions-protocol.ts so pages can import it without pulling zod into their bundle.
 */

/** Instructions are at most this many characters; a long system prompt fits easily. */
export const INSTRUCTIONS_MAX_CHARS = 100_000;
