import matter from 'gray-matter';
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import type { TopicFrontMatter } from './schema-types.ts';
import type { ContentType, ContentTypeIndex } from './content-types.ts';
import { schemaProblems } from './schema-validation.ts';
import { parseContentDate } from './dates.ts';
import { normaliseTag, tagProblem } from '../model/tags.ts';
import { excerptParts, plainText, renderTopicHtml } from './markdown.ts';
import type { Problem } from './problems.ts';
import { DEFAULT_LIMITS, limitName, type Limits } from './limits.ts';
import { ownStrings, valueProblems } from './values.ts';
import { readAliases, type DeclaredAlias } from './aliases.ts';

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

/** A topic after validation and normalisation: what pages, feeds and indexes are built from. */
export interface Topic {
  slug: string;
  /** Source file, relative to the project root. */
  file: string;
  title: string;
  author: string;
  /**
   * `created` and `updated`, in milliseconds since 1970 (UTC), to the whole second. Numbers, not
   * ISO strings as well: a build's topic records are held on two threads (some 10 MB a thread at
   * 100,000 topics for the two strings).
   */
  createdMs: number;
  updatedMs: number;
  /** Id of the forum or category; `contentGroup` says which. */
  contentType: string;
  contentGroup: 'forum' | 'category';
  /** Normalised tags, in the topic's own order. */
  tags: string[];
  replies: number;
  views: number;
  /**
   * The excerpt's text (SPEC 2.1), without the `…` that follows it when it was cut: excerptOf
   * (../model/listing.ts) gives it as shown. Kept apart, the excerpt of a Latin-1 post is a
   * one-byte string, half the memory of one with `…` in it (41 MB against 21 MB of a
   * 100,000-topic build's records, held on two threads).
   */
  excerptText: string;
  /** Whether the excerpt was cut from a longer text. */
  excerptCut: boolean;
  /**
   * Sanitised HTML of the first post. Empty, with `text`, in the records a build's pages take: the
   * build holds the post apart (SiteContent.keptPosts, read from its memory's file when asked for),
   * and the topic's page gets it back as it renders (siteData().withPost).
   */
  html: string;
  /** The first post as plain text (markup removed, whitespace collapsed): the excerpt and the searched words come from it. */
  text: string;
  workflow?: NonNullable<TopicFrontMatter['workflow']>;
  /** Old addresses that lead to the topic's page (`aliases`). */
  aliases?: DeclaredAlias[];
}

// Dates stay strings (CORE_SCHEMA has no timestamps), so `2023-02-30` is caught rather than rolled
// over to March by the YAML parser.
// maxDepth: js-yaml refuses deeper nesting with a YAML error (one line), never a stack overflow.
const matterOptions = (maxDepth: number) => ({
  engines: { yaml: (text: string) => loadYaml(text, { schema: CORE_SCHEMA, maxDepth }) as object },
});

/**
 * Line of a front-matter field in the file (the front matter starts on line 2). Nested fields written
 * in block style (`workflow:` then `  file: …`, `tags:` then `  - …`) get their own line; anything
 * else, such as a flow list `[a, b]` or a missing field, gets its nearest existing parent's line.
 */
function lineOfField(frontMatter: string): (pointer: string) => number | undefined {
  const lines = frontMatter.split('\n');
  const indentOf = (i: number) => lines[i]!.length - lines[i]!.trimStart().length;
  const isItem = (i: number) => /^\s*-(?:\s|$)/.test(lines[i]!);
  const isKey = (i: number, key: string) =>
    [`${key}:`, `"${key}":`, `'${key}':`].some((start) => lines[i]!.trimStart().startsWith(start));
  // The lines directly inside the node on line `at` (-1: the whole front matter).
  const childLines = (at: number): number[] => {
    const parentIndent = at < 0 ? -1 : indentOf(at);
    const found: number[] = [];
    let childIndent: number | undefined;
    for (let i = at + 1; i < lines.length; i++) {
      const text = lines[i]!.trim();
      if (text === '' || text.startsWith('#')) continue;
      const indent = indentOf(i);
      // YAML lets a list's items sit at the same indentation as its key.
      if (indent < parentIndent || (indent === parentIndent && !isItem(i))) break;
      childIndent ??= indent;
      if (indent === childIndent) found.push(i);
    }
    return found;
  };
  return (pointer) => {
    let at = -1;
    for (const raw of pointer.split('/').slice(1)) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      const children = childLines(at);
      const next = /^\d+$/.test(key) ? children.filter(isItem)[Number(key)] : children.find((i) => isKey(i, key));
      if (next === undefined) break;
      at = next;
    }
    return at < 0 ? 1 : at + 2;
  };
}

export interface TopicContext {
  contentTypes: ContentTypeIndex;
  /** content-types.json could not be read at all: its ids are unknown, so `forum`/`category` are not checked against them. */
  contentTypesUnreadable?: boolean;
  excerptLength: number;
  /** The site's limits (default: DEFAULT_LIMITS). */
  limits?: Limits;
  /** Renders a first post (default: renderPost); the build passes one that remembers earlier renderings. */
  render?: (markdown: string) => RenderedPost;
}

/** A first post rendered: sanitised HTML and its plain text. */
export interface RenderedPost {
  html: string;
  text: string;
}

/** Renders a first post's Markdown to sanitised HTML and plain text. */
export function renderPost(markdown: string): RenderedPost {
  const html = renderTopicHtml(markdown);
  return { html, text: plainText(html) };
}

/** What one topic file gave: the topic or all its problems, and the workflow file it names even when it has problems (so a duplicate is reported in the same run). */
export interface TopicReading {
  topic?: Topic;
  problems: Problem[];
  workflowFile?: { name: string; line?: number };
}

/**
 * The first front matter line, up to where YAML gave up (`upTo`, a file line), whose quoted value
 * is never closed: YAML reports such a mistake lines later, as an indentation error.
 */
function unclosedQuote(source: string, upTo: number | undefined): { line: number; mark: string } | undefined {
  const lines = source.split(/\r?\n/);
  const last = Math.min(upTo ?? lines.length, lines.length);
  for (let i = 1; i < last && lines[i] !== '---'; i++) {
    const value = /^\s*(?:-\s+)?(?:[^\s:#'"][^:#]*:\s+)?(["'])(.*)$/.exec(lines[i]!);
    if (!value) continue;
    const [, mark, rest] = value as unknown as [string, string, string];
    const closed = mark === '"' ? /(?:^|[^\\])"/.test(rest) : rest.replace(/''/g, '').includes("'");
    if (!closed) return { line: i + 1, mark: mark === '"' ? 'double quote' : 'single quote' };
  }
  return undefined;
}

/** The ids a field could name, to say which are valid: `; valid: a, b, c` (the first 20). */
function validIds(types: ContentTypeIndex, wanted: (group: ContentType['group']) => boolean): string {
  const ids = types.list.filter((type) => wanted(type.group)).map((type) => type.id);
  if (ids.length === 0) return '';
  return `; valid: ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? `, … (${ids.length} in all)` : ''}`;
}

/** Reads one topic file: every rule of SPEC 2.1. Returns the topic, or the problems (all of them). */
export function readTopic(file: string, source: string, context: TopicContext): TopicReading {
  const slug = file.slice(file.lastIndexOf('/') + 1).replace(/\.md$/, '');
  const problems: Problem[] = [];
  const limits = context.limits ?? DEFAULT_LIMITS;
  if (!SLUG_PATTERN.test(slug)) {
    problems.push({
      file,
      field: '(slug)',
      message: `file name '${slug}' is not a valid slug: use lower-case letters, digits and hyphens, starting with a letter or digit`,
    });
  }
  if (!/^(?:\uFEFF)?---\r?\n/.test(source)) {
    problems.push({ file, line: 1, field: '(front matter)', message: 'the file must start with front matter between --- lines' });
    return { problems };
  }

  let parsed: matter.GrayMatterFile<string>;
  try {
    parsed = matter(source, matterOptions(limits.nestingDepth));
  } catch (error) {
    const yamlError = error as { reason?: string; mark?: { line: number }; message: string };
    // The YAML text starts right after the opening `---` (its line 0 is the file's line 1).
    const line = yamlError.mark ? yamlError.mark.line + 1 : undefined;
    const quote = unclosedQuote(source, line);
    problems.push({
      file,
      line: quote?.line ?? line,
      field: '(front matter)',
      message: quote ? `not valid YAML: the ${quote.mark} that opens this value is never closed (a quoted value ends with the same quote)` : `not valid YAML: ${yamlError.reason ?? yamlError.message.split('\n')[0]}`,
    });
    return { problems };
  }
  const lineOf = lineOfField(parsed.matter.replace(/^\r?\n/, ''));
  const data: unknown = ownStrings(parsed.data ?? {});
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    problems.push({ file, line: 2, field: '(front matter)', message: 'must be a set of `field: value` lines' });
    return { problems };
  }
  problems.push(...schemaProblems('topic', data, file, lineOf), ...valueProblems(data, file, lineOf));
  const fm = data as TopicFrontMatter;
  const problem = (field: string, message: string) =>
    problems.push({ file, line: lineOf(`/${field.replace(/\[(\d+)\]/g, '.$1').split('.').join('/')}`), field, message });

  // Dates: the schema checked their form; here, their order.
  // Dates are kept to the whole second, the precision of the search index and of listings.
  const toSecond = (ms: number | undefined) => (ms === undefined ? undefined : Math.floor(ms / 1000) * 1000);
  const createdMs = typeof fm.created === 'string' ? toSecond(parseContentDate(fm.created)) : undefined;
  const updatedMs = typeof fm.updated === 'string' ? toSecond(parseContentDate(fm.updated)) : createdMs;
  if (createdMs !== undefined && updatedMs !== undefined && updatedMs < createdMs) {
    problem('updated', `${fm.updated} is earlier than created (${fm.created})`);
  }

  // Exactly one of forum/category, naming an existing id of the right group.
  let contentType = '';
  let contentGroup: Topic['contentGroup'] = 'forum';
  if (fm.forum !== undefined && fm.category !== undefined) {
    problem('category', 'give either forum or category, not both');
  } else if (fm.forum === undefined && fm.category === undefined) {
    problems.push({ file, line: 1, field: 'forum', message: 'is required (or category): the forum or category the topic belongs to' });
  } else if (typeof fm.forum === 'string') {
    const type = context.contentTypes.byId.get(fm.forum);
    if ((!type || type.group !== 'forum') && !context.contentTypesUnreadable) {
      problem('forum', `'${fm.forum}' is not a forum id in content-types.json${type ? ` (it is a ${type.group === 'category' ? 'category' : 'feature category'}: use category)` : validIds(context.contentTypes, (group) => group === 'forum')}`);
    }
    contentType = fm.forum;
  } else if (typeof fm.category === 'string') {
    const type = context.contentTypes.byId.get(fm.category);
    if ((!type || type.group === 'forum') && !context.contentTypesUnreadable) {
      problem('category', `'${fm.category}' is not a category or feature category id in content-types.json${type ? ' (it is a forum: use forum)' : validIds(context.contentTypes, (group) => group !== 'forum')}`);
    }
    contentType = fm.category;
    contentGroup = 'category';
  }

  // Tags: at most limits.tagsPerTopic, normalised, 1–50 characters, no duplicates after normalising.
  if (Array.isArray(fm.tags) && fm.tags.length > limits.tagsPerTopic) {
    problem('tags', `has ${fm.tags.length} tags; at most ${limits.tagsPerTopic} allowed (${limitName('tagsPerTopic')})`);
  }
  const tags: string[] = [];
  if (Array.isArray(fm.tags)) {
    fm.tags.forEach((raw, i) => {
      if (typeof raw !== 'string') return; // the schema reported it
      const tag = normaliseTag(raw);
      const wrong = tagProblem(tag);
      if (wrong) {
        problem(`tags[${i}]`, wrong);
      } else if (tags.includes(tag)) {
        problem(`tags[${i}]`, `duplicate tag '${tag}' (after trimming and lower-casing)`);
      } else tags.push(tag);
    });
  }

  const aliases = readAliases(fm.aliases, { file, field: 'aliases', pointer: '/aliases', lineOf }, { kind: 'topic', slug, title: typeof fm.title === 'string' ? fm.title : slug }, problems);

  const named = typeof fm.workflow?.file === 'string' ? fm.workflow.file : undefined;
  const workflowFile = named === undefined ? {} : { workflowFile: { name: named, line: lineOf('/workflow/file') } };
  if (problems.length > 0) return { problems, ...workflowFile };
  const { html, text } = (context.render ?? renderPost)(parsed.content);
  return {
    ...workflowFile,
    problems,
    topic: {
      slug,
      file,
      title: fm.title,
      author: fm.author,
      createdMs: createdMs!,
      updatedMs: updatedMs!,
      contentType,
      contentGroup,
      tags,
      replies: fm.replies ?? 0,
      views: fm.views ?? 0,
      ...excerptParts(text, context.excerptLength),
      html,
      text,
      ...(fm.workflow ? { workflow: fm.workflow } : {}),
      ...(aliases.length > 0 ? { aliases } : {}),
    },
  };
}
