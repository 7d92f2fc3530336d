/**
 * /sitemap-index.xml and /sitemap-<n>.xml in `astro dev`, from the same path lists as the pages
 * (a build lists the pages Astro wrote, src/build/write-files.ts).
 */
import type { APIRoute } from 'astro';
import { base } from 'astro:config/client';
import { siteData } from '../../build/site-records.ts';
import { pageDates } from '../../build/page-dates.ts';
import { sitemapFiles } from '../../outputs/sitemap.ts';
import { siteRootUrl, topicPath } from '../../model/urls.ts';
import { tagPagePaths } from '../../pages/tags/_tag-pages.ts';
import { memberPagePaths, memberTopicPagePaths } from '../../pages/members/_members.ts';
import { ContentProblemsError } from '../../content/problems.ts';
import { siteProblems } from '../options.ts';

/** The pages that are not made from records. */
const SECTIONS = ['/', '/tags/', '/search/', '/members/', '/links/', '/workflows/', '/about/'];

async function files(site: URL | undefined): Promise<Map<string, string>> {
  const siteRoot = siteRootUrl(site, base);
  if (!siteRoot) throw new ContentProblemsError(siteProblems(site, false));
  const { topics } = await siteData();
  const routed = [
    { pattern: '/tags/[tag]/', paths: await tagPagePaths(true) },
    { pattern: '/tags/[tag]/[page]/', paths: await tagPagePaths(false) },
    { pattern: '/members/[slug]/', paths: await memberPagePaths(false) },
    { pattern: '/members/[slug]/[page]/', paths: await memberTopicPagePaths() },
  ];
  const pages = [
    ...SECTIONS,
    ...topics.map((topic) => topicPath(topic.slug)),
    ...routed.flatMap(({ pattern, paths }) => paths.map(({ params }) => pattern.replace(/\[(\w+)\]/g, (_, name: string) => encodeURIComponent(params[name as keyof typeof params]!)))),
  ];
  return sitemapFiles(siteRoot, pages, pageDates(topics));
}

export const GET: APIRoute = async ({ url, site }) => {
  const name = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  const xml = (await files(site)).get(name);
  return new Response(xml ?? null, { status: xml ? 200 : 404, headers: { 'content-type': 'application/xml; charset=utf-8' } });
};
