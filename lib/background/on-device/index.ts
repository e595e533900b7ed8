/** The on-device feature: answers from the browser's own model (Chrome's Prompt API), stored like any answer. */
export { onDeviceHandlers } from './handlers';
