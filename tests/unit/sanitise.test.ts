import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse, type HTMLElement } from 'node-html-parser';
import { renderTopicHtml, safeUrl } from '../../src/content/markdown.ts';

const FORBIDDEN_ELEMENTS = [
  'script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'style', 'link', 'form', 'button', 'select',
  'textarea', 'base', 'meta', 'svg', 'math', 'template', 'video', 'audio', 'source', 'noscript', 'xmp', 'plaintext',
];
const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'poster', 'background', 'data', 'cite', 'srcset', 'xlink:href'];
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);

/** Parses HTML with every element's content as markup (by default node-html-parser keeps `<pre>` as raw text). */
const parseHtml = (html: string) => parse(html, { comment: true, blockTextElements: {} });

/** The scheme a browser would see: it ignores C0 controls and spaces around and tabs/newlines inside a URL. */
function schemeOf(url: string): string | undefined {
  const cleaned = url.replace(/[\u0000-\u0020\u007f]/g, '');
  return /^([a-z][a-z0-9+.-]*):/i.exec(cleaned)?.[1]?.toLowerCase();
}

/** Every way the HTML could still run script: forbidden elements, event handlers, unsafe URLs, inline styles. */
function dangers(html: string): string[] {
  const found: string[] = [];
  // A second look at the raw text: every `<` left in sanitised HTML must open an element (text is escaped).
  for (const match of html.matchAll(/<\/?\s*([a-z][^\s/>]*)/gi)) {
    if (FORBIDDEN_ELEMENTS.includes(match[1]!.toLowerCase())) found.push(`raw <${match[1]}>`);
  }
  const root = parseHtml(html);
  for (const element of root.querySelectorAll('*') as HTMLElement[]) {
    const name = element.rawTagName.toLowerCase();
    if (FORBIDDEN_ELEMENTS.includes(name)) found.push(`<${name}>`);
    if (name === 'input' && element.getAttribute('type') !== 'checkbox') found.push(`<input type=${element.getAttribute('type')}>`);
    for (const [attribute, value] of Object.entries(element.attributes)) {
      const key = attribute.toLowerCase();
      if (key.startsWith('on')) found.push(`${name}[${key}]`);
      if (key === 'style' || key === 'srcdoc' || key === 'http-equiv') found.push(`${name}[${key}]`);
      if (URL_ATTRIBUTES.includes(key)) {
        const scheme = schemeOf(value);
        if (scheme !== undefined && !SAFE_SCHEMES.has(scheme)) found.push(`${name}[${key}=${value}]`);
        if (/^[\u0000-\u0020]*[/\\]{2}/.test(value)) found.push(`${name}[${key}] protocol-relative`);
      }
    }
  }
  return found;
}

const HOSTILE: [string, string][] = [
  ['script element', '<script>alert(1)</script>'],
  ['upper-case script with src', '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>'],
  ['nested script trick', '<scr<script>ipt>alert(1)</script>'],
  ['script inside a paragraph', 'Hello <script>alert(1)</script> there'],
  ['img onerror', '<img src=x onerror=alert(1)>'],
  ['img onerror, mixed case', '<IMG SRC="x" ONERROR="alert(1)">'],
  ['img javascript src', '<IMG SRC=JaVaScRiPt:alert(1)>'],
  ['img srcset', '<img srcset="javascript:alert(1) 1x">'],
  ['svg onload', '<svg onload=alert(1)>'],
  ['svg script', '<svg><script>alert(1)</script></svg>'],
  ['svg xlink link', '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>'],
  ['math xlink', '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>'],
  ['javascript href', '<a href="javascript:alert(1)">x</a>'],
  ['mixed-case scheme', '<a href="JaVaScRiPt:alert(1)">x</a>'],
  ['leading spaces', '<a href="   javascript:alert(1)">x</a>'],
  ['tab inside the scheme', '<a href="java\tscript:alert(1)">x</a>'],
  ['entity tab inside the scheme', '<a href="java&#x09;script:alert(1)">x</a>'],
  ['entity newline inside the scheme', '<a href="jav&#x0A;ascript:alert(1)">x</a>'],
  ['decimal entity', '<a href="&#106;avascript:alert(1)">x</a>'],
  ['hex entity', '<a href="&#x6A;avascript:alert(1)">x</a>'],
  ['entity with leading zeros', '<a href="&#0000106;avascript:alert(1)">x</a>'],
  ['entity without semicolon', '<a href="&#106avascript:alert(1)">x</a>'],
  ['named colon entity', '<a href="javascript&colon;alert(1)">x</a>'],
  ['every letter encoded', `<a href="${[...'javascript:alert(1)'].map((c) => `&#${c.charCodeAt(0)};`).join('')}">x</a>`],
  ['control character first', '<a href="\u0001javascript:alert(1)">x</a>'],
  ['entity control character first', '<a href="&#1;javascript:alert(1)">x</a>'],
  ['unquoted href', '<a href=javascript:alert(1)>x</a>'],
  ['vbscript', '<a href="vbscript:msgbox(1)">x</a>'],
  ['data html link', '<a href="data:text/html,<script>alert(1)</script>">x</a>'],
  ['data base64 link', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
  ['event handler on a safe link', '<a href="https://ok.example" onmouseover="alert(1)">hover</a>'],
  ['Markdown javascript link', '[x](javascript:alert(1))'],
  ['Markdown upper-case javascript link', '[x](JAVASCRIPT:alert(1))'],
  ['Markdown javascript link in brackets', '[x](<javascript:alert(1)>)'],
  ['Markdown link with entity', '[x](&#106;avascript:alert(1))'],
  ['Markdown link with escaped colon', '[x](javascript&#58;alert(1))'],
  ['Markdown autolink', '<javascript:alert(1)>'],
  ['Markdown reference link', '[x][evil]\n\n[evil]: javascript:alert(1)'],
  ['Markdown image', '![pic](javascript:alert(1))'],
  ['Markdown data link', '[x](data:text/html,hi)'],
  ['Markdown data image', '![pic](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)'],
  ['Markdown protocol-relative link', '[x](//evil.example/)'],
  ['iframe', '<iframe src="https://evil.example"></iframe>'],
  ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>'],
  ['object', '<object data="javascript:alert(1)"></object>'],
  ['embed', '<embed src="javascript:alert(1)">'],
  ['style element', '<style>body{background:url(javascript:alert(1))}</style>'],
  ['style attribute', '<p style="background:url(javascript:alert(1))">x</p>'],
  ['style attribute on a kept element', '<strong style="position:fixed;top:0">x</strong>'],
  ['form', '<form action="https://evil.example"><input name="x"><button formaction="javascript:alert(1)">go</button></form>'],
  ['text input', '<input type="text" value="x" autofocus onfocus="alert(1)">'],
  ['image input', '<input type="image" src="javascript:alert(1)">'],
  ['checkbox with handler', '<input type="checkbox" autofocus onfocus="alert(1)">'],
  ['base', '<base href="https://evil.example/">'],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ['link stylesheet', '<link rel="stylesheet" href="https://evil.example/x.css">'],
  ['details ontoggle', '<details open ontoggle=alert(1)><summary>s</summary>x</details>'],
  ['video poster', '<video poster="javascript:alert(1)"><source src="javascript:alert(1)"></video>'],
  ['noscript breakout', '<noscript><p title="</noscript><img src=x onerror=alert(1)>">'],
  ['textarea breakout', '<textarea><script>alert(1)</script></textarea>'],
  ['xmp', '<xmp><img src=x onerror=alert(1)></xmp>'],
  ['template', '<template><script>alert(1)</script></template>'],
  ['comment', '<!--<img src=x onerror=alert(1)>-->'],
  ['CDATA', '<![CDATA[<img src=x onerror=alert(1)>]]>'],
  ['attribute breakout', `<a title='"><script>alert(1)</script>' href="https://ok.example">x</a>`],
  ['select style breakout', '<select><style></select><img src=x onerror=alert(1)></style>'],
  ['table breakout', '<table><tr><td><a href="javascript:alert(1)">x</a></td></tr></table>'],
  ['HTML in a Markdown list', '- item <img src=x onerror=alert(1)>\n- <a href="javascript:alert(1)">x</a>'],
  ['HTML in a code block', '<pre><code><img src=x onerror=alert(1)></code></pre>'],
  ['HTML in a Markdown table', '| a |\n|---|\n| <img src=x onerror=alert(1)> |'],
];

// Every element the sanitiser keeps, with every kind of event handler and an inline style.
const KEPT_ELEMENTS = ['a href="https://ok.example"', 'img src="https://ok.example/p.png"', 'p', 'h2', 'code class="language-js"', 'pre', 'em', 'strong', 'ul', 'ol', 'li', 'table', 'td', 'th', 'blockquote', 'details', 'summary', 'input type="checkbox"', 'kbd', 'sup'];
const HANDLERS = ['onclick', 'onerror', 'onload', 'onmouseover', 'onfocus', 'ontoggle', 'onanimationstart', 'onpointerenter', 'OnClick', 'onbegin'];
for (const element of KEPT_ELEMENTS) {
  const name = element.split(' ')[0]!;
  const handlers = HANDLERS.map((handler) => `${handler}="alert(1)"`).join(' ');
  HOSTILE.push([`<${name}> with every event handler and a style`, `<${element} ${handlers} style="background:url(javascript:alert(1))">x</${name}>`]);
}

describe('renderTopicHtml keeps hostile input from running', () => {
  it.each(HOSTILE)('%s', (_name, markdown) => {
    const html = renderTopicHtml(markdown);
    expect(dangers(html)).toEqual([]);
  });

  it('the checker itself finds each kind of danger (so an empty list means something)', () => {
    expect(dangers('<script>x</script>')).not.toEqual([]);
    expect(dangers('<img src="x" onerror="y">')).not.toEqual([]);
    expect(dangers('<a href="&#106;avascript:x">a</a>')).not.toEqual([]);
    expect(dangers('<a href=" java\tscript:x">a</a>')).not.toEqual([]);
    expect(dangers('<p style="x">a</p>')).not.toEqual([]);
    expect(dangers('<a href="//evil.example">a</a>')).not.toEqual([]);
    expect(dangers('<pre><code><img src="x" onerror="y"></code></pre>')).not.toEqual([]);
  });

  it('stays safe when hostile pieces are mixed with each other and with Markdown', () => {
    const glue = ['\n', '\n\n', '- ', '> ', '| ', '`', '```\n', '**', '[', '](', ')', '<', '>', '"', "'", '&', '#'];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...HOSTILE.map(([, markdown]) => markdown)), fc.constantFrom(...glue)), { maxLength: 12 }), (parts) => {
        expect(dangers(renderTopicHtml(parts.join('')))).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the text of removed markup that is not code (a reader loses no words)', () => {
    expect(renderTopicHtml('<div>kept words</div>')).toContain('kept words');
    expect(renderTopicHtml('<script>alert("gone")</script>')).not.toContain('gone');
  });
});

describe('renderTopicHtml keeps harmless Markdown', () => {
  const html = renderTopicHtml(
    [
      '# Heading',
      'Some *em*, **strong**, ~~gone~~ and `inline <code>`.',
      '- one\n- two',
      '3. three\n4. four',
      '- [x] done\n- [ ] to do',
      '> quoted',
      '```js\nconst a = 1 < 2;\n```',
      '| name | value |\n|:-----|------:|\n| a | 1 |',
      '[https link](https://example.com/a?b=1&c=2) [http link](http://example.com/) [mail](mailto:someone@example.com) [local](/topics/x/) [anchor](#part)',
      '![a picture](https://example.com/p.png "Title")',
    ].join('\n\n'),
  );
  const root = parseHtml(html);

  it('lists, quotes and emphasis', () => {
    expect(root.querySelectorAll('ul > li').length).toBeGreaterThanOrEqual(2);
    expect(root.querySelector('ol')?.getAttribute('start')).toBe('3');
    expect(root.querySelector('blockquote')?.text.trim()).toBe('quoted');
    expect(root.querySelector('em')?.text).toBe('em');
    expect(root.querySelector('strong')?.text).toBe('strong');
    expect(root.querySelector('del')?.text).toBe('gone');
  });

  it('a heading of level 1 becomes level 2 (the title is the page’s h1)', () => {
    expect(root.querySelector('h1')).toBeNull();
    expect(root.querySelector('h2')?.text).toBe('Heading');
  });

  it('code blocks keep their language class and their text escaped', () => {
    const code = root.querySelector('pre > code');
    expect(code?.getAttribute('class')).toBe('language-js');
    expect(code?.text).toBe('const a = 1 < 2;\n');
    expect(html).toContain('1 &lt; 2');
    expect(root.querySelector('p > code')?.text).toBe('inline <code>');
  });

  it('a code block takes keyboard focus (it scrolls sideways on a phone), and no other attribute', () => {
    expect(root.querySelector('pre')?.getAttribute('tabindex')).toBe('0');
    const written = parse(renderTopicHtml('<pre tabindex="7" onclick="x()" style="color:red">y</pre>')).querySelector('pre')!;
    expect(written.attributes).toEqual({ tabindex: '0' });
  });

  it('tables with their alignment', () => {
    expect(root.querySelectorAll('table th').map((th) => th.text)).toEqual(['name', 'value']);
    expect(root.querySelectorAll('table td').map((td) => td.text)).toEqual(['a', '1']);
    expect(root.querySelectorAll('table th').map((th) => th.getAttribute('align'))).toEqual(['left', 'right']);
  });

  it('task lists as disabled checkboxes', () => {
    const boxes = root.querySelectorAll('input');
    expect(boxes.map((box) => box.getAttribute('type'))).toEqual(['checkbox', 'checkbox']);
    expect(boxes.every((box) => box.hasAttribute('disabled'))).toBe(true);
    expect(boxes[0]!.hasAttribute('checked')).toBe(true);
  });

  it('links with http, https, mailto and relative addresses, marked as user content', () => {
    const links = Object.fromEntries(root.querySelectorAll('a').map((a) => [a.text, a]));
    expect(links['https link']?.getAttribute('href')).toBe('https://example.com/a?b=1&c=2');
    expect(links['http link']?.getAttribute('href')).toBe('http://example.com/');
    expect(links['mail']?.getAttribute('href')).toBe('mailto:someone@example.com');
    expect(links['local']?.getAttribute('href')).toBe('/topics/x/');
    expect(links['anchor']?.getAttribute('href')).toBe('#part');
    expect(links['https link']?.getAttribute('rel')).toContain('ugc');
  });

  it('images with https addresses and alt text', () => {
    const img = root.querySelector('img');
    expect(img?.getAttribute('src')).toBe('https://example.com/p.png');
    expect(img?.getAttribute('alt')).toBe('a picture');
  });

  it('passes the whole harmless document without a danger', () => {
    expect(dangers(html)).toEqual([]);
  });
});

describe('addresses are checked as every reader reads them (WHATWG stripping and laxer readers)', () => {
  const invisible = [
    ...Array.from({ length: 0x21 }, (_, code) => code),
    0x7f, 0x85, 0xa0, 0xad, 0x1680, 0x180e, ...Array.from({ length: 11 }, (_, i) => 0x2000 + i),
    0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2028, 0x2029, 0x202f, 0x205f, 0x2060, 0x3000, 0xfeff,
  ];
  const schemes = ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'vbscript:msgbox(1)', 'data:text/html,<script>alert(1)</script>'];
  // What is left of every address in the output, with everything a reader might drop dropped.
  const addresses = (html: string) =>
    [...html.matchAll(/(?:href|src)="([^"]*)"/g)].map((m) => m[1]!.replace(/&#x?[0-9a-f]+;|&[a-z]+;/gi, '').replace(/[\p{White_Space}\p{Cc}\p{Cf}]/gu, '').toLowerCase());

  it('no javascript:, vbscript: or data: address survives in any spelling', () => {
    for (const code of invisible) {
      const entity = `&#x${code.toString(16)};`;
      for (const scheme of schemes) {
        const inside = `${scheme.slice(0, 4)}${entity}${scheme.slice(4)}`;
        for (const written of [`${entity}${scheme}`, inside, `${entity}${entity}${scheme}`]) {
          const html = renderTopicHtml(`<a href="${written}">x</a> <img src="${written}"> [y](${written.replace(/[()]/g, '')})`);
          for (const address of addresses(html)) expect(address, `${written} gave ${html}`).not.toMatch(/^(?:javascript|vbscript|data):/);
        }
      }
    }
  });

  it('the issue\'s spelling: &#x2000;javascript: loses its href', () => {
    expect(renderTopicHtml(`<a href='&#x2000;javascript:alert(1)'>x</a>`)).toBe('<p><a rel="nofollow ugc noopener">x</a></p>\n');
  });

  it('ordinary addresses stay as written', () => {
    for (const href of ['https://example.com/a?b=c#d', '/topics/x/', '#part', 'mailto:someone@example.com', 'page.html']) {
      expect(safeUrl(href, ['http', 'https', 'mailto']), href).toBe(true);
    }
    for (const href of ['\u2000javascript:x', 'java\tscript:x', '//evil.example/', 'data:,x', ' vbscript:x']) expect(safeUrl(href, ['http', 'https', 'mailto']), href).toBe(false);
  });
});
