/**
 * Which listings a rebuild keys as the previous build did, without keying them again
 * (./page-reuse.ts listingKeyer, memberKeyer): those no changed topic is on.
 *
 * A listing's pages (a tag's, or a pair of tags') are keyed by what they show: the tag, its
 * description and related tags, each page's place in the listing and its topics' record digests.
 * When the topics carry the same tags in the same order as the previous build's (its tags digest),
 * under the same site-wide data and tags.json, each tag and each pair is carried by the same number
 * of topics, and the related tags and the pairs built are the same. A listing's pages can then
 * only differ when a topic on it now has another record: had one of its topics left it, another
 * would have come (a changed topic). So after a title edit or a bump, only the listings of the
 * changed topics' tags and pairs are keyed again (a few of some 6,000 pages at 10,000 topics); the
 * others keep their previous keys.
 *
 * The previous build's topics are its records' digests, remembered with its pages' keys (so they
 * are always of the build that made the pages), for the next build only.
 */
import { digest as sha1 } from '../content/digest.ts';
import { carriedTagsAndPairs, pairKey } from '../model/intersections.ts';
import { memberKey } from '../model/members.ts';
import { countsByName } from '../model/listing.ts';
import { authorCounts } from '../outputs/member-index.ts';
import type { Topic } from '../content/topics.ts';
import type { PageReuse } from './store.ts';

/** The remembered entry of the topics' record digests. */
const LISTED = '(listed topics)';

/** Which listings have no changed topic on them. */
export interface UnchangedListings {
  /** The listing of these tags (one tag, or a pair). */
  tags(tags: readonly string[]): boolean;
  /** A member's listing (the topics of the member of this name, by memberKey). */
  member(name: string): boolean;
}

/**
 * Notes the build's topics (`digestOf`: each one's record digest) for the next build, and says
 * which listings no changed topic is on, when the previous build's topics carried the same tags
 * (`reuse.fromTags`), each author had as many topics, under the same `context` (the site-wide data,
 * tags.json and members.json that listings show); undefined otherwise: every listing is keyed.
 *
 * A member's listing, by the same argument: while each author has as many topics as before, an
 * author none of whose topics changed has the same records as before (a record of theirs that is
 * not among their previous ones would be a changed topic, or a previous record of another author),
 * in the same order, with the same count.
 */
export function unchangedListings(reuse: PageReuse, context: unknown, digestOf: ReadonlyMap<Topic, string>): UnchangedListings | undefined {
  if (reuse.fromTags === undefined) return undefined;
  const inputs = sha1(JSON.stringify([reuse.fromTags, countsByName(authorCounts([...digestOf.keys()])), context]));
  reuse.routes.next.set(LISTED, { inputs, files: [], value: [...digestOf.values()], once: true });
  const earlier = reuse.routes.previous.get(LISTED);
  if (earlier?.inputs !== inputs || !Array.isArray(earlier.value)) return undefined;
  const before = new Set(earlier.value as unknown[]);
  const changed = [...digestOf].flatMap(([topic, digest]) => (before.has(digest) ? [] : [topic]));
  const { tags, pairs } = carriedTagsAndPairs(changed);
  const authors = new Set(changed.map((topic) => memberKey(topic.author)));
  return {
    tags: (listed) => (listed.length === 1 ? !tags.has(listed[0]!) : listed.length === 2 && !pairs.has(pairKey(listed[0]!, listed[1]!))),
    member: (name) => !authors.has(memberKey(name)),
  };
}
