import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Window } from 'happy-dom';
import { afterAll, describe, expect, it } from 'vitest';
import { readConversation, siteOf } from './index';
import type { CapturedConversation } from './types';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SHARED = path.resolve(ROOT, '../shared/fixtures');
const PAGES = path.join(SHARED, 'web-pages');
const has = fs.existsSync(PAGES);
if (!has) console.warn('skipping: ../shared/fixtures not found');

const windows: Window[] = [];
afterAll(async () => {
  for (const w of windows) await w.happyDOM.close();
});

/** Parses `html` as the page at `url` (no script runs, nothing is fetched). */
function page(html: string, url: string): Document {
  const w = new Window({
    url,
    settings: {
      disableJavaScriptEvaluation: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
    },
  });
  windows.push(w);
  w.document.write(html);
  return w.document as unknown as Document;
}
const read = (html: string, url: string) => readConversation(page(html, url), url);
const fixture = (file: string, url: string) => read(fs.readFileSync(path.join(PAGES, file), 'utf8'), url);
const texts = (c: CapturedConversation) =>
  c.messages.map((m) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n\n'));
const roles = (c: CapturedConversation) => c.messages.map((m) => m.role[0]).join('');

describe.skipIf(!has)('site readers on the saved pages', () => {
  it('chatgpt-chat-code.html: user question, answer with a fenced TypeScript block, model slug', () => {
    const c = fixture('chatgpt-chat-code.html', 'https://chatgpt.com/c/abc');
    const code = [
      'function isPrime(n: number): boolean {',
      '  if (n <= 1) return false;',
      '  if (n <= 3) return true;',
      '  if (n % 2 === 0 || n % 3 === 0) return false;',
      '',
      '  for (let i = 5; i * i <= n; i += 6) {',
      '    if (n % i === 0 || n % (i + 2) === 0) {',
      '      return false;',
      '    }',
      '  }',
      '  return true;',
      '}',
      '',
      '// Usage examples',
      'console.log(isPrime(7));  // true',
      'console.log(isPrime(10)); // false',
    ].join('\n');
    expect(c).toEqual({
      site: 'chatgpt',
      url: 'https://chatgpt.com/c/abc',
      messages: [
        {
          role: 'user',
          parts: [{ type: 'text', text: 'Write a function to check if a number is prime in TypeScript.' }],
        },
        {
          role: 'assistant',
          model: 'gpt-4',
          parts: [
            {
              type: 'text',
              text: `Here's a TypeScript function to check if a number is prime:\n\n\`\`\`typescript\n${code}\n\`\`\`\n\nThis implementation uses the 6k±1 optimization for better performance.`,
            },
          ],
        },
      ],
      partial: false,
      partialReason: 'The page shows the conversation from its first turn.',
    });
  });

  it('chatgpt-chat-simple.html: 11 messages in order, models, citations as links, KaTeX as TeX, no favicons', () => {
    const c = fixture('chatgpt-chat-simple.html', 'https://chatgpt.com/c/x');
    expect(roles(c)).toBe('uauauauaaua');
    expect(c.messages.map((m) => m.model ?? '-')).toEqual([
      '-',
      'gpt-5-2',
      '-',
      'gpt-5-2',
      '-',
      'research',
      '-',
      'research',
      '-',
      '-',
      'gpt-5-2',
    ]);
    const t = texts(c);
    expect(t[0]).toBe('ChatGPTのhtml構造をテストするための質問です。「はい」とだけ答えて。');
    expect(t[1]).toBe('はい');
    expect(t[3]).toBe('いいえ');
    expect(
      t[8]!.startsWith('# ChatGPTの機能概要\n\nChatGPTは会話形式のAIアシスタントで、**質問回答や概念説明**、'),
    ).toBe(true);
    expect(t[8]).toContain(
      '[help.openai.com](https://help.openai.com/en/articles/9260256-chatgpt-capabilities-overview',
    );
    expect(t[8]).toContain('\n\n## 主な機能・特徴\n\n- **文章生成・編集**：');
    expect(t[9]).toBe('数式を表現できますか。できるならいくつか数式を表示して。');
    expect(
      t[10]!.startsWith(
        'はい、数式を表現できます。いくつか例を示します。\n\n**基本的な数式**\n\n- 一次方程式：\n  $ax + b = 0$\n- 二次方程式の解：\n  $x = \\dfrac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}$',
      ),
    ).toBe(true);
    expect(t[10]!.endsWith('必要であれば、特定分野（物理・機械学習・暗号など）の数式も表示できます。')).toBe(true);
    // Citation favicons are not images of the conversation.
    expect(c.messages.flatMap((m) => m.parts).filter((p) => p.type === 'image')).toEqual([]);
    expect(c.partial).toBe(false);
  });

  it('claude-chat-simple.html: 7 exchanges, tool-use status lines left out, artifacts labelled, display and inline math', () => {
    const c = fixture('claude-chat-simple.html', 'https://claude.ai/chat/x');
    expect(roles(c)).toBe('ua'.repeat(7));
    expect(c.messages.every((m) => m.model === undefined)).toBe(true);
    const t = texts(c);
    expect(t[0]).toBe('Claude の html構造をテストするための質問です。「はい」とだけ答えて。');
    expect(t[1]).toBe('はい');
    expect(t[5]).toBe(
      'Claude Code の概要をまとめた artifact を作成しました。VSCode 拡張機能のバージョン問題についても注記を入れておきました。\n\n' +
        '[Artifact: Claude code overview (Code · HTML); its content is not on the page and was not captured]',
    );
    expect(t.join('\n')).not.toContain('Created a file');
    expect(t[7]).toContain('\n\n1. **調査の深さ**: 基本的な機能概要で十分ですか');
    expect(t[12]).toBe('chat で数式を表示できますか。');
    expect(
      t[13]!.startsWith(
        'はい、チャット上でも数式を表示できます。LaTeX 記法を使うと、以下のように表示されます：\n\n**二次方程式の解の公式：**\n\n$$x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}$$',
      ),
    ).toBe(true);
    expect(
      t[13]!.endsWith(
        'インライン数式も可能です：質量エネルギー等価式 $E = mc^2$ や、ピタゴラスの定理 $a^2 + b^2 = c^2$ のように文中に埋め込めます。',
      ),
    ).toBe(true);
    expect(c.title).toBe('Claude の HTML構造テスト');
    expect(c.partial).toBe(false);
    expect(c.partialReason).toContain('cannot be detected');
  });

  it('gemini-chat-simple.html: 3 exchanges, hidden "your prompt" labels left out, data-math formulas', () => {
    const c = fixture('gemini-chat-simple.html', 'https://gemini.google.com/app/x');
    expect(roles(c)).toBe('uauaua');
    const t = texts(c);
    expect(t.slice(0, 5)).toEqual([
      // The saved page was pretty-printed: the line break inside the prompt comes from that.
      'gemini chat の E2E\nテストのための質問をします。理解したら「はい」だけ回答してください。',
      'はい',
      'ありがとうございます。次は「いいえ」と回答してください。',
      'いいえ',
      'いくつか数式をLaTeX形式で表示して。',
    ]);
    expect(
      t[5]!.startsWith(
        '承知いたしました。いくつか代表的な数式を LaTeX 形式で表示します。\n\n## 物理学・数学の主要な数式\n\n- **アインシュタインの質能等価性:**\n\n  $$E = mc^2$$',
      ),
    ).toBe(true);
    expect(t[5]!.endsWith('---\n\n他にご希望の特定の分野（統計学、行列、微積分など）の数式はありますか？')).toBe(true);
    expect(t.join('\n')).not.toContain('あなたのプロンプト');
    expect(c.messages.flatMap((m) => m.parts).filter((p) => p.type === 'image')).toEqual([]);
  });
});

describe('site readers on small pages', () => {
  it('siteOf accepts only the three exact origins', () => {
    expect(
      ['https://chatgpt.com/c/1', 'https://claude.ai/chat/1', 'https://gemini.google.com/app/1'].map(siteOf),
    ).toEqual(['chatgpt', 'claude', 'gemini']);
    for (const u of [
      'http://chatgpt.com/',
      'https://chatgpt.com.evil.example/',
      'https://evil.example/',
      'https://www.claude.ai/',
      'not a url',
    ])
      expect(siteOf(u)).toBeUndefined();
    expect(() => read('<p>x</p>', 'https://evil.example/')).toThrow(/Not a chat page/);
  });

  it('I1: HTML typed in a message stays literal text', () => {
    const c = read(
      `<article data-testid="conversation-turn-1"><div data-message-author-role="user"><div class="whitespace-pre-wrap">&lt;img src=x onerror=alert(1)&gt; hi</div></div></article>` +
        `<article data-testid="conversation-turn-2"><div data-message-author-role="assistant"><div class="markdown"><p>&lt;script&gt;x()&lt;/script&gt;</p></div></div></article>`,
      'https://chatgpt.com/c/1',
    );
    expect(texts(c)).toEqual(['<img src=x onerror=alert(1)> hi', '<script>x()</script>']);
  });

  it('chatgpt: a page starting at turn 5 is partial; images are references in order; fallback to article[data-turn]', () => {
    const c = read(
      `<article data-testid="conversation-turn-5" data-turn="user"><div data-message-author-role="user">` +
        `<button aria-label="Open image"><img src="/backend-api/estuary/content?id=file_1" width="400" height="300" alt="Uploaded image"><span>Open</span></button><div class="whitespace-pre-wrap">What is this?</div></div></article>` +
        `<article data-testid="conversation-turn-6" data-turn="assistant"><div data-message-author-role="assistant"><div class="markdown"><p>A cat. \`x\`</p><p><img src="https://files.example/cat.png"></p><pre><div>python</div><code class="language-python">print("\`\`\`")\n</code></pre></div></div></article>`,
      'https://chatgpt.com/c/1',
    );
    expect(c.partial).toBe(true);
    expect(c.partialReason).toBe('The page starts at turn 5: earlier turns are not loaded.');
    expect(c.messages).toEqual([
      {
        role: 'user',
        parts: [
          { type: 'image', url: 'https://chatgpt.com/backend-api/estuary/content?id=file_1' },
          { type: 'text', text: 'What is this?' },
        ],
      },
      {
        role: 'assistant',
        parts: [
          { type: 'text', text: 'A cat. `x`' },
          { type: 'image', url: 'https://files.example/cat.png' },
          { type: 'text', text: '````python\nprint("```")\n````' },
        ],
      },
    ]);
    const fallback = read(
      '<article data-turn="user"><p>Hi</p></article><article data-turn="assistant"><p>Hello <em>you</em></p></article>',
      'https://chatgpt.com/c/2',
    );
    expect(fallback.messages).toEqual([
      { role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'Hello *you*' }] },
    ]);
    expect(fallback.partial).toBe(false);
    expect(fallback.partialReason).toBe('The page numbers no turns, so hidden earlier turns cannot be detected.');
  });

  it('gemini: code-block with its language header, table, ordered list', () => {
    const c = read(
      `<user-query><div class="query-text"><span class="cdk-visually-hidden">You said</span><p class="query-text-line">Line one</p><p class="query-text-line">Line two</p></div></user-query>` +
        `<model-response><message-content><div class="markdown"><p>See:</p><code-block><div class="code-block-decoration"><span>Python</span><button>Copy</button></div><pre><code>x = 1\n</code></pre></code-block>` +
        `<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2|3</td></tr></table><ol start="3"><li>three</li><li>four</li></ol></div></message-content></model-response>`,
      'https://gemini.google.com/app/1',
    );
    expect(c.messages).toEqual([
      { role: 'user', parts: [{ type: 'text', text: 'Line one\nLine two' }] },
      {
        role: 'assistant',
        parts: [
          {
            type: 'text',
            text: 'See:\n\n```python\nx = 1\n```\n\n| a | b |\n| --- | --- |\n| 1 | 2\\|3 |\n\n3. three\n4. four',
          },
        ],
      },
    ]);
  });

  it('claude: answers without markdown blocks are read whole; an empty page has no messages', () => {
    const c = read(
      `<div data-testid="user-message"><p class="whitespace-pre-wrap">a\n  b</p></div><div class="font-claude-message"><p>Plain answer</p><button>Retry</button></div>`,
      'https://claude.ai/chat/1',
    );
    expect(c.messages).toEqual([
      { role: 'user', parts: [{ type: 'text', text: 'a\nb' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'Plain answer' }] },
    ]);
    expect(read('<main><p>New chat</p></main>', 'https://claude.ai/new').messages).toEqual([]);
  });
});
