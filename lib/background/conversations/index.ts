/** The conversations feature: reading a conversation a window of turns at a time. */
export { getConversationWindow } from './window';
