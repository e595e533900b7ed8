/**
 * Opaque provider state from an imported Baton file (docs/security.md, defect 7). A `.baton.json` can
 * claim any origin, so its signatures, encrypted reasoning, provider items and native payloads
 * could otherwise be replayed verbatim to that provider ("sent as is") — e.g. a Responses
 * `mcp_approval_response {"approve": true}`. The Baton importer marks every turn that holds such
 * state with `meta[IMPORTED_STATE_META] = true`; the pre-pass treats a marked turn as another
 * origin's unless the target says the person confirmed it (`importedState: "replay"`, from the
 * disclosure preview), and never replays an approval-type item from it.
 */
import type { Block, Turn } from './schema';

/** The `turn.meta` key that marks provider state from an imported Baton file. */
export const IMPORTED_STATE_META = 'importedProviderState';

/** True when the turn holds opaque provider state from an imported Baton file. */
export function isImportedState(turn: Turn): boolean {
  return turn.meta?.[IMPORTED_STATE_META] === true;
}

/** True for a block that carries state only its origin can read (signature, redacted thinking, provider item, citations). */
function isOpaque(b: Block): boolean {
  if (b.type === 'redacted_thinking' || b.type === 'provider_item') return true;
  if (b.type === 'text') return b.signature !== undefined || b.citations !== undefined;
  return (b.type === 'thinking' || b.type === 'tool_call') && b.signature !== undefined;
}

/** True when a turn holds any opaque provider state: such a block or a native payload. */
export function holdsOpaqueState(turn: Turn): boolean {
  return turn.native !== undefined || turn.blocks.some(isOpaque);
}

/**
 * True for an item that grants or answers an approval (`mcp_approval_response`,
 * `mcp_approval_request` and any future `*approval*` type): never replayed from an imported file,
 * even after confirmation — the file's author cannot approve anything on the person's behalf.
 */
export function isApprovalItem(item: unknown): boolean {
  if (item === null || typeof item !== 'object') return false;
  const type = (item as { type?: unknown }).type;
  return typeof type === 'string' && /approv/i.test(type);
}

/** True when a native payload (an item list, a parts list, a message) holds an approval-type item at its top levels. */
export function nativeHasApproval(payload: unknown): boolean {
  if (Array.isArray(payload))
    return payload.some((x) => isApprovalItem(x) || nativeHasApproval((x as { content?: unknown } | null)?.content));
  if (payload !== null && typeof payload === 'object')
    return (
      isApprovalItem(payload) ||
      (Array.isArray((payload as { content?: unknown }).content) &&
        nativeHasApproval((payload as { content: unknown }).content))
    );
  return false;
}
