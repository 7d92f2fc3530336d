/** The response of a feed endpoint (the whole site's or one tag's): RSS 2.0 written by @astrojs/rss. */
import { base } from 'astro:config/client';
import options from 'virtual:tagsite/options';
import { feedXml, SITE_REQUIRED } from '../../outputs/feeds.ts';
import { siteRootUrl } from '../../model/urls.ts';
import { ContentProblemsError } from '../../content/problems.ts';
import type { Topic } from '../../content/topics.ts';

/** A user's mistake, not a bug: Astro prints the stack it is given, so it gets only the message. */
export function siteRequiredError(): ContentProblemsError {
  const error = new ContentProblemsError([SITE_REQUIRED]);
  error.stack = `${error.name}: ${error.message}`;
  return error;
}

export async function feedResponse(topics: readonly Topic[], site: URL | undefined, tag?: string): Promise<Response> {
  const siteRoot = siteRootUrl(site, base);
  if (!siteRoot) throw siteRequiredError();
  const xml = await feedXml(topics, { siteTitle: options.title, siteRoot, ...(tag === undefined ? {} : { tag }) });
  return new Response(xml, { headers: { 'content-type': 'application/rss+xml; charset=utf-8' } });
}
