/** The model picker's pure parts (docs/side-panel.md): filtering, grouping, badges and the list's age in words. */
import type { ModelOption } from '../messaging/protocol';

/**
 * The models whose id or name contains every word of `query` (case-insensitive), in list order;
 * all of them for an empty query.
 */
export function filterModels(models: readonly ModelOption[], query: string): ModelOption[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [...models];
  return models.filter((m) => {
    const hay = `${m.id} ${m.name ?? ''}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

/** A token count in short words: 1,000,000 → "1M", 400,000 → "400K", 32,768 → "33K". */
export function shortTokens(n: number): string {
  if (n >= 1_000_000) return `${Math.round(n / 100_000) / 10}M`.replace('.0M', 'M');
  if (n >= 1_000) return `${Math.round(n / 1_000)}K`;
  return String(n);
}

/** A USD-per-million price in short words: 0.25 → "$0.25", 3 → "$3", 1.5 → "$1.50". */
function dollars(v: number): string {
  return Number.isInteger(v) ? `$${v}` : `$${v.toFixed(2)}`;
}

/**
 * The badges a model shows in the picker, in order: context window, price (input / output per
 * million tokens), Vision, Thinking, Deprecated. Each with its text and a longer title.
 */
export function modelBadges(m: ModelOption): { text: string; title: string; kind: string }[] {
  const out: { text: string; title: string; kind: string }[] = [];
  if (m.contextWindow)
    out.push({
      kind: 'window',
      text: shortTokens(m.contextWindow),
      title: `Context window: ${m.contextWindow.toLocaleString('en')} tokens`,
    });
  if (m.price)
    out.push({
      kind: 'price',
      text: `${dollars(m.price.input)}/${dollars(m.price.output)}`,
      title: `List price per million tokens: ${dollars(m.price.input)} input, ${dollars(m.price.output)} output`,
    });
  if (m.vision) out.push({ kind: 'vision', text: 'Vision', title: 'Accepts images' });
  if (m.thinking) out.push({ kind: 'thinking', text: 'Thinking', title: 'Can reason before answering' });
  if (m.deprecated) out.push({ kind: 'deprecated', text: 'Deprecated', title: 'The provider has announced its end' });
  return out;
}

/** How long ago `at` was, from `now` (ms since the epoch), in a few words: "just now", "5 min ago", "3 h ago", "2 days ago". */
export function ageText(at: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return 'just now';
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.round(min / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} days ago`;
}
