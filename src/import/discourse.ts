/**
 * Discourse through its public JSON: `/site.json` (else `/categories.json`) for the categories,
 * `/latest.json?page=N` for the topics, `/t/<id>.json` for a topic's first post, `/u/<name>.json`
 * for its author's public profile. An API key and user name, when given, go in the `Api-Key` and
 * `Api-Username` headers.
 */
import type { JsonClient } from './http.ts';
import { FetchFailure } from './http.ts';
import { count, list, record, text, type ForumSource, type SourceForum, type SourceMember, type SourceTopic } from './source.ts';

/** The headers of an optional API key. */
export function discourseHeaders(key: string | undefined, username: string | undefined): Record<string, string> {
  if (!key) return {};
  return { 'Api-Key': key, 'Api-Username': username || 'system' };
}

/** A tag as Discourse lists it: a string in older versions, an object with `name` in newer ones. */
export function discourseTag(raw: unknown): string | undefined {
  return text(raw) ?? text(record(raw).name);
}

/** A topic's addresses: `/t/<slug>/<id>` (its `url`) and `/t/<id>`. */
export function discourseTopicUrls(url: string, base: string): string[] {
  const id = /\/t\/[^/]+\/(\d+)\/?$/.exec(new URL(url).pathname)?.[1];
  return id ? [url, new URL(`t/${id}`, base).href] : [url];
}

/** One row of `topic_list.topics`. */
export function discourseTopic(raw: unknown, base: string): SourceTopic | undefined {
  const topic = record(raw);
  const id = text(topic.id);
  if (!id) return undefined;
  const slug = text(topic.slug) || 'topic';
  const created = text(topic.created_at) ?? '';
  const updated = text(topic.last_posted_at) ?? text(topic.bumped_at) ?? created;
  const tags = list(topic.tags).map(discourseTag).filter((tag): tag is string => tag !== undefined);
  return {
    id,
    url: new URL(`t/${encodeURIComponent(slug)}/${id}`, base).href,
    oldUrls: discourseTopicUrls(new URL(`t/${encodeURIComponent(slug)}/${id}`, base).href, base),
    title: text(topic.title) ?? '',
    created,
    updated,
    ...(text(topic.bumped_at) ? { activity: text(topic.bumped_at) } : {}),
    ...(text(topic.category_id) ? { forumId: text(topic.category_id) } : {}),
    tags,
    replies: Math.max(0, count(topic.posts_count) - 1),
    views: count(topic.views),
    // Unlisted topics are listed only to staff.
    hidden: topic.visible === false,
    // What the listing shows of a change: a new post, an edit that bumped the topic, new tags or category
    // (not views, which change with every visit: they are refreshed when the topic is read again).
    stamp: JSON.stringify([topic.title, updated, topic.bumped_at, topic.posts_count, tags, topic.category_id, topic.visible]),
    tagUrls: Object.fromEntries(tags.map((tag) => [tag, new URL(`tag/${encodeURIComponent(tag)}`, base).href])),
  };
}

/** Categories of `/site.json` (flat, with `parent_category_id`) or `/categories.json` (subcategories nested or by id). */
export function discourseCategories(reply: unknown, base: string): SourceForum[] {
  const top = record(reply);
  const flat = list(top.categories).length > 0 ? list(top.categories) : list(record(top.category_list).categories);
  const forums: SourceForum[] = [];
  const seen = new Set<string>();
  const add = (raw: unknown, parentId?: string) => {
    const category = record(raw);
    const id = text(category.id);
    if (!id || seen.has(id)) return;
    seen.add(id);
    const parent = text(category.parent_category_id) ?? parentId;
    const slug = text(category.slug) || id;
    forums.push({ id, name: text(category.name) || `Category ${id}`, ...(parent ? { parentId: parent } : {}), url: new URL(`c/${encodeURIComponent(slug)}/${id}`, base).href });
    for (const child of list(category.subcategory_list)) add(child, id);
  };
  for (const raw of flat) add(raw);
  return forums;
}

export function discourseSource(base: string, client: JsonClient): ForumSource {
  const at = (path: string) => new URL(path, base).href;
  return {
    topicUrls: (url) => discourseTopicUrls(url, base),
    async forums() {
      try {
        return discourseCategories(await client.getJson(at('site.json')), base);
      } catch (error) {
        if (!(error instanceof FetchFailure)) throw error;
        return discourseCategories(await client.getJson(at('categories.json?include_subcategories=true')), base);
      }
    },
    async topicPages(visit, forumIds) {
      for (let page = 0; ; page++) {
        const reply = record(await client.getJson(at(`latest.json?page=${page}`)));
        const topicList = record(reply.topic_list);
        const rows = list(topicList.topics);
        const topics = rows.map((raw) => discourseTopic(raw, base)).filter((topic): topic is SourceTopic => topic !== undefined);
        const wanted = forumIds ? topics.filter((topic) => topic.forumId !== undefined && forumIds.has(topic.forumId)) : topics;
        if (rows.length === 0) return;
        if (!(await visit(wanted, page + 1))) return;
        if (!topicList.more_topics_url) return;
      }
    },
    async firstPost(topic) {
      const reply = record(await client.getJson(at(`t/${topic.id}.json`)));
      const first = record(list(record(reply.post_stream).posts)[0]);
      const html = text(first.cooked);
      if (html === undefined) throw new FetchFailure(`GET /t/${topic.id}.json: the reply has no first post (post_stream.posts[0].cooked)`);
      return { html, author: text(first.username) ?? text(record(reply.details).created_by && record(record(reply.details).created_by).username) ?? '' };
    },
    async members(authors, listed) {
      const members: SourceMember[] = [];
      const notes: string[] = [];
      await Promise.all(
        authors.filter((name) => !listed.has(name.toLowerCase())).map(async (name) => {
          try {
            const user = record(record(await client.getJson(at(`u/${encodeURIComponent(name)}.json`))).user);
            members.push({
              name: text(user.username) ?? name,
              joined: text(user.created_at),
              group: text(user.primary_group_name) || (typeof user.trust_level === 'number' ? `Trust level ${user.trust_level}` : undefined),
              location: text(user.location),
              website: text(user.website),
              url: at(`u/${encodeURIComponent(name)}`),
            });
          } catch (error) {
            if (!(error instanceof FetchFailure)) throw error;
            notes.push(`member '${name}': no public profile (${error.message}); not listed in members.json`);
          }
        }),
      );
      members.sort((a, b) => a.name.localeCompare(b.name));
      return { members, notes };
    },
  };
}
