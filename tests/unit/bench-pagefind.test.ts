/** The pure parts of the bench's tagsite–Pagefind comparison: its searches, its right answers, its arithmetic and its table. */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { comparedParams, comparisonQueries, type ComparedQuery } from '../../scripts/bench/queries.ts';
import { TECHNICAL } from '../../scripts/bench/vocabulary.ts';
import { corpusWords, outcomeOf, quality, relevantTopics, zipfExponent, type QueryOutcome } from '../../scripts/bench/relevance.ts';
import { bytesOf, comparisonTable, partOf, type Bytes, type PagefindComparison, type SystemFigures } from '../../scripts/bench/compare-report.ts';
import { engineAgreement } from '../../scripts/bench/compare.ts';
import { pagefindRecord, pagefindUrls, writePagefindIndex } from '../../scripts/bench/pagefind.ts';
import type { CoreFile } from '../../src/search/index-format.ts';
import type { Topic } from '../../src/content/topics.ts';
import type { SiteContent } from '../../src/content/load.ts';
import type { Served } from '../../src/cli/static-server.ts';

const core = {
  count: 4,
  tags: [[0, 1], [1], [2, 0], [1, 2]],
  tagNames: ['json', 'api', 'ui automation'],
  author: [0, 1, 0, 1],
  authorNames: ['mira', 'Omar'],
  updated: [1_700_000_000, -100, -100, -100],
  types: [{ id: 'help', name: 'Help', group: 'forum', parent: -1 }],
} as unknown as CoreFile;

/** Whether `b` is `a` with one letter dropped, doubled/added, replaced, or two neighbours swapped. */
function oneTypo(a: string, b: string): boolean {
  if (a === b) return false;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}

describe('the compared searches', () => {
  const queries = comparisonQueries(core, 'unit', 50);

  it('are 30 of words, 5 misspelt words and 15 a word with a tag or author, the same for the same seed', () => {
    expect(comparisonQueries(core, 'unit', 50)).toEqual(queries);
    expect(comparisonQueries(core, 'other', 50)).not.toEqual(queries);
    const of = (kind: ComparedQuery['kind']) => queries.filter((query) => query.kind === kind);
    expect([of('words').length, of('typo').length, of('filtered').length]).toEqual([30, 5, 15]);
    const lengths = of('words').map((query) => query.q.split(' ').length);
    expect(new Set(lengths)).toEqual(new Set([1, 2]));
    for (const query of of('filtered')) {
      expect(query.q.split(' ')).toHaveLength(1);
      expect([query.tags, query.author].filter(Boolean)).toHaveLength(1);
      if (query.tags) expect(core.tagNames).toContain(query.tags);
      else expect(core.authorNames).toContain(query.author);
    }
    expect(of('filtered').some((query) => query.tags) && of('filtered').some((query) => query.author)).toBe(true);
  });

  it('misspell a real word by exactly one typo, and keep the word meant', () => {
    for (const query of queries.filter((q) => q.kind === 'typo')) {
      expect(TECHNICAL).toContain(query.intended);
      expect(oneTypo(query.intended!, query.q), `${query.intended} → ${query.q}`).toBe(true);
    }
  });

  it('never repeat a search, and give both pages the same query string', () => {
    const params = queries.map(comparedParams);
    expect(new Set(params).size).toBe(params.length);
    expect(comparedParams({ kind: 'filtered', q: 'json', tags: 'ui automation' })).toBe('q=json&tags=ui+automation');
    expect(comparedParams({ kind: 'filtered', q: 'c++', author: 'Omar' })).toBe('q=c%2B%2B&author=Omar');
  });
});

const topic = (slug: string, title: string, text: string, tags: string[], author: string) => ({ slug, title, text, tags, author }) as unknown as Topic;
const topics = [
  topic('a', 'Über JSON', 'clipboard workflow', ['json'], 'Mira'),
  topic('b', 'Clipboard tips', 'a json-parsing trick', ['api'], 'omar'),
  topic('c', 'Workflows', 'clipboards and json', ['json'], 'omar'),
];

describe('the right answers, by brute force', () => {
  it('are the topics holding every word exactly, folded as tagsite folds them, and passing the filter', () => {
    const words = corpusWords(topics, ['uber', 'json', 'clipboard', 'workflow']);
    const relevant = (query: Omit<ComparedQuery, 'kind'>) => [...relevantTopics({ kind: 'words', ...query }, topics, words)].sort();
    expect(relevant({ q: 'UBER' })).toEqual(['a']);
    // Neither a plural nor a longer word counts: 'clipboards' and 'workflows' are other words.
    expect(relevant({ q: 'clipboard json' })).toEqual(['a', 'b']);
    expect(relevant({ q: 'workflow' })).toEqual(['a']);
    expect(relevant({ q: 'json', tags: 'json' })).toEqual(['a', 'c']);
    expect(relevant({ q: 'json', author: 'OMAR' })).toEqual(['b', 'c']);
    // A misspelt word's answers are the topics holding the word meant.
    expect([...relevantTopics({ kind: 'typo', q: 'jsno', intended: 'json' }, topics, words)].sort()).toEqual(['a', 'b', 'c']);
  });

  it('count the vocabulary: distinct words, all words, and a Zipf exponent near 1 for Zipf-shaped counts', () => {
    const words = corpusWords(topics, []);
    expect(words.total).toBe(14);
    expect(words.distinct).toBe(11);
    expect(zipfExponent(Array.from({ length: 2000 }, (_, r) => 1e6 / (r + 1)))).toBeCloseTo(1, 5);
    expect(zipfExponent(Array.from({ length: 500 }, () => 7))).toBeCloseTo(0, 5);
  });
});

describe('recall and precision', () => {
  const relevant = new Set(Array.from({ length: 30 }, (_, i) => `r${i}`));

  it('count relevant topics among all results, and among the first 25', () => {
    const results = ['x', 'r0', 'r0', ...Array.from({ length: 30 }, (_, i) => `r${i}`)];
    expect(outcomeOf('words', relevant, results)).toEqual({ kind: 'words', relevant: 30, returned: 33, found: 30, first: 25, firstRelevant: 24 });
  });

  it('average per query, leave out queries with nothing to find, and keep misspelt words apart', () => {
    const o = (kind: QueryOutcome['kind'], relevant: number, returned: number, found: number, first: number, firstRelevant: number): QueryOutcome => ({ kind, relevant, returned, found, first, firstRelevant });
    const q = quality([
      o('words', 40, 50, 40, 25, 20),
      o('filtered', 10, 5, 5, 5, 5),
      o('words', 0, 3, 0, 3, 0),
      o('typo', 20, 0, 0, 0, 0),
      o('typo', 30, 60, 30, 25, 25),
    ]);
    expect(q.recall).toEqual({ mean: 0.75, lowest: 0.5, queries: 2 });
    expect(q.typoRecall).toEqual({ mean: 0.5, lowest: 0, queries: 2 });
    // Only word queries with at least 25 relevant topics: 20 of the first 25.
    expect(q.precision).toEqual({ mean: 0.8, lowest: 0.8, queries: 1 });
    expect(q.perRelevant).toBeCloseTo(58 / 50);
  });

  it("checks tagsite's page against its engine: the same total, the same first page", () => {
    const engine = [['a', 'b', 'c'], ['d'], []];
    const shown = [{ total: 3, first: ['a', 'b'], ids: [] }, { total: 1, first: ['x'], ids: [] }, { total: 0, first: [], ids: [] }];
    expect(engineAgreement(shown, engine, 2)).toEqual({ totals: 3, firstPages: 2 });
  });
});

describe('bytes and the table', () => {
  const served = (path: string, bytes: number, gzipBytes: number): Served => ({ path, status: 200, bytes, gzipBytes, at: 0 });

  it("sort responses into page, index and rows, each counted at the smaller of gzip and raw", () => {
    expect(['/search/', '/_astro/a.js', '/pagefind/pagefind.js', '/pagefind/wasm.en.pagefind', '/__bench/pagefind.html'].map(partOf)).toEqual(['page', 'page', 'page', 'page', 'page']);
    expect(['/search-index/core.json', '/search-index/vocab/6a.json', '/pagefind/pagefind-entry.json', '/pagefind/pagefind.en_1.pf_meta', '/pagefind/index/en_2.pf_index', '/pagefind/filter/en_3.pf_filter'].map(partOf)).toEqual(Array(6).fill('index'));
    expect(['/search-index/display/0.json', '/search-index/display-all/0.json', '/pagefind/fragment/en_4.pf_fragment'].map(partOf)).toEqual(['rows', 'rows', 'rows']);
    expect(bytesOf([served('/search/', 1000, 300), served('/pagefind/fragment/en_4.pf_fragment', 200, 230), served('/search-index/core.json', 90, 40)])).toEqual({ page: 300, index: 40, rows: 200, total: 540 });
  });

  it('prints each system side by side with the ratio, and the corpus vocabulary', () => {
    const bytes = (total: number): Bytes => ({ page: total / 2, index: total / 4, rows: total / 4, total });
    const system = (scale: number): SystemFigures => ({
      sharedMs: [100 * scale, 200 * scale],
      sharedBytes: [bytes(10_240 * scale)],
      firstMs: [10 * scale],
      warmMs: [5 * scale],
      visitBytes: [20_480 * scale],
      outcomes: [{ kind: 'words', relevant: 30, returned: 30 * scale, found: 30, first: 25, firstRelevant: 25 }],
    });
    const comparison: PagefindComparison = {
      pagefindVersion: '1.6.0',
      queries: { words: 30, typo: 5, filtered: 15 },
      vocabulary: { distinct: 23_456, total: 1_600_000, zipf: 1.04 },
      disk: { tagsite: { files: 10, bytes: 2 * 1024 ** 2 }, pagefind: { files: 40, bytes: 8 * 1024 ** 2 } },
      pagefindIndexSeconds: 12.3,
      tagsite: system(1),
      pagefind: system(2),
      notes: ['a note'],
    };
    const text = comparisonTable(10_000, comparison);
    expect(text).toContain('at 10,000 topics: 50 searches (30 of 1–2 words, 5 misspelt, 15 a word with a tag or author)');
    expect(text).toContain('23,456 distinct words in 1,600,000 (Zipf exponent 1.04');
    const row = (label: string) => text.split('\n').find((line) => line.startsWith(label))!.trim().split(/\s{2,}/);
    expect(row('search files on disk')).toEqual(['search files on disk', '10 files, 2.0 MB', '40 files, 8.0 MB', '0.25×']);
    expect(row('shared link → first results')).toEqual(['shared link → first results p50 / p95', '100 / 200 ms', '200 / 400 ms', '0.50× / 0.50×']);
    expect(row('  bytes before first results')).toEqual(['bytes before first results (median)', '10.0 KB', '20.0 KB', '0.50×']);
    expect(row('  page / index / rows')).toEqual(['page / index / rows KB (median of each)', '5.0 / 2.5 / 2.5', '10.0 / 5.0 / 5.0']);
    expect(row('recall, words')).toEqual(['recall, words (+ filter)', '100.0 % (lowest 100.0 %, 1 q)', '100.0 % (lowest 100.0 %, 1 q)', '1.00×']);
    expect(row('recall, misspelt')).toEqual(['recall, misspelt word (intended)', '—', '—', '—']);
    expect(row('results per topic')).toEqual(['results per topic holding every word', '1.00', '2.00', '0.50×']);
    expect(text.split('\n').at(-1)).toBe('10,000: a note');
  });
});

describe('Pagefind', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tagsite-bench-pagefind-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gets one record per topic page, filterable by tag, author and content type (with its forums), sortable by replies", () => {
    const record = pagefindRecord({ ...topics[0]!, replies: 7 } as Topic, ['help', 'scripting']);
    expect(record).toEqual({
      url: '/topics/a/',
      content: 'Über JSON\nclipboard workflow',
      language: 'en',
      meta: { title: 'Über JSON' },
      filters: { tags: ['json'], author: ['Mira'], type: ['help', 'scripting'] },
      sort: { replies: '7' },
    });
  });

  it("writes its bundle into the site's pagefind/ folder, each result id naming its topic page", async () => {
    const content = {
      topics: topics.map((t) => ({ ...t, replies: 1, contentType: 'help' })),
      contentTypes: { list: [], byId: new Map([['help', { path: ['help'] }]]) },
    } as unknown as SiteContent;
    const figures = await writePagefindIndex(content, dir);
    expect(figures.files).toBeGreaterThan(3);
    expect([...pagefindUrls(dir).values()].sort()).toEqual(['/topics/a/', '/topics/b/', '/topics/c/']);
    // A big site's fragments come in groups (over maxFragments pages): each page is still named by its own id.
    const grouped = join(dir, 'grouped');
    await writePagefindIndex(content, grouped, { maxFragments: 1 });
    expect(readdirSync(join(grouped, 'pagefind', 'fragment')).length).toBeLessThan(3);
    const urls = pagefindUrls(grouped);
    expect([...urls.values()].sort()).toEqual(['/topics/a/', '/topics/b/', '/topics/c/']);
    expect([...urls.keys()].sort()).toEqual([...pagefindUrls(dir).keys()].sort());
  });
});
