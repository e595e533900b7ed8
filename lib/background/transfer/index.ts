/** The transfer feature (docs/architecture.md#the-background-by-feature): import files and export conversations. */
export { createTransferHandlers, endpointNames } from './handlers';
