/**
 * The context menus of docs/architecture.md#the-background-by-feature, as data: "Continue this chat in…" on the three chat sites' pages
 * and "Continue selection in…" on any selected text, each with a submenu of the person's
 * configured models (providers with a key bound to their origin, N2; each with its default model).
 * Item ids carry the target, so a click needs no state (the worker may have restarted, L1).
 */
import type { SendTarget, Settings } from '../../messaging/protocol';
import { defaultModelFor } from '../../models/registry';

/** `documentUrlPatterns` of the chat menu: exactly the three sites (N1, as the content script). */
export const CHAT_PAGE_PATTERNS = [
  'https://chatgpt.com/*',
  'https://claude.ai/*',
  'https://gemini.google.com/*',
] as const;

/** One `contextMenus.create` call. */
export interface MenuItem {
  id: string;
  title: string;
  contexts: ('page' | 'selection')[];
  parentId?: string;
  documentUrlPatterns?: string[];
}

/** What a menu item id means. */
export type MenuAction = { kind: 'chat' | 'selection'; target: SendTarget } | { kind: 'setup' } | { kind: 'page' };

export const CHAT_MENU_ID = 'baton-continue-chat';
export const SELECTION_MENU_ID = 'baton-continue-selection';
/**
 * "Add this page to Baton" on any page (docs/side-panel.md#add-this-page): a click on an extension's
 * context menu item is one of the gestures that grant `activeTab` for the tab, which a click inside
 * the side panel is not (docs/security.md#reading-the-page-you-are-on).
 */
export const ADD_PAGE_MENU_ID = 'baton-add-page';
const SEP = '|';

/**
 * The targets to offer, default target first: each provider with a usable key once, with the
 * default target's model for its provider, else the provider's default model, else the registry's
 * current recommended model (docs/side-panel.md: never one past its end of life).
 */
export function menuTargets(settings: Settings): { target: SendTarget; title: string }[] {
  const out: { target: SendTarget; title: string }[] = [];
  const usable = settings.providers.filter((p) => p.hasKey && !p.keyUnbound);
  const d = settings.defaultTarget;
  const ordered = [...usable.filter((p) => p.id === d?.providerId), ...usable.filter((p) => p.id !== d?.providerId)];
  for (const p of ordered) {
    const model = (d?.providerId === p.id ? d.model : undefined) ?? p.defaultModel ?? defaultModelFor(p.id);
    if (!model) continue;
    out.push({ target: { providerId: p.id, model }, title: `${model} (${p.name})` });
  }
  return out;
}

/** Every menu item to create, parents first. With no configured model, one item leads to the options page. */
export function buildMenus(settings: Settings): MenuItem[] {
  const targets = menuTargets(settings);
  const items: MenuItem[] = [
    {
      id: CHAT_MENU_ID,
      title: 'Continue this chat in…',
      contexts: ['page'],
      documentUrlPatterns: [...CHAT_PAGE_PATTERNS],
    },
    { id: SELECTION_MENU_ID, title: 'Continue selection in…', contexts: ['selection'] },
  ];
  for (const [parent, kind, contexts] of [
    [CHAT_MENU_ID, 'chat', ['page']],
    [SELECTION_MENU_ID, 'selection', ['selection']],
  ] as const) {
    if (!targets.length)
      items.push({
        id: `baton-setup${SEP}${kind}`,
        parentId: parent,
        title: 'Add a provider key in Baton’s options…',
        contexts: [...contexts],
      });
    for (const t of targets)
      items.push({ id: menuId(kind, t.target), parentId: parent, title: t.title, contexts: [...contexts] });
  }
  items.push({ id: ADD_PAGE_MENU_ID, title: 'Add this page to Baton', contexts: ['page'] });
  return items;
}

/** The id of a target's item: `baton-<kind>|<providerId>|<model>`. */
export function menuId(kind: 'chat' | 'selection', target: SendTarget): string {
  return `baton-${kind}${SEP}${target.providerId}${SEP}${target.model}`;
}

/** Reads an item id back, or undefined for ids that are not Baton's targets. */
export function parseMenuId(id: string | number): MenuAction | undefined {
  const s = String(id);
  if (s === ADD_PAGE_MENU_ID) return { kind: 'page' };
  if (s.startsWith(`baton-setup${SEP}`)) return { kind: 'setup' };
  const m = /^baton-(chat|selection)\|([^|]{1,200})\|(.{1,200})$/.exec(s);
  if (!m) return undefined;
  return { kind: m[1] as 'chat' | 'selection', target: { providerId: m[2]!, model: m[3]! } };
}
