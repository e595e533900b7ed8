import { describe, expect, it } from 'vitest';
import { importFile } from './import-file';
import { firstSentence, humanParts, sessionTitle } from './session-title';

const line = (o: object) => JSON.stringify(o);
const bytes = (s: string) => new TextEncoder().encode(s);

describe('imported agent session titles (docs/side-panel.md, item 8)', () => {
  it('a Claude Code session opened with /init is titled by the command and its prompt, never <command-message> markup', () => {
    const file = [
      line({
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        sessionId: 's1',
        timestamp: '2026-01-01T00:00:00Z',
        message: {
          role: 'user',
          content:
            '<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>',
        },
      }),
      line({
        type: 'user',
        uuid: 'u2',
        parentUuid: 'u1',
        isMeta: true,
        sessionId: 's1',
        timestamp: '2026-01-01T00:00:01Z',
        message: {
          role: 'user',
          content: [{ type: 'text', text: 'Please analyze this codebase and create a CLAUDE.md file. More text.' }],
        },
      }),
      line({
        type: 'assistant',
        uuid: 'a1',
        parentUuid: 'u2',
        sessionId: 's1',
        timestamp: '2026-01-01T00:00:02Z',
        message: {
          id: 'm1',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: 'Done.' }],
          stop_reason: 'end_turn',
        },
      }),
    ].join('\n');
    const t = importFile('claude-code', bytes(file)).conversations[0]!;
    expect(t.title).toBe('/init: Please analyze this codebase and create a CLAUDE.md file.');
    expect(t.title).not.toMatch(/</);
  });

  it('prefers the first sentence the person typed over commands and CLI notes', () => {
    expect(
      sessionTitle([
        {
          text: '<command-name>/mcp</command-name>\n<command-message>mcp</command-message>\n<command-args></command-args>',
        },
        { text: '<system-reminder>Be brief.</system-reminder>\nFix the flaky login test. It fails on CI only.' },
      ]),
    ).toBe('Fix the flaky login test.');
    expect(
      sessionTitle([{ text: '[Request interrupted by user for tool use]' }, { text: 'Why is go.mod at 1.23?' }]),
    ).toBe('Why is go.mod at 1.23?');
    expect(
      sessionTitle([{ text: '<command-name>/review</command-name><command-args>the auth module</command-args>' }]),
    ).toBe('/review the auth module');
    expect(sessionTitle([{ text: '<environment_context>cwd=/x</environment_context>' }])).toBeUndefined();
  });

  it('keeps what is not agent markup, and sentences in any script', () => {
    expect(humanParts('How do I render <b>bold</b> in HTML?').prose).toBe('How do I render <b>bold</b> in HTML?');
    expect(firstSentence('幫我檢查一下 go.mod。然後再說')).toBe('幫我檢查一下 go.mod。');
    expect(firstSentence('v1.2 is out and 3.5 too')).toBe('v1.2 is out and 3.5 too');
  });
});
