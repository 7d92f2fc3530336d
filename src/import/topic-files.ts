/**
 * One page of a forum's topics turned into topic files: what each topic needs (nothing, a write, a
 * skip with its reason), the first posts read and converted, every file checked by the build's own
 * reader before it is written, and files a person edited or removed since an import left alone.
 */
import { existsSync, readdirSync, readFileSync, openSync, readSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { readTopic } from '../content/topics.ts';
import type { ContentTypeIndex } from '../content/content-types.ts';
import type { Limits } from '../content/limits.ts';
import type { Problem } from '../content/problems.ts';
import { slugFromTitle, topicFolder, uniqueSlug } from '../cli/new-topic.ts';
import { writeFileAtomic } from '../cli/atomic-file.ts';
import { createFileAtomic } from '../cli/import-workflows-files.ts';
import { FetchFailure } from './http.ts';
import { FORUM_IMPORT_MARK, forumTopicText, topicFields, type TopicContext } from './mapping.ts';
import { postMarkdown } from './post-markdown.ts';
import { aliasesOf, importedTopicIndex, rewriteOldLinks } from './old-links.ts';
import type { ForumSource, SourceTopic } from './source.ts';
import { textHash, type ImportState } from './state.ts';
import { IMPORT_FORUM_COMMAND } from './arguments.ts';

/** What the topics of a run came to. */
export interface TopicCounts {
  listed: number;
  imported: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: number;
}

/** A topic file to write: a new one (no `file` yet) or one an earlier run wrote. */
interface Planned {
  topic: SourceTopic;
  author: string;
  text: string;
  folder: string;
  title: string;
  file?: string;
  hash?: string;
}

export interface PageContext {
  root: string;
  contentDir: string;
  base: string;
  source: ForumSource;
  state: ImportState;
  types: TopicContext & { index: ContentTypeIndex };
  limits: Limits;
  excerptLength: number;
  includeHidden: boolean;
  dryRun: boolean;
  /** Slugs used in the content folder (new files take the next free one). */
  slugs: Set<string>;
  /** Files of an interrupted run that wrote them but not yet its state, by the old address in their import mark. */
  unrecorded: Map<string, string>;
  counts: TopicCounts;
  /** Ids of the topics this run wrote (their links to topics imported later are rewritten at the end). */
  written: Set<string>;
  report: Problem[];
  /** Which content file a report line names, relative to the project root. */
  shown: (contentRelative: string) => string;
}

/** Every topic file's slug, and the files that carry an import mark, by the old address the mark names. */
export function scanTopics(contentDir: string): { slugs: Set<string>; marked: Map<string, string> } {
  const slugs = new Set<string>();
  const marked = new Map<string, string>();
  const dir = join(contentDir, 'topics');
  if (!existsSync(dir)) return { slugs, marked };
  const head = Buffer.alloc(600);
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
    slugs.add(entry.name.slice(0, -3));
    const path = join(entry.parentPath, entry.name);
    const fd = openSync(path, 'r');
    const read = readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    const second = head.subarray(0, read).toString('utf8').split('\n')[1] ?? '';
    if (second.startsWith(`${FORUM_IMPORT_MARK} `)) marked.set(second.slice(FORUM_IMPORT_MARK.length + 1).trim(), path.slice(contentDir.length + 1).split('\\').join('/'));
  }
  return { slugs, marked };
}

/** The text of a file, or undefined when it is gone. */
function currentText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Decides, reads and checks one page of topics; returns the files to write. */
export async function planPage(context: PageContext, topics: readonly SourceTopic[]): Promise<Planned[]> {
  const { state, counts, report } = context;
  const skip = (topic: SourceTopic, reason: string) => {
    counts.skipped++;
    report.push({ file: IMPORT_FORUM_COMMAND, field: `topic ${topic.id}`, message: `skipped: ${reason} (${topic.url})` });
  };
  const toRead: SourceTopic[] = [];
  for (const topic of topics) {
    counts.listed++;
    const adopted = context.unrecorded.get(topic.url);
    if (!state.topics[topic.id] && adopted) {
      // Written by a run that stopped before it recorded it: the file is this import's own.
      const text = currentText(join(context.contentDir, adopted));
      if (text !== undefined) state.topics[topic.id] = { file: adopted, hash: textHash(text), stamp: '', url: topic.url, author: '' };
    }
    const known = state.topics[topic.id];
    if (known) {
      const text = currentText(join(context.contentDir, known.file));
      if (text === undefined) {
        skip(topic, `its file ${context.shown(known.file)} was deleted after an earlier import; it is not written again`);
        continue;
      }
      if (textHash(text) !== known.hash) {
        counts.skipped++;
        report.push({ file: context.shown(known.file), field: '(file)', message: `edited since it was imported from topic ${topic.id} (${topic.url}): left as it is, not updated` });
        continue;
      }
      if (known.stamp === topic.stamp) {
        counts.unchanged++;
        continue;
      }
    }
    if (topic.hidden && !context.includeHidden) {
      if (known) {
        counts.unchanged++;
        report.push({ file: context.shown(known.file), field: '(file)', message: `topic ${topic.id} is hidden on the forum now (${topic.url}): the file of an earlier import is left as it is` });
      } else skip(topic, 'hidden on the forum (--include-hidden imports hidden topics)');
      continue;
    }
    toRead.push(topic);
  }

  const read = await Promise.all(
    toRead.map(async (topic) => {
      try {
        return { topic, post: await context.source.firstPost(topic) };
      } catch (error) {
        if (!(error instanceof FetchFailure)) throw error;
        return { topic, failure: error.message };
      }
    }),
  );

  const planned: Planned[] = [];
  // Links to topics imported so far lead to their new pages; those to topics still to come, once the run is through (relinkTopics).
  const imported = importedTopicIndex(state, context.base, context.unrecorded);
  for (const item of read) {
    const { topic } = item;
    if (!('post' in item) || !item.post) {
      counts.failed++;
      report.push({ file: IMPORT_FORUM_COMMAND, field: `topic ${topic.id}`, message: `not imported: ${item.failure} (${topic.url}); the next run tries again` });
      continue;
    }
    const author = topic.author || item.post.author;
    const mapped = topicFields(topic, author, context.types);
    if ('skip' in mapped) {
      skip(topic, mapped.skip);
      continue;
    }
    const known = state.topics[topic.id];
    const folder = topicFolder(mapped.fields.forum, context.types.index);
    const aliases = aliasesOf(topic.oldUrls ?? [topic.url], context.base);
    const fields = aliases.length > 0 ? { ...mapped.fields, aliases } : mapped.fields;
    const text = forumTopicText(topic.url, fields, rewriteOldLinks(postMarkdown(item.post.html, context.base), context.base, imported));
    const name = known?.file ?? `topics/${folder}/${slugFromTitle(mapped.fields.title)}.md`;
    if (Buffer.byteLength(text) > context.limits.topicFileBytes) {
      skip(topic, `its topic file would be ${Buffer.byteLength(text)} bytes, over limits.topicFileBytes (${context.limits.topicFileBytes})`);
      continue;
    }
    const slug = name.slice(name.lastIndexOf('/') + 1);
    // The build's rules on the front matter; rendering is the build's work (and would double the import's time).
    const check = readTopic(slug, text, { contentTypes: context.types.index, excerptLength: context.excerptLength, limits: context.limits, render: () => ({ html: '', text: '' }) });
    if (check.problems.length > 0) {
      skip(topic, check.problems.map((p) => `${p.field}: ${p.message}`).join('; '));
      continue;
    }
    for (const conversion of mapped.conversions) {
      report.push({ file: context.shown(name), field: conversion.field, message: `${conversion.message} (topic ${topic.id}, ${topic.url})` });
    }
    if (known && textHash(text) === known.hash) {
      counts.unchanged++;
      known.stamp = topic.stamp;
      continue;
    }
    planned.push({ topic, author: mapped.fields.author, text, folder, title: mapped.fields.title, ...(known ? { file: known.file, hash: known.hash } : {}) });
  }
  return planned;
}

/** Writes the planned files (under the content lock), a person's edit made meanwhile still left alone, and records them in the state. */
export function writePage(context: PageContext, planned: readonly Planned[]): void {
  const { state, counts, report } = context;
  for (const plan of planned) {
    const { topic } = plan;
    for (const [tag, url] of Object.entries(topic.tagUrls ?? {})) state.tags[tag] ??= url;
    // A topic listed twice (its activity moved it while the pages were read), written meanwhile from its first listing.
    const recorded = state.topics[topic.id];
    if (plan.file === undefined && recorded) {
      counts.unchanged++;
      continue;
    }
    if (plan.file !== undefined) {
      const path = join(context.contentDir, plan.file);
      const now = currentText(path);
      if (recorded && recorded.hash !== plan.hash && now !== undefined && textHash(now) === recorded.hash) {
        counts.unchanged++;
        continue;
      }
      if (now === undefined || textHash(now) !== plan.hash) {
        counts.skipped++;
        report.push({ file: context.shown(plan.file), field: '(file)', message: `changed while the import ran (topic ${topic.id}, ${topic.url}): left as it is` });
        continue;
      }
      if (!context.dryRun) writeFileAtomic(path, plan.text);
      counts.updated++;
      state.topics[topic.id] = { file: plan.file, hash: textHash(plan.text), stamp: topic.stamp, url: topic.url, author: plan.author };
      context.written.add(topic.id);
      continue;
    }
    for (let slug = uniqueSlug(slugFromTitle(plan.title), context.slugs); ; slug = uniqueSlug(slug, context.slugs)) {
      context.slugs.add(slug);
      const file = `topics/${plan.folder}/${slug}.md`;
      try {
        if (!context.dryRun) createFileAtomic(join(context.contentDir, file), plan.text);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue; // a file that appeared meanwhile: the next slug
        throw error;
      }
      counts.imported++;
      state.topics[topic.id] = { file, hash: textHash(plan.text), stamp: topic.stamp, url: topic.url, author: plan.author };
      context.written.add(topic.id);
      break;
    }
  }
}

/** A topic file with `aliases` in its front matter, when it has none (a file an import wrote before it recorded them). */
function withAliases(text: string, aliases: readonly string[]): string {
  const end = text.indexOf('\n---\n', 4);
  if (aliases.length === 0 || end < 0 || /^aliases:/m.test(text.slice(0, end))) return text;
  return `${text.slice(0, end + 1)}${dump({ aliases }, { lineWidth: -1, flowLevel: 1 })}${text.slice(end + 1)}`;
}

/**
 * Once every imported topic has its page: rewrites the links of the imported topics (unedited since)
 * to topics imported after them, and gives files written before imports recorded old addresses their
 * `aliases` (from the address in the state). Returns how many files changed.
 */
export function relinkTopics(context: PageContext, ids: Iterable<string>): number {
  const index = importedTopicIndex(context.state, context.base);
  let changed = 0;
  for (const id of ids) {
    const known = context.state.topics[id];
    const text = known ? currentText(join(context.contentDir, known.file)) : undefined;
    if (!known || text === undefined || textHash(text) !== known.hash) continue;
    const relinked = rewriteOldLinks(withAliases(text, aliasesOf(context.source.topicUrls(known.url), context.base)), context.base, index);
    if (relinked === text) continue;
    if (!context.dryRun) writeFileAtomic(join(context.contentDir, known.file), relinked);
    known.hash = textHash(relinked);
    changed++;
  }
  return changed;
}
