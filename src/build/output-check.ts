/**
 * Whether a folder is still as a build's stamp noted it (./unchanged.ts): every file noted with
 * its size and modification time, every folder noted with its time (so nothing was added); and
 * the listing of a folder for the next stamp. Kept apart, with nothing else to load, because a
 * build runs both in a thread of their own (one for both) while it loads its code and reads the content.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { folderListing, folderPrefix, sameFile, type FolderFiles } from './folder-files.ts';
import { THREAD_LIMITS } from './threads.ts';

/** Each folder of a listing with its modification time. */
export type FolderTimes = Array<[path: string, mtimeMs: number]>;

/**
 * Whether every file noted is still in `dir` with its size and time, and every folder noted has
 * its time (so nothing was added). A folder that cannot be read, or a stamp entry of another form,
 * is a change.
 */
export function unchangedFolder(dir: string, files: FolderFiles, folders: FolderTimes): boolean {
  const inDir = folderPrefix(dir);
  try {
    return (
      folders.every(([path, mtimeMs]) => statSync(`${inDir}${path}`, { throwIfNoEntry: false })?.mtimeMs === mtimeMs) &&
      files.every(([path, size, mtimeMs]) => sameFile(`${inDir}${path}`, size, mtimeMs))
    );
  } catch {
    return false;
  }
}

/**
 * unchangedFolder of a stamp's output folder (`outDir`, `files`, `folders` of the stamp's JSON
 * `text`), checked by a worker thread: at 10,000 topics that is 43,000 `stat` calls, a fifth of a
 * second this thread spends on other work meanwhile. A check that fails says changed.
 */
export function unchangedFolderInThread(text: string): Promise<boolean> {
  return inThread<boolean>({ stampText: text }, () => false);
}

/**
 * A folder's files and folders, with each folder's modification time, as a stamp notes them; and
 * each file's stamp by its full path, which the build's memories check (../content/file-stamp.ts).
 */
export interface StampListing {
  files: FolderFiles;
  folders: FolderTimes;
  stamps: Map<string, string>;
}

/** Each folder of `dir` with its modification time: as `known` has it, or as it is now. */
export function folderTimes(dir: string, folders: readonly string[], known?: ReadonlyMap<string, number>): FolderTimes {
  return folders.map((folder) => [folder, known?.get(folder) ?? statSync(join(dir, folder)).mtimeMs]);
}

/** The files of `dir` (folderListing) with their stamps, and its folders with their times. */
export function stampListing(dir: string): StampListing {
  const stamps = new Map<string, string>();
  const { files, folders } = folderListing(dir, undefined, stamps);
  return { files, folders: folderTimes(dir, folders), stamps };
}

/**
 * stampListing in a worker thread, while this one loads the build's code: 10,000 topic files are
 * some 0.1 s of `stat` calls, 100,000 half a second. A listing that fails is taken here instead.
 */
export function stampListingInThread(dir: string): Promise<StampListing> {
  return inThread<StampListing>({ listFolder: dir }, () => stampListing(dir));
}

/** A job for the thread: check a stamp's output, or list a folder. */
type Job = { stampText: string } | { listFolder: string };

/** The thread's answer to job `id`: what it found, or that the job failed. */
type Answer = { id: number; found: unknown } | { id: number; failed: true };

/**
 * The one thread of this module a build starts, by its first job, for all of them: a thread's
 * start is about a tenth of a second of a core, and a rebuild lists the content, then checks the
 * output. It takes its jobs in turn, and keeps the process alive only while one is waiting.
 */
let checker: Checker | undefined;

interface Checker {
  worker: Worker;
  waiting: Map<number, (answer: Answer | undefined) => void>;
  next: number;
  /** Ends once no job waits (endOutputChecks). */
  ending?: true;
}

function startChecker(): Checker {
  const worker = new Worker(new URL(import.meta.url), { workerData: { outputCheck: true }, resourceLimits: THREAD_LIMITS });
  const started: Checker = { worker, waiting: new Map(), next: 0 };
  worker.on('message', (answer: Answer) => {
    started.waiting.get(answer.id)?.(answer);
    started.waiting.delete(answer.id);
    if (started.waiting.size > 0) return;
    if (started.ending) void worker.terminate();
    else worker.unref();
  });
  // A thread that fails fails every job it had: each is done here instead.
  const fail = () => {
    if (checker === started) checker = undefined;
    for (const answer of started.waiting.values()) answer(undefined);
    started.waiting.clear();
  };
  worker.once('error', fail);
  worker.once('exit', fail);
  return started;
}

/**
 * Ends the checker thread once the jobs it has are answered; a later job starts another. A build
 * calls it when it needs the thread no more: an idle thread is not collected, and after listing
 * the content it held what the listing took (0.1 GB of the heap at 100,000 topics) for the whole
 * build. Resolves once the thread has ended.
 */
export function endOutputChecks(): Promise<void> {
  const thread = checker;
  if (!thread) return Promise.resolve();
  checker = undefined;
  const ended = new Promise<void>((resolve) => thread.worker.once('exit', () => resolve()));
  if (thread.waiting.size === 0) void thread.worker.terminate();
  else thread.ending = true;
  return ended;
}

/** Runs `job` in the checker thread; if the job or the thread fails, the answer is `failed()`'s (which may throw). */
function inThread<T>(job: Job, failed: () => T): Promise<T> {
  const thread = (checker ??= startChecker());
  const id = thread.next++;
  return new Promise<T>((resolve, reject) => {
    thread.waiting.set(id, (answer) => {
      if (answer && 'found' in answer) return resolve(answer.found as T);
      try {
        resolve(failed());
      } catch (error) {
        reject(error as Error);
      }
    });
    thread.worker.ref();
    thread.worker.postMessage({ id, job });
  });
}

function run(job: Job): unknown {
  if ('listFolder' in job) return stampListing(job.listFolder);
  const { outDir, files, folders } = JSON.parse(job.stampText) as { outDir: string; files: FolderFiles; folders: FolderTimes };
  return unchangedFolder(outDir, files, folders);
}

if (!isMainThread && parentPort && (workerData as { outputCheck?: true } | null)?.outputCheck) {
  const port = parentPort;
  port.on('message', ({ id, job }: { id: number; job: Job }) => {
    let answer: Answer;
    try {
      answer = { id, found: run(job) };
    } catch {
      answer = { id, failed: true };
    }
    port.postMessage(answer);
  });
}
