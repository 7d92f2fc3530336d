/** The tagsite–Pagefind comparison's figures and its side-by-side table, one per corpus size. */
import type { Served } from '../../src/cli/static-server.ts';
import { percentile } from './report.ts';
import { quality, type QueryOutcome, type Share } from './relevance.ts';

/** Bytes on the wire by what they are for. */
export interface Bytes {
  /** The page itself: HTML, CSS, scripts, Pagefind's WebAssembly. */
  page: number;
  /** Index files: tagsite's /search-index/ but its display rows; Pagefind's meta, word index and filter chunks. */
  index: number;
  /** What results are drawn from: tagsite's display rows, Pagefind's fragments. */
  rows: number;
  total: number;
}

/** Which part of Bytes a path belongs to. */
export function partOf(path: string): 'page' | 'index' | 'rows' {
  // display/ holds a few rows a file, display-all/ the same rows in big files fetched in the background.
  if (/^\/search-index\/display(-all)?\//.test(path) || path.startsWith('/pagefind/fragment/')) return 'rows';
  if (path.startsWith('/search-index/')) return 'index';
  if (path.startsWith('/pagefind/') && /\.pf_\w+$|pagefind-entry\.json$/.test(path)) return 'index';
  return 'page';
}

/**
 * Bytes of responses by part. Each counts the smaller of its gzip and raw sizes: Pagefind's own
 * files are gzip already, and a host sends those as they are rather than gzip them again.
 */
export function bytesOf(responses: readonly Served[]): Bytes {
  const bytes: Bytes = { page: 0, index: 0, rows: 0, total: 0 };
  for (const response of responses) {
    const size = Math.min(response.bytes, response.gzipBytes ?? response.bytes);
    bytes[partOf(response.path)] += size;
    bytes.total += size;
  }
  return bytes;
}

/** What was measured of one system. */
export interface SystemFigures {
  /** Shared link: navigation → first results shown, and the bytes requested before then, per query. */
  sharedMs: number[];
  sharedBytes: Bytes[];
  /** The first search on a loaded search page, and the 4th on the same page. */
  firstMs: number[];
  warmMs: number[];
  /** A visit: the page, 5 searches, 2 s idle; total bytes each. */
  visitBytes: number[];
  /** Each query's results against its relevant topics. */
  outcomes: QueryOutcome[];
}

export interface PagefindComparison {
  pagefindVersion: string;
  queries: { words: number; typo: number; filtered: number };
  vocabulary: { distinct: number; total: number; zipf: number };
  /** Search files on disk: tagsite's /search-index/, Pagefind's pagefind/ folder. */
  disk: { tagsite: { files: number; bytes: number }; pagefind: { files: number; bytes: number } };
  /** Seconds Pagefind took to index the topics and write its files. */
  pagefindIndexSeconds: number;
  tagsite: SystemFigures;
  pagefind: SystemFigures;
  notes: string[];
}

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MB`;
const pct = (value: number) => (Number.isNaN(value) ? '—' : `${(value * 100).toFixed(1)} %`);
const ratio = (a: number, b: number) => (b === 0 || Number.isNaN(a) || Number.isNaN(b) ? '—' : `${(a / b).toFixed(2)}×`);
const median = (values: readonly number[]) => percentile(values, 50);

/** One row: label, tagsite's cell, Pagefind's cell, tagsite / Pagefind. */
type Row = [string, string, string, string];

function timeRow(label: string, t: number[], p: number[]): Row {
  if (t.length === 0 || p.length === 0) return [label, '—', '—', '—'];
  const cell = (v: number[]) => `${ms(percentile(v, 50))} / ${ms(percentile(v, 95))} ms`;
  return [label, cell(t), cell(p), `${ratio(percentile(t, 50), percentile(p, 50))} / ${ratio(percentile(t, 95), percentile(p, 95))}`];
}

function bytesRows(label: string, t: Bytes[], p: Bytes[]): Row[] {
  const of = (list: Bytes[], part: keyof Bytes) => median(list.map((b) => b[part]));
  const parts = (list: Bytes[]) => (['page', 'index', 'rows'] as const).map((part) => kb(of(list, part)).replace(' KB', '')).join(' / ');
  return [
    [label, kb(of(t, 'total')), kb(of(p, 'total')), ratio(of(t, 'total'), of(p, 'total'))],
    ['  page / index / rows KB (median of each)', parts(t), parts(p), ''],
  ];
}

function shareRow(label: string, t: Share, p: Share): Row {
  const cell = (s: Share) => (s.queries === 0 ? '—' : `${pct(s.mean)} (lowest ${pct(s.lowest)}, ${s.queries} q)`);
  return [label, cell(t), cell(p), ratio(t.mean, p.mean)];
}

/** The rows of one size's comparison. */
export function comparisonRows(c: PagefindComparison): Row[] {
  const { tagsite: t, pagefind: p } = c;
  const [qt, qp] = [quality(t.outcomes), quality(p.outcomes)];
  return [
    ['search files on disk', `${c.disk.tagsite.files.toLocaleString('en')} files, ${mb(c.disk.tagsite.bytes)}`, `${c.disk.pagefind.files.toLocaleString('en')} files, ${mb(c.disk.pagefind.bytes)}`, ratio(c.disk.tagsite.bytes, c.disk.pagefind.bytes)],
    timeRow('shared link → first results p50 / p95', t.sharedMs, p.sharedMs),
    ...bytesRows('  bytes before first results (median)', t.sharedBytes, p.sharedBytes),
    timeRow('first search on a loaded page p50 / p95', t.firstMs, p.firstMs),
    timeRow('warm search (4th on a page) p50 / p95', t.warmMs, p.warmMs),
    ['visit: page + 5 searches + 2 s (median)', kb(median(t.visitBytes)), kb(median(p.visitBytes)), ratio(median(t.visitBytes), median(p.visitBytes))],
    shareRow('recall, words (+ filter)', qt.recall, qp.recall),
    shareRow('recall, misspelt word (intended)', qt.typoRecall, qp.typoRecall),
    shareRow(`precision of the first 25`, qt.precision, qp.precision),
    ['results per topic holding every word', qt.perRelevant.toFixed(2), qp.perRelevant.toFixed(2), ratio(qt.perRelevant, qp.perRelevant)],
  ];
}

/** One size's table, with its heading lines and notes. */
export function comparisonTable(size: number, c: PagefindComparison): string {
  const header: Row = ['', 'tagsite', `Pagefind ${c.pagefindVersion}`, 'tagsite / Pagefind'];
  const cells = [header, ...comparisonRows(c)];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => [...row[i]!].length)));
  const line = (row: readonly string[]) => row.map((cell, i) => cell + ' '.repeat(widths[i]! - [...cell].length)).join('  ').trimEnd();
  const { words, typo, filtered } = c.queries;
  const v = c.vocabulary;
  return [
    `tagsite beside Pagefind at ${size.toLocaleString('en')} topics: ${words + typo + filtered} searches (${words} of 1–2 words, ${typo} misspelt, ${filtered} a word with a tag or author), each system in turn`,
    `corpus vocabulary: ${v.distinct.toLocaleString('en')} distinct words in ${v.total.toLocaleString('en')} (Zipf exponent ${v.zipf.toFixed(2)} over the 1,000 most frequent); Pagefind indexed it in ${c.pagefindIndexSeconds.toFixed(1)} s`,
    line(header),
    widths.map((w) => '─'.repeat(w)).join('  '),
    ...cells.slice(1).map(line),
    ...c.notes.map((note) => `${size.toLocaleString('en')}: ${note}`),
  ].join('\n');
}
