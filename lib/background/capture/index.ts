/** The capture feature (docs/architecture.md#the-background-by-feature): context menus and the capture of chat pages into conversations. */
export { captureHandlers } from './handlers';
export { CaptureService } from './service';
export { registerCapture } from './wiring';
