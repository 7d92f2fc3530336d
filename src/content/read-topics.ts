/**
 * Reading topic files for a build, with the memory of the build before (../build/post-memory.ts):
 * a file unchanged since then is taken from that memory, and a first post whose Markdown is
 * unchanged is not rendered again. Runs in any thread (./reading-thread.ts).
 */
import { join } from 'node:path';
import { digest as sha1 } from './digest.ts';
import { readTopic, renderPost, type RenderedPost, type Topic, type TopicContext, type TopicReading } from './topics.ts';
import { DEFAULT_LIMITS, limitName } from './limits.ts';
import { readSourceText } from './source-text.ts';
import { fileStamp } from './file-stamp.ts';
import { renderingOf } from './kept-posts.ts';

/**
 * A valid topic file as an earlier build read it: the file's size, times and inode (`stamp`), the
 * settings it was read under (`context`), and what it gave, without the post (its HTML and text
 * are the RememberedPost's own).
 */
export interface RememberedFile {
  stamp: string;
  /** Digest of the settings it was read under (contextKey). */
  context: string;
  /** With its HTML and text emptied. */
  topic: Topic;
  /** Digest of the whole record, post included: what page keys stand this topic by (see topicKeys). */
  key: string;
  /** Digest of the record without its post: all that listing pages show of it (see ListingKeys). */
  listingKey: string;
  workflowFile?: TopicReading['workflowFile'];
}

/** A first post rendered in an earlier build, by topic file: reused while its Markdown is the same. */
export interface RememberedPost extends RenderedPost {
  /** sha1 of the Markdown it was rendered from. */
  digest: string;
  /** The whole file, reused without reading it while it is the same file under the same settings. */
  read?: RememberedFile;
}

export type RenderMemory = Map<string, RememberedPost>;

/** What one topic file gave: the topic or its problems, and its rendering to remember. */
export interface TopicResult extends TopicReading {
  file: string;
  remembered?: RememberedPost;
}

/**
 * Everything besides the file that shapes what reading a topic gives, as a digest: every
 * remembered file notes it (the content types alone are kilobytes, 20 MB over 10,000 topics).
 */
export function contextKey(context: TopicContext): string {
  const settings = JSON.stringify([context.contentTypes.list, context.contentTypesUnreadable ?? false, context.excerptLength, context.limits ?? DEFAULT_LIMITS]);
  return sha1(settings);
}

/** A topic record's digest, post included (what TopicKeys hold, ./load.ts). */
export const topicRecordKey = (topic: Topic) => sha1(JSON.stringify(topic));

/**
 * The topic of `file` as `memory` has it, when the file is the same (`stamp`) and was read under
 * the same `settings`: without its post (`remembered` has it; assemble puts it into keptPosts).
 */
export function keptTopic(file: string, stamp: string | undefined, settings: string, memory: RenderMemory): TopicResult | undefined {
  const earlier = memory.get(file);
  if (!earlier?.read || stamp === undefined || earlier.read.stamp !== stamp || earlier.read.context !== settings) return undefined;
  const { topic, workflowFile } = earlier.read;
  return { file, problems: [], topic: { ...topic }, ...(workflowFile ? { workflowFile } : {}), remembered: earlier };
}

/** A remembered post as a plain object, to send to a thread (a post read from the memory gives its HTML and text when asked). */
export const plainPost = (post: RememberedPost): RememberedPost => ({ digest: post.digest, ...renderingOf(post), ...(post.read ? { read: post.read } : {}) });

/**
 * Reads topic files (in any thread). A file unchanged since the build that left `memory` (same
 * stamp, same settings) is not read again; otherwise its post is rendered anew unless `memory`
 * holds its rendering of the same Markdown. Each result goes through `settle` as it is made (a
 * build's writes the post to a spill file: ./post-spill.ts).
 */
export function readTopicFiles(root: string, files: readonly string[], context: TopicContext, memory?: RenderMemory, settle: (result: TopicResult) => TopicResult = (result) => result): TopicResult[] {
  const settings = contextKey(context);
  return files.map((file) => settle(readTopicFile(root, file, context, settings, memory)));
}

/** One topic file, as readTopicFiles reads it under `settings` (contextKey). */
function readTopicFile(root: string, file: string, context: TopicContext, settings: string, memory?: RenderMemory): TopicResult {
  const path = join(root, file);
  // Only a build keeps a memory: validate and `astro dev` read every file and remember nothing.
  const stamp = memory ? fileStamp(path) : undefined;
  const kept = memory && keptTopic(file, stamp, settings, memory);
  if (kept) return kept;
  const earlier = memory?.get(file);
  let remembered: RememberedPost | undefined;
  const render = (markdown: string): RenderedPost => {
    const digest = sha1(markdown);
    remembered = earlier?.digest === digest ? { digest, html: earlier.html, text: earlier.text } : { digest, ...renderPost(markdown) };
    return remembered;
  };
  const limits = context.limits ?? DEFAULT_LIMITS;
  const source = readSourceText(path, file, limits.topicFileBytes, limitName('topicFileBytes'));
  if (typeof source !== 'string') return { file, problems: [source] };
  const result = readTopic(file, source, { ...context, render });
  if (remembered && result.topic && stamp !== undefined) {
    // A copy with the post emptied, not without it: the topic made from it again has its keys in the same order.
    const topic = { ...result.topic, html: '', text: '' };
    remembered.read = { stamp, context: settings, topic, key: topicRecordKey(result.topic), listingKey: topicRecordKey(topic), ...(result.workflowFile ? { workflowFile: result.workflowFile } : {}) };
  }
  return { file, ...result, ...(remembered ? { remembered } : {}) };
}
