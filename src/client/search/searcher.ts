// One search over the static index files, the same in the page's thread and in the worker: the
// page runs small sites' structured filters itself (no thread hops) and words in the worker.
import { decodeIndex, order, runSearch, withGlobalOrdinals, type SearchIndex } from '../../search/engine.ts';
import { onlyWords, rankWords } from '../../search/relevance.ts';
import { FACETS_SHOWN, namedFacets, typeChoices } from '../../search/facets.ts';
import { type CoreFile, type DisplayFiles, type DisplayRow, type TagFile, type TagOrdinalsFile, type VocabularyFile, type WordsFile } from '../../search/index-format.ts';
import type { WordMatcher } from '../../search/word-match.ts';
import type { Choices, IndexSource, ResultRow, SearchRequest, SearchResults } from './protocol.ts';
import { comparePopularity } from '../../model/popularity.ts';
import { DisplayPrefetch, SearchGate, VocabularyPrefetch } from './prefetch.ts';
import { afterPaint } from './url-state.ts';

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
  /** The site's core.json or the tag's own file, decoded; loaded on first need (see loadIndex). */
  private index: SearchIndex | undefined;
  private indexLoad: Promise<SearchIndex> | undefined;
  /**
   * Word search, made on the first words: a tag page fetches words.json and its tag's ordinals
   * only then.
   */
  private words: Promise<WordMatcher> | undefined;
  private siteWords: Promise<WordsFile> | undefined;
  /** Where the site's display rows are (from words.json or core.json). */
  private display: DisplayFiles = { displayShardSize: 0, displayAllSize: 0, displayAllBytes: 0 };
  private inlineDisplay: DisplayRow[] | undefined;
  private readonly displayShards = new Map<number, Promise<DisplayRow[]>>();
  /** Display rows already fetched, for results that need not wait a turn of the event loop. */
  private readonly displayRows = new Map<number, DisplayRow[]>();
  /** Rows of display-all/<n>.json, fetched ahead (see DisplayPrefetch). */
  private readonly allRows = new Map<number, DisplayRow[]>();
  /**
   * display-all/<n>.json files on their way: a search whose rows are in one waits for it instead
   * of asking for the same rows again in small files, which would queue behind it for the host's
   * few connections. A file that failed is forgotten, and its rows come from the small files.
   */
  private readonly allFiles = new Map<number, Promise<DisplayRow[] | undefined>>();
  /** Searches under way: the next page's prefetched rows wait for them (see SearchGate). */
  private readonly gate = new SearchGate();
  private readonly prefetch = new DisplayPrefetch({
    // A prefetch that fails is only a lost head start: the search that needs the rows fetches them.
    file: (n) => void this.gate.idle().then(() => this.displayShard(n, 'low')).catch(() => undefined),
    fetched: (n) => this.displayShards.has(n),
    allBytes: () => this.display.displayAllBytes,
    all: () => void this.fetchAllRows(),
  });
  /** Bytes of the site's vocab-all.json, once words.json (or core.json) is here. */
  private vocabularyBytes = Infinity;
  private readonly vocabulary = new VocabularyPrefetch(() => this.vocabularyBytes, () => void this.fetchVocabulary());

  constructor(indexUrl: string) {
    this.indexUrl = indexUrl;
  }

  /** `low`: a file fetched ahead of need, behind any file a search waits for. */
  private async readJson<T>(path: string, priority: RequestPriority = 'auto'): Promise<T> {
    const response = await fetch(`${this.indexUrl}${path}`, { priority });
    if (!response.ok) throw new Error(`could not load ${path} (HTTP ${response.status})`);
    return (await response.json()) as T;
  }

  /**
   * The site's words.json (core.json carries the same fields, and the display file size): on
   * /search/ opened with words alone, the one first-paint.js asked for from <head>.
   */
  private wordsFile(): Promise<WordsFile> {
    const early = (globalThis as { tagsiteWordsFile?: Promise<WordsFile> }).tagsiteWordsFile;
    delete (globalThis as { tagsiteWordsFile?: unknown }).tagsiteWordsFile;
    if (!this.siteWords && !early && this.source.kind === 'site' && this.indexLoad) {
      // core.json, on its way, carries the same fields: they are not asked for a second time.
      return this.indexLoad.then(() => this.siteWords ?? this.readJson<WordsFile>('words.json'));
    }
    return (this.siteWords ??= (early ?? this.readJson<WordsFile>('words.json')).catch((error: Error) => {
      this.siteWords = undefined; // tried again on the next search
      throw error;
    }));
  }

  private wordMatcher(): Promise<WordMatcher> {
    if (this.words) return this.words;
    const { source } = this;
    // A tag's file numbers its topics locally: words need their global ordinals, fetched with them.
    const ordinals = source.kind === 'tag' ? this.loadIndex().then((index) => (index.global ? undefined : this.readJson<TagOrdinalsFile>(`tag-ordinals/${source.slug}.json`))) : undefined;
    // Word matching loads with the first words (Fuse.js only with a word that needs typos): a tag
    // page's own thread, which runs only structured filters, never fetches it. /search/ loads it with
    // the page (./word-match-now.ts), and it is used at once, without `import()`'s wait.
    const loaded = (globalThis as { tagsiteWordMatch?: typeof import('../../search/word-match.ts') }).tagsiteWordMatch;
    const matching = loaded ?? import('../../search/word-match.ts');
    this.words = Promise.all([this.wordsFile(), ordinals, matching]).then(
      ([info, ordinals, { WordMatcher }]) => {
        if (ordinals) withGlobalOrdinals(this.index!, ordinals);
        if (source.kind === 'site') this.display = info;
        this.vocabularyBytes = info.vocabAllBytes;
        return new WordMatcher((path) => this.indexFile(path), info);
      },
      (error: Error) => {
        this.words = undefined; // tried again on the next search
        throw error;
      },
    );
    return this.words;
  }

  /**
   * An index file for the word matcher: on /search/ opened with plain words alone, the one
   * first-paint.js asked for from <head> (`tagsiteWordFiles`, path → JSON); else a fresh read.
   */
  private indexFile<T>(path: string): Promise<T> {
    const fromHead = (globalThis as { tagsiteWordFiles?: Record<string, Promise<T>> }).tagsiteWordFiles;
    return (fromHead && Object.hasOwn(fromHead, path) ? fromHead[path] : undefined) ?? this.readJson<T>(path);
  }

  private displayShard(n: number, priority?: RequestPriority): Promise<DisplayRow[]> {
    let shard = this.displayShards.get(n);
    if (!shard) {
      shard = this.readJson<DisplayRow[]>(`display/${n}.json`, priority);
      this.displayShards.set(n, shard);
      shard.then(
        (rows) => this.displayRows.set(n, rows),
        () => this.displayShards.delete(n), // fetched again when next needed
      );
    }
    return shard;
  }

  /** Every row of the site, in a few big files asked for at once (the browser queues them behind any search's own files). */
  private async fetchAllRows(): Promise<void> {
    const { displayAllSize } = this.display;
    const files = Math.ceil((await this.wordsFile()).count / displayAllSize);
    for (let n = 0; n < files; n++) {
      const rows = this.readJson<DisplayRow[]>(`display-all/${n}.json`, 'low').then(
        (rows) => {
          this.allRows.set(n, rows);
          this.allFiles.delete(n);
          return rows;
        },
        () => void this.allFiles.delete(n),
      );
      this.allFiles.set(n, rows);
    }
  }

  /** The whole vocabulary, in one file asked for at once (the browser queues it behind any search's own files). */
  private async fetchVocabulary(): Promise<void> {
    try {
      const [matcher, all] = await Promise.all([this.wordMatcher(), this.readJson<VocabularyFile>('vocab-all.json', 'low')]);
      matcher.addVocabulary(all);
    } catch {
      // Only a lost head start: each word's own vocabulary shard is fetched when it is needed.
    }
  }

  /** The display file a global ordinal's row is in. */
  private fileOf(global: number): number {
    return Math.floor(global / this.display.displayShardSize);
  }

  private async row(global: number): Promise<DisplayRow> {
    const { displayShardSize, displayAllSize } = this.display;
    const all = Math.floor(global / displayAllSize);
    const ahead = this.allRows.get(all) ?? (await this.allFiles.get(all));
    if (ahead) return ahead[global % displayAllSize]!;
    const n = this.fileOf(global);
    const rows = this.displayRows.get(n) ?? (await this.displayShard(n));
    return rows[global % displayShardSize]!;
  }

  /** The rows of global ordinals, or of a tag file's local ones (its rows are inline). */
  private async rowsOf(ordinals: Uint32Array, local: boolean): Promise<ResultRow[]> {
    const inline = local ? this.inlineDisplay : undefined;
    const global = local ? this.index?.global : undefined;
    const display = await Promise.all(
      Array.from(ordinals, (ordinal) => (inline ? inline[ordinal]! : this.row(global ? global[ordinal]! : ordinal))),
    );
    return display.map(([slug, title, excerpt, updated, replies, author, tags]) => ({ slug, title, excerpt, replies, tags, author, updatedMs: updated * 1000 }));
  }

  /** Says where the index is; nothing is fetched until a search or `choices` needs it. */
  init(source: IndexSource): void {
    this.source = source;
  }

  /** Loads the index of a tag's page or of the whole site, once. */
  private loadIndex(): Promise<SearchIndex> {
    return (this.indexLoad ??= this.readIndex().catch((error: Error) => {
      this.indexLoad = undefined; // tried again on the next search
      throw error;
    }));
  }

  /**
   * The site's core.json: on /search/ of a small site opened with words and other filters, the one
   * first-paint.js asked for from <head> (`tagsiteCoreFile`); else a fresh read.
   */
  private coreFile(): Promise<CoreFile> {
    const early = (globalThis as { tagsiteCoreFile?: Promise<CoreFile> }).tagsiteCoreFile;
    delete (globalThis as { tagsiteCoreFile?: unknown }).tagsiteCoreFile;
    return early ?? this.readJson<CoreFile>('core.json');
  }

  private async readIndex(): Promise<SearchIndex> {
    const { source } = this;
    const file = source.kind === 'tag' ? await this.readJson<TagFile>(`tags/${source.slug}.json`) : await this.coreFile();
    const index = decodeIndex(file);
    this.index = index;
    this.inlineDisplay = 'display' in file ? file.display : undefined;
    if ('postingBounds' in file) {
      const { count, displayShardSize, displayAllSize, displayAllBytes, postingBounds, vocabKeys, vocabAllBytes } = file;
      this.display = { displayShardSize, displayAllSize, displayAllBytes };
      this.siteWords ??= Promise.resolve({ count, displayShardSize, displayAllSize, displayAllBytes, postingBounds, vocabKeys, vocabAllBytes });
    }
    // The sort orders are prepared while the visitor is still choosing filters: after the search
    // that loaded the index (a shared link's) has answered, never during it.
    const prepare = () => {
      for (const sort of ['newest', 'replies', 'views']) order(index, sort);
    };
    // In the worker no frame waits for it.
    void this.gate.idle().then(() => (typeof document === 'undefined' ? setTimeout(prepare, 0) : afterPaint(prepare)));
    return index;
  }

  /** What the form can offer, once the index is loaded. */
  async choices(): Promise<Choices> {
    const index = await this.loadIndex();
    return {
      // Every tag and author, the most used first: the page suggests those starting with what is typed.
      // Then the synonyms (tagId's keys after the tag names): known tags too, searched as their canonical tag.
      tags: [...byUse(index.tagNames, index.tagPostings), ...[...index.tagId.keys()].slice(index.tagNames.length)],
      authors: byUse(index.authorNames, index.authorPostings),
      types: typeChoices(index.types),
    };
  }

  /**
   * Runs one search. With `partial`, a search of the whole site with words only (a shared link)
   * is answered from the word index and display files alone, before core.json has arrived: its
   * results then have no facet counts (`partial` is set on them).
   */
  search(request: SearchRequest): Promise<SearchResults> {
    return this.gate.during(() => this.searchNow(request));
  }

  private async searchNow(request: SearchRequest): Promise<SearchResults> {
    const started = performance.now();
    const { query } = request;
    const seen = { terms: new Set<string>(), unmatched: [] as string[] };
    const quick = request.partial && !this.index && this.source.kind === 'site' && onlyWords(query);
    // The index and the words' files load side by side.
    const [idx, matcher] = await Promise.all([quick ? undefined : this.loadIndex(), query.q ? this.wordMatcher() : undefined]);
    const matches = matcher ? await matcher.match(query.q, query.in === 'titles', seen) : undefined;
    const engineStarted = performance.now();
    const full = idx ? runSearch(idx, query, new Date(request.now), request.pageSize, matches) : undefined;
    const result = full ?? rankWords((await this.wordsFile()).count, matches!, query.words, query.page, request.pageSize);
    const engineMs = performance.now() - engineStarted;
    const rows = await this.rowsOf(result.page, idx !== undefined);
    if (matcher) this.vocabulary.searched();
    if (!this.inlineDisplay) this.prefetch.searched(Array.from(idx?.global ? result.next.map((local) => idx.global![local]!) : result.next, (global) => this.fileOf(global)));
    // The tags as the site names them: a synonym (tags.json) becomes its tag.
    const canonicalTags = idx ? query.tags.map((tag) => idx.tagNames[idx.tagId.get(tag) ?? -1] ?? tag) : query.tags;
    // Close words only for a search that found nothing: the help below "Found 0 results" offers them.
    const closeWords = matcher && result.total === 0 ? await Promise.all(seen.unmatched.map(async (word): Promise<[string, string]> => [word, (await matcher.closeTerm(word)) ?? ''])) : [];
    return {
      total: result.total,
      pageNumber: result.pageNumber,
      pages: result.pages,
      rows,
      // Only the values shown are sent: every tag of 100,000 topics would cost more than the search.
      facets: full ? namedFacets(idx!, full.facets, FACETS_SHOWN) : { tags: [], types: [], authors: [] },
      ...(full ? {} : { partial: true }),
      ...(canonicalTags.some((tag, i) => tag !== query.tags[i]) ? { canonicalTags } : {}),
      marks: [...seen.terms],
      closeWords,
      ms: performance.now() - started,
      engineMs,
    };
  }

  /** Words being typed: their vocabulary and postings files are fetched before the search asks. */
  prefetchWords(q: string): void {
    // A prefetch that fails is only a lost head start: the search itself reports the error.
    this.wordMatcher().then((matcher) => matcher.prefetch(q)).catch(() => undefined);
  }
}
