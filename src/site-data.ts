import { getCollection } from 'astro:content';
import type { Topic } from './lib/topics.ts';
import type { ContentType } from './lib/content-types.ts';
import type { Member } from './lib/members.ts';
import type { LinkRecord } from './lib/links.ts';
import { sortForListing, topicsByTag } from './lib/listing.ts';

/** The normalised records, read from the content layer once per build and shared by every page. */
export interface SiteData {
  /** Topics in listing order. */
  topics: Topic[];
  bySlug: Map<string, Topic>;
  /** Tag → its topics in listing order; most-used tags first. */
  byTag: Map<string, Topic[]>;
  contentTypes: Map<string, ContentType>;
  members: Member[];
  /** Lower-cased names of listed members (author → member page links). */
  memberNames: Set<string>;
  links: LinkRecord[];
}

let cached: Promise<SiteData> | undefined;

function byOrder<T extends { data: Record<string, unknown> }>(entries: T[]): T['data'][] {
  return entries.map((entry) => entry.data).sort((a, b) => (a.order as number) - (b.order as number));
}

async function read(): Promise<SiteData> {
  const topics = sortForListing((await getCollection('topics')).map((entry) => entry.data as unknown as Topic));
  const types = byOrder(await getCollection('contentTypes')) as unknown as ContentType[];
  const members = byOrder(await getCollection('members')) as unknown as Member[];
  return {
    topics,
    bySlug: new Map(topics.map((topic) => [topic.slug, topic])),
    byTag: topicsByTag(topics),
    contentTypes: new Map(types.map((type) => [type.id, type])),
    members,
    memberNames: new Set(members.map((member) => member.name.toLowerCase())),
    links: byOrder(await getCollection('links')) as unknown as LinkRecord[],
  };
}

export function siteData(): Promise<SiteData> {
  return (cached ??= read());
}
