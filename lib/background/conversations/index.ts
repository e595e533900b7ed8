/** The conversations feature: the list's requests (`handlers.ts`) and reading a conversation a window of turns at a time (`window.ts`). */
export { conversationHandlers } from './handlers';
export { getConversationWindow } from './window';
