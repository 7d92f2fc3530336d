import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isProblem, parseJsonFile, type JsonFile } from './json-file.ts';
import { readContentTypes, type ContentTypeIndex } from './content-types.ts';
import { readMembers, type Member } from './members.ts';
import { readLinks, type LinkRecord } from './links.ts';
import { readTopic, type Topic } from './topics.ts';
import { duplicateWorkflowFileProblems } from './workflows.ts';
import type { Problem } from './problems.ts';

/** Everything a site is built from, validated and normalised. */
export interface SiteContent {
  topics: Topic[];
  contentTypes: ContentTypeIndex;
  members: Member[];
  links: LinkRecord[];
}

export interface LoadOptions {
  /** The content folder (holding topics/, content-types.json …). */
  contentDir: string;
  /** Problems name files relative to this folder (the project root). */
  root: string;
  excerptLength: number;
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function readJson(options: LoadOptions, name: string, required: boolean, problems: Problem[]): JsonFile | undefined {
  const path = join(options.contentDir, name);
  const file = toPosix(relative(options.root, path));
  if (!existsSync(path)) {
    if (required) problems.push({ file, field: '(file)', message: 'the file is missing' });
    return undefined;
  }
  const parsed = parseJsonFile(readFileSync(path, 'utf8'), file);
  if (isProblem(parsed)) {
    problems.push(parsed);
    return undefined;
  }
  return parsed;
}

/** Lists topic files under content/topics; anything there that is not a `.md` topic is a problem (topics are data, not code). */
function topicFiles({ root, contentDir }: LoadOptions, problems: Problem[]): string[] {
  const dir = join(contentDir, 'topics');
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith('.')) continue;
    const file = toPosix(relative(root, join(entry.parentPath, entry.name)));
    if (entry.name.endsWith('.md')) files.push(file);
    else
      problems.push({
        file,
        field: '(file)',
        message: entry.name.endsWith('.mdx')
          ? 'topics are Markdown data: rename to .md (MDX is for the site\'s own pages)'
          : 'only .md topic files belong in content/topics',
      });
  }
  return files.sort();
}

/** Loads and validates all content. Problems are returned, all of them, never thrown. */
export function loadContent(options: LoadOptions): { content: SiteContent; problems: Problem[] } {
  const problems: Problem[] = [];
  const fileOf = (name: string) => toPosix(relative(options.root, join(options.contentDir, name)));
  const typesJson = readJson(options, 'content-types.json', true, problems);
  const { index: contentTypes, problems: typeProblems } = typesJson
    ? readContentTypes(typesJson, fileOf('content-types.json'))
    : { index: { list: [], byId: new Map(), subtree: new Map() }, problems: [] };
  problems.push(...typeProblems);

  const membersJson = readJson(options, 'members.json', false, problems);
  const members = membersJson ? readMembers(membersJson, fileOf('members.json')) : { members: [], problems: [] };
  problems.push(...members.problems);

  const linksJson = readJson(options, 'links.json', false, problems);
  const links = linksJson ? readLinks(linksJson, fileOf('links.json')) : { links: [], problems: [] };
  problems.push(...links.problems);

  const topics: Topic[] = [];
  const slugs = new Map<string, string>();
  const context = { contentTypes, contentTypesUnreadable: !typesJson, excerptLength: options.excerptLength };
  for (const file of topicFiles(options, problems)) {
    const text = readFileSync(join(options.root, file), 'utf8');
    const result = readTopic(file, text, context);
    problems.push(...result.problems);
    const slug = file.slice(file.lastIndexOf('/') + 1, -'.md'.length);
    const first = slugs.get(slug);
    if (first) {
      problems.push({ file, field: '(slug)', message: `duplicate slug '${slug}': ${first} has the same file name` });
      continue;
    }
    slugs.set(slug, file);
    if (result.topic) topics.push(result.topic);
  }
  problems.push(...duplicateWorkflowFileProblems(topics));
  problems.sort((a, b) => (a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) : a.file < b.file ? -1 : 1));
  return { content: { topics, contentTypes, members: members.members, links: links.links }, problems };
}
