/**
 * Reusing unchanged pages between builds (pages' side; the build's side is ./pipeline.ts). Every page made by getStaticPaths, and every tag feed,
 * has a key that covers everything it shows. The build remembers the keys of its last output
 * (./cache.ts); when the site's code is unchanged too, a page whose key is unchanged is not
 * rendered again: its file is hard-linked from the previous output into the new one (the new site
 * is still swapped in whole, and no file of the previous one is ever written).
 *
 * A key covers the page's own props, with each topic standing for a digest of its whole record,
 * and the site-wide data any page may show (options, content types, which authors have a member
 * page, links). A member's profile is in the props of the pages showing it.
 */
import { digest as sha1 } from '../content/digest.ts';
import options from 'virtual:tagsite/options';
import { fromSiteRecords, type SiteData } from './site-records.ts';
import { buildStore, pageReads, reuseRoute, type PageReuse } from './store.ts';
import { topicRecordKey } from '../content/read-topics.ts';
import { unchangedListings } from './listing-changes.ts';
import type { Topic } from '../content/topics.ts';

/** The files of a route's pages by their params: `/topics/[slug]/` with `{ slug: 'x' }` → `topics/x/index.html`. */
function pageFiles(pattern: string): (params: Record<string, string>) => string {
  // Text and parameter names, taking turns: ['topics/', 'slug', '/'].
  const parts = pattern.replace(/^\/+/, '').split(/\[(\w+)\]/);
  // Joined, not added up: a string made by `+` is a chain of pieces in V8's heap, larger than the
  // joined one (a 100,000-topic build keeps 137,000 page files to the end).
  return (params) => [...parts.map((part, i) => (i % 2 === 1 ? params[part]! : part)), 'index.html'].join('');
}

/**
 * The build's page reuse where this thread keys its pages: none outside a build, nor in the page
 * thread (./page-thread.ts), whose pages the main thread has keyed.
 */
function keying(): PageReuse | undefined {
  const store = buildStore();
  return store.unkeyed ? undefined : store.reuse;
}

const digests = fromSiteRecords((data: SiteData) => {
  // The build's reading of the content has digested the records it read (or kept them with theirs).
  const reuse = buildStore().reuse;
  const { topicKeys: known, listings } = reuse ?? {};
  const site = sha1(JSON.stringify([options, [...data.contentTypes.values()], [...data.memberNames], data.links]));
  const { canonicalOf, descriptions, aliases } = data.tags;
  const topics = new Map<Topic, string>(data.topics.map((topic) => [topic, known?.get(topic) ?? topicRecordKey(topic)]));
  return {
    site,
    topics,
    // The listings no changed topic is on, when nothing else they show changed (./listing-changes.ts).
    unchanged: reuse && unchangedListings(reuse, [site, [...canonicalOf], [...descriptions], data.members], topics),
    // Everything the listing pages are made of: the site's, the topics without their posts, the data files.
    listings: listings && sha1(JSON.stringify([site, listings, data.members, [...canonicalOf], [...descriptions], aliases, data.oldAddresses])),
  };
});

/** The topics' record digests, one a line, as the keys below take them. */
const topicLines = (topics: readonly Topic[], digestOf: ReadonlyMap<Topic, string>): string => topics.map((topic) => digestOf.get(topic) ?? topicRecordKey(topic)).join('\n');

interface StaticPath {
  params: Record<string, string>;
  props: object;
}

/** Pages' keys made by listingKeyer's function, by their props: taken instead of digesting the props. */
const givenKeys = new WeakMap<object, string | typeof AS_BEFORE>();

/** A page's given key that is its key in the previous build (its listing has no changed topic on it). */
const AS_BEFORE = Symbol('as before');

/** A page of a listing, as its props hold it: its topics, its number, how many pages and topics the listing has. */
interface ListingPage {
  topics: readonly Topic[];
  page: number;
  pages: number;
  total: number;
}

/** Keys the pages of one listing, of these `tags` (one, or a pair): see listingKeyer. */
export type KeyListingPages = (pages: readonly ListingPage[], also: unknown, tags: readonly string[]) => void;

/**
 * What keys the pages of one listing (a tag's, an intersection's): `pages` are their props, each
 * with its own topics, and `also` is everything else they show (the same on every page, as JSON
 * writes it). A page's key is a digest of `also`, its place in the listing and its topics' record
 * digests, rather than of its props copied and written out whole. A listing of `tags` no changed
 * topic is on keeps its pages' previous keys, without keying them (./listing-changes.ts): after a
 * title edit or a bump at 10,000 topics, a few of 6,000 listing pages are keyed. Outside a build, it does nothing.
 */
export async function listingKeyer(): Promise<KeyListingPages> {
  if (!keying()) return () => undefined;
  const { topics: digestOf, unchanged } = await digests();
  return (pages, also, tags) => {
    if (pages.length === 0) return;
    if (unchanged?.tags(tags)) {
      for (const props of pages) givenKeys.set(props, AS_BEFORE);
      return;
    }
    const shown = JSON.stringify(also);
    for (const props of pages) {
      givenKeys.set(props, sha1(`${shown}\n${props.page}/${props.pages}/${props.total}\n${topicLines(props.topics, digestOf)}`));
    }
  };
}

/**
 * What marks the pages of a member's listing (their props; the member's name) as the previous
 * build keyed them, when none of the member's topics changed (./listing-changes.ts): they are then
 * not keyed again. Pages it does not mark are keyed by their props. Outside a build, it does nothing.
 */
export async function memberKeyer(): Promise<(pages: readonly object[], member: string) => void> {
  if (!keying()) return () => undefined;
  const { unchanged } = await digests();
  return (pages, member) => {
    if (unchanged?.member(member)) for (const props of pages) givenKeys.set(props, AS_BEFORE);
  };
}

/**
 * The paths of a route that must be rendered in this build: all of them, less the pages whose
 * key is unchanged since the previous build (those are reused). `pattern` is the route's path
 * with its parameters in brackets: `/topics/[slug]/`. In `astro dev` every path is rendered.
 * `onFiles` is given the page files of all the paths.
 */
export async function pagesToRender<P extends StaticPath>(pattern: string, paths: P[] | Promise<P[]>, onFiles?: (files: string[]) => void): Promise<P[]> {
  const reuse = keying();
  if (!reuse) return paths;
  const { site, topics } = await digests();
  // The props with each topic as its digest, for JSON.stringify's own walk (a replacer function makes it several times slower).
  const keyed = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const topic = topics.get(value as Topic);
    if (topic !== undefined) return topic;
    if (Array.isArray(value)) return value.map(keyed);
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value; // a Date, written as JSON.stringify writes it
    const copy: Record<string, unknown> = {};
    for (const [name, inner] of Object.entries(value)) copy[name] = keyed(inner);
    return copy;
  };
  // Props that are one topic (a topic's page) are keyed by the topic's own digest, not digested again.
  const propsKey = (props: object): string => {
    const names = Object.keys(props);
    const alone = names.length === 1 ? topics.get((props as Record<string, Topic>)[names[0]!]!) : undefined;
    return alone !== undefined ? `${names[0]}:${alone}` : sha1(JSON.stringify(keyed(props)));
  };
  const fileOf = pageFiles(pattern);
  const render: P[] = [];
  const files: string[] = [];
  for (const path of await paths) {
    const file = fileOf(path.params);
    const given = givenKeys.get(path.props);
    // A page kept as before that the previous output does not have (edited there by hand) is keyed by its props.
    // One digest of the site's and the page's: a short flat string, where the two joined took a
    // chain of pieces (a 100,000-topic build keeps 137,000 page keys to the end).
    const key = (given === AS_BEFORE && reuse.previous.get(file)) || sha1(`${site}.${typeof given === 'string' ? given : propsKey(path.props)}`);
    files.push(file);
    reuse.next.set(file, key);
    if (reuse.previous.get(file) === key) reuse.reused.add(file);
    else render.push(path);
  }
  onFiles?.(files);
  return render;
}

/**
 * Says the page being rendered shows more than the listings give it (as the search page, which
 * holds the index's words.json): it is rendered in every build (./prerenderer.ts).
 */
export function showsMoreThanListings(): void {
  const reuse = buildStore().reuse;
  if (reuse) reuse.postsShown++;
}

/** What `make` gives, kept while `inputs` (a digest of what it is made from) are as the previous build had them. */
function sameWhile<T>(inputs: string | undefined, name: string, make: () => T): T {
  // Made from the topics, whether or not it is made now: a page that takes it read them (./page-reads.ts).
  pageReads().getStore()?.add('topics');
  const reuse = buildStore().reuse;
  if (!reuse || inputs === undefined) return make();
  const earlier = reuse.routes.previous.get(name);
  if (earlier?.inputs === inputs && earlier.value !== undefined) {
    reuse.routes.next.set(name, earlier);
    return earlier.value as T;
  }
  const value = make();
  reuse.routes.next.set(name, { inputs, files: [], value });
  return value;
}

/**
 * What `make` gives (a value JSON keeps as it is), made from the topics' shape only: their order,
 * tags, authors, dates and counts, not their titles, excerpts or posts, with the content types
 * (PageReuse.fromShape). While those are as the previous build had them, what it gave then, under
 * the same `name`, without making it again: after a post or a title changed.
 */
export function sameWhileShape<T>(name: string, make: () => T): T {
  return sameWhile(buildStore().reuse?.fromShape, name, make);
}

/**
 * sameWhileShape for a value made from the topics' tags alone, whatever order the topics are in
 * (PageReuse.fromTags): kept after a bump, too.
 */
export function sameWhileTags<T>(name: string, make: () => T): T {
  return sameWhile(buildStore().reuse?.fromTags, name, make);
}

/**
 * What `make` gives (a value JSON keeps as it is), made from `topics` and `also` only, with the
 * site-wide data any page may show. While those are as the previous build had them (each topic by
 * the digest of its whole record, `also` as JSON writes it), what it gave then, under the same
 * `name`, without making it again: the workflow lists, checked against their schemas once.
 */
export async function sameWhileTopics<T>(name: string, topics: readonly Topic[], also: unknown, make: () => T): Promise<T> {
  const reuse = keying();
  if (!reuse) return make();
  const { site, topics: digestOf } = await digests();
  return sameWhile(sha1(`${site}\n${JSON.stringify(also)}\n${topicLines(topics, digestOf)}`), name, make);
}

/**
 * pagesToRender for a route whose pages are made from the listings only: the topics without their
 * posts, the data files and the site's options (`paths` reads nothing else). When all of those
 * are as the previous build had them, and its pages of the route are all still as it left them,
 * every page is reused by its previous key without `paths` being made or keyed: after a topic's
 * post changed, tag, intersection and member pages take no work.
 */
export async function listingPagesToRender<P extends StaticPath>(pattern: string, paths: () => P[] | Promise<P[]>): Promise<P[]> {
  const reuse = keying();
  if (!reuse) return paths();
  const { listings } = await digests();
  if (listings === undefined) return pagesToRender(pattern, paths());
  if (reuseRoute(reuse, pattern, listings)) return [];
  return pagesToRender(pattern, paths(), (files) => reuse.routes.next.set(pattern, { inputs: listings, files }));
}
