// One search over the static index files, the same in the page's thread and in the worker: the
// page runs small sites' structured filters itself (no thread hops) and words in the worker.
import { decodeIndex, order, runSearch, withGlobalOrdinals, type SearchIndex } from '../../search/engine.ts';
import { FACETS_SHOWN, namedFacets, typeChoices } from '../../search/facets.ts';
import { SMALL_SITE_MAX_TOPICS, type CoreFile, type DisplayRow, type TagFile, type TagOrdinalsFile, type WordsFile } from '../../search/index-format.ts';
import type { WordMatcher } from '../../search/word-match.ts';
import type { Choices, IndexSource, ResultRow, SearchRequest, SearchResults } from './protocol.ts';
import { comparePopularity } from '../../model/popularity.ts';

/** Display files fetched at once in that background prefetch (browsers allow 6 connections a host over HTTP/1.1). */
const DISPLAY_PREFETCH_LANES = 4;

/** Names, the most used first (then in code-point order). */
function byUse(names: readonly string[], postings: readonly Uint32Array[]): string[] {
  return names
    .map((name, i) => [name, postings[i]!.length] as const)
    .sort(comparePopularity)
    .map(([name]) => name);
}

export class Searcher {
  private readonly indexUrl: string;
  private source: IndexSource = { kind: 'site' };
  private index: SearchIndex | undefined;
  /**
   * Word search, made on the first words: a tag page fetches words.json and its tag's ordinals
   * only then.
   */
  private words: Promise<WordMatcher> | undefined;
  private siteWords: WordsFile | undefined;
  private displayShardSize = 0;
  private inlineDisplay: DisplayRow[] | undefined;
  private readonly displayShards = new Map<number, Promise<DisplayRow[]>>();
  /** Display rows already fetched, for results that need not wait a turn of the event loop. */
  private readonly displayRows = new Map<number, DisplayRow[]>();
  private prefetchingDisplay = false;

  constructor(indexUrl: string) {
    this.indexUrl = indexUrl;
  }

  private async readJson<T>(path: string): Promise<T> {
    const response = await fetch(`${this.indexUrl}${path}`);
    if (!response.ok) throw new Error(`could not load ${path} (HTTP ${response.status})`);
    return (await response.json()) as T;
  }

  private wordMatcher(): Promise<WordMatcher> {
    if (this.words) return this.words;
    const { source } = this;
    const info = this.siteWords ? Promise.resolve(this.siteWords) : this.readJson<WordsFile>('words.json');
    const ordinals = source.kind === 'tag' && !this.index!.global ? this.readJson<TagOrdinalsFile>(`tag-ordinals/${source.slug}.json`) : undefined;
    // Word matching (and Fuse.js with it) loads with the first words: the page's own thread, which
    // runs only structured filters, never fetches it.
    const matching = import('../../search/word-match.ts');
    this.words = Promise.all([info, ordinals, matching]).then(
      ([info, ordinals, { WordMatcher }]) => {
        if (ordinals) withGlobalOrdinals(this.index!, ordinals);
        return new WordMatcher((path) => this.readJson(path), info);
      },
      (error: Error) => {
        this.words = undefined; // tried again on the next search
        throw error;
      },
    );
    return this.words;
  }

  private displayShard(n: number): Promise<DisplayRow[]> {
    let shard = this.displayShards.get(n);
    if (!shard) {
      shard = this.readJson<DisplayRow[]>(`display/${n}.json`);
      this.displayShards.set(n, shard);
      shard.then(
        (rows) => this.displayRows.set(n, rows),
        () => this.displayShards.delete(n), // fetched again when next needed
      );
    }
    return shard;
  }

  private async row(ordinal: number): Promise<DisplayRow> {
    if (this.inlineDisplay) return this.inlineDisplay[ordinal]!;
    const global = this.index!.global![ordinal]!;
    const n = Math.floor(global / this.displayShardSize);
    const rows = this.displayRows.get(n) ?? (await this.displayShard(n));
    return rows[global % this.displayShardSize]!;
  }

  private async rowsOf(local: Uint32Array): Promise<ResultRow[]> {
    const idx = this.index!;
    const display = await Promise.all(Array.from(local, (ordinal) => this.row(ordinal)));
    return display.map(([slug, title, excerpt], i) => {
      const ordinal = local[i]!;
      return {
        slug,
        title,
        excerpt,
        replies: idx.replies[ordinal]!,
        tags: idx.topicTags[ordinal]!.map((t) => idx.tagNames[t]!),
        author: idx.authorNames[idx.author[ordinal]!] ?? '',
        updatedMs: idx.updatedMs[ordinal]!,
      };
    });
  }

  /** Loads the index of a tag's page or of the whole site and says what the form can offer. */
  async init(source: IndexSource): Promise<Choices> {
    this.source = source;
    const file = source.kind === 'tag' ? await this.readJson<TagFile>(`tags/${source.slug}.json`) : await this.readJson<CoreFile>('core.json');
    const index = decodeIndex(file);
    this.index = index;
    this.inlineDisplay = 'display' in file ? file.display : undefined;
    this.displayShardSize = 'displayShardSize' in file ? file.displayShardSize : 0;
    this.siteWords = 'postingBounds' in file ? { count: file.count, postingBounds: file.postingBounds, vocabKeys: file.vocabKeys } : undefined;
    this.words = undefined;
    // The sort orders are prepared while the visitor is still choosing filters, not during a search.
    setTimeout(() => {
      for (const sort of ['newest', 'replies', 'views']) order(index, sort);
    }, 0);
    return {
      // Every tag and author, the most used first: the page suggests those starting with what is typed.
      tags: byUse(index.tagNames, index.tagPostings),
      authors: byUse(index.authorNames, index.authorPostings),
      types: typeChoices(index.types),
    };
  }

  async search(request: SearchRequest): Promise<SearchResults> {
    const started = performance.now();
    const idx = this.index!;
    const seen = { terms: new Set<string>(), unmatched: [] as string[] };
    const matcher = request.query.q ? await this.wordMatcher() : undefined;
    const matches = matcher ? await matcher.match(request.query.q, request.query.in === 'titles', seen) : undefined;
    const engineStarted = performance.now();
    const result = runSearch(idx, request.query, new Date(request.now), request.pageSize, matches);
    const engineMs = performance.now() - engineStarted;
    const rows = await this.rowsOf(result.page);
    this.prefetchDisplay();
    // Close words only for a search that found nothing: the help below "Found 0 results" offers them.
    const closeWords = matcher && result.total === 0 ? await Promise.all(seen.unmatched.map(async (word): Promise<[string, string]> => [word, (await matcher.closeTerm(word)) ?? ''])) : [];
    return {
      total: result.total,
      pageNumber: result.pageNumber,
      pages: result.pages,
      rows,
      // Only the values shown are sent: every tag of 100,000 topics would cost more than the search.
      facets: namedFacets(idx, result.facets, FACETS_SHOWN),
      marks: [...seen.terms],
      closeWords,
      ms: performance.now() - started,
      engineMs,
    };
  }

  /** Words being typed: their vocabulary and postings files are fetched before the search asks. */
  prefetchWords(q: string): void {
    // A prefetch that fails is only a lost head start: the search itself reports the error.
    if (this.index) this.wordMatcher().then((matcher) => matcher.prefetch(q)).catch(() => undefined);
  }

  /**
   * After the first search of a small site, all its display rows, a few files at a time: a
   * searching visitor's next results then wait for no file. Files in flight together arrive
   * sooner than one after another, and each is still parsed in a task of its own, so a search is
   * never queued behind a long one.
   */
  private prefetchDisplay(): void {
    if (this.prefetchingDisplay || this.inlineDisplay || this.index!.count > SMALL_SITE_MAX_TOPICS) return;
    this.prefetchingDisplay = true;
    const shards = Math.ceil(this.index!.count / this.displayShardSize);
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < shards) await this.displayShard(next++).catch(() => undefined);
    };
    setTimeout(() => {
      for (let i = 0; i < DISPLAY_PREFETCH_LANES; i++) void lane();
    }, 0);
  }
}
