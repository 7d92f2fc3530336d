/**
 * `new-topic`: writes a new topic file dated today (UTC), with a slug from the title that no topic
 * uses yet, checked by the build's own rules (readTopic) before anything is written. It never
 * overwrites a file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import slugify from '@sindresorhus/slugify';
import { dump } from 'js-yaml';
import { isProblem, readJsonFile } from '../content/json-file.ts';
import { readContentTypes, type ContentTypeIndex } from '../content/content-types.ts';
import { readTopic } from '../content/topics.ts';
import { normaliseTag } from '../model/tags.ts';
import type { Problem } from '../content/problems.ts';
import { contentDir, parseArgs, projectOptions } from './project.ts';
import { CONTENT_LOCK, LockBusyError, withLock } from './lock.ts';
import type { ResolvedOptions } from '../integration/options.ts';

const COMMAND = 'new-topic';
const OPTIONS = { title: 'string', forum: 'string', category: 'string', tags: 'string', author: 'string', slug: 'string', content: 'string' } as const;

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

/** The command's arguments: the options by name, and the words given without one (the title). */
export interface NewTopicArguments {
  values: Partial<Record<keyof typeof OPTIONS, string>>;
  positional: string[];
  problems: Problem[];
}

/** Reads the arguments. The title may come first without a name: the words that are not options or their values. */
export function newTopicArguments(argv: readonly string[]): NewTopicArguments {
  const positional: string[] = [];
  const named: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) positional.push(arg);
    else {
      named.push(arg);
      if (!arg.includes('=') && (OPTIONS as Record<string, string>)[arg.slice(2)] === 'string' && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) named.push(argv[++i]!);
    }
  }
  const { values, problems } = parseArgs(named, OPTIONS, COMMAND);
  return { values: values as NewTopicArguments['values'], positional, problems };
}

/** git's user.name, the default author; undefined when git has none. */
function gitUserName(): string | undefined {
  try {
    return execFileSync('git', ['config', 'user.name'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** What a run did: the line to print, or every problem that stopped it. */
export type NewTopicOutcome = { created: string } | { problems: Problem[] };

/**
 * Writes the topic file `args` describe into the content folder of the project at `root`, dated
 * `today`. Runs at once take turns (the content folder's lock), each choosing its slug from the
 * topics there under the lock, so two runs with one title get `title` and `title-2`.
 */
export async function newTopic(root: string, args: NewTopicArguments, today: string): Promise<NewTopicOutcome> {
  const folder = contentDir(root, args.values.content);
  // Read before taking the lock: loading the config is the slow part of a run.
  const { options } = await projectOptions(root);
  if (!existsSync(folder)) return newTopicNow(root, args, today, options); // it says what is missing
  try {
    return await withLock(join(folder, CONTENT_LOCK), () => newTopicNow(root, args, today, options), { waitMs: 60_000 });
  } catch (error) {
    if (error instanceof LockBusyError) return { problems: [{ file: COMMAND, field: '(lock)', message: error.message }] };
    throw error;
  }
}

function newTopicNow(root: string, args: NewTopicArguments, today: string, options: ResolvedOptions): NewTopicOutcome {
  const shown = (path: string) => (relative(root, path).startsWith('..') ? path : relative(root, path).split(sep).join('/'));
  const { values, positional } = args;
  const problems = [...args.problems];
  if (positional.length > 0 && values.title !== undefined) problems.push({ file: COMMAND, field: 'title', message: 'given twice: as the first argument and with --title' });
  if (positional.length > 1) problems.push({ file: COMMAND, field: positional[1]!, message: 'unexpected argument: put the title in quotes ("Like this title")' });
  const title = values.title ?? positional[0];
  if (title === undefined) problems.push({ file: COMMAND, field: 'title', message: 'missing: give the title as the first argument, in quotes' });
  else if (/[\r\n]/.test(title)) problems.push({ file: COMMAND, field: 'title', message: 'must be one line' });
  const { forum, category, tags } = values;
  if (forum === undefined && category === undefined) problems.push({ file: COMMAND, field: '--forum', message: 'missing: give --forum <id> (or --category <id>) from content-types.json' });
  if (tags === undefined) problems.push({ file: COMMAND, field: '--tags', message: 'missing: give the tags comma-separated, e.g. --tags api,json' });
  const author = values.author ?? gitUserName();
  if (author === undefined) problems.push({ file: COMMAND, field: '--author', message: 'missing: give --author <member name> (git has no user.name to use)' });

  // The content folder: its content types decide which ids exist, its topics which slugs are taken.
  const content = contentDir(root, values.content);
  const typesPath = join(content, 'content-types.json');
  const typesJson = readJsonFile(typesPath, shown(typesPath), { problem: 'the file is missing: is --content the content folder?' });
  if (isProblem(typesJson)) return { problems: [...problems, typesJson] };
  const { index: contentTypes, problems: typeProblems } = readContentTypes(typesJson, shown(typesPath));
  if (typeProblems.length > 0) return { problems: [...problems, ...typeProblems] };

  const topicsDir = join(content, 'topics');
  const existing = new Map<string, string>();
  if (existsSync(topicsDir)) {
    for (const entry of readdirSync(topicsDir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.md')) existing.set(entry.name.slice(0, -3), join(entry.parentPath, entry.name));
    }
  }
  const chosen = values.slug;
  if (chosen !== undefined && existing.has(chosen)) {
    problems.push({ file: COMMAND, field: '--slug', message: `'${chosen}' is already used by ${shown(existing.get(chosen)!)}; refusing to overwrite` });
  }
  // Without these there is no file to check; with them, the file's problems join the arguments' own.
  const type = forum ?? category;
  if (title === undefined || author === undefined || type === undefined || tags === undefined) return { problems };

  const slug = chosen ?? uniqueSlug(slugFromTitle(title), new Set(existing.keys()));
  const folder = topicFolder(type, contentTypes);
  const path = join(topicsDir, folder, `${slug}.md`);
  const text = topicFileText({
    title,
    author,
    created: today,
    ...(forum !== undefined ? { forum } : {}),
    ...(category !== undefined ? { category } : {}),
    // Written normalised, as the build reads them; empty pieces stay, so `a,,b` is reported rather than dropped.
    tags: tags.split(',').map(normaliseTag),
  });

  // The build's own rules, on exactly the text about to be written.
  const checked = readTopic(shown(path), text, { contentTypes, excerptLength: options.excerptLength, limits: options.limits });
  problems.push(...checked.problems.map((problem) => argumentProblem(problem, COMMAND)));
  if (problems.length > 0) return { problems };
  if (checked.topic?.title !== title) return { problems: [{ file: COMMAND, field: 'title', message: 'could not be written so that it reads back the same; nothing was written' }] };

  try {
    mkdirSync(join(topicsDir, folder), { recursive: true });
    // `wx`: fail rather than replace a file that appeared meanwhile.
    writeFileSync(path, text, { flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problems: [{ file: shown(path), field: '(file)', message: code === 'EEXIST' ? 'already exists; refusing to overwrite' : `could not be written (${code ?? (error as Error).message})` }] };
  }
  return { created: `created ${shown(path)}: write the first post below its front matter, then run npm run validate` };
}
