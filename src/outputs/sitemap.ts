/**
 * The sitemap (sitemaps.org protocol): `sitemap-index.xml` naming `sitemap-0.xml`, `sitemap-1.xml` …,
 * each listing at most SITEMAP_URLS page addresses. Written by tagsite itself so the addresses are
 * sorted by plain comparison: a locale-aware sort (as @astrojs/sitemap's) is too slow for large sites.
 */
import { escapeXml } from './xml.ts';
import { absoluteUrl } from '../model/urls.ts';

/** The protocol allows 50,000 addresses per file; staying below leaves room. */
export const SITEMAP_URLS = 45_000;

/**
 * The sitemap files by name: the index first, then the chunks. `paths` are site paths (`/tags/api/`);
 * `lastModified` gives a page's `<lastmod>` day (YYYY-MM-DD), when it has one.
 */
export function sitemapFiles(siteRoot: string, paths: readonly string[], lastModified: (path: string) => string | undefined = () => undefined): Map<string, string> {
  const sorted = [...paths].sort();
  const files = new Map<string, string>();
  const chunks: string[] = [];
  for (let start = 0; start === 0 || start < sorted.length; start += SITEMAP_URLS) {
    const name = `sitemap-${chunks.length}.xml`;
    const urls = sorted.slice(start, start + SITEMAP_URLS).map((path) => {
      const day = lastModified(path);
      return `<url><loc>${escapeXml(absoluteUrl(siteRoot, path))}</loc>${day ? `<lastmod>${day}</lastmod>` : ''}</url>`;
    });
    chunks.push(name);
    files.set(name, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>\n`);
  }
  const index = chunks.map((name) => `<sitemap><loc>${escapeXml(absoluteUrl(siteRoot, `/${name}`))}</loc></sitemap>`);
  return new Map([
    ['sitemap-index.xml', `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${index.join('')}</sitemapindex>\n`],
    ...files,
  ]);
}
