import type { Topic } from '../content/topics.ts';
import type { ContentType } from '../content/content-types.ts';
import type { Member } from '../content/members.ts';
import type { LinkRecord } from '../content/links.ts';
import type { TagDefinitions } from '../content/tags.ts';
import { sortForListing, tagCounts, topicsByTag } from '../model/listing.ts';
import { memberKey } from '../model/members.ts';
import { loadContent, postOf } from '../content/load.ts';
import { ContentProblemsError } from '../content/problems.ts';
import { buildStore, pageReads } from './store.ts';
import { typeChoices } from '../search/facets.ts';
import { indexedTypes } from '../search/index-build.ts';
import type { SiteContent } from '../content/load.ts';
import type { OldAddress } from '../content/aliases.ts';
import { lookupEntries, lookupFiles } from '../outputs/old-addresses.ts';
import { authorCounts } from '../outputs/member-index.ts';

/** The normalised records, read once per build and shared by every page. */
export interface SiteData {
  /** Topics in listing order. */
  topics: Topic[];
  bySlug: Map<string, Topic>;
  /** Tag → its topics in listing order; most-used tags first. */
  byTag: Map<string, Topic[]>;
  /** Tag → how many topics carry it (a page that shows no more of the tags is kept while they are the same: after a title edit or a bump). */
  tagCounts: ReadonlyMap<string, number>;
  /** Author (memberKey) → how many topics they have. */
  authorCounts: ReadonlyMap<string, number>;
  contentTypes: Map<string, ContentType>;
  members: Member[];
  /** Lower-cased names of listed members (author → member page links). */
  memberNames: Set<string>;
  links: LinkRecord[];
  /** tags.json: synonyms (already resolved in `topics`) and descriptions. */
  tags: TagDefinitions;
  /** Old addresses (`aliases`) and the pages they lead to. */
  oldAddresses: OldAddress[];
  /**
   * The topic with its first post: a build keeps the posts out of the records its pages take
   * (empty `html` and `text`), and gives each back where it is shown (the topic's page, as it
   * renders).
   */
  withPost: (topic: Topic) => Topic;
}

const derived = new WeakMap<SiteContent, SiteData>();

/** Notes that the page being rendered reads `part` of the site's data (pageReads). */
const noteRead = (part: string) => void pageReads().getStore()?.add(part);

/** `data`, with each part noted as read when a page takes it (./page-reads.ts keys the pages without parameters by what they read). */
function noting(data: SiteData): SiteData {
  const noted = {} as SiteData;
  for (const [part, value] of Object.entries(data)) {
    Object.defineProperty(noted, part, { enumerable: true, get: () => (noteRead(part), value) });
  }
  return noted;
}

function derive(content: SiteContent): SiteData {
  const topics = sortForListing(content.topics);
  return {
    topics,
    bySlug: new Map(topics.map((topic) => [topic.slug, topic])),
    byTag: topicsByTag(topics),
    tagCounts: tagCounts(content.topics),
    authorCounts: authorCounts(content.topics),
    contentTypes: new Map(content.contentTypes.list.map((type) => [type.id, type])),
    members: content.members,
    memberNames: new Set(content.members.map((member) => memberKey(member.name))),
    links: content.links,
    tags: content.tags,
    oldAddresses: content.oldAddresses,
    withPost: (topic) => {
      // A page showing a post is rendered in every build (../build/prerenderer.ts): `withPost` is no part ./page-reads.ts keys by.
      const reuse = buildStore().reuse;
      if (reuse) reuse.postsShown++;
      const post = postOf(content, topic);
      return post === topic ? topic : { ...topic, html: post.html, text: post.text };
    },
  };
}

/**
 * The validated content: what the build validated before Astro started, or (in `astro dev`) loaded
 * here and loaded again after a change. Invalid content throws ContentProblemsError.
 */
function validatedContent(): SiteContent {
  const store = buildStore();
  const source = store.source;
  if (!source) throw new Error('tagsite: no content source (is the tagsite() integration in astro.config.mjs?)');
  if (store.content?.from === source) return store.content;
  const { content, problems } = loadContent(source);
  if (problems.length > 0) throw new ContentProblemsError(problems);
  store.content = { ...content, from: source };
  return store.content;
}

/** The site's records (in `astro dev`, reloaded after the content folder changes). */
export async function siteData(): Promise<SiteData> {
  const content = validatedContent();
  let data = derived.get(content);
  if (!data) derived.set(content, (data = noting(derive(content))));
  return data;
}

/**
 * A value computed from the site's records once per build (again in `astro dev` after the content
 * changes), e.g. the search index files. The parts of the records `make` read count as read by
 * every page that takes the value.
 */
export function fromSiteRecords<T>(make: (data: SiteData) => T): () => Promise<T> {
  const made = new WeakMap<SiteData, { value: T; reads: ReadonlySet<string> }>();
  return async () => {
    const data = await siteData();
    let entry = made.get(data);
    if (!entry) {
      const reads = new Set<string>();
      entry = { value: pageReads().run(reads, () => make(data)), reads };
      made.set(data, entry);
    }
    for (const part of entry.reads) noteRead(part);
    return entry.value;
  };
}

/** The content types as the search form offers them (every search area shows them). */
export const typeChoicesOfSite = fromSiteRecords(({ contentTypes }) => typeChoices(indexedTypes([...contentTypes.values()])));

/** The 404 page's lookup files of old addresses, and how many there are. */
export const oldAddressLookup = fromSiteRecords(({ oldAddresses }) => lookupFiles(lookupEntries(oldAddresses)));
