/**
 * The posts a build renders as it reads its topic files, each written to a spill file at once and
 * let go: its result keeps only where the post is (../build/chunk-posts.ts RememberedInChunk), as
 * a post taken from the topic memory does, and its topic goes without it (the build keeps
 * it apart: SiteContent.keptPosts, ./load.ts). So a thread holds none of the posts it has read
 * while the rest of the content is read: some 2.5 KB of heap a topic in a clean build, 2.5 GB at
 * 1,000,000 topics, on top of the records. Each reading thread writes a file of its own in the build's spill folder;
 * the build copies the posts into the topic memory's chunks (../build/post-memory.ts rememberPosts)
 * and deletes the folder once its site is in place, and before it reads the content.
 */
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PostInChunk, postBytes, RememberedInChunk, type ChunkBodies } from '../build/chunk-posts.ts';
import type { RememberedPost, TopicResult } from './read-topics.ts';
import { withoutPost } from './kept-posts.ts';

/** A reading thread's spill file: its folder and name. */
export interface SpillFile {
  folder: string;
  name: string;
}

/** The build's spill folder, in its cache folder. */
export const spillFolder = (cacheDir: string) => join(cacheDir, 'spill');

/** Deletes a spill folder and what it holds. */
export const forgetSpill = (folder: string) => rmSync(folder, { recursive: true, force: true });

/** A spill file being written: `settle` spills a result's post (readTopicFiles), `close` ends the file. */
export interface Spill {
  settle(result: TopicResult): TopicResult;
  close(): void;
}

/** The spill file `name` in `folder` (made if need be), made once a post is spilled: a rebuild that renders none writes none. */
export function spillTo({ folder, name }: SpillFile): Spill {
  const path = join(folder, name);
  let fd: number | undefined;
  const opened = (): number => {
    if (fd === undefined) {
      mkdirSync(folder, { recursive: true });
      fd = openSync(path, 'w');
    }
    return fd;
  };
  const bodies: ChunkBodies = { name: basename(path), path, start: 0, length: 0 };
  return {
    settle(result) {
      const { remembered, topic } = result;
      // A post taken from the topic memory is in a file already.
      if (!remembered || remembered instanceof PostInChunk) return result;
      const bytes = postBytes(remembered);
      const fd = opened();
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, bodies.length + done);
      const post = new RememberedInChunk(bodies, bodies.length, bytes.length, remembered.digest, remembered.read);
      bodies.length += bytes.length;
      // The topic goes without its post where it holds the same one (it always does, as read): as
      // the record remembered, the same object, so that a thread's message carries it once.
      const same = topic && topic.html === remembered.html && topic.text === remembered.text;
      return { ...result, remembered: post, ...(same ? { topic: remembered.read?.topic ?? withoutPost(topic) } : {}) };
    },
    close: () => {
      if (fd !== undefined) closeSync(fd);
    },
  };
}

/**
 * A result as a reading thread sent it, its spilled post (a plain object once copied across)
 * made a RememberedInChunk again; other results as they are.
 */
export function revivedSpill(result: TopicResult): TopicResult {
  const post = result.remembered as (RememberedPost & Partial<Pick<PostInChunk, 'bodies' | 'at' | 'length'>>) | undefined;
  if (!post?.bodies || post instanceof PostInChunk) return result;
  return { ...result, remembered: new RememberedInChunk(post.bodies, post.at!, post.length!, post.digest, post.read) };
}
