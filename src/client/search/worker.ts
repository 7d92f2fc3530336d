/// <reference lib="webworker" />
// The search runs here, off the main thread, so typing never waits for it.
import { decodeIndex, order, runSearch, type SearchIndex } from '../../lib/search/engine.ts';
import type { CoreFile, DisplayRow, TagFile, WordsFile } from '../../lib/search/index-format.ts';
import { WordMatcher } from '../../lib/search/word-match.ts';
import type { ResultRow, WorkerRequest, WorkerResponse } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

let index: SearchIndex | undefined;
/** Word search, made on the first words: a tag page fetches words.json only then. */
let words: Promise<WordMatcher> | undefined;
let siteWords: WordsFile | undefined;
const wordMatcher = () =>
  (words ??= (siteWords ? Promise.resolve(siteWords) : readJson<WordsFile>('words.json')).then(
    (info) => new WordMatcher(readJson, info),
    (error: Error) => {
      words = undefined; // tried again on the next search
      throw error;
    },
  ));
let displayShardSize = 0;
let inlineDisplay: DisplayRow[] | undefined;
let indexUrl = '';
const displayShards = new Map<number, Promise<DisplayRow[]>>();

const post = (message: WorkerResponse) => self.postMessage(message);
/** Values per facet group sent to the page (it shows the first dozen). */
const FACET_VALUES = 30;
/** Tags and authors offered as suggestions while typing. */
const SUGGESTIONS = 300;

async function readJson<T>(path: string): Promise<T> {
  const response = await fetch(`${indexUrl}${path}`);
  if (!response.ok) throw new Error(`could not load ${path} (HTTP ${response.status})`);
  return (await response.json()) as T;
}

function displayShard(n: number): Promise<DisplayRow[]> {
  let shard = displayShards.get(n);
  if (!shard) displayShards.set(n, (shard = readJson<DisplayRow[]>(`display/${n}.json`)));
  return shard;
}

async function rowsOf(local: Uint32Array): Promise<ResultRow[]> {
  const idx = index!;
  return Promise.all(
    Array.from(local, async (ordinal) => {
      const [slug, title, excerpt] = inlineDisplay
        ? inlineDisplay[ordinal]!
        : (await displayShard(Math.floor(idx.global[ordinal]! / displayShardSize)))[idx.global[ordinal]! % displayShardSize]!;
      return { slug, title, excerpt, replies: idx.replies[ordinal]!, tags: idx.topicTags[ordinal]!.map((t) => idx.tagNames[t]!) };
    }),
  );
}

function typeDepth(types: SearchIndex['types'], i: number): number {
  let depth = 0;
  for (let p = types[i]!.parent; p >= 0; p = types[p]!.parent) depth++;
  return depth;
}

async function init(request: Extract<WorkerRequest, { type: 'init' }>) {
  indexUrl = request.indexUrl;
  const file =
    request.source.kind === 'tag'
      ? await readJson<TagFile>(`tags/${request.source.slug}.json`)
      : await readJson<CoreFile>('core.json');
  index = decodeIndex(file);
  inlineDisplay = 'display' in file ? file.display : undefined;
  displayShardSize = 'displayShardSize' in file ? file.displayShardSize : 0;
  siteWords = 'postingBounds' in file ? { count: file.count, postingBounds: file.postingBounds, vocabKeys: file.vocabKeys } : undefined;
  words = undefined;
  // The sort orders are prepared while the visitor is still choosing filters, not during a search.
  setTimeout(() => {
    for (const sort of ['newest', 'replies', 'views']) order(index!, sort);
  }, 0);
  post({
    type: 'ready',
    count: index.count,
    choices: {
      // Suggestions: the most used tags and the most active authors (thousands of options would
      // slow every keystroke in the browser's own datalist code).
      tags: index.tagNames.slice(0, SUGGESTIONS),
      authors: index.authorNames
        .map((name, i) => [name, index!.authorPostings[i]!.length] as const)
        .sort((a, b) => b[1] - a[1])
        .slice(0, SUGGESTIONS)
        .map(([name]) => name)
        .sort((a, b) => a.localeCompare(b)),
      types: index.types.map((type, i) => ({ id: type.id, name: type.name, depth: typeDepth(index!.types, i) })),
    },
  });
}

async function search(request: Extract<WorkerRequest, { type: 'search' }>) {
  const started = performance.now();
  const idx = index!;
  const matches = request.query.q ? await (await wordMatcher()).match(request.query.q, request.query.in === 'titles') : undefined;
  const engineStarted = performance.now();
  const result = runSearch(idx, request.query, new Date(request.now), request.pageSize, matches);
  const engineMs = performance.now() - engineStarted;
  const rows = await rowsOf(result.page);
  // Only the most frequent values are shown: sending every tag of 100,000 topics would cost more than the search.
  const named = (map: Map<number, number>, names: (i: number) => string | undefined) =>
    [...map]
      .filter(([i]) => i >= 0)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, FACET_VALUES)
      .map(([i, n]) => [names(i)!, n] as [string, number]);
  // A forum's count includes its sub-forums: it is what choosing it would find.
  const typeCounts = new Map<number, number>();
  for (const [type, count] of result.facets.types) {
    for (let t = type; t >= 0; t = idx.types[t]!.parent) typeCounts.set(t, (typeCounts.get(t) ?? 0) + count);
  }
  post({
    type: 'results',
    id: request.id,
    total: result.total,
    pageNumber: result.pageNumber,
    pages: result.pages,
    rows,
    facets: {
      tags: named(result.facets.tags, (i) => idx.tagNames[i]),
      types: named(typeCounts, (i) => idx.types[i]?.id),
      authors: named(result.facets.authors, (i) => idx.authorNames[i]),
    },
    ms: performance.now() - started,
    engineMs,
  });
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  // A prefetch that fails is only a lost head start: the search itself reports the error.
  if (request.type === 'prefetch') return void (index && wordMatcher().then((matcher) => matcher.prefetch(request.q)).catch(() => undefined));
  const work = request.type === 'init' ? init(request) : search(request);
  work.catch((error: Error) => post({ type: 'error', id: request.type === 'search' ? request.id : undefined, message: error.message }));
};
