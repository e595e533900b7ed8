/**
 * Deterministic filler text for generated transcripts: prose, markdown with code fences, file
 * contents and command output, with the characters real chats hold (quotes, backslashes, tabs,
 * newlines, accents, CJK and astral-plane emoji) so serialisation does real escaping work.
 */
import type { Rng } from './random';

const WORDS = (
  'the a of to and in is it that for on with as this be by are from at or an not we can will have ' +
  'function return const value request response model token context window history turn message ' +
  'provider stream error retry schema parse convert signature thinking tool call result image ' +
  'buffer cache index array object string number boolean promise async await import export type ' +
  'interface module package build test benchmark latency memory heap worker panel store query ' +
  'migration version update delete insert select where order limit offset cursor page render ' +
  'component state effect hook event listener handler router sender payload header body status ' +
  'because however therefore instead although unless while before after during between through'
).split(' ');

/** Words outside Latin-1 and with accents: a few per answer, as in real chats (they make V8 strings two-byte). */
const RARE = 'café naïve façade résumé über 東京 数据 ключ → ≤ ≥ … “quoted” it’s'.split(' ');

const EMOJI = ['🚀', '✅', '⚠️', '🔥', '📦', '🧪', '👍'];

/** One sentence of 6–20 words, capitalised, sometimes with inline code or an emoji. */
export function sentence(rng: Rng): string {
  const n = rng.int(6, 20);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(rng.pick(WORDS));
  if (rng.chance(0.03)) words.splice(rng.int(0, words.length), 0, rng.pick(RARE));
  if (rng.chance(0.2)) words.splice(rng.int(0, words.length), 0, `\`${rng.pick(WORDS)}${rng.int(0, 99)}()\``);
  if (rng.chance(0.01)) words.push(rng.pick(EMOJI));
  const s = words.join(' ');
  return `${s[0]!.toUpperCase()}${s.slice(1)}${rng.pick(['.', '.', '.', '?', '!', ':'])}`;
}

/** Prose of roughly `chars` characters in paragraphs. */
export function prose(rng: Rng, chars: number): string {
  const paragraphs: string[] = [];
  let length = 0;
  while (length < chars) {
    const sentences: string[] = [];
    const count = rng.int(2, 6);
    for (let i = 0; i < count && length < chars; i++) {
      const s = sentence(rng);
      sentences.push(s);
      length += s.length + 1;
    }
    paragraphs.push(sentences.join(' '));
  }
  return paragraphs.join('\n\n');
}

/** A line of TypeScript-looking code with quotes, backslashes and a tab now and then. */
export function codeLine(rng: Rng): string {
  const a = rng.pick(WORDS).replace(/[^a-z]/g, '') || 'x';
  const b = rng.pick(WORDS).replace(/[^a-z]/g, '') || 'y';
  switch (rng.int(0, 7)) {
    case 0:
      return `const ${a}${rng.int(0, 9)} = await ${b}(${JSON.stringify(rng.pick(WORDS))});`;
    case 1:
      return `  if (${a} === "${b}") return { ${a}: ${rng.int(0, 999)}, path: 'C:\\\\tmp\\\\${b}' };`;
    case 2:
      return `\t// ${sentence(rng)}`;
    case 3:
      return `export function ${a}${b[0]!.toUpperCase()}${b.slice(1)}(${a}: string): number {`;
    case 4:
      return `  throw new Error(\`${a} failed: \${${b}}\`);`;
    case 5:
      return '}';
    case 6:
      return `    ${a}.push({ id: ${rng.int(0, 99999)}, label: "${sentence(rng).replace(/"/g, '\\"')}" });`;
    default:
      return '';
  }
}

/** `lines` lines of code. */
export function code(rng: Rng, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(codeLine(rng));
  return out.join('\n');
}

/** Markdown answer of roughly `chars` characters: prose with a fenced code block now and then. */
export function markdown(rng: Rng, chars: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const part = rng.chance(0.3)
      ? `\`\`\`ts\n${code(rng, rng.int(4, 24))}\n\`\`\``
      : rng.chance(0.2)
        ? `- ${sentence(rng)}\n- ${sentence(rng)}\n- ${sentence(rng)}`
        : prose(rng, rng.int(150, 600));
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join('\n\n');
}

/** Command output: numbered lines, paths, a stack trace now and then. */
export function commandOutput(rng: Rng, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    if (rng.chance(0.1))
      out.push(
        `    at ${rng.pick(WORDS)} (/home/dev/project/src/${rng.pick(WORDS)}.ts:${rng.int(1, 400)}:${rng.int(1, 80)})`,
      );
    else out.push(`${String(i + 1).padStart(4, ' ')}\t${codeLine(rng)}`);
  }
  return out.join('\n');
}
