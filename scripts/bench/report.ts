/** The benchmark's printed table: one column per corpus size, targets beside the figures. */
import type { Timing, Transfer } from './measure.ts';
import { PROBE_TAG } from './corpus.ts';
import type { PagefindComparison } from './compare-report.ts';
import type { BuildPhases } from '../../src/build/phases.ts';

/** Nearest-rank percentile of a list of numbers (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface TagPageFigures {
  tag: string;
  topics: number;
  load: Transfer;
  panel: Transfer;
}

/** Everything measured for one corpus size; a step that failed leaves its field out and says why in `notes`. */
export interface SizeFigures {
  size: number;
  tags?: number;
  authors?: number;
  generateSeconds?: number;
  loadSeconds?: number;
  site?: string;
  structured?: Timing[];
  words?: Timing[];
  wordsAgain?: Timing[];
  fuse?: { ms: number[]; loadMs: number; indexMs: number; planned: number };
  search?: Transfer;
  /** WORDS_PAGE's bytes before its first result. */
  searchWords?: Transfer;
  /** SHARED_LINK: bytes and ms from navigation to its first result. */
  sharedLink?: { transfer: Transfer; ms: number };
  /** FILTERED_PAGE's bytes before its first result. */
  searchFiltered?: Transfer;
  tagPages?: TagPageFigures[];
  /** The clean build: time, peak memory of its process tree, what it wrote. */
  build?: { seconds: number; cpuSeconds: number; systemSeconds: number; peakRss: number; files: number; pages: number; bytes: number; phases?: BuildPhases };
  /** Hugo's clean build of the same topics (issue 22), when hugo is installed. */
  hugo?: { version: string; seconds: number; cpuSeconds: number; systemSeconds: number; peakRss: number; files: number };
  /** The builds after one topic changed, into the same output folder, edit after edit (scripts/bench/run.ts EDITS). */
  rebuilds?: RebuildFigures;
  /** `npm run build` again right after the rebuilds, with nothing changed. */
  unchanged?: { seconds: number; peakRss: number };
  /** A build with one broken topic among all the others: how long until it stopped, and whether it named the file and field. */
  broken?: { seconds: number; reported: boolean; line: string; siteKept: boolean };
  /** 1-minute load averages when the browser measurements started and ended (other work makes numbers noisy). */
  loadAverage?: [number, number];
  /** tagsite beside Pagefind on the same topics and searches (not with --no-pagefind). */
  pagefind?: PagefindComparison;
  notes: string[];
}

/** A rebuild's time, peak memory and phases. */
export interface Rebuild {
  /** The time of the rebuild (of several: the median run's, whose phases these are). */
  seconds: number;
  /** The highest of its runs. */
  peakRss: number;
  phases?: BuildPhases;
  /** Each run's time, when it ran more than once after its edit (--rebuild-runs). */
  runs?: number[];
}

/** The rebuild whose time is the median of `runs` (the slower middle one of an even number), with every run's time. */
export function medianRebuild(runs: readonly Rebuild[]): Rebuild {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  const median = sorted[sorted.length >> 1]!;
  return { ...median, peakRss: Math.max(...runs.map((run) => run.peakRss)), runs: runs.map((run) => run.seconds) };
}

/** The rebuilds after each edit of one topic: its post, its title, its activity date (to the top of the listings). */
export interface RebuildFigures {
  post?: Rebuild;
  title?: Rebuild;
  bumped?: Rebuild;
}

/** The search page with words whose bytes are measured beside the plain /search/. */
export const WORDS_PAGE = '/search/?q=clipboard+json';
/** A shared link with words (issue 16): its first result, timed from the start of the navigation. */
export const SHARED_LINK = '/search/?q=clipboard';
/**
 * /search/ opened with a structured filter (a shared link): unlike the plain page, whose first
 * results are in its HTML, it needs the site's index before it can show any.
 */
export const FILTERED_PAGE = '/search/?min_replies=1';

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const check = (ok: boolean) => (ok ? ' ✓' : ' ✗');
const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GB`;
const seconds = (s: number | undefined) => (s === undefined ? '—' : `${s.toFixed(1)} s`);
/** The build-time targets: at 10,000 topics and at 100,000. */
const buildCheck = (size: number, seconds: number, at10k: number, at100k: number) =>
  size === 10_000 ? check(seconds <= at10k) : size === 100_000 ? check(seconds <= at100k) : '';

function p50p95(values: number[] | undefined, limit?: number): string {
  if (!values || values.length === 0) return '—';
  const p95 = percentile(values, 95);
  return `${ms(percentile(values, 50))} / ${ms(p95)} ms${limit === undefined ? '' : check(p95 <= limit)}`;
}

function speedUp(figures: SizeFigures): string {
  if (!figures.fuse?.ms.length || !figures.words?.length) return '—';
  const ours = figures.words.map((t) => t.compute);
  const r50 = percentile(figures.fuse.ms, 50) / percentile(ours, 50);
  const r95 = percentile(figures.fuse.ms, 95) / percentile(ours, 95);
  return `${r50.toFixed(0)}× / ${r95.toFixed(0)}×${check(r50 >= 5 && r95 >= 5)}`;
}

/** The latency and /search/ targets are set at 10,000 topics, so they hold for smaller sites too; bigger ones are reported only. */
const targetAt = (f: SizeFigures, limit: number) => (f.size <= 10_000 ? limit : undefined);
const bytesCheck = (f: SizeFigures, transfer: Transfer) => (f.size <= 10_000 ? check(transfer.total <= 300 * 1024) : '');
const byKind = (transfer: Transfer) => ['html', 'css', 'js', 'json'].map((k) => kb(transfer.byKind[k] ?? 0).replace(' KB', '')).join(' / ');

/** A build's phases as the table shows them (src/build/phases.ts): start / content / [bundling /] pages / finishing (waiting for the index). */
function phaseFigures(phases: BuildPhases | undefined, bundled: boolean): string {
  if (!phases) return '—';
  const shown = [phases.start, phases.content, ...(bundled ? [phases.bundling ?? 0] : []), phases.pages, phases.finishing].map((s) => s.toFixed(1));
  return `${shown.join(' / ')} s (${phases.waiting.toFixed(1)} s waiting)`;
}

/** A row of the table: its label, its figure for a size, and the target. */
type Row = [label: string, figure: (f: SizeFigures) => string, target: string];

/** The rows of one edit's rebuild: its time and peak memory against the 2 s target, its phases, and its index thread's time. */
function rebuildRows(edit: keyof RebuildFigures, label: string): Row[] {
  const range = (runs: number[] | undefined) => (runs && runs.length > 1 ? ` (median of ${runs.length}: ${Math.min(...runs).toFixed(1)}–${Math.max(...runs).toFixed(1)} s)` : '');
  const time = (r: Rebuild | undefined, size: number) => (r ? `${r.seconds.toFixed(1)} s${range(r.runs)}, ${gb(r.peakRss)}${size === 10_000 ? check(r.seconds <= 2) : ''}` : '—');
  return [
    [label, (f) => time(f.rebuilds?.[edit], f.size), '≤ 2 s'],
    ['    start / content / pages / finishing', (f) => phaseFigures(f.rebuilds?.[edit]?.phases, false), ''],
    ['    search index and feeds (second thread, alongside)', (f) => seconds(f.rebuilds?.[edit]?.phases?.indexAndFeeds), ''],
  ];
}

/** The whole table, as lines of text. */
export function table(all: SizeFigures[]): string {
  const rows: Row[] = [
    ['corpus: tags / authors', (f) => (f.tags === undefined ? '—' : `${f.tags.toLocaleString('en')} / ${f.authors!.toLocaleString('en')}`), ''],
    ['generate + load content', (f) => (f.loadSeconds === undefined ? '—' : `${f.generateSeconds!.toFixed(0)} s + ${f.loadSeconds.toFixed(0)} s`), ''],
    ['site built by', (f) => f.site ?? '—', ''],
    ['clean build (npm run build)', (f) => (f.build ? `${f.build.seconds.toFixed(1)} s${buildCheck(f.size, f.build.seconds, 20, 240)}` : '—'), '≤ 20 s (100k: ≤ 240 s)'],
    ['  topics per second', (f) => (f.build ? `${Math.round(f.size / f.build.seconds).toLocaleString('en')}` : '—'), ''],
    ['  pages per second', (f) => (f.build ? `${Math.round(f.build.pages / f.build.seconds).toLocaleString('en')}` : '—'), ''],
    ['  start / content / bundling / pages / finishing', (f) => phaseFigures(f.build?.phases, true), ''],
    ['  search index and feeds (second thread, alongside)', (f) => (f.build?.phases ? `${f.build.phases.indexAndFeeds.toFixed(1)} s` : '—'), ''],
    ['  peak memory, whole process tree', (f) => (f.build ? `${gb(f.build.peakRss)}${f.size === 100_000 ? check(f.build.peakRss <= 6 * 1024 ** 3) : ''}` : '—'), '100k: ≤ 6 GB'],
    ['  pages / files / dist bytes', (f) => (f.build ? `${f.build.pages.toLocaleString('en')} / ${f.build.files.toLocaleString('en')} / ${(f.build.bytes / 1024 ** 2).toFixed(0)} MB` : '—'), ''],
    ['Hugo clean build, same topics (no search/feeds)', (f) => (f.hugo ? `${f.hugo.seconds.toFixed(1)} s, ${gb(f.hugo.peakRss)}, ${f.hugo.files.toLocaleString('en')} files` : '—'), ''],
    ['  tagsite / Hugo', (f) => (f.build && f.hugo ? `${(f.build.seconds / f.hugo.seconds).toFixed(2)}×${check(f.build.seconds <= f.hugo.seconds)}` : '—'), '≤ 1.0×'],
    ['  CPU time, tagsite / Hugo (user + system, all threads)', (f) => (f.build && f.hugo ? `${f.build.cpuSeconds.toFixed(1)} s / ${f.hugo.cpuSeconds.toFixed(1)} s = ${(f.build.cpuSeconds / f.hugo.cpuSeconds).toFixed(2)}×` : '—'), ''],
    ['    of it in the kernel (system time: files made, written, deleted)', (f) => (f.build && f.hugo ? `${f.build.systemSeconds.toFixed(1)} s / ${f.hugo.systemSeconds.toFixed(1)} s` : '—'), ''],
    ...rebuildRows('post', 'rebuild after one topic changed: a paragraph added to its post'),
    ...rebuildRows('title', '  … then its title changed'),
    ...rebuildRows('bumped', '  … then its `updated` moved to the top (as a reply does)'),
    ['build with nothing changed', (f) => (f.unchanged ? `${f.unchanged.seconds.toFixed(1)} s, ${gb(f.unchanged.peakRss)}${f.size === 10_000 ? check(f.unchanged.seconds <= 1) : ''}` : '—'), '≤ 1 s'],
    ['one broken topic: stopped, named', (f) => (f.broken ? `${f.broken.seconds.toFixed(1)} s, ${f.broken.reported ? 'file + field' : 'NOT NAMED'}${f.broken.siteKept ? ', site kept' : ', SITE CHANGED'}${check(f.broken.reported && f.broken.siteKept)}` : '—'), ''],
    ['machine load average while measuring', (f) => (f.loadAverage ? f.loadAverage.map((n) => n.toFixed(1)).join(' → ') : '—'), ''],
    ['structured: compute p50 / p95', (f) => p50p95(f.structured?.map((t) => t.compute)), ''],
    ['structured: engine only p50 / p95', (f) => p50p95(f.structured?.map((t) => t.engine)), ''],
    ['structured: submit→rendered p50 / p95', (f) => p50p95(f.structured?.map((t) => t.wall), targetAt(f, 16)), 'p95 ≤ 16 ms'],
    ['words+filters: compute p50 / p95', (f) => p50p95(f.words?.map((t) => t.compute)), ''],
    ['words+filters: engine only p50 / p95', (f) => p50p95(f.words?.map((t) => t.engine)), ''],
    ['words+filters: submit→rendered p50 / p95', (f) => p50p95(f.words?.map((t) => t.wall), targetAt(f, 50)), 'p95 ≤ 50 ms'],
    ['words again (files cached): compute', (f) => p50p95(f.wordsAgain?.map((t) => t.compute)), ''],
    ['plain Fuse.js: search+filter p50 / p95', (f) => (f.fuse ? `${p50p95(f.fuse.ms)}${f.fuse.ms.length < f.fuse.planned ? ` (${f.fuse.ms.length}/${f.fuse.planned} queries)` : ''}` : '—'), ''],
    ['plain Fuse.js: load JSON / build index', (f) => (f.fuse ? `${(f.fuse.loadMs / 1000).toFixed(1)} s / ${(f.fuse.indexMs / 1000).toFixed(1)} s` : '—'), ''],
    ['speed-up vs Fuse.js (p50 / p95, compute)', speedUp, '≥ 5×'],
    [
      'tag page ≤ 50 topics: load + panel',
      (f) => {
        const page = f.tagPages?.[0];
        if (!page) return '—';
        const total = page.load.total + page.panel.total;
        return `${kb(page.load.total)} + ${kb(page.panel.total)} = ${kb(total)}${check(total <= 40 * 1024)}`;
      },
      '≤ 40 KB gzip',
    ],
    ['  (tag, topics)', (f) => (f.tagPages?.[0] ? `'${f.tagPages[0].tag}', ${f.tagPages[0].topics}` : '—'), ''],
    [
      `tag '${PROBE_TAG}' (the same 20 topics at every size): load + panel`,
      (f) => {
        const page = f.tagPages?.find((p) => p.tag === PROBE_TAG);
        return page ? `${kb(page.load.total)} + ${kb(page.panel.total)} = ${kb(page.load.total + page.panel.total)} (${page.load.total + page.panel.total} B)` : '—';
      },
      'not above the 1,000-topic site',
    ],
    ['/search/ before first result', (f) => (f.search ? `${kb(f.search.total)}${bytesCheck(f, f.search)}` : '—'), '≤ 300 KB gzip'],
    ['  html / css / js / json', (f) => (f.search ? byKind(f.search) : '—'), ''],
    [`${FILTERED_PAGE} before first result`, (f) => (f.searchFiltered ? `${kb(f.searchFiltered.total)}${bytesCheck(f, f.searchFiltered)}` : '—'), '≤ 300 KB gzip'],
    ['  html / css / js / json', (f) => (f.searchFiltered ? byKind(f.searchFiltered) : '—'), ''],
    // Not a target: the 300 KB is for /search/ before its first result; words fetch what they need.
    [`${WORDS_PAGE} before first result`, (f) => (f.searchWords ? kb(f.searchWords.total) : '—'), ''],
    // Not a target either: a shared link's first result, bytes and time from navigation.
    [`shared link ${SHARED_LINK}: first result`, (f) => (f.sharedLink ? `${kb(f.sharedLink.transfer.total)}, ${f.sharedLink.ms.toFixed(0)} ms` : '—'), ''],
  ];
  const header = ['', ...all.map((f) => `${f.size.toLocaleString('en')} topics`), 'target at 10,000'];
  const cells = [header, ...rows.map(([label, cell, target]) => [label, ...all.map(cell), target])];
  const widths = header.map((_, c) => Math.max(...cells.map((row) => [...row[c]!].length)));
  const line = (row: string[]) => row.map((cell, c) => cell + ' '.repeat(widths[c]! - [...cell].length)).join('  ').trimEnd();
  const out = [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...cells.slice(1).map(line)];
  for (const figures of all) for (const note of figures.notes) out.push(`${figures.size.toLocaleString('en')}: ${note}`);
  return out.join('\n');
}
