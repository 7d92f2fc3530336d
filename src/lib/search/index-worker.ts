/**
 * The search index, built in a worker thread while Astro renders the pages (scripts/build.ts):
 * at 100,000 topics it is half a minute of work that needs nothing Astro makes.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { buildSearchIndex } from './index-build.ts';
import { sortForListing } from '../listing.ts';
import { memberRecords } from '../member-records.ts';
import type { SiteContent } from '../content.ts';
import type { Topic } from '../topics.ts';

/** Every file under /search-index/: the topic index and members.json. `topics` in any order. */
export function searchIndexFiles(content: Pick<SiteContent, 'topics' | 'members'> & { contentTypes: SiteContent['contentTypes']['list'] }): Map<string, string> {
  const topics = sortForListing(content.topics);
  const files = buildSearchIndex(topics, content.contentTypes);
  files.set('members.json', JSON.stringify(memberRecords(content.members, topics)));
  return files;
}

/** Starts building the index in a worker thread; the topics are sent without their HTML, which the index does not use. */
export function searchIndexInWorker(content: SiteContent): Promise<Map<string, string>> {
  const topics = content.topics.map(({ html: _html, ...topic }) => ({ ...topic, html: '' }) satisfies Topic);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { topics, members: content.members, contentTypes: content.contentTypes.list } });
    worker.once('message', (files: Map<string, string>) => {
      resolve(files);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

if (!isMainThread && parentPort && (workerData as { topics?: unknown })?.topics) {
  parentPort.postMessage(searchIndexFiles(workerData as Parameters<typeof searchIndexFiles>[0]));
}
