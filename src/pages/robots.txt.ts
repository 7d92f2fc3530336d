/** /robots.txt: everything may be crawled; the sitemap (src/outputs/sitemap.ts) says what there is. */
import type { APIRoute } from 'astro';
import { base } from 'astro:config/client';
import { absoluteUrl, siteRootUrl } from '../model/urls.ts';

export const GET: APIRoute = ({ site }) => {
  const siteRoot = siteRootUrl(site, base);
  const sitemap = siteRoot ? `Sitemap: ${absoluteUrl(siteRoot, '/sitemap-index.xml')}\n` : '';
  return new Response(`User-agent: *\nAllow: /\n${sitemap}`, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
