/**
 * A page or endpoint without parameters (`/links/`, `/tags/`, `/rss.xml`) is keyed by the parts of
 * the site's data it read while it rendered (./site-records.ts notes them: `links`, `byTag` …):
 * a rebuild reuses it while each of those parts is as the previous build had it. After a title edit
 * or a bump, `/links/`, `/about/`, `/tags/` (tag counts) and `/members/` (each author's count) are
 * not rendered again; the home page is. A page that read a post, or a part not named here, has no
 * such key: it is rendered in every build.
 *
 * What the parts are made from: the topics' records without their posts (PageReuse.listings, which
 * holds tags renamed by tags.json too), and each data file as read.
 */
import { digest } from '../content/digest.ts';
import type { SiteContent } from '../content/load.ts';
import type { PageReuse } from './store.ts';
import { countsByName, tagCounts } from '../model/listing.ts';
import { authorCounts } from '../outputs/member-index.ts';

type Part = (content: SiteContent, reuse: PageReuse) => unknown;

const topics: Part = (_, reuse) => reuse.listings;
const members: Part = (content) => content.members;

/** SiteData's parts (./site-records.ts), each by what in the content it is made from. */
const PARTS = new Map<string, Part>([
  ['topics', topics],
  ['bySlug', topics],
  ['byTag', topics],
  ['tagCounts', (content) => countsByName(tagCounts(content.topics))],
  ['authorCounts', (content) => countsByName(authorCounts(content.topics))],
  ['contentTypes', (content) => content.contentTypes],
  ['members', members],
  ['memberNames', members],
  ['links', (content) => content.links],
  ['tags', ({ tags }) => [[...tags.canonicalOf], [...tags.descriptions], tags.aliases]],
  ['oldAddresses', (content) => content.oldAddresses],
]);

/** Each build's digests of the parts, made when first asked for. */
const digests = new WeakMap<PageReuse, Map<string, string>>();

function partDigest(part: string, content: SiteContent, reuse: PageReuse): string | undefined {
  const made = digests.get(reuse) ?? new Map<string, string>();
  digests.set(reuse, made);
  let value = made.get(part);
  if (value === undefined) {
    const from = PARTS.get(part)?.(content, reuse);
    if (from === undefined) return undefined;
    made.set(part, (value = digest(JSON.stringify(from))));
  }
  return value;
}

/**
 * The key of a page without parameters that read `parts` of the site's data in this build:
 * `reads:<parts>:<digest of what they are made from>`; undefined when a part has no digest.
 */
export function readsKey(parts: Iterable<string>, reuse: PageReuse, content: SiteContent): string | undefined {
  const names = [...new Set(parts)].sort();
  const made: string[] = [];
  for (const name of names) {
    const part = partDigest(name, content, reuse);
    if (part === undefined) return undefined;
    made.push(part);
  }
  return `reads:${names.join(',')}:${digest(made.join('\n'))}`;
}

/** Whether a page keyed by readsKey in the previous build (`key`) read parts that are all the same in this one. */
export function stillAsRead(key: string, reuse: PageReuse, content: SiteContent): boolean {
  const parts = /^reads:([^:]*):/.exec(key)?.[1];
  return parts !== undefined && readsKey(parts === '' ? [] : parts.split(','), reuse, content) === key;
}
