/**
 * Spellings of a model id that may name a registry entry: the Gemini `models/` prefix,
 * Vertex (`claude-sonnet-4-5@20250929`) and Bedrock (`us.anthropic.claude-…-v1:0`) ids,
 * OpenRouter `vendor/model[:variant]` ids (Anthropic versions dotted there: `claude-sonnet-4.5`),
 * and dated snapshots the registry does not list. Matching stays case-sensitive.
 */

/** One spelling to try, and whether it came from an OpenRouter-style `vendor/` prefix. */
export interface Candidate {
  id: string;
  viaVendor: boolean;
}

const MODELS_PREFIX = 'models/';
const BEDROCK = /^(?:[a-z]{2,6}\.)?anthropic\.(claude-.+?)(?:-v\d+(?::\d+)?)?$/;
const VENDOR = /^([A-Za-z0-9_.-]+)\/(.+)$/;
const VARIANT = /:[A-Za-z0-9_-]+$/;
/** Snapshot suffixes: OpenAI `-2025-08-07`, Anthropic `-20250929`, Gemini `-001`, `-preview-05-20` / `-09-2025`. */
const SNAPSHOT_SUFFIXES = [/-\d{4}-\d{2}-\d{2}$/, /-\d{8}$/, /-\d{3}$/, /-\d{2}-\d{2,4}$/];

/** Removes a leading `models/` (Gemini REST names). */
export function stripModelsPrefix(id: string): string {
  return id.startsWith(MODELS_PREFIX) ? id.slice(MODELS_PREFIX.length) : id;
}

/** OpenRouter spells Anthropic versions with dots (`claude-3.7-sonnet`, `claude-opus-4.1`). */
function undotClaude(model: string): string {
  return model.startsWith('claude-') ? model.replace(/(\d)\.(\d)/g, '$1-$2') : model;
}

/** The spellings without snapshot suffixes, longest first, each also without `-preview`. */
function withoutSnapshot(id: string): string[] {
  const out: string[] = [];
  for (const re of SNAPSHOT_SUFFIXES) {
    if (!re.test(id)) continue;
    const base = id.replace(re, '');
    out.push(base);
    if (base.endsWith('-preview')) out.push(base.slice(0, -'-preview'.length));
  }
  return out;
}

/**
 * The spellings of `id` to look up, in order of preference: the id itself, then the
 * normalized forms, then the same without a snapshot suffix.
 */
export function candidateIds(id: string): Candidate[] {
  const direct: Candidate[] = [{ id, viaVendor: false }];
  const bare = stripModelsPrefix(id);
  if (bare !== id) direct.push({ id: bare, viaVendor: false });
  if (bare.startsWith('claude-') && bare.includes('@')) direct.push({ id: bare.replace('@', '-'), viaVendor: false });
  const bedrock = BEDROCK.exec(bare);
  if (bedrock?.[1]) direct.push({ id: bedrock[1], viaVendor: false });
  const vendor = VENDOR.exec(bare);
  if (vendor?.[2]) {
    const noVariant = bare.replace(VARIANT, '');
    if (noVariant !== bare) direct.push({ id: noVariant, viaVendor: false });
    const model = vendor[2].replace(VARIANT, '');
    direct.push({ id: model, viaVendor: true });
    const undotted = undotClaude(model);
    if (undotted !== model) direct.push({ id: undotted, viaVendor: true });
  }
  const all = [...direct];
  for (const c of direct) for (const s of withoutSnapshot(c.id)) all.push({ id: s, viaVendor: c.viaVendor });
  return all;
}

/**
 * The bare model name used for family patterns of unknown ids: without `models/`, Bedrock
 * wrapping, `vendor/` prefix or `:variant`, Anthropic versions undotted.
 */
export function bareModelName(id: string): string {
  const bare = stripModelsPrefix(id);
  const bedrock = BEDROCK.exec(bare);
  if (bedrock?.[1]) return bedrock[1];
  const vendor = VENDOR.exec(bare);
  const model = vendor?.[2] ? vendor[2].replace(VARIANT, '') : bare;
  return undotClaude(model);
}

/** true when `id` has the OpenRouter `vendor/model` form (not Gemini's `models/`). */
export function hasVendorPrefix(id: string): boolean {
  return !id.startsWith(MODELS_PREFIX) && VENDOR.test(id);
}
