/** The response of a feed endpoint (the whole site's, one tag's or one intersection's): RSS 2.0 (src/outputs/feeds.ts). */
import { base } from 'astro:config/client';
import options from 'virtual:tagsite/options';
import { feedXml } from '../../outputs/feeds.ts';
import { siteRootUrl } from '../../model/urls.ts';
import { ContentProblemsError } from '../../content/problems.ts';
import { siteProblems } from '../options.ts';
import type { Topic } from '../../content/topics.ts';

export function feedResponse(topics: readonly Topic[], site: URL | undefined, tag?: string, pair?: readonly [string, string]): Response {
  const siteRoot = siteRootUrl(site, base);
  // A build stops before rendering without a `site`; `astro dev` says so on the feed's page.
  if (!siteRoot) throw new ContentProblemsError(siteProblems(site, false));
  const xml = feedXml(topics, { siteTitle: options.title, siteRoot, ...(tag === undefined ? {} : { tag }), ...(pair ? { pair } : {}) });
  return new Response(xml, { headers: { 'content-type': 'application/rss+xml; charset=utf-8' } });
}
