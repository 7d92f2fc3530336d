/** A worker thread of loadContentInParallel (content.ts): reads its share of the topic files. */
import { parentPort, workerData } from 'node:worker_threads';
import { readTopicFiles, type RenderMemory } from './load.ts';
import type { TopicContext } from './topics.ts';

const { root, files, context, memory } = workerData as { root: string; files: string[]; context: TopicContext; memory: RenderMemory };
parentPort!.postMessage(readTopicFiles(root, files, context, memory));
