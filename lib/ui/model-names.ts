/**
 * Human names for where an answer came from (docs/side-panel.md, "Tool calls and thinking, calm"): "Claude
 * Sonnet 4.5 · Anthropic", "GPT-5 · OpenAI", "ChatGPT (web)", a custom endpoint's own name —
 * never an internal id such as "chatgpt-web · gpt-4". Pure; the UI may not import the model
 * registry's data (first-load size), so names are formed from the ids by the providers' own
 * naming patterns, and an id no pattern knows is shown as the provider wrote it.
 */
import type { ProviderStatus } from '../messaging/protocol';
import type { Origin } from '../transcript/schema';
import { lookupTable } from '../transcript/lookup';

/** Origins that are not configured providers: the chat sites Baton captures from, and Chrome's on-device model. */
const SITE_NAMES: Readonly<Record<string, string>> = lookupTable({
  'chatgpt-web': 'ChatGPT (web)',
  'claude-web': 'Claude (web)',
  'gemini-web': 'Gemini (web)',
  chrome: 'On-device',
});

/** Built-in provider names, for an origin whose provider is not (or no longer) configured. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = lookupTable({
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google Gemini',
  deepseek: 'DeepSeek',
  mistral: 'Mistral',
  groq: 'Groq',
  openrouter: 'OpenRouter',
  ollama: 'Ollama',
  lmstudio: 'LM Studio',
  azure: 'Azure OpenAI',
  bedrock: 'Amazon Bedrock',
  vertex: 'Vertex AI',
});

/** Model ids a chat site stores when it did not say which model answered. */
const SITE_PLACEHOLDERS = new Set(['chatgpt', 'claude', 'gemini', 'auto', 'default']);

const cap = (w: string) => (w ? w[0]!.toUpperCase() + w.slice(1) : w);

/**
 * A model id as people read it: `claude-sonnet-4-5-20250929` → "Claude Sonnet 4.5",
 * `claude-3-5-haiku-latest` → "Claude 3.5 Haiku", `gpt-4o-mini` → "GPT-4o mini", `gpt-5.5` →
 * "GPT-5.5", `o4-mini` → "o4-mini", `gemini-2.5-flash-lite` → "Gemini 2.5 Flash-Lite",
 * `models/gemini-3-pro-preview` → "Gemini 3 Pro Preview". A provider or `models/` prefix, a date
 * or `-latest` suffix and a Bedrock/Vertex wrapper are dropped. Any other id is returned as given.
 */
export function modelDisplayName(id: string): string {
  let bare = id.trim().replace(/^models\//, '');
  bare = bare
    .replace(/^(?:[a-z]{2}\.)?anthropic\./, '')
    .replace(/-v\d+(?::\d+)?$/, '')
    .replace(/@\d{8}$/, '');
  const slash = bare.lastIndexOf('/');
  if (slash >= 0) bare = bare.slice(slash + 1);
  bare = bare.replace(/:.*$/, '');
  bare = bare.replace(/-(?:\d{8}|\d{4}-\d{2}-\d{2}|latest|\d{3})$/, '');
  if (/^claude-/.test(bare)) return claudeName(bare);
  if (/^gpt-/i.test(bare)) return gptName(bare);
  if (/^gemini-/.test(bare)) return geminiName(bare);
  if (/^o\d(?:-[a-z]+)*$/.test(bare)) return bare;
  return id;
}

/** "claude-sonnet-4-5" → "Claude Sonnet 4.5"; "claude-3-7-sonnet" → "Claude 3.7 Sonnet". */
function claudeName(bare: string): string {
  const words = bare.split('-');
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    // Version digits written with dashes ("4-5") are joined with a dot.
    if (/^\d+$/.test(w) && /^\d$/.test(words[i + 1] ?? '') && out.length && /^\d+$/.test(w)) {
      out.push(`${w}.${words[i + 1]}`);
      i++;
    } else out.push(/^\d/.test(w) ? w : cap(w));
  }
  return out.join(' ');
}

/** "gpt-4o-mini" → "GPT-4o mini"; "gpt-5-codex" → "GPT-5 Codex"; "gpt-4.1-nano" → "GPT-4.1 nano". */
function gptName(bare: string): string {
  const [, version, ...rest] = bare.split('-');
  const lower = new Set(['mini', 'nano', 'pro', 'turbo', 'chat']);
  return [`GPT-${version ?? ''}`, ...rest.map((w) => (lower.has(w) ? w : /^\d/.test(w) ? w : cap(w)))].join(' ');
}

/** "gemini-2.5-flash-lite" → "Gemini 2.5 Flash-Lite"; "gemini-3-pro-preview" → "Gemini 3 Pro Preview". */
function geminiName(bare: string): string {
  const name = bare
    .split('-')
    .map((w) => (/^\d/.test(w) ? w : cap(w)))
    .join(' ');
  return name.replace(/ Lite\b/, '-Lite');
}

/** The name of a provider id: its configured name, a built-in or chat-site name, else the id. */
export function providerDisplayName(id: string, providers: readonly Pick<ProviderStatus, 'id' | 'name'>[]): string {
  return providers.find((p) => p.id === id)?.name ?? SITE_NAMES[id] ?? PROVIDER_NAMES[id] ?? id;
}

/**
 * Where an answer came from, once per turn: "Claude Sonnet 4.5 · Anthropic", "ChatGPT (web)" or
 * "GPT-4o · ChatGPT (web)" when the site said which model answered, "llama3.1:8b · My Ollama"
 * for a custom endpoint (its configured name). Never an internal provider id when a name is known.
 */
export function originDisplayName(origin: Origin, providers: readonly Pick<ProviderStatus, 'id' | 'name'>[]): string {
  const where = providerDisplayName(origin.provider, providers);
  const site = SITE_NAMES[origin.provider] !== undefined && !providers.some((p) => p.id === origin.provider);
  if (site && SITE_PLACEHOLDERS.has(origin.model.toLowerCase())) return where;
  return `${modelDisplayName(origin.model)} · ${where}`;
}

/**
 * The two sides of a "Switched from … to …" marker: the providers' names, or, when both name the
 * same provider (another endpoint or account of it), each side's model and provider, so the marker
 * never reads "from Anthropic to Anthropic".
 */
export function switchDisplayNames(
  from: Origin,
  to: Origin,
  providers: readonly Pick<ProviderStatus, 'id' | 'name'>[],
): [string, string] {
  const a = providerDisplayName(from.provider, providers);
  const b = providerDisplayName(to.provider, providers);
  return a === b ? [originDisplayName(from, providers), originDisplayName(to, providers)] : [a, b];
}
