/** The disclosure preview's block lines name tools and say a repeated reason once per group (docs/side-panel.md). */
import { describe, expect, it } from 'vitest';
import type { PreviewBlock } from '../../lib/messaging/disclosure-types';
import { blockGroups } from './disclosure-format';

const call = (
  index: number,
  name: string,
  fate: PreviewBlock['fate'] = 'kept',
  detail = 'sent as is',
): PreviewBlock => ({ index, type: 'tool_call', fate, detail, name });

describe('blockGroups', () => {
  it('names the tools of a run of calls: "3 tool calls: Bash, Glob ×2 — sent"', () => {
    const g = blockGroups([
      { index: 0, type: 'text', fate: 'kept', detail: 'sent as is' },
      call(1, 'Bash'),
      call(2, 'Glob'),
      call(3, 'Glob'),
    ]);
    expect(g.map((x) => x.line)).toEqual(['text: sent', '3 tool calls: Bash, Glob ×2 — sent']);
    expect(g[1]!.blocks.map((b) => b.index)).toEqual([1, 2, 3]);
  });

  it('says a repeated drop reason once per group, and splits where the fate or the reason changes', () => {
    const why = 'reasoning from another model';
    const g = blockGroups([
      { index: 0, type: 'thinking', fate: 'dropped', detail: why },
      { index: 1, type: 'thinking', fate: 'dropped', detail: why },
      { index: 2, type: 'tool_result', fate: 'id-mapped', detail: 'call id mapped', name: 'Read' },
      { index: 3, type: 'tool_result', fate: 'id-mapped', detail: 'call id mapped', name: 'Read' },
      call(4, 'Bash', 'dropped', 'excluded'),
    ]);
    expect(g.map((x) => x.line)).toEqual([
      '2 thinking blocks: not sent (reasoning from another model)',
      '2 tool results: Read ×2 — sent (id mapped) (call id mapped)',
      '1 tool call: Bash — not sent (excluded)',
    ]);
  });

  it('keeps one ordinary block as its own line', () => {
    expect(
      blockGroups([{ index: 0, type: 'image', fate: 'dropped', detail: 'image omitted' }]).map((x) => x.line),
    ).toEqual(['image: not sent (image omitted)']);
  });
});
