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
