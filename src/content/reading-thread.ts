/**
 * A thread that reads a share of the topic files for loadContentInParallel (./load.ts), and the
 * form its results cross to the main thread in.
 */
import { Worker } from 'node:worker_threads';
import { THREAD_LIMITS } from '../build/threads.ts';
import type { RenderMemory, TopicResult } from './read-topics.ts';
import type { TopicContext } from './topics.ts';
import { PostInChunk } from '../build/chunk-posts.ts';
import { revivedSpill, type SpillFile } from './post-spill.ts';
import { withoutPost } from './kept-posts.ts';

/**
 * A reading thread's results as it sends them: each post once, in its remembered rendering. A
 * message copies every string it holds, so a post left in both would arrive as two copies, a
 * kilobyte or more a topic for the whole build. The main thread puts it back into the topic
 * (withPosts). A post spilled to a file (./post-spill.ts) goes as its place there.
 */
export function withoutPostCopies(results: TopicResult[]): TopicResult[] {
  return results.map((result) => {
    const { topic, remembered } = result;
    if (!topic || !remembered || remembered instanceof PostInChunk || topic.html !== remembered.html || topic.text !== remembered.text) return result;
    return { ...result, topic: withoutPost(topic) };
  });
}

/** Results as a reading thread gave them (withoutPostCopies), each topic with its post again, or its spilled post as one. */
function withPosts(results: TopicResult[]): TopicResult[] {
  return results.map((sent) => {
    const result = revivedSpill(sent);
    const { topic, remembered } = result;
    if (!topic || !remembered || remembered instanceof PostInChunk || topic.html !== '' || topic.text !== '') return result;
    return { ...result, topic: { ...topic, html: remembered.html, text: remembered.text } };
  });
}

/** Reads `files` in a thread of its own (./load-worker.ts): what readTopicFiles gives, each post spilled to `spill` if given (./post-spill.ts). */
export function readInThread(root: string, files: string[], context: TopicContext, memory: RenderMemory, spill?: SpillFile): Promise<TopicResult[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.ts', import.meta.url), { workerData: { root, files, context, memory, ...(spill ? { spill } : {}) }, resourceLimits: THREAD_LIMITS });
    worker.once('message', (results: TopicResult[]) => {
      resolve(withPosts(results));
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}
