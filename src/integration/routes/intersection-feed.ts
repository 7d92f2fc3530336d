/** /tags/intersection/<a>/<b>/rss.xml in `astro dev`: the newest topics carrying both tags (a build writes them from its worker thread, src/build/pipeline.ts). */
import type { APIRoute } from 'astro';
import { tagIntersections } from '../../pages/tags/_tag-pages.ts';
import { tagSlug } from '../../model/tags.ts';
import { pairKey, type TagPair } from '../../model/intersections.ts';
import { feedResponse } from './feed-response.ts';
import type { Topic } from '../../content/topics.ts';

export async function getStaticPaths() {
  const { plan, topicsOf } = await tagIntersections();
  return plan.built.map(({ pair }) => ({ params: { a: tagSlug(pair[0]), b: tagSlug(pair[1]) }, props: { pair, topics: topicsOf.get(pairKey(...pair))! } }));
}

export const GET: APIRoute = async ({ props, site }) => {
  const { pair, topics } = props as { pair: TagPair; topics: Topic[] };
  return feedResponse(topics, site, undefined, pair);
};
