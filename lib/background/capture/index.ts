/** The capture feature (issue 7): context menus and the capture of chat pages into conversations. */
export { captureHandlers } from './handlers';
export { CaptureService } from './service';
export { registerCapture } from './wiring';
