/** The transfer feature (issue 7): import files and export conversations. */
export { createTransferHandlers, endpointNames } from './handlers';
