/**
 * `npm run new-topic -- "Title" --forum <id> --tags a,b [--author name] [--category id] [--slug s]
 * [--content <dir>]`: writes a new topic file dated today (UTC), with a slug from the title that no
 * topic uses yet, checked by the build's own rules (readTopic) before anything is written. It never
 * overwrites a file. Every problem is one line; exit 1 if any.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isProblem, parseJsonFile } from '../src/content/json-file.ts';
import { readContentTypes } from '../src/content/content-types.ts';
import { readTopic } from '../src/content/topics.ts';
import { utcDay } from '../src/content/dates.ts';
import { normaliseTag } from '../src/model/tags.ts';
import { argumentProblem, slugFromTitle, topicFileText, topicFolder, uniqueSlug } from '../src/cli/new-topic.ts';
import type { Problem } from '../src/content/problems.ts';
import { contentDir, parseArgs, printProblems, projectOptions, projectRoot } from '../src/cli/project.ts';

const COMMAND = 'new-topic';
const SPEC = { title: 'string', forum: 'string', category: 'string', tags: 'string', author: 'string', slug: 'string', content: 'string' } as const;
const root = projectRoot();
const fail = (problems: Problem[]): never => {
  printProblems(problems);
  process.exit(1);
};
const shown = (path: string) => (relative(root, path).startsWith('..') ? path : relative(root, path).split(sep).join('/'));

// The title may come first without a name: pick out the words that are not options or their values.
const argv = process.argv.slice(2);
const positional: string[] = [];
const named: string[] = [];
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i]!;
  if (!arg.startsWith('--')) positional.push(arg);
  else {
    named.push(arg);
    if (!arg.includes('=') && (SPEC as Record<string, string>)[arg.slice(2)] === 'string' && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) named.push(argv[++i]!);
  }
}
const args = parseArgs(named, SPEC, COMMAND);
const problems = [...args.problems];
const value = (name: keyof typeof SPEC) => args.values[name] as string | undefined;
if (positional.length > 0 && value('title') !== undefined) problems.push({ file: COMMAND, field: 'title', message: 'given twice: as the first argument and with --title' });
if (positional.length > 1) problems.push({ file: COMMAND, field: positional[1]!, message: 'unexpected argument: put the title in quotes ("Like this title")' });
const title = value('title') ?? positional[0];
if (title === undefined) problems.push({ file: COMMAND, field: 'title', message: 'missing: give the title as the first argument, in quotes' });
else if (/[\r\n]/.test(title)) problems.push({ file: COMMAND, field: 'title', message: 'must be one line' });
if (value('forum') === undefined && value('category') === undefined) problems.push({ file: COMMAND, field: '--forum', message: 'missing: give --forum <id> (or --category <id>) from content-types.json' });
if (value('tags') === undefined) problems.push({ file: COMMAND, field: '--tags', message: 'missing: give the tags comma-separated, e.g. --tags api,json' });

let author = value('author');
if (author === undefined) {
  try {
    author = execFileSync('git', ['config', 'user.name'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    author = undefined;
  }
  if (author === undefined) problems.push({ file: COMMAND, field: '--author', message: 'missing: give --author <member name> (git has no user.name to use)' });
}

// The content folder: its content types decide which ids exist, its topics which slugs are taken.
const content = contentDir(root, value('content'));
const typesPath = join(content, 'content-types.json');
if (!existsSync(typesPath)) fail([...problems, { file: shown(typesPath), field: '(file)', message: 'the file is missing: is --content the content folder?' }]);
const typesJson = parseJsonFile(readFileSync(typesPath, 'utf8'), shown(typesPath));
if (isProblem(typesJson)) fail([...problems, typesJson]);
const { index: contentTypes, problems: typeProblems } = readContentTypes(typesJson as Exclude<typeof typesJson, Problem>, shown(typesPath));
if (typeProblems.length > 0) fail([...problems, ...typeProblems]);

const topicsDir = join(content, 'topics');
const existing = new Map<string, string>();
if (existsSync(topicsDir)) {
  for (const entry of readdirSync(topicsDir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.md')) existing.set(entry.name.slice(0, -3), join(entry.parentPath, entry.name));
  }
}
const chosen = value('slug');
if (chosen !== undefined && existing.has(chosen)) {
  problems.push({ file: COMMAND, field: '--slug', message: `'${chosen}' is already used by ${shown(existing.get(chosen)!)}; refusing to overwrite` });
}
const forum = value('forum');
const category = value('category');
// Without these there is no file to check; with them, the file's problems join the arguments' own.
if (title === undefined || author === undefined || (forum ?? category) === undefined || value('tags') === undefined) fail(problems);

const slug = chosen ?? uniqueSlug(slugFromTitle(title!), new Set(existing.keys()));
const folder = topicFolder(forum ?? category!, contentTypes);
const path = join(topicsDir, folder, `${slug}.md`);
const text = topicFileText({
  title: title!,
  author: author!,
  created: utcDay(Date.now()),
  ...(forum !== undefined ? { forum } : {}),
  ...(category !== undefined ? { category } : {}),
  // Written normalised, as the build reads them; empty pieces stay, so `a,,b` is reported rather than dropped.
  tags: value('tags')!.split(',').map(normaliseTag),
});

// The build's own rules, on exactly the text about to be written.
const { options } = await projectOptions(root);
const checked = readTopic(shown(path), text, { contentTypes, excerptLength: options.excerptLength });
problems.push(...checked.problems.map((problem) => argumentProblem(problem, COMMAND)));
if (problems.length > 0) fail(problems);
if (checked.topic?.title !== title) fail([{ file: COMMAND, field: 'title', message: 'could not be written so that it reads back the same; nothing was written' }]);

try {
  mkdirSync(join(topicsDir, folder), { recursive: true });
  // `wx`: fail rather than replace a file that appeared meanwhile.
  writeFileSync(path, text, { flag: 'wx' });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  fail([{ file: shown(path), field: '(file)', message: code === 'EEXIST' ? 'already exists; refusing to overwrite' : `could not be written (${code ?? (error as Error).message})` }]);
}
console.log(`created ${shown(path)}: write the first post below its front matter, then run npm run validate`);
