/// <reference lib="webworker" />
// Searches with words run here, off the main thread, so typing never waits for them (and so do
// all searches of sites too big to filter in the page's thread).
import { Searcher } from './searcher.ts';
// Words are searched here: word matching is part of the worker's own file, never a second request.
import '../../search/word-match.ts';
import type { WorkerRequest, WorkerResponse } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

let searcher: Searcher | undefined;
const post = (message: WorkerResponse) => self.postMessage(message);

async function handle(request: WorkerRequest): Promise<void> {
  if (request.type === 'init') {
    searcher = new Searcher(request.indexUrl);
    post({ type: 'ready', choices: await searcher.init(request.source) });
  } else if (request.type === 'search') {
    const { id, ...search } = request;
    post({ type: 'results', id, ...(await searcher!.search(search)) });
  } else searcher?.prefetchWords(request.q);
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  handle(request).catch((error: Error) => post({ type: 'error', id: request.type === 'search' ? request.id : undefined, message: error.message }));
};
