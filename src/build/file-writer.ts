/**
 * Writing a build's pages off the thread that renders them. Creating tens of thousands of files
 * is mostly waiting in the kernel (a folder, an open, a write and a close each); done on the
 * rendering thread, as Astro does, that wait is a third of a build. Here one worker thread takes
 * each page's path and bytes and writes them in order, making each folder once, while the
 * rendering thread goes on; it also hard-links the pages a rebuild reuses from the previous output.
 * A rebuild that renders a few pages writes them itself (lazyFileWriter).
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { THREAD_LIMITS } from './threads.ts';
import { writer } from './write-files.ts';

/** Files waiting for the writer beyond which `write` waits: bounds the memory a slow disk can take. */
const MOST_WAITING = 2000;
/** The writer says how far it got after this many files. */
const ACK_EVERY = 250;
/** Files sent to the writer in one message: a message costs more than the bytes it moves. */
const BATCH = 32;

export interface FileWriter {
  /** Queues a file (`path` inside the folder); waits only while too many files are queued. */
  write(path: string, bytes: ArrayBuffer): Promise<void>;
  /** Queues files of the previous output (`fromDir`) to be hard-linked at the same paths. */
  carry(paths: readonly string[], fromDir: string): void;
  /** Resolves once every queued file is written; rejects with the first that could not be. */
  close(): Promise<void>;
}

/** A file to write, or one to carry over from the previous output. */
type QueuedFile = { path: string; bytes: ArrayBuffer } | { path: string; from: string };

interface WriterMessage {
  /** Files written so far. */
  written?: number;
  /** A file that could not be written, and why: the writer stops there. */
  failed?: string;
}

/** A writer thread for the files of `outDir`. */
export function fileWriterThread(outDir: string): FileWriter {
  const worker = new Worker(new URL(import.meta.url), { workerData: { fileWriterFolder: outDir }, resourceLimits: THREAD_LIMITS });
  let sent = 0;
  let written = 0;
  let failure: Error | undefined;
  let closed = false;
  // Pages are rendered several at a time, so several writes may be waiting for the writer.
  let waiting: (() => void)[] = [];
  const wake = () => {
    for (const resolve of waiting) resolve();
    waiting = [];
  };
  const finished = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: WriterMessage) => {
      if (message.failed) failure ??= new Error(message.failed);
      if (message.written !== undefined) written = message.written;
      wake();
    });
    worker.once('error', (error: Error) => {
      failure ??= error;
      wake();
    });
    worker.once('exit', () => {
      if (!closed) failure ??= new Error('the file writer stopped before the last file');
      wake();
      if (failure) reject(failure);
      else resolve();
    });
  });
  finished.catch(() => undefined); // reported by `write` or `close`
  let batch: QueuedFile[] = [];
  const send = () => {
    if (batch.length === 0) return;
    worker.postMessage(batch, batch.flatMap((file) => ('bytes' in file ? [file.bytes] : [])));
    batch = [];
  };
  return {
    async write(path, bytes) {
      if (failure) throw failure;
      // A part batch goes once the pages being rendered now have queued theirs.
      if (batch.length === 0) setImmediate(send);
      batch.push({ path, bytes });
      if (batch.length >= BATCH) send();
      sent += 1;
      while (sent - written > MOST_WAITING && !failure) await new Promise<void>((resolve) => waiting.push(resolve));
      if (failure) throw failure;
    },
    carry(paths, from) {
      // Links hold no bytes: they go in big messages, and no write waits for them.
      for (let start = 0; start < paths.length; start += 1000) worker.postMessage(paths.slice(start, start + 1000).map((path) => ({ path, from })));
    },
    close() {
      closed = true;
      send();
      worker.postMessage(null);
      return finished;
    },
  };
}

/** A writer that writes and carries every file on this thread, as it comes: a thread's own (./page-thread.ts). */
export function writerHere(outDir: string): FileWriter {
  const folder = writer(outDir);
  return {
    async write(path, bytes) {
      try {
        folder.write(path, new Uint8Array(bytes));
      } catch (error) {
        throw new Error(`could not write ${path}: ${(error as Error).message}`);
      }
    },
    carry(paths, from) {
      for (const path of paths) folder.carry(path, from);
    },
    close: () => Promise.resolve(),
  };
}

/** Files a lazy writer writes on its own thread before it starts the writer thread. */
const IN_THIS_THREAD = 200;

/**
 * A writer that starts its thread (fileWriterThread) only once more than `inThisThread` files are
 * queued, or files are carried over: until then it writes each file on this thread as it comes. A
 * rebuild that renders a few dozen pages so saves a thread's start, about a tenth of a second of a
 * core (and a small site's whole build does).
 */
export function lazyFileWriter(outDir: string, inThisThread = IN_THIS_THREAD): FileWriter {
  const here = writerHere(outDir);
  let thread: FileWriter | undefined;
  let written = 0;
  const started = () => (thread ??= fileWriterThread(outDir));
  return {
    async write(path, bytes) {
      if (thread || written >= inThisThread) return started().write(path, bytes);
      written += 1;
      return here.write(path, bytes);
    },
    carry(paths, from) {
      if (paths.length > 0) started().carry(paths, from);
    },
    close: () => thread?.close() ?? Promise.resolve(),
  };
}

if (!isMainThread && parentPort && (workerData as { fileWriterFolder?: string })?.fileWriterFolder) {
  const port = parentPort;
  const folder = writer((workerData as { fileWriterFolder: string }).fileWriterFolder);
  let written = 0;
  let stopped = false;
  port.on('message', (message: QueuedFile[] | null) => {
    // Files queued behind one that failed are not written: the build has failed.
    if (stopped) return;
    if (message === null) {
      port.postMessage({ written } satisfies WriterMessage);
      port.close();
      return;
    }
    for (const file of message) {
      try {
        if ('from' in file) {
          folder.carry(file.path, file.from);
          continue;
        }
        folder.write(file.path, new Uint8Array(file.bytes));
      } catch (error) {
        port.postMessage({ failed: `could not write ${file.path}: ${(error as Error).message}` } satisfies WriterMessage);
        stopped = true;
        port.close();
        return;
      }
      written += 1;
      if (written % ACK_EVERY === 0) port.postMessage({ written } satisfies WriterMessage);
    }
  });
}
