/** The response of a feed endpoint (the whole site's or one tag's): RSS 2.0 written by @astrojs/rss. */
import { getRssString } from '@astrojs/rss';
import { base } from 'astro:config/client';
import options from 'virtual:tagsite/options';
import { feedChannel } from '../lib/feeds.ts';
import { siteRootUrl } from '../lib/workflows.ts';
import { ContentProblemsError } from '../lib/problems.ts';
import type { Topic } from '../lib/topics.ts';

export async function feedResponse(topics: readonly Topic[], site: URL | undefined, tag?: string): Promise<Response> {
  const siteRoot = siteRootUrl(site, base);
  if (!siteRoot) {
    const error = new ContentProblemsError([
      { file: 'astro.config.mjs', field: 'site', message: "is required for the RSS feeds: their links are absolute URLs (set site: 'https://your.domain')" },
    ]);
    // A user's mistake, not a bug: Astro prints the stack it is given, so give it only the message.
    error.stack = `${error.name}: ${error.message}`;
    throw error;
  }
  const xml = await getRssString(feedChannel(topics, { siteTitle: options.title, siteRoot, ...(tag === undefined ? {} : { tag }) }));
  return new Response(xml, { headers: { 'content-type': 'application/rss+xml; charset=utf-8' } });
}
