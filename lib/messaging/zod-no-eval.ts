/**
 * zod 4 compiles object schemas with `new Function` when it can, after probing with
 * `Function('')`. Extension pages and the worker run under `script-src 'self'` (R4), so the probe
 * always fails there, and a strict CSP still reports it as a `securitypolicyviolation` even though
 * zod swallows the throw; Mozilla's linter flags the same code (DANGEROUS_EVAL). With
 * `jitless: true` zod skips the probe and the compilation (the same interpreted parsing it falls
 * back to anyway, so nothing is lost). Called once at the top of each extension entrypoint; Node
 * code (CLI, tests, benchmarks) keeps the faster JIT.
 */
import { z } from 'zod';

/** Turns zod's eval-based fast path (and its probe) off for this JavaScript realm. Idempotent. */
export function zodWithoutEval(): void {
  z.config({ jitless: true });
}
