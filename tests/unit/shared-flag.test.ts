/** A flag one build thread raises and another reads without a message (src/build/threads.ts). */
import { expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import { raiseFlag, sharedFlag } from '../../src/build/threads.ts';

it('is raised by a worker thread, and read here without waiting for a message', async () => {
  const flag = sharedFlag();
  const other = sharedFlag();
  expect(flag.raised()).toBe(false);
  const code = `import { workerData } from 'node:worker_threads'; import { raiseFlag } from ${JSON.stringify(new URL('../../src/build/threads.ts', import.meta.url).href)}; raiseFlag(workerData);`;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), { workerData: flag.buffer });
  await once(worker, 'exit');
  expect(flag.raised()).toBe(true);
  expect(other.raised(), 'each flag is its own').toBe(false);
  raiseFlag(other.buffer);
  expect(other.raised()).toBe(true);
});
