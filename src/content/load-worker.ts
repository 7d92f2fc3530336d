/** A worker thread of loadContentInParallel (./load.ts, ./reading-thread.ts): reads its share of the topic files. */
import { parentPort, workerData } from 'node:worker_threads';
import { readTopicFiles, type RenderMemory } from './read-topics.ts';
import { withoutPostCopies } from './reading-thread.ts';
import { spillTo, type SpillFile } from './post-spill.ts';
import type { TopicContext } from './topics.ts';

const { root, files, context, memory, spill } = workerData as { root: string; files: string[]; context: TopicContext; memory: RenderMemory; spill?: SpillFile };
// Each post spilled to a file as it is rendered, or sent once: the main thread puts it back into its topic.
const spilling = spill && spillTo(spill);
let results;
try {
  results = readTopicFiles(root, files, context, memory, spilling?.settle);
} finally {
  spilling?.close(); // a thread's end does not close the process's files
}
parentPort!.postMessage(withoutPostCopies(results));
