/**
 * ChatGPT message `content` → text (export schema: mohamed-chs/convoviz `docs/dev/data-schema.md`).
 * `parts` are polymorphic: strings, asset pointers, transcriptions and other objects; every part
 * becomes readable text, and image pointers become placeholders that say the export has no image
 * bytes. Nothing here throws on odd input: an unknown part is named in a placeholder.
 */
import { isRecord, str, type JsonObject } from './common';
import { parseJsonSafe } from './safe-json';

/** Placeholder for an image the export only points to. */
export function imagePlaceholder(part: JsonObject): string {
  const pointer = str(part.asset_pointer) ?? 'unknown asset';
  const w = part.width;
  const h = part.height;
  const size = typeof w === 'number' && typeof h === 'number' ? ` (${w}×${h})` : '';
  return `[image ${pointer}${size}: the ChatGPT export has no image bytes]`;
}

/** One `parts` entry → text, or undefined for an empty / null part. */
export function renderPart(part: unknown): string | undefined {
  if (typeof part === 'string') return part;
  if (typeof part === 'number' || typeof part === 'boolean') return String(part);
  if (!isRecord(part)) return undefined;
  const type = str(part.content_type);
  if (type === 'image_asset_pointer') return imagePlaceholder(part);
  if (type === 'audio_transcription' && typeof part.text === 'string') return part.text;
  if (type !== undefined && /asset_pointer$/.test(type))
    return `[${type.replace(/_asset_pointer$/, '').replace(/_/g, ' ')} ${str(part.asset_pointer) ?? ''}: not included in the ChatGPT export]`.replace(
      ' :',
      ':',
    );
  if (typeof part.text === 'string') return part.text;
  return `[${type ?? 'unrecognised'} part not imported]`;
}

/** Texts of every non-empty part, in order. */
export function partsTexts(parts: unknown): string[] {
  if (!Array.isArray(parts)) return [];
  const out: string[] = [];
  for (const p of parts) {
    const t = renderPart(p);
    if (t !== undefined && t.trim() !== '') out.push(t);
  }
  return out;
}

/** A fenced Markdown code block (fence longer than any backtick run inside). */
export function fencedCode(code: string, language: string | undefined): string {
  let longest = 0;
  for (const m of code.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const lang = language && language !== 'unknown' ? language : '';
  return `${fence}${lang}\n${code}\n${fence}`;
}

/**
 * Readable text of any content, for tool results and content types without a dedicated mapping:
 * `text` / `multimodal_text` parts, `code` and `execution_output` text, browser displays
 * (`tether_browsing_display` result, `tether_quote` title, URL and text), `system_error`.
 */
export function contentText(content: JsonObject): string {
  const type = str(content.content_type);
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  switch (type) {
    case 'tether_browsing_display':
      return [s(content.result), s(content.summary)].filter((x) => x.trim()).join('\n\n');
    case 'tether_quote':
      return [s(content.title), s(content.url), s(content.text)].filter((x) => x.trim()).join('\n');
    case 'system_error':
      return [s(content.name), s(content.text)].filter((x) => x.trim()).join(': ');
    case 'reasoning_recap':
      return s(content.content);
    default:
      if (Array.isArray(content.parts)) return partsTexts(content.parts).join('\n\n');
      if (typeof content.text === 'string') return content.text;
      if (typeof content.result === 'string') return content.result;
      return '';
  }
}

/**
 * The input of a tool call made by an assistant message addressed to a tool (`recipient`):
 * a JSON object when the message text is one (parsed without prototype keys, I2), else
 * `{code}` for `code` content and `{text}` otherwise; `{}` when empty.
 */
export function toolCallInput(content: JsonObject): JsonObject {
  const text =
    str(content.content_type) === 'code'
      ? typeof content.text === 'string'
        ? content.text
        : ''
      : contentText(content);
  if (!text.trim()) return {};
  if (/^\s*\{/.test(text)) {
    try {
      const { value } = parseJsonSafe(text);
      if (isRecord(value)) return value;
    } catch {
      // not JSON: kept as text below
    }
  }
  return str(content.content_type) === 'code' ? { code: text } : { text };
}

/** Thinking texts of a `thoughts` content: each thought's summary and content, blank-line joined. */
export function thoughtTexts(content: JsonObject): string[] {
  if (!Array.isArray(content.thoughts)) return [];
  const out: string[] = [];
  for (const t of content.thoughts) {
    if (typeof t === 'string') {
      if (t.trim()) out.push(t);
      continue;
    }
    if (!isRecord(t)) continue;
    const text = [t.summary, t.content]
      .filter((x): x is string => typeof x === 'string' && x.trim() !== '')
      .join('\n\n');
    if (text) out.push(text);
  }
  return out;
}

/** ChatGPT's citation markers in answer text, e.g. `【3:0†source】` (private-use `\ue200…` forms too). */
const MARKER = /【[^】\n]{0,200}】|\ue200cite\ue202[^\ue201\n]{0,400}\ue201/g;

/** Markdown link text: brackets and backslashes escaped, on one line. */
const linkText = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\[\]]/g, (c) => `\\${c}`);

/**
 * docs/security.md, defect 8: an answer's `metadata.citations` (each `{start_ix, end_ix, metadata: {url,
 * title}}`, the indices spanning a marker such as `【3:0†source】` in the text) → the markers
 * become numbered Markdown links (`[1](url)`) and a "Sources:" list is appended; a citation whose
 * indices do not point at a marker takes the next unused marker in order. Markers left without a
 * source are removed. Only http(s) URLs become links. Returns the new text and a summary line
 * for the import warnings (undefined when the text had no citation and no marker).
 */
export function applyCitations(text: string, citations: unknown): { text: string; note?: string } {
  const markers = [...text.matchAll(MARKER)].map((m) => ({ start: m.index, end: m.index + m[0].length, n: 0 }));
  const list = Array.isArray(citations) ? citations.filter(isRecord) : [];
  if (!markers.length && !list.length) return { text };
  const sources: { title: string; url?: string }[] = [];
  for (const c of list) {
    const meta = isRecord(c.metadata) ? c.metadata : {};
    const rawUrl = str(meta.url);
    const url = rawUrl && /^https?:\/\//i.test(rawUrl) ? rawUrl : undefined;
    const title = str(meta.title) ?? url ?? 'source';
    let marker = markers.find((m) => m.n === 0 && m.start === c.start_ix && m.end === c.end_ix);
    marker ??= markers.find((m) => m.n === 0);
    if (!marker) continue;
    sources.push(url ? { title, url } : { title });
    marker.n = sources.length;
  }
  let out = '';
  let at = 0;
  for (const m of markers) {
    const src = m.n ? sources[m.n - 1]! : undefined;
    out += text.slice(at, m.start) + (src ? (src.url ? `[${m.n}](${src.url})` : `[${m.n}]`) : '');
    at = m.end;
  }
  out += text.slice(at);
  const orphans = markers.filter((m) => m.n === 0).length;
  if (sources.length)
    out += `\n\nSources:\n${sources.map((s, i) => `${i + 1}. ${s.url ? `[${linkText(s.title)}](${s.url})` : linkText(s.title)}`).join('\n')}`;
  const parts = [];
  if (sources.length) parts.push(`${sources.length} citation(s) turned into links and a sources list`);
  if (orphans) parts.push(`${orphans} citation marker(s) without a source removed`);
  const unplaced = list.length - sources.length;
  if (unplaced > 0) parts.push(`${unplaced} citation(s) without a marker in the text left out`);
  return { text: out, ...(parts.length ? { note: parts.join('; ') } : {}) };
}
