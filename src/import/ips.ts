/**
 * Invision Community through its REST API (`<community>/api/…`), authenticated as the API documents
 * it: the key as the HTTP Basic user name, an empty password. Topics come with their first post,
 * so a topic is one listing row and no further request.
 */
import { FetchFailure, type JsonClient } from './http.ts';
import { count, list, record, text, type ForumSource, type SourceForum, type SourceMember, type SourceTopic } from './source.ts';
import { forumSitePath } from './old-links.ts';

/** Topics and members a page: few requests, each small enough to be quick. */
const PER_PAGE = 100;

/** The header that carries the key. */
export function ipsHeaders(key: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
}

/** Profile fields members.json has, by the lower-cased names forums give them. */
const PROFILE_FIELDS: Record<string, keyof SourceMember> = {
  location: 'location', interests: 'interests', website: 'website', 'web site': 'website', homepage: 'website',
  twitter: 'twitter', 'x (twitter)': 'twitter', jabber: 'jabber', xmpp: 'jabber',
};

/** One member object of the API as a profile: name, joined, primary group and the matching custom fields. */
export function ipsMember(raw: unknown): SourceMember | undefined {
  const member = record(raw);
  const name = text(member.name);
  if (!name) return undefined;
  const profile: SourceMember = { name, joined: text(member.joined), group: text(record(member.primaryGroup).name), url: text(member.profileUrl) };
  // customFields: { <group id>: { name, fields: { <field id>: { name, value } } } }
  for (const group of Object.values(record(member.customFields))) {
    for (const field of Object.values(record(record(group).fields))) {
      const key = PROFILE_FIELDS[(text(record(field).name) ?? '').trim().toLowerCase()];
      const value = text(record(field).value)?.trim();
      if (key && value && profile[key] === undefined) (profile as unknown as Record<string, string>)[key] = value;
    }
  }
  return profile;
}

/**
 * A topic's address in both forms Invision Community serves it at: friendly (`/topic/1-x/`) and
 * behind `index.php?` (`/index.php?/topic/1-x/`, the form of a community without URL rewriting).
 */
export function ipsTopicUrls(url: string, base: string): string[] {
  const path = forumSitePath(url, base);
  if (path === undefined) return [url];
  const friendly = path.replace(/^\/index\.php\?(?=\/)/, '');
  return [new URL(friendly.slice(1), base).href, new URL(`index.php?${friendly}`, base).href];
}

/** One topic object of the API. */
export function ipsTopic(raw: unknown, base: string): SourceTopic | undefined {
  const topic = record(raw);
  const id = text(topic.id);
  if (!id) return undefined;
  const first = record(topic.firstPost);
  const last = record(topic.lastPost);
  const created = text(first.date) ?? '';
  const updated = text(last.date) ?? created;
  const tags = list(topic.tags).map(text).filter((tag): tag is string => tag !== undefined);
  const prefix = text(topic.prefix) || undefined;
  const url = text(topic.url) ?? new URL(`topic/${id}/`, base).href;
  const tagUrls = Object.fromEntries([...(prefix ? [prefix] : []), ...tags].map((tag) => [tag, new URL(`tags/${encodeURIComponent(tag)}/`, base).href]));
  return {
    id,
    url,
    oldUrls: ipsTopicUrls(url, base),
    title: text(topic.title) ?? '',
    author: text(record(first.author).name) ?? '',
    created,
    updated,
    forumId: text(record(topic.forum).id),
    tags,
    ...(prefix ? { prefix } : {}),
    replies: Math.max(0, count(topic.posts) - 1),
    views: count(topic.views),
    hidden: topic.hidden === true || first.hidden === true,
    // Everything the topic file is made of but views, which change with every visit (they are
    // refreshed when the topic changes otherwise).
    stamp: JSON.stringify([topic.title, updated, topic.posts, topic.tags, topic.prefix, record(topic.forum).id, first.content, topic.hidden]),
    html: text(first.content) ?? '',
    tagUrls,
  };
}

export function ipsSource(base: string, client: JsonClient): ForumSource {
  const api = (path: string, query: Record<string, string | number> = {}) => {
    const url = new URL(`api/${path}`, base);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
    return url.href;
  };
  /** Every page of a paged endpoint, `ahead` pages fetched at once, handed over in order. */
  async function paged(path: string, query: Record<string, string | number>, visit: (results: unknown[], page: number, pages: number) => Promise<boolean>, ahead = 4) {
    const get = (page: number) => client.getJson(api(path, { ...query, page, perPage: PER_PAGE })).then(record);
    const first = await get(1);
    const pages = Math.max(1, count(first.totalPages));
    if (!(await visit(list(first.results), 1, pages))) return;
    const pending = new Map<number, Promise<Record<string, unknown>>>();
    let next = 2;
    for (let page = 2; page <= pages; page++) {
      // The window grows (1, 2, 4 … pages ahead), so a re-run that stops after page 2 asked for little more.
      while (next <= pages && next < page + Math.min(ahead, 2 ** (page - 2))) {
        const request = get(next);
        request.catch(() => undefined); // awaited below, in order
        pending.set(next++, request);
      }
      const reply = await pending.get(page)!;
      pending.delete(page);
      if (!(await visit(list(reply.results), page, pages))) return;
    }
  }

  return {
    topicUrls: (url) => ipsTopicUrls(url, base),
    async forums() {
      const forums: SourceForum[] = [];
      await paged('forums/forums', {}, async (results) => {
        for (const raw of results) {
          const forum = record(raw);
          const id = text(forum.id);
          if (!id || forum.type === 'redirect') continue;
          const parentId = text(forum.parentId);
          forums.push({ id, name: text(forum.name) || `Forum ${id}`, ...(parentId && parentId !== '0' ? { parentId } : {}), ...(text(forum.url) ? { url: text(forum.url) } : {}) });
        }
        return true;
      });
      return forums;
    },
    async topicPages(visit, forumIds) {
      const query: Record<string, string> = { sortBy: 'updated', sortDir: 'desc' };
      if (forumIds) query.forums = [...forumIds].join(',');
      await paged('forums/topics', query, (results, page, pages) => visit(results.map((raw) => ipsTopic(raw, base)).filter((topic): topic is SourceTopic => topic !== undefined), page, pages));
    },
    async firstPost(topic) {
      if (topic.html === undefined) throw new FetchFailure('the listing gave no first post');
      return { html: topic.html, author: topic.author ?? '' };
    },
    async members(authors) {
      const members: SourceMember[] = [];
      await paged('core/members', { sortBy: 'joined', sortDir: 'asc' }, async (results) => {
        for (const raw of results) {
          const member = ipsMember(raw);
          if (member) members.push(member);
        }
        return true;
      });
      const authorSet = new Set(authors.map((name) => name.toLowerCase()));
      // Authors first, so that a limit on members.json leaves out members without topics.
      members.sort((a, b) => Number(authorSet.has(b.name.toLowerCase())) - Number(authorSet.has(a.name.toLowerCase())));
      return { members, notes: [] };
    },
  };
}
