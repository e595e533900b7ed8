/**
 * Shared types of the provider contract validators (test oracles written from
 * ../shared/docs/provider-rules.md; they import nothing from `lib/`).
 */

/**
 * One way in which a request body breaks a provider contract.
 *
 * - `rule`: the provider-rules.md id (`A-T2`, `X4`, `G-K1`, …). Shape problems that no numbered
 *   rule covers (a missing `model`, a field of the wrong JSON type) use `<prefix>-SHAPE`:
 *   `A-SHAPE` (Anthropic Messages), `C-SHAPE` (Chat Completions), `R-SHAPE` (Responses),
 *   `G-SHAPE` (Gemini generateContent).
 * - `path`: JSON path of the offending value, written the way JavaScript would address it
 *   (`messages[3].content[0].tool_use_id`); `''` is the body itself.
 * - `message`: what is wrong, for humans.
 */
export interface Violation {
  rule: string;
  path: string;
  message: string;
  /**
   * The exact error text the real API answers with, where the provider rules quote it (C-T9,
   * G-T7, G-K12, …); a fake provider sends it as its 400 message.
   */
  apiMessage?: string;
}
