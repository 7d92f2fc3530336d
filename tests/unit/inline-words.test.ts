// words.json written into the search page's first-paint script (src/build/inline-words.ts): what
// a browser's parser reads from the attribute is exactly the text, whatever it holds, and nothing
// else of the page changes.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { DomUtils, parseDocument } from 'htmlparser2';
import { folderListing } from '../../src/build/folder-files.ts';
import { inlineWords, restamped, withInlineWords } from '../../src/build/inline-words.ts';

const PAGE = [
  '<!doctype html><html><head><title>Search</title>',
  '<script data-words-index="/search-index/words.json" data-core-index="/search-index/core.json">var x = 1;</script>',
  '<link rel="stylesheet" href="/_astro/a.css"></head>',
  "<body><p>data-words='not this' &lt;script data-words-index=&quot;x&quot;&gt;</p><script type=\"module\" src=\"/_astro/b.js\"></script></body></html>",
].join('');

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

  it("writes into the built search page, and a listing taken before gets the page's new size", () => {
    const fresh = mkdtempSync(join(tmpdir(), 'tagsite-inline-words-'));
    try {
      expect(inlineWords(fresh, '{}'), 'a site without a search page').toBeUndefined();
      mkdirSync(join(fresh, 'search'));
      writeFileSync(join(fresh, 'search', 'index.html'), PAGE);
      writeFileSync(join(fresh, 'index.html'), PAGE);
      const listed = folderListing(fresh);
      const path = inlineWords(fresh, '{"count":3}')!;
      expect(path).toBe(join('search', 'index.html'));
      expect(parsed(readFileSync(join(fresh, path), 'utf8')).words[0]).toBe('{"count":3}');
      expect(readFileSync(join(fresh, 'index.html'), 'utf8'), 'other pages stay').toBe(PAGE);
      expect(restamped(listed, fresh, path)).toEqual(folderListing(fresh));
      expect(listed).not.toEqual(folderListing(fresh));
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
