/** True only in the end-to-end test build (`BATON_TEST_BUILD=1`), replaced at build time (wxt.config.ts). */
declare const __BATON_TEST_BUILD__: boolean;
