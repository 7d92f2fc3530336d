import { digest as sha1 } from './digest.ts';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { isProblem, readJsonFile, type JsonFile } from './json-file.ts';
import { readContentTypes, type ContentTypeIndex } from './content-types.ts';
import { readMembers, type Member } from './members.ts';
import { readLinks, type LinkRecord } from './links.ts';
import { noTagDefinitions, readTags, type TagDefinitions } from './tags.ts';
import { canonicalTags } from '../model/tags.ts';
import type { RenderedPost, Topic, TopicContext } from './topics.ts';
import { fileStamp } from './file-stamp.ts';
import { contextKey, keptTopic, plainPost, readTopicFiles, topicRecordKey, type RenderMemory, type TopicResult } from './read-topics.ts';
import { duplicateWorkflowFileProblems } from '../outputs/workflow-list.ts';
import type { Problem } from './problems.ts';
import { DEFAULT_LIMITS, type Limits } from './limits.ts';
import { oldAddresses, SITE_SECTIONS, type OldAddress } from './aliases.ts';
import { memberKey } from '../model/members.ts';
import { contentFolderProblem, inRoot, linkProblem, realContentFolder, toPosix, topicFiles } from './content-files.ts';
import { readInThread } from './reading-thread.ts';
import { forgetSpill, spillTo } from './post-spill.ts';
import { shareNames } from './shared-names.ts';
import { holdsNoPost, withoutPost } from './kept-posts.ts';

/** Everything a site is built from, validated and normalised. */
export interface SiteContent {
  topics: Topic[];
  contentTypes: ContentTypeIndex;
  members: Member[];
  links: LinkRecord[];
  /** tags.json: synonyms and descriptions. Topics' tags are already canonical. */
  tags: TagDefinitions;
  /** The old addresses (`aliases`) that lead to the site's pages, checked. */
  oldAddresses: OldAddress[];
  /**
   * By slug, the first posts a build holds apart from their topics' records, which hold no post
   * (empty `html` and `text`): those it took from its memory, and in the records its pages take,
   * every post its memory holds (withoutPosts). The build reads them only where they are shown (postOf).
   */
  keptPosts?: ReadonlyMap<string, RenderedPost>;
}

export { postOf } from './kept-posts.ts';

export interface LoadOptions {
  /** The content folder (holding topics/, content-types.json …). */
  contentDir: string;
  /** Problems name files relative to this folder (the project root). */
  root: string;
  excerptLength: number;
  /** The site's limits (default: DEFAULT_LIMITS). */
  limits?: Limits;
  /** What an earlier build's reading of the data files gave (a build's only: ../build/data-memory.ts). */
  dataMemory?: DataMemory;
  /** The folder loadContentInParallel spills the posts it renders into (a build's only: ./post-spill.ts); emptied first. */
  spill?: string;
}

/**
 * The readings of data files (content-types.json, members.json, links.json, tags.json) that a
 * build remembers for the next with the same code, root and limits, by file name and the file's
 * stamp (./file-stamp.ts). Only a reading without problems is remembered.
 */
export interface DataMemory {
  /** What reading the file `name` gave when it had this stamp; undefined if not remembered. */
  get(name: string, stamp: string): unknown;
  set(name: string, stamp: string, reading: unknown): void;
}

function readJson(options: LoadOptions, name: string, required: boolean, problems: Problem[]): JsonFile | undefined {
  const path = join(options.contentDir, name);
  const file = toPosix(relative(options.root, path));
  const link = linkProblem(path, file, realContentFolder(options.contentDir));
  if (link) {
    problems.push(link);
    return undefined;
  }
  const limits = options.limits ?? DEFAULT_LIMITS;
  const json = required ? readJsonFile(path, file, { problem: 'the file is missing' }, limits) : readJsonFile(path, file, undefined, limits);
  if (json === undefined || !isProblem(json)) return json;
  problems.push(json);
  return undefined;
}

/**
 * A digest of each topic record that a build read or took from its memory: the same record, the
 * same digest, in any build with the same code. Page keys (src/build/page-reuse.ts) stand each
 * topic by it, instead of digesting every record again (half a second at 10,000 topics).
 */
export type TopicKeys = Map<Topic, string>;

/**
 * The content as a build's pages take it: every topic's text emptied (they show posts by their
 * HTML only), and its post kept out of its record where `kept` (by file) holds it apart, as a
 * rebuild keeps a post it took from its memory (SiteContent.keptPosts): the topic's page gets it
 * back. With the keys of its records (TopicKeys) for the new records.
 */
export function withoutPosts(content: SiteContent, keys: TopicKeys, kept: ReadonlyMap<string, RenderedPost>): { content: SiteContent; keys: TopicKeys } {
  const without: TopicKeys = new Map();
  const keptPosts = new Map(content.keptPosts);
  const topics = content.topics.map((topic) => {
    const post = kept.get(topic.file);
    if (post) keptPosts.set(topic.slug, post);
    // A record already without its post (spilled as read, or taken from the memory) stays the one record the memory holds too.
    const record = post ? withoutPost(topic) : { ...topic, text: '' };
    const key = keys.get(topic);
    if (key !== undefined) without.set(record, key);
    return record;
  });
  return { content: { ...content, topics, ...(keptPosts.size > 0 ? { keptPosts } : {}) }, keys: without };
}

/**
 * A data file read and checked by `read`, or its reading as `options.dataMemory` remembers it
 * while the file's stamp (from `stamps`, or looked up now) is the same. Undefined when the file is
 * missing, or cannot be read as JSON (a problem then, unless it is optional and missing).
 */
function readData<R extends { problems: Problem[] }>(options: LoadOptions, name: string, required: boolean, problems: Problem[], read: (json: JsonFile, file: string) => R, stamps?: ReadonlyMap<string, string>): R | undefined {
  const path = join(options.contentDir, name);
  const memory = options.dataMemory;
  const stamp = memory && (stamps?.get(path) ?? fileStamp(path));
  const remembered = stamp === undefined ? undefined : (memory!.get(name, stamp) as R | undefined);
  if (remembered) return remembered;
  const json = readJson(options, name, required, problems);
  const reading = json && read(json, toPosix(relative(options.root, path)));
  if (reading && reading.problems.length === 0 && stamp !== undefined) memory!.set(name, stamp, reading);
  return reading;
}

/** The data files, read and checked, and the list of topic files: everything but the topics themselves. */
function prepare(options: LoadOptions, stamps?: ReadonlyMap<string, string>) {
  const problems: Problem[] = [];
  const folder = contentFolderProblem(options.root, options.contentDir);
  if (folder) {
    const contentTypes: ContentTypeIndex = { list: [], byId: new Map(), subtree: new Map() };
    return { problems: [folder], contentTypes, members: [], memberAliases: [], links: [], tags: noTagDefinitions(), context: { contentTypes, excerptLength: options.excerptLength }, files: [], sections: [] };
  }
  const types = readData(options, 'content-types.json', true, problems, readContentTypes, stamps);
  const { index: contentTypes, problems: typeProblems }: { index: ContentTypeIndex; problems: Problem[] } = types ?? { index: { list: [], byId: new Map(), subtree: new Map() }, problems: [] };
  problems.push(...typeProblems);

  const members = readData(options, 'members.json', false, problems, readMembers, stamps) ?? { members: [], problems: [], aliases: [] };
  problems.push(...members.problems);

  const links = readData(options, 'links.json', false, problems, readLinks, stamps) ?? { links: [], problems: [] };
  problems.push(...links.problems);

  const tags = readData(options, 'tags.json', false, problems, readTags, stamps) ?? { tags: noTagDefinitions(), problems: [] };
  problems.push(...tags.problems);

  const context: TopicContext = { contentTypes, contentTypesUnreadable: !types, excerptLength: options.excerptLength, limits: options.limits ?? DEFAULT_LIMITS };
  return { problems, contentTypes, members: members.members, memberAliases: members.aliases, links: links.links, tags: tags.tags, context, files: topicFiles(options.root, options.contentDir, problems), sections: publicNames(options.root) };
}

/** The names at the top of the project's public/ folder and its own pages (src/pages): the site serves them, so no alias may name them. */
function publicNames(root: string): string[] {
  const names = (dir: string) => (existsSync(join(root, dir)) ? readdirSync(join(root, dir)) : []);
  const pages = names('src/pages').filter((name) => !/^[_[]/.test(name)).map((name) => name.replace(/\.(astro|mdx?|ts|js)$/, ''));
  return [...names('public'), ...pages];
}

/** The content as a build reads it, with what it remembers for the next build. */
interface Assembled {
  content: SiteContent;
  problems: Problem[];
  memory: RenderMemory;
  keys: TopicKeys;
  /**
   * A digest of every topic's record without its post (its `listingKey`), in the content's order:
   * the same digest, the same topics as every listing page shows them (../build/page-reuse.ts).
   */
  listings: string;
}

/** The checks across topics (slugs, workflow files), then all problems in file order. */
function assemble(prepared: ReturnType<typeof prepare>, results: TopicResult[]): Assembled {
  const { problems } = prepared;
  const topics: Topic[] = [];
  const keys: TopicKeys = new Map();
  const listingKeys: string[] = [];
  const slugs = new Map<string, string>();
  const memory: RenderMemory = new Map();
  const keptPosts = new Map<string, RenderedPost>();
  for (const { file, topic, problems: topicProblems, remembered } of results) {
    problems.push(...topicProblems);
    if (remembered) memory.set(file, remembered);
    const slug = file.slice(file.lastIndexOf('/') + 1, -'.md'.length);
    const first = slugs.get(slug);
    if (first) {
      problems.push({ file, field: '(slug)', message: `duplicate slug '${slug}': ${first} has the same file name` });
      continue;
    }
    slugs.set(slug, file);
    if (!topic) continue;
    if (remembered && holdsNoPost(topic)) keptPosts.set(topic.slug, remembered);
    // Synonyms become their canonical tag here, once: every page, index and feed sees canonical tags only.
    const tags = prepared.tags.canonicalOf.size > 0 ? canonicalTags(topic.tags, prepared.tags.canonicalOf) : topic.tags;
    const renamed = tags.length !== topic.tags.length || tags.some((tag, i) => tag !== topic.tags[i]);
    const canonical = renamed ? { ...topic, tags } : topic;
    topics.push(canonical);
    // The record's key, unless a synonym changed its tags.
    const key = remembered?.read?.key;
    if (key) keys.set(canonical, renamed ? sha1(`${key}\0${JSON.stringify(tags)}`) : key);
    const listingKey = remembered?.read?.listingKey;
    listingKeys.push(listingKey === undefined ? topicRecordKey(withoutPost(canonical)) : renamed ? sha1(`${listingKey}\0${JSON.stringify(tags)}`) : listingKey);
  }
  shareNames(topics);
  // Every file naming a workflow file, valid or not: a duplicate is reported with the other problems.
  problems.push(...duplicateWorkflowFileProblems(results.flatMap(({ file, workflowFile }) => (workflowFile ? [{ file, ...workflowFile }] : []))));
  // Old addresses: across all files, and against the addresses the site serves itself.
  const tagsWithPages = new Set(topics.flatMap((topic) => topic.tags));
  const aliases = [...topics.flatMap((topic) => topic.aliases ?? []), ...(prepared.contentTypes.aliases ?? []), ...prepared.memberAliases, ...prepared.tags.aliases.filter((alias) => alias.to.kind !== 'tag' || tagsWithPages.has(alias.to.tag))];
  const old = oldAddresses(aliases, {
    topicSlugs: new Set(slugs.keys()),
    tags: new Set([...tagsWithPages, ...[...prepared.tags.canonicalOf].filter(([, tag]) => tagsWithPages.has(tag)).map(([synonym]) => synonym)]),
    memberNames: prepared.members.map((member) => memberKey(member.name)),
    sections: new Set([...SITE_SECTIONS, ...prepared.sections.map((name) => name.toLowerCase())]),
  });
  problems.push(...old.problems);
  problems.sort((a, b) => (a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) : a.file < b.file ? -1 : 1));
  const content: SiteContent = { topics, contentTypes: prepared.contentTypes, members: prepared.members, links: prepared.links, tags: prepared.tags, oldAddresses: old.addresses };
  return { content: keptPosts.size > 0 ? { ...content, keptPosts } : content, problems, memory, keys, listings: sha1(listingKeys.join('\n')) };
}

/** Loads and validates all content. Problems are returned, all of them, never thrown. */
export function loadContent(options: LoadOptions): { content: SiteContent; problems: Problem[] } {
  const prepared = prepare(options);
  const { content, problems } = assemble(prepared, readTopicFiles(options.root, prepared.files, prepared.context));
  return { content, problems };
}

/** Below this many topic files to read a second thread costs more than it saves. */
const PARALLEL_FROM = 1500;

/**
 * loadContent for the build: a file unchanged since the build that left `memory` is not read
 * again, and a first post whose Markdown is unchanged is not rendered again; the files to read are
 * shared between this thread and worker threads (one per further CPU) when there are many. The
 * same checks and problems as loadContent; also returns the records and renderings to remember
 * for the next build. `stamps` gives files' stamps (../build/output-check.ts's listing, by full
 * path) where they were taken before; the others are looked up now.
 */
export async function loadContentInParallel(options: LoadOptions, memory?: RenderMemory, stamps?: ReadonlyMap<string, string>): Promise<Assembled> {
  const prepared = prepare(options, stamps);
  const { context } = prepared;
  // Unchanged files are taken from `memory` in this thread: a thread would cost its start and a copy
  // of what it is sent and gives back, some two seconds at 10,000 topics for nothing read.
  const settings = contextKey(context);
  const stampOf = (path: string) => stamps?.get(path) ?? fileStamp(path);
  const fullPath = inRoot(options.root);
  const kept = prepared.files.map((file) => (memory?.get(file)?.read ? keptTopic(file, stampOf(fullPath(file)), settings, memory) : undefined));
  const files = prepared.files.filter((_, i) => kept[i] === undefined);
  const threads = files.length < PARALLEL_FROM ? 1 : Math.min(availableParallelism(), 4);
  const share = Math.ceil(files.length / threads);
  const parts = Array.from({ length: threads }, (_, i) => files.slice(i * share, (i + 1) * share));
  const memoryOf = (part: string[]) => new Map(part.flatMap((file) => (memory?.has(file) ? [[file, plainPost(memory.get(file)!)] as const] : [])));
  // Each thread spills the posts it renders into a file of its own, named by its share.
  if (options.spill) forgetSpill(options.spill);
  const spill = (n: number) => (options.spill ? { folder: options.spill, name: `${n}.posts` } : undefined);
  const workers = parts.slice(1).map((part, i) => readInThread(options.root, part, context, memoryOf(part), spill(i + 1)));
  const own = spill(0);
  const spilling = own && spillTo(own);
  let mine: TopicResult[];
  try {
    mine = readTopicFiles(options.root, parts[0]!, context, memoryOf(parts[0]!), spilling?.settle);
  } finally {
    spilling?.close();
  }
  const read = [mine, ...(await Promise.all(workers))].flat();
  let next = 0;
  return assemble(prepared, kept.map((result) => result ?? read[next++]!));
}
