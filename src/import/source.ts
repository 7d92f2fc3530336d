/** What the importer reads from a forum, whichever software runs it: forums, topics, members. */

/** One forum (an Invision Community forum or a Discourse category). */
export interface SourceForum {
  /** The forum's own id, as text. */
  id: string;
  name: string;
  parentId?: string;
  /** Its address on the old forum. */
  url?: string;
}

/** One topic as listed by the forum. */
export interface SourceTopic {
  id: string;
  /** Its address on the old forum. */
  url: string;
  /** Every address of it on the old forum (`url` too), recorded as its `aliases`; default: `url`. */
  oldUrls?: string[];
  title: string;
  /** The first post's author; the listing of some forums lacks it until the topic is read. */
  author?: string;
  /** ISO 8601: the first post's date and the last post's. */
  created: string;
  updated: string;
  /** When the topic last changed in any way the list shows (Discourse's `bumped_at`: an edit bumps it), when later than `updated`. */
  activity?: string;
  forumId?: string;
  tags: string[];
  /** Invision Community's prefix, imported as the first tag. */
  prefix?: string;
  /** Posts − 1. */
  replies: number;
  views: number;
  hidden: boolean;
  /** What tells a later run whether the topic changed since, without reading the topic again. */
  stamp: string;
  /** The first post's HTML, when the listing carries it (Invision Community). */
  html?: string;
  /** Addresses of its tags on the old forum. */
  tagUrls?: Record<string, string>;
}

/** A member profile, in the fields members.json has. */
export interface SourceMember {
  name: string;
  /** ISO 8601 date or date-time. */
  joined?: string;
  group?: string;
  location?: string;
  interests?: string;
  website?: string;
  twitter?: string;
  jabber?: string;
  url?: string;
}

/** A forum's software, as the importer uses it. */
export interface ForumSource {
  /** Every address the forum serves a topic at, from its address (`url`): its `aliases`. */
  topicUrls(url: string): string[];
  /** Reads the forum tree. */
  forums(): Promise<SourceForum[]>;
  /**
   * Lists topics, most recently active first, a page at a time, handing each page to `visit` in
   * order; stops when `visit` says so. `pages` is the number of pages when the forum tells it.
   */
  topicPages(visit: (topics: SourceTopic[], page: number, pages?: number) => Promise<boolean>, forumIds?: ReadonlySet<string>): Promise<void>;
  /** The first post's HTML and author (read from the topic when the listing lacks them). */
  firstPost(topic: SourceTopic): Promise<{ html: string; author: string }>;
  /**
   * The profiles of members: all the forum lists (`authors` first), or those of `authors` that an
   * earlier run has not listed yet (`listed`, by memberKey), where each profile is a request.
   */
  members(authors: readonly string[], listed: ReadonlySet<string>): Promise<{ members: SourceMember[]; notes: string[] }>;
}

/** `value` as a string of text, or undefined. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** `value` as a whole number >= 0 (else 0). */
export function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0;
}

/** An object's fields, or an empty object for anything else. */
export function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A list, or an empty one. */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
