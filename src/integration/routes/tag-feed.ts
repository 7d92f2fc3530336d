/** /tags/<tag>/rss.xml in `astro dev`: the newest topics carrying one tag (a build writes them from its worker thread, src/build/pipeline.ts). */
import type { APIRoute } from 'astro';
import { siteData } from '../../build/site-records.ts';
import { tagSlug } from '../../model/tags.ts';
import { feedResponse } from './feed-response.ts';
import type { Topic } from '../../content/topics.ts';

export async function getStaticPaths() {
  const { byTag, tags } = await siteData();
  // A synonym's old feed address carries its canonical tag's feed (tags.json).
  const synonyms = [...tags.canonicalOf].filter(([, canonical]) => byTag.has(canonical)).map(([synonym, tag]) => ({ params: { tag: tagSlug(synonym) }, props: { tag, topics: byTag.get(tag)! } }));
  return [...[...byTag].map(([tag, topics]) => ({ params: { tag: tagSlug(tag) }, props: { tag, topics } })), ...synonyms];
}

export const GET: APIRoute = async ({ props, site }) => {
  const { tag, topics } = props as { tag: string; topics: Topic[] };
  return feedResponse(topics, site, tag);
};
