/** A build thread gives back the heap its last phase freed (releaseFreedHeap, src/build/threads.ts). */
import { expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import { THREAD_LIMITS } from '../../src/build/threads.ts';

const MB = 1024 * 1024;

/**
 * A worker scatters 3,000,000 small objects over its heap, as a phase that reads every topic
 * does, keeps every fiftieth (what a phase keeps for later) and releases: every page it grew now
 * holds a few live objects, which an ordinary major collection leaves where they are.
 */
const code = `
import { parentPort } from 'node:worker_threads';
import { getHeapStatistics } from 'node:v8';
import { releaseFreedHeap } from ${JSON.stringify(new URL('../../src/build/threads.ts', import.meta.url).href)};
let all = [];
for (let i = 0; i < 3_000_000; i++) all.push({ id: i, name: 'topic-' + i, tags: [i % 600, i % 7] });
const kept = all.filter((_, i) => i % 50 === 0);
all = undefined;
const before = getHeapStatistics().total_heap_size;
releaseFreedHeap();
const after = getHeapStatistics().total_heap_size;
parentPort.postMessage({ before, after, kept: kept.length, last: kept.at(-1).name });
`;

it('hands back the pages a phase freed, keeping what is still held', async () => {
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), { resourceLimits: THREAD_LIMITS });
  const [{ before, after, kept, last }] = await once(worker, 'message');
  await once(worker, 'exit');
  expect(before, 'the scattered heap is big enough to be released').toBeGreaterThan(256 * MB);
  expect(after, `${Math.round(before / MB)} MB of heap became ${Math.round(after / MB)} MB`).toBeLessThan(before / 4);
  expect(kept).toBe(60_000);
  expect(last).toBe('topic-2999950');
});
