/** A worker thread of loadContentInParallel (./load.ts, ./reading-thread.ts): reads its share of the topic files. */
import { parentPort, workerData } from 'node:worker_threads';
import { readTopicFiles, type RenderMemory } from './read-topics.ts';
import { withoutPostCopies } from './reading-thread.ts';
import type { TopicContext } from './topics.ts';

const { root, files, context, memory } = workerData as { root: string; files: string[]; context: TopicContext; memory: RenderMemory };
// Each post once: the main thread puts it back into its topic.
parentPort!.postMessage(withoutPostCopies(readTopicFiles(root, files, context, memory)));
