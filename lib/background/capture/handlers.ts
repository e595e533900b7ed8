/** The capture area's handlers for createHandlers (handlers.ts): the {@link CaptureService}'s, or refusals when none is wired. */
import type { CaptureResponses } from '../../messaging/capture-protocol';
import type { CaptureService } from './service';
import { BatonError } from '../../messaging/errors';
import type { Handlers } from '../core/router';

/** `captureSubmit` and `takePendingCapture`; without a service (unit tests of other areas) both refuse with `internal`. */
export function captureHandlers(service: CaptureService | undefined): Pick<Handlers, keyof CaptureResponses> {
  if (service) return service.handlers();
  const off = async (): Promise<never> => {
    throw new BatonError('internal', 'Capture is not available in this context.');
  };
  return { captureSubmit: off, takePendingCapture: off };
}
