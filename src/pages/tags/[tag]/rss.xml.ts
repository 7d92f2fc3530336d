/** /tags/<tag>/rss.xml: the newest topics carrying one tag. */
import type { APIRoute } from 'astro';
import { siteData } from '../../../site-data.ts';
import { tagSlug } from '../../../lib/tags.ts';
import { feedResponse } from '../../../routes/feed-response.ts';
import type { Topic } from '../../../lib/topics.ts';

export async function getStaticPaths() {
  const { byTag } = await siteData();
  return [...byTag].map(([tag, topics]) => ({ params: { tag: tagSlug(tag) }, props: { tag, topics } }));
}

export const GET: APIRoute = async ({ props, site }) => {
  const { tag, topics } = props as { tag: string; topics: Topic[] };
  return feedResponse(topics, site, tag);
};
