/**
 * Tag synonyms and intersections on a built site (tests/fixtures/tag-synonyms, pageSize 5,
 * intersections of 3 topics or more, 2 pages at most): synonyms counted under their tag everywhere,
 * their old pages and feeds leading to it, descriptions, related tags, intersection pages with their
 * pages and feeds, the build's line, and tags.json's problems the same from validate and build.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSite } from '../helpers/build.ts';
import { runScript } from '../helpers/cli.ts';
import { copyFixture, fixturesDir, problemLines, problemPath, tempConfig } from './fixture-copies.ts';
import { fileForPath, readPage, tagCountOnTagsPage, textOf } from './built-site.ts';

const SITE = 'https://fixture.example';
let outDir: string;
let stdout: string;
let config: ReturnType<typeof tempConfig>;

beforeAll(async () => {
  config = tempConfig('{ pageSize: 5, intersections: { minTopics: 3, maxPages: 2 } }');
  ({ outDir, result: { stdout } } = await buildSite(join(fixturesDir, 'tag-synonyms'), config.env));
});

afterAll(() => config?.remove());

const slugsOn = (path: string) => readPage(outDir, path).querySelectorAll('[data-results] [data-result]').map((entry) => entry.getAttribute('data-topic'));
const file = (path: string) => readFileSync(fileForPath(outDir, path)!, 'utf8');

describe('synonyms', () => {
  it('count under their canonical tag on /tags/, which lists no synonym', () => {
    const tags = readPage(outDir, '/tags/');
    expect(tagCountOnTagsPage(tags, 'javascript')).toBe(7);
    expect(tagCountOnTagsPage(tags, 'web')).toBe(6);
    for (const synonym of ['js', 'ecmascript', 'www']) expect(tagCountOnTagsPage(tags, synonym)).toBeUndefined();
  });

  it('list their topics on the canonical tag page, which shows its description', () => {
    const page = readPage(outDir, '/tags/javascript/');
    expect(textOf(page.querySelector('[data-search-heading]'))).toBe("Showing results for tags 'javascript'");
    expect(textOf(page.querySelector('[data-result-count]'))).toBe('Found 7 results');
    expect(textOf(page.querySelector('[data-tag-description]'))).toBe('Scripts in JavaScript: snippets, libraries and questions about the language.');
    expect(page.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('Scripts in JavaScript: snippets, libraries and questions about the language.');
    expect([...slugsOn('/tags/javascript/'), ...slugsOn('/tags/javascript/2/')].sort()).toEqual(
      ['both-spellings', 'fetch-json-api', 'json-diff', 'json-schema-check', 'json-to-csv', 'parse-json-in-js', 'pretty-print-json'],
    );
    expect(readPage(outDir, '/tags/api/').querySelector('[data-tag-description]')).toBeNull();
  });

  it('show as the canonical tag on topics and in the search index', () => {
    const topic = readPage(outDir, '/topics/parse-json-in-js/');
    const tags = topic.querySelectorAll('a[data-tag]').map((a) => a.getAttribute('data-tag'));
    expect(tags).toContain('javascript');
    expect(tags).not.toContain('js');
    const core = JSON.parse(file('/search-index/core.json')) as { tagNames: string[]; tagSynonyms: Array<[string, number]> };
    expect(core.tagNames).not.toContain('js');
    expect(core.tagSynonyms.map(([synonym, id]) => [synonym, core.tagNames[id]])).toEqual([['js', 'javascript'], ['ecmascript', 'javascript'], ['www', 'web']]);
  });

  it('have their old page as a redirect page to the canonical tag, left out of the sitemap', () => {
    for (const [synonym, tag] of [['js', 'javascript'], ['ecmascript', 'javascript'], ['www', 'web']]) {
      const page = readPage(outDir, `/tags/${synonym}/`);
      expect(page.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${SITE}/tags/${tag}/`);
      expect(page.querySelector('meta[http-equiv="refresh"]')?.getAttribute('content')).toBe(`0; url=/tags/${tag}/`);
      expect(page.querySelector('[data-redirect] a')?.getAttribute('href')).toBe(`/tags/${tag}/`);
      expect(page.querySelector('script')).toBeNull();
    }
    expect(file('/sitemap-0.xml')).not.toContain('/tags/js/');
    expect(file('/sitemap-0.xml')).toContain('/tags/javascript/');
  });

  it('have their old feed carry the canonical tag’s, and both old addresses in _redirects', () => {
    expect(file('/tags/js/rss.xml')).toBe(file('/tags/javascript/rss.xml'));
    expect(file('/_redirects').split('\n').filter((line) => line && !line.startsWith('#'))).toEqual([
      '/tags/js/ /tags/javascript/ 301',
      '/tags/js/rss.xml /tags/javascript/rss.xml 301',
      '/tags/ecmascript/ /tags/javascript/ 301',
      '/tags/ecmascript/rss.xml /tags/javascript/rss.xml 301',
      '/tags/www/ /tags/web/ 301',
      '/tags/www/rss.xml /tags/web/rss.xml 301',
    ]);
  });
});

describe('intersections', () => {
  it('list related tags on a tag page with counts, linking to the pair’s page or to the search', () => {
    const related = readPage(outDir, '/tags/javascript/').querySelectorAll('[data-related-tags] [data-related-tag]');
    expect(related.map((a) => [a.getAttribute('data-related-tag'), a.getAttribute('href'), textOf(a.nextElementSibling)])).toEqual([
      ['json', '/tags/intersection/javascript/json/', '(7)'],
      ['api', '/search/?tags=api,javascript&match=all', '(1)'],
    ]);
    const css = readPage(outDir, '/tags/css/').querySelector('[data-related-tag="web"]');
    expect(css?.getAttribute('href')).toBe('/search/?tags=css,web&match=all');
  });

  it('are built for the most shared pairs within the budget, with the listing’s hooks and pages', () => {
    const first = readPage(outDir, '/tags/intersection/javascript/json/');
    expect(textOf(first.querySelector('[data-search-heading]'))).toBe("Showing results for tags 'javascript' and 'json'");
    expect(textOf(first.querySelector('[data-result-count]'))).toBe('Found 7 results');
    expect(slugsOn('/tags/intersection/javascript/json/')).toEqual(['json-diff', 'fetch-json-api', 'json-to-csv', 'both-spellings', 'pretty-print-json']);
    expect(first.querySelector('[data-pagination] a[rel="next"]')?.getAttribute('href')).toBe('/tags/intersection/javascript/json/2/');
    const second = readPage(outDir, '/tags/intersection/javascript/json/2/');
    expect(textOf(second.querySelector('[data-result-count]'))).toBe('Found 7 results');
    expect(slugsOn('/tags/intersection/javascript/json/2/')).toEqual(['json-schema-check', 'parse-json-in-js']);
    expect(second.querySelector('[data-pagination] a[rel="prev"]')?.getAttribute('href')).toBe('/tags/intersection/javascript/json/');
    expect(slugsOn('/tags/intersection/api/web/')).toEqual(['rate-limits', 'webhook-listener', 'rest-client']);
    expect(fileForPath(outDir, '/tags/intersection/css/web/')).toBeUndefined();
  });

  it('have a feed each, linked from the page', () => {
    const feed = file('/tags/intersection/javascript/json/rss.xml');
    expect(feed).toContain(`<atom:link href="${SITE}/tags/intersection/javascript/json/rss.xml" rel="self"`);
    expect(feed).toContain('topics tagged both &apos;javascript&apos; and &apos;json&apos;');
    expect(feed.match(/<item>/g)).toHaveLength(7);
    const page = readPage(outDir, '/tags/intersection/javascript/json/');
    expect(page.querySelector('link[rel="alternate"][href="/tags/intersection/javascript/json/rss.xml"]')).not.toBeNull();
  });

  it('are counted in the build’s output, with the pairs the budget left out', () => {
    expect(stdout).toContain("2 tag intersection pages; intersections.maxPages left out 1 pair: 'css' + 'web' (3)");
  });
});

it('tags.json problems are the same lines from validate and build, and nothing is built', async () => {
  const dir = copyFixture('tag-synonyms');
  writeFileSync(join(dir, 'tags.json'), '{\n  "javascript": { "synonyms": ["js"] },\n  "ecmascript": { "synonyms": ["js", "javascript"] }\n}\n');
  const tagsFile = problemPath(dir, 'tags.json');
  const expected = [
    `${tagsFile}:3: ecmascript.synonyms[0]: 'js' is already a synonym of 'javascript': a synonym belongs to one tag only`,
    `${tagsFile}:3: ecmascript.synonyms[1]: a chain of synonyms: 'javascript' is a synonym of 'ecmascript' and has synonyms of its own ('js'): list those under 'ecmascript' and remove the entry 'javascript'`,
  ];
  const validate = await runScript('validate', ['--content', dir]);
  expect(validate.code).toBe(1);
  expect(problemLines(validate.stderr)).toEqual(expected);
  const build = await runScript('build', ['--content', dir, '--out', join(dir, '..', 'dist')]);
  expect(build.code).toBe(1);
  expect(problemLines(build.stderr)).toEqual(expected);
  expect(fileForPath(join(dir, '..', 'dist'), '/index.html')).toBeUndefined();
});
