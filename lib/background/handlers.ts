/**
 * The protocol implemented as one object of handlers (DESIGN.md, "Style to follow" 2): each
 * feature folder supplies the handlers of its requests, and this file only puts them together.
 * Payloads arrive parsed and sender-checked by the router.
 */
import type { Responses } from '../messaging/protocol';
import type { BackgroundDeps } from './core/deps';
import type { Handlers } from './core/router';
import { captureHandlers, type CaptureService } from './capture';
import { conversationHandlers, instructionsHandlers } from './conversations';
import { countHandlers, disclosureHandlers } from './disclosure';
import { onDeviceHandlers } from './on-device';
import { sendHandlers, type SendEngine } from './send';
import { createVaultHandlers, settingsHandlers } from './settings';
import { searchHandlers } from './search';
import { summaryHandlers } from './summary';
import { syncHandlers, type SyncService } from './sync';
import { createTransferHandlers, endpointNames } from './transfer';

/** What `createHandlers` needs: the shared dependencies, the send engine, and what only some features use. */
export interface HandlerDeps extends BackgroundDeps {
  engine: SendEngine;
  /** Deletes every database record (keys included). */
  wipe(): Promise<void>;
  /** Capture from chat pages (docs/architecture.md#the-background-by-feature); without it the capture requests refuse. */
  capture?: CaptureService;
  /** End-to-end encrypted sync (docs/architecture.md#sync); without it the sync requests refuse. */
  sync?: SyncService;
  /** Size of one `exportAll` part, in characters (default: the transfer feature's; tests use a small one). */
  exportPartChars?: number;
}

/** Every request's handler, from the feature that owns it. */
export function createHandlers(d: HandlerDeps): Handlers {
  return {
    ...conversationHandlers(d),
    ...instructionsHandlers(d),
    ...sendHandlers(d),
    ...settingsHandlers(d),
    ...createVaultHandlers(d),
    ...onDeviceHandlers(d),
    ...disclosureHandlers({ store: d.store, engine: d.engine }),
    ...countHandlers(d),
    ...summaryHandlers(d),
    ...searchHandlers(d),
    // Markdown export names a custom endpoint by its name.
    ...createTransferHandlers({ ...d, originNames: async () => endpointNames((await d.settings.get()).endpoints) }),
    ...captureHandlers(d.capture),
    ...syncHandlers(d),
  } satisfies Handlers as Handlers & Record<keyof Responses, unknown>;
}
