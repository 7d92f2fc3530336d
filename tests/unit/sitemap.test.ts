import { describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { SyntaxValidator } from 'fast-xml-validator';
import { SITEMAP_URLS, sitemapFiles } from '../../src/outputs/sitemap.ts';
import { pageDates } from '../../src/build/page-dates.ts';
import type { Topic } from '../../src/content/topics.ts';

const parser = new XMLParser({ isArray: (name) => name === 'url' || name === 'sitemap' });
const locs = (xml: string) => (parser.parse(xml) as { urlset: { url: Array<{ loc: string }> } }).urlset.url.map((url) => url.loc);

describe('sitemapFiles', () => {
  it('lists every path once, as absolute addresses under the site root, escaped and sorted', () => {
    const files = sitemapFiles('https://example.org/community/', ['/tags/b/', '/', '/tags/a&b/', '/tags/日本語/']);
    expect([...files.keys()]).toEqual(['sitemap-index.xml', 'sitemap-0.xml']);
    for (const xml of files.values()) expect(() => SyntaxValidator.validate(xml)).not.toThrow();
    expect(locs(files.get('sitemap-0.xml')!)).toEqual([
      'https://example.org/community/',
      'https://example.org/community/tags/a&b/',
      'https://example.org/community/tags/b/',
      'https://example.org/community/tags/%E6%97%A5%E6%9C%AC%E8%AA%9E/',
    ]);
    expect(files.get('sitemap-0.xml')).toContain('tags/a&amp;b/');
    expect(files.get('sitemap-index.xml')).toContain('<loc>https://example.org/community/sitemap-0.xml</loc>');
  });

  it(`starts a new file after ${SITEMAP_URLS} addresses (the protocol allows 50,000 per file)`, () => {
    const paths = Array.from({ length: SITEMAP_URLS + 1 }, (_, i) => `/topics/t${String(i).padStart(6, '0')}/`);
    const files = sitemapFiles('https://example.org/', paths);
    expect([...files.keys()]).toEqual(['sitemap-index.xml', 'sitemap-0.xml', 'sitemap-1.xml']);
    expect(locs(files.get('sitemap-0.xml')!)).toHaveLength(SITEMAP_URLS);
    expect(locs(files.get('sitemap-1.xml')!)).toEqual([`https://example.org/topics/t${String(SITEMAP_URLS).padStart(6, '0')}/`]);
    const index = parser.parse(files.get('sitemap-index.xml')!) as { sitemapindex: { sitemap: Array<{ loc: string }> } };
    expect(index.sitemapindex.sitemap.map((entry) => entry.loc)).toEqual(['https://example.org/sitemap-0.xml', 'https://example.org/sitemap-1.xml']);
  });
});

describe('<lastmod>', () => {
  const topic = (slug: string, author: string, tags: string[], updated: string) => ({ slug, author, tags, updatedMs: Date.parse(`${updated}T12:00:00Z`) }) as unknown as Topic;
  const dated = pageDates([topic('old', 'mira', ['api', 'c++'], '2025-01-02'), topic('new', 'Kenji', ['api', '日本語'], '2026-03-04')]);

  it("dates a topic's page by its topic, a tag's and a member's pages by their newest topic, others by the site's newest", () => {
    expect(dated('/topics/old/')).toBe('2025-01-02');
    expect(dated('/tags/c~2b~2b/')).toBe('2025-01-02');
    expect(dated('/tags/api/')).toBe('2026-03-04');
    expect(dated('/tags/api/2/')).toBe('2026-03-04');
    expect(dated('/tags/%E6%97%A5%E6%9C%AC%E8%AA%9E/')).toBe('2026-03-04');
    expect(dated('/tags/日本語/')).toBe('2026-03-04');
    expect(dated('/members/mira/')).toBe('2025-01-02');
    expect(dated('/members/kenji/')).toBe('2026-03-04');
    expect(dated('/about/')).toBe('2026-03-04');
    expect(pageDates([])('/')).toBeUndefined();
  });

  it('dates a page that two names share (one member spelt two ways, tags of one slug) by the newest topic of either, in any order', () => {
    const older = topic('older', 'Kenji', ['C++'], '2024-01-01');
    const newer = topic('newer', 'kenji', ['c++'], '2025-05-05');
    for (const topics of [[older, newer], [newer, older]]) {
      const shared = pageDates(topics);
      expect(shared('/members/kenji/')).toBe('2025-05-05');
      expect(shared('/tags/c~2b~2b/')).toBe('2025-05-05');
      expect(shared('/topics/older/')).toBe('2024-01-01');
    }
  });

  it('is written for each address that has a date', () => {
    const xml = sitemapFiles('https://example.org/', ['/topics/old/', '/about/'], (path) => (path === '/about/' ? undefined : dated(path))).get('sitemap-0.xml')!;
    expect(() => SyntaxValidator.validate(xml)).not.toThrow();
    expect(xml).toContain('<url><loc>https://example.org/topics/old/</loc><lastmod>2025-01-02</lastmod></url>');
    expect(xml).toContain('<url><loc>https://example.org/about/</loc></url>');
  });
});
