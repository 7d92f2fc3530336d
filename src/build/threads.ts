import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * How far a build thread's young generation may grow. Node 24's V8 grows it to 134 MB an isolate
 * (64 MB semi-spaces), and a thread that is never idle keeps every page it has grown to until it
 * ends: with the main thread, the reading, index and page-writing threads, 0.2–0.3 GB of the peak
 * memory of a build of 30,000 or 100,000 topics. 16 MB semi-spaces, as `npm run build` gives the
 * main thread (`--max-semi-space-size=16 --min-semi-space-size=16` in package.json), and as the
 * worker threads get here.
 */
export const THREAD_LIMITS = { maxYoungGenerationSizeMb: 48 } as const;

/**
 * A flag one thread raises and another reads without waiting for a message: a thread busy
 * rendering pages may not turn its event loop for a minute, and would hear of a message late.
 */
export interface SharedFlag {
  /** What a worker is given (in its workerData) to raise it with raiseFlag. */
  buffer: SharedArrayBuffer;
  raised(): boolean;
}

export function sharedFlag(): SharedFlag {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  return { buffer: flag.buffer as SharedArrayBuffer, raised: () => Atomics.load(flag, 0) === 1 };
}

/** Raises the flag made by sharedFlag whose buffer this is. */
export function raiseFlag(buffer: SharedArrayBuffer): void {
  Atomics.store(new Int32Array(buffer), 0, 1);
}

/** Below this much heap a thread's freed pages are too few to be worth a last-resort collection. */
const RELEASE_FROM_BYTES = 256 * 1024 * 1024;

/**
 * Hands back to the system the heap a thread has freed, after a phase whose big transient data is
 * gone and before a long phase that will not need it. V8 keeps the pages a big phase grew for the
 * thread's lifetime, and an ordinary major collection does not compact them: at 100,000 topics
 * the index thread holds 410 MB of heap for 75 MB of live data after the listing is made, and a
 * plain major collection only takes a heap like that from 605 to 544 MB. The last-resort
 * collection (what V8 runs before giving up on memory) compacts and releases: it leaves 104 MB,
 * the build's peak RSS falls by 0.2 GB, and it takes about 0.4 s. Returns at once on a heap under
 * 256 MB, where there is too little to give back to be worth it.
 */
export function releaseFreedHeap(): void {
  if (getHeapStatistics().total_heap_size < RELEASE_FROM_BYTES) return;
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
