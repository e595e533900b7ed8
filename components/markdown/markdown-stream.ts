/**
 * Incremental rendering of a streamed markdown message (docs/side-panel.md: "each chunk costs time
 * proportional to the chunk, not to the whole message").
 *
 * Approach. The message is split into *settled* blocks and one *open* part:
 * - After each update only the text after the last settled block (the "tail") is lexed.
 * - A run of top-level tokens is settled once a later token has started and the run ends at a
 *   point no later text can change: a blank line, or the end of a closed fence, a heading or a
 *   rule. (Without a blank line a paragraph may still merge with what follows, e.g. `foo\n#`
 *   then `foo\n#tag`, so it stays open.) Settled runs are rendered once, each into its own
 *   `div.md-block`, and never touched again; their rendered fragments are also cached by content
 *   (a small LRU), so re-mounting a message does not re-parse it. Past the first 32, settled
 *   blocks are appended 32 to a `div.md-group`, so the per-chunk layout of the message does not
 *   walk every block (see {@link GROUP}).
 * - The open part (the last block, plus anything not yet separated from it) is re-rendered on
 *   every update, into one `div.md-block.md-open`.
 * So an update costs: one read of the new text (see below), and lexing + sanitising + DOM work
 * proportional to the open part plus the new chunk. One long open
 * block (a huge code block, a list without blank lines) is re-rendered whole per chunk; that is
 * the price of rendering it correctly.
 * - A reference definition (`[r]: https://…`) that settles after blocks that may use it forces
 *   one full re-render (once per definition), so the final DOM matches a whole-message render.
 * - Text that is not an extension of the previous text (a snapshot that replaced it) resets.
 * `final = true` (the answer is complete) settles everything.
 *
 * Strings. A streamed text is built by concatenation (`text + delta`), which V8 keeps as a rope
 * (ConsString). The first read of a new rope's characters copies the whole rope into a flat
 * string: O(message) per chunk whatever the renderer does with it (measured in Chromium at 200 KB
 * of two-byte text: ~1.8 ms per chunk for `text.slice(-300)`, and `text.startsWith(prev)` on the
 * unflattened rope ~4 ms). `update(text)` therefore reads `text` once (the slice flattens it) and
 * compares it with the previous text only after that, on flat strings. A caller that has the
 * delta uses {@link MarkdownStream.append}, which never reads the whole text: O(chunk).
 */
import type { Token, TokensList } from 'marked';
import { lexBlocks, tokensToHtml, type LinkDefs } from './markdown-html';
import { sanitizeToFragment } from './sanitize';

const CACHE_MAX = 400;

/**
 * Settled blocks per `div.md-group`. The first {@link GROUP} settled blocks are children of the
 * root; every further {@link GROUP} are appended into a group of their own (never moved). Why:
 * each chunk re-lays out the root, and Chromium's layout of a block visits every child of it,
 * changed or not (about 3 µs per child, measured): with 500+ settled blocks as the root's children
 * that walk was most of a chunk's cost at the end of a long answer (bench/README.md, "Streaming:
 * flat layout"). Grouped, the root has ~blocks/32 children and only the group being filled is
 * walked again when a block settles. A group has no box of its own (no border, padding or
 * containment), so margins collapse through it exactly as between ungrouped blocks (markdown.css).
 */
const GROUP = 32;
const cache = new Map<string, DocumentFragment>();

function cached(key: string, make: () => DocumentFragment): DocumentFragment {
  let hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
  } else {
    hit = make();
    cache.set(key, hit);
    if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  }
  return hit.cloneNode(true) as DocumentFragment;
}

/** Can no later text change this token (given a later token has started)? */
function closes(t: Token, next: Token | undefined): boolean {
  if (t.type === 'space' || next?.type === 'space' || t.raw.endsWith('\n\n')) return true;
  if (!t.raw.endsWith('\n')) return false;
  return (
    t.type === 'hr' ||
    t.type === 'heading' ||
    t.type === 'mathBlock' ||
    (t.type === 'code' && (t as { codeBlockStyle?: string }).codeBlockStyle !== 'indented')
  );
}

/** Length in `orig` of its first `normLen` characters after `\r\n?` → `\n` normalisation. */
function originalLength(orig: string, normLen: number): number {
  let i = 0;
  for (let j = 0; j < normLen && i < orig.length; j++) i += orig[i] === '\r' && orig[i + 1] === '\n' ? 2 : 1;
  return i;
}

/** Counters, for tests and benchmarks. */
export interface MarkdownStreamStats {
  /** Settled blocks rendered (or taken from the cache). */
  settledBlocks: number;
  /** Renders of the open part. */
  openRenders: number;
  /** Full re-renders (non-append update, late reference definition). */
  resets: number;
  /** Characters lexed by the last update. */
  lastLexedChars: number;
}

/** Renders a growing markdown text into `root`, incrementally (see the module comment). */
export class MarkdownStream {
  private src = '';
  private finalized = false;
  /** Offset in `src` where the open part starts. */
  private settledEnd = 0;
  /** `src` from `settledEnd` on (as given, before `\r\n` normalisation). */
  private tail = '';
  private settled: { raw: string; node: HTMLElement | undefined }[] = [];
  private open: { raw: string; node: HTMLElement } | undefined;
  /** Settled blocks with a node (those that count for {@link GROUP}). */
  private shownBlocks = 0;
  /** The group being filled, and the groups made (to remove on reset). */
  private groups: HTMLElement[] = [];
  /** Reference definitions found in settled blocks. */
  private links: LinkDefs = Object.create(null) as LinkDefs;
  readonly stats: MarkdownStreamStats = { settledBlocks: 0, openRenders: 0, resets: 0, lastLexedChars: 0 };

  /**
   * @param enhance called with each newly rendered block (settled, or the open part after each
   *   render), to typeset its code and math (`enhance.ts`); never with the whole message.
   */
  constructor(
    private readonly root: HTMLElement,
    private readonly enhance?: (block: HTMLElement) => void,
  ) {}

  /**
   * Shows `text` (the whole message so far); `final` when no more text will come. Text that does
   * not extend the previous text replaces it (a full re-render). Costs one read of `text`
   * (O(message) for a concatenated string, see the module comment) plus O(open part + chunk).
   */
  update(text: string, final = false): void {
    if (text === this.src && (this.finalized || !final)) return;
    // Slice first: it flattens a rope once, so the prefix check below compares flat strings.
    let tailOrig = text.slice(this.settledEnd);
    if (text.length < this.src.length || !text.startsWith(this.src)) {
      this.reset();
      tailOrig = text;
    }
    this.src = text;
    this.render(tailOrig, final);
  }

  /**
   * Appends `chunk` to the text shown (the same result as `update(previousText + chunk, final)`),
   * without reading the previous text: O(open part + chunk), however long the message is.
   */
  append(chunk: string, final = false): void {
    if (!chunk && (this.finalized || !final)) return;
    this.src += chunk;
    this.render(this.tail + chunk, final);
  }

  /** Renders the unsettled source `tailOrig` (everything from `settledEnd` on). */
  private render(tailOrig: string, final: boolean): void {
    this.finalized = final;
    const tail = tailOrig.includes('\r') ? tailOrig.replace(/\r\n?/g, '\n') : tailOrig;
    const tokens = lexBlocks(tail, this.links);
    this.stats.lastLexedChars = tail.length;

    let last = tokens.length - 1;
    while (last >= 0 && tokens[last]!.type === 'space') last--;
    // Settle runs up to the last closing point before the last token (or everything when final).
    let cut = final ? tokens.length : 0;
    if (!final) for (let i = 0; i < last; i++) if (closes(tokens[i]!, tokens[i + 1])) cut = i + 1;

    const before = this.settled.length;
    let runStart = 0;
    let consumed = 0;
    const newTags: string[] = [];
    for (let i = 0; i < cut; i++) {
      const t = tokens[i]!;
      if (t.type === 'def' && !Object.hasOwn(this.links, (t as { tag: string }).tag)) {
        const d = t as { tag: string; href: string; title: string };
        this.links[d.tag] = { href: d.href, title: d.title };
        newTags.push(d.tag);
      }
      if (closes(t, tokens[i + 1]) || (final && i === cut - 1)) {
        const run = tokens.slice(runStart, i + 1);
        const raw = run.map((x) => x.raw).join('');
        this.settle(raw, run, tokens.links);
        consumed += raw.length;
        runStart = i + 1;
      }
    }
    const consumedOrig = tail === tailOrig ? consumed : originalLength(tailOrig, consumed);
    this.settledEnd += consumedOrig;
    this.tail = tailOrig.slice(consumedOrig);

    if (newTags.length && this.usesAny(before, newTags)) {
      // Blocks settled earlier were rendered without this definition: render once more, whole.
      const keep = this.links;
      const again = this.src;
      this.reset();
      this.links = keep;
      this.update(again, final);
      return;
    }
    this.renderOpen(tokens.slice(cut));
  }

  /** Might one of the first `count` settled blocks refer to one of `tags` (normalised labels)? */
  private usesAny(count: number, tags: string[]): boolean {
    for (const b of this.settled.slice(0, count)) {
      if (!b.raw.includes('[')) continue;
      const flat = b.raw.toLowerCase().replace(/\s+/g, ' ');
      if (tags.some((t) => flat.includes(t))) return true;
    }
    return false;
  }

  private settle(raw: string, run: Token[], links: TokensList['links']): void {
    let node: HTMLElement | undefined;
    if (run.some((t) => t.type !== 'space' && t.type !== 'def')) {
      const key = raw.includes('[') && Object.keys(links).length ? `${raw}\u0000${JSON.stringify(links)}` : raw;
      node = this.block(cached(key, () => sanitizeToFragment(tokensToHtml(run), this.root.ownerDocument)));
      this.place(node);
      this.enhance?.(node);
      this.stats.settledBlocks++;
    }
    this.settled.push({ raw, node });
  }

  /** Puts a newly settled block after the settled ones: in the root, or in a group (see {@link GROUP}). */
  private place(node: HTMLElement): void {
    const n = this.shownBlocks++;
    let parent: HTMLElement = this.root;
    if (n >= GROUP) {
      if (n % GROUP === 0) {
        const group = this.root.ownerDocument.createElement('div');
        group.className = 'md-group';
        this.groups.push(group);
        if (this.open) this.root.insertBefore(group, this.open.node);
        else this.root.append(group);
      }
      parent = this.groups[this.groups.length - 1]!;
    }
    if (parent === this.root && this.open) this.root.insertBefore(node, this.open.node);
    else parent.append(node);
  }

  private renderOpen(tokens: Token[]): void {
    const raw = tokens.map((t) => t.raw).join('');
    const visible = tokens.some((t) => t.type !== 'space' && t.type !== 'def');
    if (!visible) {
      this.open?.node.remove();
      this.open = undefined;
      return;
    }
    if (this.open?.raw === raw) return;
    const frag = sanitizeToFragment(tokensToHtml(tokens), this.root.ownerDocument);
    this.stats.openRenders++;
    if (this.open) {
      this.open.node.replaceChildren(frag);
      this.open.raw = raw;
    } else {
      const node = this.block(frag);
      node.classList.add('md-open');
      this.root.append(node);
      this.open = { raw, node };
    }
    this.enhance?.(this.open.node);
  }

  private block(frag: DocumentFragment): HTMLElement {
    const div = this.root.ownerDocument.createElement('div');
    div.className = 'md-block';
    div.append(frag);
    return div;
  }

  private reset(): void {
    if (this.src) this.stats.resets++;
    for (const b of this.settled) b.node?.remove();
    for (const g of this.groups) g.remove();
    this.open?.node.remove();
    this.settled = [];
    this.groups = [];
    this.shownBlocks = 0;
    this.open = undefined;
    this.settledEnd = 0;
    this.tail = '';
    this.src = '';
    this.links = Object.create(null) as LinkDefs;
  }
}
