/**
 * What `npm run new-topic` writes: a slug from the title, unique across the content folder, and the
 * text of a topic file. The file is then checked by readTopic, the build's own rules.
 */
import slugify from '@sindresorhus/slugify';
import { dump } from 'js-yaml';
import type { ContentTypeIndex } from '../content/content-types.ts';
import type { Problem } from '../content/problems.ts';

/** Longest slug made from a title; longer titles are cut at a word boundary. */
export const SLUG_MAX = 60;

/** Slug of a title when it has no letters or digits that transliterate to Latin (`日本語`). */
export const FALLBACK_SLUG = 'topic';

/**
 * The slug of a title: transliterated to Latin letters (`Übersetzer` → `uebersetzer`, `Привет` →
 * `privet`), lower case, words joined by `-`, apostrophes dropped, at most SLUG_MAX characters.
 */
export function slugFromTitle(title: string): string {
  const slug = slugify(title, { customReplacements: [["'", ''], ['’', '']] });
  if (slug.length <= SLUG_MAX) return slug || FALLBACK_SLUG;
  const cut = slug.slice(0, SLUG_MAX + 1);
  const lastHyphen = cut.lastIndexOf('-');
  return (lastHyphen > 0 ? cut.slice(0, lastHyphen) : slug.slice(0, SLUG_MAX)).replace(/-+$/, '');
}

/** `slug`, or `slug-2`, `slug-3` … : the first one no existing topic uses. */
export function uniqueSlug(slug: string, taken: ReadonlySet<string>): string {
  if (!taken.has(slug)) return slug;
  for (let n = 2; ; n++) if (!taken.has(`${slug}-${n}`)) return `${slug}-${n}`;
}

/**
 * The folder under content/topics/ for a new topic: a forum's top-level forum (`web-apis` → `help`),
 * or the category's own id. Folders are only for people: the build reads every folder alike.
 */
export function topicFolder(typeId: string, contentTypes: ContentTypeIndex): string {
  return contentTypes.byId.get(typeId)?.path[0] ?? typeId;
}

export interface NewTopicFields {
  title: string;
  author: string;
  /** `YYYY-MM-DD`. */
  created: string;
  forum?: string;
  category?: string;
  tags: string[];
}

/** A YAML scalar: plain when that reads back as the same string, quoted otherwise (`: `, `#`, `'`, leading `-` …). */
function scalar(value: string): string {
  return dump(value, { lineWidth: -1 }).trimEnd();
}

/** The text of a new topic file: front matter in the order README shows, and a placeholder first post. */
export function topicFileText(fields: NewTopicFields): string {
  const lines = [
    '---',
    `title: ${scalar(fields.title)}`,
    `author: ${scalar(fields.author)}`,
    `created: ${fields.created}`,
    ...(fields.forum !== undefined ? [`forum: ${scalar(fields.forum)}`] : []),
    ...(fields.category !== undefined ? [`category: ${scalar(fields.category)}`] : []),
    // A flow list, quoted where a tag holds `,`, `[`, `]`, `{` or `}`.
    `tags: ${dump(fields.tags, { flowLevel: 0, lineWidth: -1 }).trimEnd()}`,
    '---',
    'Write the first post here, in Markdown. The first lines become the excerpt shown in listings.',
    '',
  ];
  return lines.join('\n');
}

/**
 * A problem readTopic found in the generated file, told in terms of the command's arguments:
 * `tags[1]` → `--tags: tag 2: …`, `(slug)` → `--slug`, `title` → `title`.
 */
export function argumentProblem(problem: Problem, command: string): Problem {
  const match = /^([a-z]+)(?:\[(\d+)\])?/.exec(problem.field);
  const name = problem.field === '(slug)' ? 'slug' : match?.[1];
  if (!name) return { ...problem, file: command };
  const field = name === 'title' ? 'title' : `--${name}`;
  const item = match?.[2];
  return { file: command, field, message: item === undefined ? problem.message : `tag ${Number(item) + 1}: ${problem.message}` };
}
