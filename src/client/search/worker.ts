/// <reference lib="webworker" />
// Searches with words run here, off the main thread, so typing never waits for them (and so do
// all searches of sites too big to filter in the page's thread).
import { Searcher } from './searcher.ts';
// Words are searched here: word matching is part of the worker's own file, never a second request.
import '../../search/word-match.ts';
import type { WorkerRequest, WorkerResponse } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

let searcher: Searcher | undefined;
let announced = false;
const post = (message: WorkerResponse) => self.postMessage(message);

/** Tells the page what its form can offer (loading the index, if no search has yet). */
async function announce(): Promise<void> {
  if (announced) return;
  announced = true;
  // No search waits on this: a failure is the page's (its `ready` is rejected), not a search's.
  await searcher!.choices().then(
    (choices) => post({ type: 'ready', choices }),
    (error: Error) => post({ type: 'error', message: error.message }),
  );
}

async function handle(request: WorkerRequest): Promise<void> {
  if (request.type === 'init') {
    searcher = new Searcher(request.indexUrl);
    searcher.init(request.source);
    if (!request.deferIndex) await announce();
  } else if (request.type === 'search') {
    const { id, ...search } = request;
    const results = await searcher!.search(search);
    post({ type: 'results', id, ...results });
    if (!results.partial) await announce();
  } else searcher?.prefetchWords(request.q);
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  handle(request).catch((error: Error) => post({ type: 'error', id: request.type === 'search' ? request.id : undefined, message: error.message }));
};
