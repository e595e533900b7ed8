/** Which providers the side panel offers, and the default send target (settings or conversation). */
import { isErrorCode } from '../messaging/client';
import type { ProtocolError, ProviderStatus, Settings } from '../messaging/protocol';
import { isLocalUrl } from '../messaging/endpoint-url';

/** Providers a send can use: a key bound to their current origin (N2), or a local endpoint. */
export function configuredProviders(settings: Settings): ProviderStatus[] {
  return settings.providers.filter((p) => (p.hasKey && !p.keyUnbound) || isLocalUrl(p.baseUrl));
}

/**
 * The default target: `settings.defaultTarget` when its provider is usable, else the first usable
 * provider with its default model (or an empty model for the person to choose). `providerId` is
 * '' when nothing is configured.
 */
export function pickTarget(
  settings: Settings,
  providers: readonly ProviderStatus[] = configuredProviders(settings),
): { providerId: string; model: string } {
  const d = settings.defaultTarget;
  if (d && providers.some((p) => p.id === d.providerId)) return { providerId: d.providerId, model: d.model };
  const first = providers[0];
  return first ? { providerId: first.id, model: first.defaultModel ?? '' } : { providerId: '', model: '' };
}

/** Any thrown value as a protocol error (a `ClientError` keeps its code; others become `internal`). */
export function toProtocolError(e: unknown): ProtocolError {
  if (typeof e === 'object' && e !== null) {
    const o = e as { code?: unknown; message?: unknown; retryAfterSec?: unknown };
    if (isErrorCode(o.code))
      return {
        code: o.code,
        message: typeof o.message === 'string' ? o.message : '',
        ...(typeof o.retryAfterSec === 'number' ? { retryAfterSec: o.retryAfterSec } : {}),
      };
  }
  return { code: 'internal', message: e instanceof Error ? e.message : String(e) };
}
