/**
 * The rules that turn a forum's topics and forums into tagsite content: forum ids, a topic's front
 * matter and every value changed on the way (each one a report line), and the topic file's text.
 */
import slugify from '@sindresorhus/slugify';
import { dump } from 'js-yaml';
import { normaliseTag } from '../model/tags.ts';
import { uniqueSlug } from '../cli/new-topic.ts';
import type { SourceForum, SourceTopic } from './source.ts';

/** The first line of an imported topic's front matter, followed by the topic's old address. */
export const FORUM_IMPORT_MARK = '# imported by import-forum from';

export const TITLE_MAX = 200;
export const AUTHOR_MAX = 80;
export const TAG_MAX = 50;

/** A value the import changed: the front matter field and what happened to it. */
export interface Conversion {
  field: string;
  message: string;
}

/**
 * A content-types id for each forum, by its id on the forum: the id an earlier run gave it; else one
 * made from its name (`Help & Support` → `help-and-support`, at most 60 characters, `forum-<id>`
 * when the name has no letters), unique among the ids `existing` has, except that an existing forum
 * with exactly that id and name is taken to be this one (a run that lost its state file finds its
 * forums again). Stable: the same forum keeps its id.
 */
export function forumIds(forums: readonly SourceForum[], existing: ReadonlyMap<string, string | undefined>, earlier: ReadonlyMap<string, string>): Map<string, string> {
  const used = new Set(existing.keys());
  const claimed = new Set<string>();
  const ids = new Map<string, string>();
  for (const forum of forums) {
    const known = earlier.get(forum.id);
    if (known) {
      ids.set(forum.id, known);
      used.add(known);
      claimed.add(known);
    }
  }
  for (const forum of forums) {
    if (ids.has(forum.id)) continue;
    const base = slugify(forum.name).slice(0, 60).replace(/-+$/, '') || `forum-${slugify(forum.id) || 'x'}`;
    const same = existing.get(base) === forum.name && !claimed.has(base);
    const id = same ? base : uniqueSlug(base, used);
    used.add(id);
    claimed.add(id);
    ids.set(forum.id, id);
  }
  return ids;
}

/** The forums in tree order, parents before children; a forum whose parent is missing or in a loop is at the top. */
export function parentsFirst(forums: readonly SourceForum[]): SourceForum[] {
  const byId = new Map(forums.map((forum) => [forum.id, forum]));
  const out: SourceForum[] = [];
  const placed = new Set<string>();
  const place = (forum: SourceForum, chain: Set<string>) => {
    if (placed.has(forum.id)) return;
    const parent = forum.parentId === undefined ? undefined : byId.get(forum.parentId);
    if (parent && !chain.has(parent.id)) place(parent, new Set([...chain, forum.id]));
    if (placed.has(forum.id)) return;
    placed.add(forum.id);
    out.push(parent && placed.has(parent.id) ? forum : { ...forum, parentId: undefined });
  };
  for (const forum of forums) place(forum, new Set([forum.id]));
  return out;
}

/** `ids` with every forum below them (the forums a `--forums` choice includes). */
export function withDescendants(ids: readonly string[], forums: readonly SourceForum[]): Set<string> {
  const chosen = new Set(ids);
  let grew = true;
  while (grew) {
    grew = false;
    for (const forum of forums) {
      if (forum.parentId !== undefined && chosen.has(forum.parentId) && !chosen.has(forum.id)) {
        chosen.add(forum.id);
        grew = true;
      }
    }
  }
  return chosen;
}

/** Text cut to at most `max` characters at a word boundary, with `…`. */
export function cutText(value: string, max: number): string {
  const chars = [...value];
  if (chars.length <= max) return value;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** An ISO 8601 instant to the second, or undefined for a date that is not one. */
export function isoSecond(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return undefined;
  const year = new Date(ms).getUTCFullYear();
  if (year < 1000 || year > 9999) return undefined;
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export interface TopicFields {
  title: string;
  author: string;
  created: string;
  updated: string;
  forum: string;
  tags: string[];
  replies: number;
  views: number;
  /** Its addresses on the old forum, as site paths. */
  aliases?: string[];
}

/** What a topic needs besides its own values: the forums' ids, where topics of an unknown forum go, the tag limit. */
export interface TopicContext {
  forumIds: ReadonlyMap<string, string>;
  fallbackForum: string;
  tagsPerTopic: number;
}

/** A topic's front matter, with every value changed on the way; a reason instead when it cannot be imported. */
export function topicFields(topic: SourceTopic, author: string, context: TopicContext): { fields: TopicFields; conversions: Conversion[] } | { skip: string } {
  const conversions: Conversion[] = [];
  const created = isoSecond(topic.created);
  if (!created) return { skip: `its first post has no valid date (${JSON.stringify(topic.created)})` };
  let updated = isoSecond(topic.updated) ?? created;
  if (updated < created) {
    conversions.push({ field: 'updated', message: `the last post (${updated}) is dated before the first: updated set to created` });
    updated = created;
  }

  let title = topic.title.replace(/\s+/g, ' ').trim();
  if (title === '') {
    title = `Topic ${topic.id}`;
    conversions.push({ field: 'title', message: `the topic has no title: '${title}' given` });
  } else if ([...title].length > TITLE_MAX) {
    conversions.push({ field: 'title', message: `${[...title].length} characters: cut to ${TITLE_MAX} at a word boundary` });
    title = cutText(title, TITLE_MAX);
  }

  let name = author.replace(/\s+/g, ' ').trim();
  if (name === '') {
    name = 'Guest';
    conversions.push({ field: 'author', message: "the first post has no author name (a guest or a deleted member): 'Guest' given" });
  } else if ([...name].length > AUTHOR_MAX) {
    conversions.push({ field: 'author', message: `${JSON.stringify(name)} is ${[...name].length} characters: cut to ${AUTHOR_MAX}` });
    name = [...name].slice(0, AUTHOR_MAX).join('').trimEnd();
  }

  let forum = topic.forumId === undefined ? undefined : context.forumIds.get(topic.forumId);
  if (!forum) {
    forum = context.fallbackForum;
    conversions.push({ field: 'forum', message: `${topic.forumId === undefined ? 'no forum given' : `forum ${topic.forumId} is not in the forum list the API gave`}: put in '${forum}'` });
  }

  const tags: string[] = [];
  const given = [...(topic.prefix ? [topic.prefix] : []), ...topic.tags];
  given.forEach((raw, i) => {
    const tag = normaliseTag(raw);
    const what = topic.prefix && i === 0 ? 'prefix' : 'tag';
    const length = [...tag].length;
    if (length === 0) return;
    if (length > TAG_MAX) conversions.push({ field: 'tags', message: `${what} ${JSON.stringify(raw)} is ${length} characters (at most ${TAG_MAX}): left out` });
    else if (tag.includes(',')) conversions.push({ field: 'tags', message: `${what} ${JSON.stringify(raw)} holds a comma, which separates tags in a search: left out` });
    else if (!tags.includes(tag)) tags.push(tag);
  });
  if (tags.length > context.tagsPerTopic) {
    conversions.push({ field: 'tags', message: `${tags.length} tags, at most ${context.tagsPerTopic} allowed (limits.tagsPerTopic): left out ${tags.slice(context.tagsPerTopic).map((tag) => JSON.stringify(tag)).join(', ')}` });
    tags.length = context.tagsPerTopic;
  }
  return { fields: { title, author: name, created, updated, forum, tags, replies: topic.replies, views: topic.views }, conversions };
}

/** The topic file: the import mark with the old address, the front matter, the first post. */
export function forumTopicText(url: string, fields: TopicFields, body: string): string {
  const oneLine = url.replace(/[\r\n]/g, '');
  const front = dump({ ...fields, tags: fields.tags }, { lineWidth: -1, flowLevel: 1 });
  return `---\n${FORUM_IMPORT_MARK} ${oneLine}\n${front}---\n${body}\n`;
}
