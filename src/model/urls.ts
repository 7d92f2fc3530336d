/**
 * Every site path and absolute URL the site publishes, in one place. Site paths start at the
 * site's root without Astro's `base`; withBase (or src/components/href.ts in pages) adds it, and
 * absoluteUrl makes one absolute from the site's root URL. Browser-safe: the client uses these too.
 */
import { memberKey } from './members.ts';
import { tagSlug } from './tags.ts';

/** Joins Astro's `base` and a site path, so every link works under a sub-path (`/sub/path/tags/`). */
export function withBase(base: string, path: string): string {
  const head = base.endsWith('/') ? base.slice(0, -1) : base;
  return `${head}/${path.replace(/^\/+/, '')}`;
}

/** The site's absolute root URL from Astro's `site` and `base`; undefined without a `site`. */
export function siteRootUrl(site: string | URL | undefined, base: string): string | undefined {
  if (!site) return undefined;
  return new URL(withBase(base, '/'), site).href;
}

/** A path the URL parser leaves as it is: no character it would encode or read as a scheme, query, fragment or `\`, no `.` or `..` step. */
const PLAIN_PATH = /^[\w\-.~!$&'()*+,;=@%/]*$/;
const DOT_STEP = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/** The last root asked about, and whether a plain path is put after it as it is: an http(s) URL as the parser gives it, ending in `/`, without query or fragment. */
let lastRoot: [root: string, plain: boolean] = ['', false];
function plainRoot(root: string): boolean {
  if (lastRoot[0] === root) return lastRoot[1];
  let plain = false;
  try {
    plain = /^https?:\/\/[^?#]+\/$/.test(root) && new URL(root).href === root;
  } catch {
    // not a URL: the parser says so below
  }
  lastRoot = [root, plain];
  return plain;
}

/**
 * An absolute URL of a site path: `site` + `base` + path, as the URL parser resolves it. A plain
 * path (nearly every one) after a plain root is joined to it as it is, which is what the parser
 * gives. A sitemap names every page: parsing each address was a third of its time.
 */
export function absoluteUrl(siteRoot: string, path: string): string {
  const root = siteRoot.endsWith('/') ? siteRoot : `${siteRoot}/`;
  const inside = path.replace(/^\/+/, '');
  if (plainRoot(root) && PLAIN_PATH.test(inside) && !DOT_STEP.test(inside)) return `${root}${inside}`;
  return new URL(inside, root).href;
}

/** Site path of a tag listing page; page 1 is the tag's own URL. */
export function tagPath(tag: string, page = 1): string {
  const slug = encodeURIComponent(tagSlug(tag));
  return page <= 1 ? `/tags/${slug}/` : `/tags/${slug}/${page}/`;
}

/** Site path of the listing of topics carrying both tags (a pre-built intersection page): `/tags/intersection/<a>/<b>/`, the tags in sorted order. */
export function intersectionPath(x: string, y: string, page = 1): string {
  const [a, b] = x < y ? [x, y] : [y, x];
  const path = `/tags/intersection/${encodeURIComponent(tagSlug(a))}/${encodeURIComponent(tagSlug(b))}/`;
  return page <= 1 ? path : `${path}${page}/`;
}

/** Site path of an intersection page's feed. */
export function intersectionFeedPath(x: string, y: string): string {
  return `${intersectionPath(x, y)}rss.xml`;
}

/** Site path of the search for topics carrying both tags: where a pair without its own page leads. */
export function searchBothTagsPath(x: string, y: string): string {
  const [a, b] = x < y ? [x, y] : [y, x];
  return `/search/?tags=${encodeURIComponent(a)},${encodeURIComponent(b)}&match=all`;
}

/** Site path of a topic page. */
export function topicPath(slug: string): string {
  return `/topics/${slug}/`;
}

/** A topic's absolute URL on the site. */
export function topicUrl(siteRoot: string, slug: string): string {
  return absoluteUrl(siteRoot, topicPath(slug));
}

/** Site path of a feed: `/rss.xml` for the whole site, `/tags/<tag>/rss.xml` for one tag. */
export function feedPath(tag?: string): string {
  return tag === undefined ? '/rss.xml' : `${tagPath(tag)}rss.xml`;
}

/**
 * A member's URL segment: the member key escaped like a tag, so one member has one page whatever
 * the case of the name. An all-digit name gets a `~n` prefix, which tag escaping never makes, so it
 * cannot be taken for a page number of /members/<n>/.
 */
export function memberSlug(name: string): string {
  const slug = tagSlug(memberKey(name));
  return /^\d+$/.test(slug) ? `~n${slug}` : slug;
}

/** Site path of a member's page: the profile, or page `page` of their topics. */
export function memberPath(name: string, page = 1): string {
  const base = `/members/${encodeURIComponent(memberSlug(name))}/`;
  return page <= 1 ? base : `${base}${page}/`;
}

/** Site path of the link directory filtered by one tag (the `tag` query parameter is its state). */
export function linksTagPath(tag: string): string {
  return `/links/?tag=${encodeURIComponent(tag)}`;
}
