/** The conversations feature: the list's requests (`handlers.ts`), instructions (`instructions.ts`) and reading a conversation a window of turns at a time (`window.ts`). */
export { conversationHandlers } from './handlers';
export { getConversationWindow } from './window';
export { defaultInstructions, instructionsHandlers } from './instructions';
