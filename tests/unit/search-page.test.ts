// The search page's last touches (src/build/search-page.ts): words.json written into its
// first-paint script, where a browser's parser reads exactly the text, whatever it holds, with
// nothing else of the page changed; and the site's stylesheet inside the page instead of a link.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { DomUtils, parseDocument } from 'htmlparser2';
import { folderListing } from '../../src/build/folder-files.ts';
import { finishSearchPage, restamped, withInlineStylesheets, withInlineWords } from '../../src/build/search-page.ts';

const PAGE = [
  '<!doctype html><html><head><title>Search</title>',
  '<script data-words-index="/search-index/words.json" data-core-index="/search-index/core.json">var x = 1;</script>',
  '<link rel="stylesheet" href="/_astro/a.css"></head>',
  "<body><p>data-words='not this' &lt;script data-words-index=&quot;x&quot;&gt;</p><script type=\"module\" src=\"/_astro/b.js\"></script></body></html>",
].join('');

const CSS = 'html[data-address-filters] [data-answer]{display:none}.a>b{color:red}';

/** The page's stylesheet links (their addresses) and `<style>` elements (their text), in order. */
function styles(html: string) {
  const { findAll, getAttributeValue, textContent } = DomUtils;
  const document = parseDocument(html);
  const links = findAll((element) => element.name === 'link' && getAttributeValue(element, 'rel') === 'stylesheet', document.children);
  const inline = findAll((element) => element.name === 'style', document.children);
  return { links: links.map((link) => getAttributeValue(link, 'href')), inline: inline.map((style) => textContent(style)) };
}

/** What a parser makes of the page: each script's data-words, and the body's text. */
function parsed(html: string) {
  const { findAll, getAttributeValue, textContent } = DomUtils;
  const document = parseDocument(html);
  const scripts = findAll((element) => element.name === 'script', document.children);
  const body = findAll((element) => element.name === 'body', document.children)[0]!;
  return { words: scripts.map((script) => getAttributeValue(script, 'data-words')), scriptText: scripts.map((script) => textContent(script)), body: textContent(body) };
}

describe('words.json in the search page', () => {
  it("is read back exactly from the first-paint script's attribute, whatever the text holds, and the rest of the page is as it was", () => {
    const before = parsed(PAGE);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '"', "'", '&', '<', '>', '&amp;', '&#39;', 'é', ' ', '/', '{') }), (text) => {
        const words = JSON.stringify({ postingBounds: [text, 'b'], vocabKeys: ['61'] });
        const html = withInlineWords(PAGE, words)!;
        const after = parsed(html);
        expect(after.words).toEqual([words, undefined]);
        expect(after.scriptText).toEqual(before.scriptText);
        expect(after.body).toBe(before.body);
        expect(html.replace(/ data-words='[^']*'/, '')).toBe(PAGE);
      }),
      { numRuns: 300 },
    );
  });

  it('replaces the words a page already holds (a page written again), and leaves a page without the script alone', () => {
    const once = withInlineWords(PAGE, '{"count":1}')!;
    const again = withInlineWords(once, '{"count":2}')!;
    expect(parsed(again).words[0]).toBe('{"count":2}');
    expect(again).toBe(withInlineWords(PAGE, '{"count":2}'));
    expect(withInlineWords(once, '{"count":1}')).toBe(once);
    expect(withInlineWords('<html><head><script>var x;</script></head><body data-words-index="x"></body></html>', '{}')).toBeUndefined();
  });

  it("writes into the built search page, with the site's stylesheet, and a listing taken before gets the page's new size", () => {
    const fresh = mkdtempSync(join(tmpdir(), 'tagsite-search-page-'));
    const outDir = mkdtempSync(join(tmpdir(), 'tagsite-search-page-out-'));
    try {
      expect(finishSearchPage(fresh, outDir, '{}'), 'a site without a search page').toBeUndefined();
      mkdirSync(join(fresh, 'search'));
      mkdirSync(join(fresh, '_astro'));
      writeFileSync(join(fresh, '_astro', 'a.css'), CSS);
      writeFileSync(join(fresh, 'search', 'index.html'), PAGE);
      writeFileSync(join(fresh, 'index.html'), PAGE);
      const listed = folderListing(fresh);
      const path = finishSearchPage(fresh, outDir, '{"count":3}')!;
      expect(path).toBe(join('search', 'index.html'));
      const html = readFileSync(join(fresh, path), 'utf8');
      expect(parsed(html).words[0]).toBe('{"count":3}');
      expect(styles(html)).toEqual({ links: [], inline: [CSS] });
      expect(readFileSync(join(fresh, 'index.html'), 'utf8'), 'other pages stay').toBe(PAGE);
      expect(restamped(listed, fresh, path)).toEqual(folderListing(fresh));
      expect(listed).not.toEqual(folderListing(fresh));
    } finally {
      rmSync(fresh, { recursive: true, force: true });
      rmSync(outDir, { recursive: true, force: true });
    }
  });

  it("takes the stylesheet from the output when the new folder has none (a rebuild in place keeps the browser's files there), and keeps the link when neither has it", () => {
    const fresh = mkdtempSync(join(tmpdir(), 'tagsite-search-page-'));
    const outDir = mkdtempSync(join(tmpdir(), 'tagsite-search-page-out-'));
    try {
      mkdirSync(join(fresh, 'search'));
      writeFileSync(join(fresh, 'search', 'index.html'), PAGE);
      const path = join(fresh, finishSearchPage(fresh, outDir, '{}')!);
      expect(styles(readFileSync(path, 'utf8'))).toEqual({ links: ['/_astro/a.css'], inline: [] });
      mkdirSync(join(outDir, '_astro'));
      writeFileSync(join(outDir, '_astro', 'a.css'), CSS);
      writeFileSync(path, PAGE);
      finishSearchPage(fresh, outDir, '{}');
      expect(styles(readFileSync(path, 'utf8'))).toEqual({ links: [], inline: [CSS] });
    } finally {
      rmSync(fresh, { recursive: true, force: true });
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

describe("the site's stylesheet in the search page", () => {
  const page = (links: string) => `<!doctype html><html><head>${links}<style>.own{}</style></head><body><p>x</p></body></html>`;
  const files: Record<string, string> = { 'a.css': CSS, 'b.css': 'p{margin:0}' };
  const read = (name: string) => files[name];

  it("replaces each link to a bundled stylesheet by the file's text, in its place, under any base path", () => {
    const html = withInlineStylesheets(page('<link rel="stylesheet" href="/docs/_astro/a.css"><link rel="stylesheet" href="/_astro/b.css">'), read);
    expect(styles(html)).toEqual({ links: [], inline: [CSS, 'p{margin:0}', '.own{}'] });
    expect(DomUtils.textContent(parseDocument(html)).endsWith('x')).toBe(true);
  });

  it('keeps the link of a file it cannot read, of a stylesheet elsewhere, and of CSS that would not read the same inline', () => {
    const kept = {
      'relative.css': "a{background:url('icon.svg')}",
      'import.css': "@import 'other.css';",
      'ends.css': 'a::after{content:"</style><script>alert(1)</script>"}',
    };
    const readKept = (name: string) => ({ ...files, ...kept })[name];
    for (const name of [...Object.keys(kept), 'missing.css']) {
      const html = page(`<link rel="stylesheet" href="/_astro/${name}">`);
      expect(withInlineStylesheets(html, readKept), name).toBe(html);
    }
    const elsewhere = page('<link rel="stylesheet" href="https://cdn.example/x/a.css"><link rel="stylesheet" href="/styles/a.css">');
    expect(withInlineStylesheets(elsewhere, read)).toBe(elsewhere);
    const absolute = "a{background:url(/icon.svg)}b{background:url(data:image/png;base64,AA)}c{mask:url(#m)}";
    expect(styles(withInlineStylesheets(page('<link rel="stylesheet" href="/_astro/abs.css">'), () => absolute)).inline[0]).toBe(absolute);
  });
});
