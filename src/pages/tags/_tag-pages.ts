import options from 'virtual:tagsite/options';
import { fromSiteRecords, siteData } from '../../build/site-records.ts';
import { paginate } from '../../model/listing.ts';
import { tagSlug } from '../../model/tags.ts';
import { intersectionPath, searchBothTagsPath } from '../../model/urls.ts';
import { intersectionTopics, pairCounts, pairKey, planIntersections, relatedTags, type IntersectionPlan, type RelatedTag } from '../../model/intersections.ts';
import { listingKeyer, sameWhileShape, sameWhileTags } from '../../build/page-reuse.ts';
import type { Topic } from '../../content/topics.ts';

/** A related tag as a tag page lists it: with the topics both share and where the pair leads. */
export interface RelatedTagLink {
  tag: string;
  count: number;
  /** Site path: the pair's intersection page, or the search for both tags where none was built. */
  path: string;
}

export interface TagPageProps {
  /** One tag (a tag page) or two (an intersection page, in sorted order). */
  tags: [string] | [string, string];
  total: number;
  topics: Topic[];
  page: number;
  pages: number;
  /** The tag's description (tags.json). */
  description?: string;
  related: RelatedTagLink[];
}

/** A synonym's old tag page: it leads to the canonical tag's. */
export interface TagRedirectProps {
  synonym: string;
  canonical: string;
}

/** How many topics pairs of tags share, as a build keeps it for the next (as JSON). */
interface KeptPairs {
  related: Array<[string, RelatedTag[]]>;
  plan: IntersectionPlan;
}

/**
 * Which tags share topics, and the intersection pages built: once per build, from the site's
 * records. A rebuild takes the last build's while the topics' tags are the same (after a post or a
 * title changed, or a topic was bumped), and each built pair's topics, by their places in the
 * listing, while the topics' order is the same too.
 */
export const tagIntersections = fromSiteRecords(({ topics }) => {
  const { related, plan } = sameWhileTags('(tag pairs)', (): KeptPairs => {
    const pairs = pairCounts(topics);
    return { related: [...relatedTags(pairs)], plan: planIntersections(pairs, options.intersections) };
  });
  const placesOf = sameWhileShape('(tag intersections)', (): Array<[string, number[]]> => {
    const places = intersectionTopics(topics.map((topic, place) => ({ tags: topic.tags, place })), plan.built);
    return [...places].map(([key, list]) => [key, list.map(({ place }) => place)]);
  });
  return {
    related: new Map(related),
    built: new Set(plan.built.map(({ pair }) => pairKey(...pair))),
    plan,
    topicsOf: new Map(placesOf.map(([key, places]) => [key, places.map((place) => topics[place]!)])),
  };
});

/** The pages of one listing: page 1 only (`firstPage`) or pages 2+. */
function listingPages<P>(topics: Topic[], firstPage: boolean, props: (page: Omit<TagPageProps, 'tags' | 'related'>) => P): P[] {
  const pages = paginate(topics, options.pageSize);
  return pages.flatMap((pageTopics, i) => ((i === 0) === firstPage ? [props({ total: topics.length, topics: pageTopics, page: i + 1, pages: pages.length })] : []));
}

/**
 * Every page of every tag listing: page 1 at /tags/<tag>/ (`firstPage`), pages 2+ at /tags/<tag>/<n>/.
 * With page 1 come the synonyms' old addresses (tags.json), each leading to its canonical tag.
 */
export async function tagPagePaths(firstPage: boolean) {
  const { byTag, tags } = await siteData();
  const { related, built } = await tagIntersections();
  const keyPages = await listingKeyer();
  const paths: Array<{ params: Record<string, string>; props: TagPageProps | TagRedirectProps }> = [];
  for (const [tag, topics] of byTag) {
    // A listing of one page has no pages 2+: its related tags are not looked up for them.
    if (!firstPage && topics.length <= options.pageSize) continue;
    const description = tags.descriptions.get(tag);
    const links = (related.get(tag) ?? []).map(({ tag: other, count }) => ({ tag: other, count, path: built.has(pairKey(tag, other)) ? intersectionPath(tag, other) : searchBothTagsPath(tag, other) }));
    const pages = listingPages(topics, firstPage, (page) => ({ tags: [tag] as [string], ...page, ...(description ? { description } : {}), related: links }));
    keyPages(pages, [tag, description, links], [tag]);
    for (const props of pages) paths.push({ params: firstPage ? { tag: tagSlug(tag) } : { tag: tagSlug(tag), page: String(props.page) }, props });
  }
  if (firstPage) {
    for (const [synonym, canonical] of tags.canonicalOf) {
      if (byTag.has(canonical)) paths.push({ params: { tag: tagSlug(synonym) }, props: { synonym, canonical } });
    }
  }
  return paths;
}

/** Every page of every intersection listing: page 1 at /tags/intersection/<a>/<b>/ (`firstPage`), pages 2+ below it. */
export async function intersectionPagePaths(firstPage: boolean) {
  const { plan, topicsOf } = await tagIntersections();
  const keyPages = await listingKeyer();
  const paths: Array<{ params: Record<string, string>; props: TagPageProps }> = [];
  for (const { pair: [a, b] } of plan.built) {
    const topics = topicsOf.get(pairKey(a, b))!;
    if (!firstPage && topics.length <= options.pageSize) continue;
    const pages = listingPages(topics, firstPage, (page) => ({ tags: [a, b] as [string, string], ...page, related: [] }));
    keyPages(pages, [a, b], [a, b]);
    const params: Record<string, string> = { a: tagSlug(a), b: tagSlug(b) };
    for (const props of pages) paths.push({ params: firstPage ? params : { ...params, page: String(props.page) }, props });
  }
  return paths;
}
