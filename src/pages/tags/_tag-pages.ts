import options from 'virtual:tagsite/options';
import { fromSiteRecords, siteData } from '../../build/site-records.ts';
import { paginate } from '../../model/listing.ts';
import { tagSlug } from '../../model/tags.ts';
import { intersectionPath, searchBothTagsPath } from '../../model/urls.ts';
import { intersectionTopics, pairCounts, pairKey, planIntersections, relatedTags } from '../../model/intersections.ts';
import type { Topic } from '../../content/topics.ts';
import { listingDigestOf, type PageGroup } from '../../build/page-reuse.ts';

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

type TagPath = { params: Record<string, string>; props: TagPageProps | TagRedirectProps };
type IntersectionPath = { params: Record<string, string>; props: TagPageProps };

/** Which tags share topics, and the intersection pages built: once per build, from the site's records. */
export const tagIntersections = fromSiteRecords(({ topics }) => {
  const pairs = pairCounts(topics);
  const plan = planIntersections(pairs, options.intersections);
  return { related: relatedTags(pairs), built: new Set(plan.built.map(({ pair }) => pairKey(...pair))), plan, topicsOf: intersectionTopics(topics, plan.built) };
});

/** The pages of one listing: page 1 only (`firstPage`) or pages 2+. */
function listingPages<P>(topics: Topic[], firstPage: boolean, props: (page: Omit<TagPageProps, 'tags' | 'related'>) => P): P[] {
  const pages = paginate(topics, options.pageSize);
  return pages.flatMap((pageTopics, i) => ((i === 0) === firstPage ? [props({ total: topics.length, topics: pageTopics, page: i + 1, pages: pages.length })] : []));
}

/**
 * Every page of every tag listing, in a group for each tag: page 1 at /tags/<tag>/ (`firstPage`),
 * pages 2+ at /tags/<tag>/<n>/. With page 1 come the synonyms' old addresses (tags.json), each
 * leading to its canonical tag.
 */
export async function tagPageGroups(firstPage: boolean): Promise<Array<PageGroup<TagPath>>> {
  const { byTag, tags } = await siteData();
  const { related, built } = await tagIntersections();
  const groups: Array<PageGroup<TagPath>> = [];
  for (const [tag, topics] of byTag) {
    const description = tags.descriptions.get(tag);
    const links = (related.get(tag) ?? []).map(({ tag: other, count }) => ({ tag: other, count, path: built.has(pairKey(tag, other)) ? intersectionPath(tag, other) : searchBothTagsPath(tag, other) }));
    groups.push({
      name: tag,
      inputs: () => [tag, description, links, listingDigestOf(topics)],
      paths: () =>
        listingPages(topics, firstPage, (page) => ({ tags: [tag] as [string], ...page, ...(description ? { description } : {}), related: links })).map((props): TagPath => ({
          params: firstPage ? { tag: tagSlug(tag) } : { tag: tagSlug(tag), page: String(props.page) },
          props,
        })),
    });
  }
  if (firstPage) {
    const redirects = [...tags.canonicalOf].filter(([, canonical]) => byTag.has(canonical));
    groups.push({ name: '(synonyms)', inputs: () => redirects, paths: () => redirects.map(([synonym, canonical]) => ({ params: { tag: tagSlug(synonym) }, props: { synonym, canonical } })) });
  }
  return groups;
}

/** Every page of every tag listing (tagPageGroups), in one list. */
export async function tagPagePaths(firstPage: boolean): Promise<TagPath[]> {
  return (await tagPageGroups(firstPage)).flatMap((group) => group.paths() as TagPath[]);
}

/**
 * Every page of every intersection listing, in a group for each pair: page 1 at
 * /tags/intersection/<a>/<b>/ (`firstPage`), pages 2+ below it.
 */
export async function intersectionPageGroups(firstPage: boolean): Promise<Array<PageGroup<IntersectionPath>>> {
  const { plan, topicsOf } = await tagIntersections();
  return plan.built.map(({ pair: [a, b] }) => {
    const topics = topicsOf.get(pairKey(a, b))!;
    return {
      name: pairKey(a, b),
      inputs: () => [a, b, listingDigestOf(topics)],
      paths: () =>
        listingPages(topics, firstPage, (page) => ({ tags: [a, b] as [string, string], ...page, related: [] })).map((props) => {
          const params: Record<string, string> = { a: tagSlug(a), b: tagSlug(b) };
          return { params: firstPage ? params : { ...params, page: String(props.page) }, props };
        }),
    };
  });
}
