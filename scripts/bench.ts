/**
 * `npm run bench [-- --sizes 1000,10000,100000] [--queries 50] [--full-build-max 100000]
 *   [--rebuild-runs 3] [--step-timeout 600] [--seed s] [--keep] [--no-pagefind]`: the browser-search benchmark
 * (issue 3) on synthetic corpora, printed as a table with the targets beside the figures; then, at
 * each size, tagsite's search beside Pagefind's on the same topics and the same `--queries`
 * searches (scripts/bench/compare.ts). --no-pagefind leaves that comparison out.
 *
 * `npm run bench -- --generate 10000 --out <dir> [--seed s] [--end YYYY-MM-DD]` only writes a corpus.
 */
import { mkdtempSync, readdirSync, existsSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, printProblems, projectOptions, projectRoot } from '../src/cli/project.ts';
import { DEFAULT_END, DEFAULT_SEED, writeCorpus } from './bench/corpus.ts';
import type { SizeFigures } from './bench/report.ts';
import type { Problem } from '../src/content/problems.ts';
import { exitWithUsageOnHelp } from '../src/cli/usage.ts';

exitWithUsageOnHelp('bench');

const root = projectRoot();
const spec = {
  generate: 'string', out: 'string', seed: 'string', end: 'string', sizes: 'string', queries: 'string',
  'full-build-max': 'string', 'rebuild-runs': 'string', 'step-timeout': 'string', keep: 'boolean', 'no-pagefind': 'boolean',
} as const;
const { values, problems } = parseArgs(process.argv.slice(2), spec, 'bench');

/** A whole number option within bounds, or a problem. */
function wholeNumber(name: string, fallback: number, min: number, max: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(String(raw)) || value < min || value > max) {
    problems.push({ file: 'bench', field: `--${name}`, message: `expected a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}` });
    return fallback;
  }
  return value;
}

const seed = (values.seed as string | undefined) ?? DEFAULT_SEED;
const end = (values.end as string | undefined) ?? DEFAULT_END;
if (!/^\d{4}-\d{2}-\d{2}$/.test(end) || Number.isNaN(Date.parse(`${end}T00:00:00Z`))) {
  problems.push({ file: 'bench', field: '--end', message: `expected a day YYYY-MM-DD, got ${JSON.stringify(end)}` });
}

if (values.generate !== undefined) {
  const size = wholeNumber('generate', 0, 1, 10_000_000);
  const out = values.out as string | undefined;
  if (!out) problems.push({ file: 'bench', field: '--out', message: 'needed with --generate: the folder to write the corpus into' });
  else if (existsSync(resolve(root, out)) && readdirSync(resolve(root, out)).length > 0) {
    problems.push({ file: 'bench', field: '--out', message: `${out} is not empty: give a new or empty folder` });
  }
  if (problems.length > 0) {
    printProblems(problems);
    process.exit(1);
  }
  const started = performance.now();
  const { files } = writeCorpus(resolve(root, out!), { count: size, seed, end });
  console.log(`wrote ${size.toLocaleString('en')} topics (${files.toLocaleString('en')} files, seed '${seed}') to ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.exit(0);
}

const sizes = ((values.sizes as string | undefined) ?? '1000,10000,100000').split(',').map((text): number => {
  const size = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || size < 50) problems.push({ file: 'bench', field: '--sizes', message: `expected topic counts >= 50 separated by commas, got ${JSON.stringify(text)}` } satisfies Problem);
  return size;
});
const queries = wholeNumber('queries', 50, 5, 10_000);
const fullBuildMax = wholeNumber('full-build-max', 100_000, 0, 10_000_000);
const rebuildRuns = wholeNumber('rebuild-runs', 3, 1, 50);
const stepTimeoutMs = wholeNumber('step-timeout', 600, 10, 86_400) * 1000;
const { options, problems: optionProblems } = await projectOptions(root);
problems.push(...optionProblems);
if (problems.length > 0) {
  printProblems(problems);
  process.exit(1);
}

// Loaded only for a benchmark run: --generate stays quick.
const { projectSnapshot } = await import('./bench/site.ts');
const { runSize } = await import('./bench/run.ts');
const { table } = await import('./bench/report.ts');
const { comparisonTable } = await import('./bench/compare-report.ts');
const { launchChromium } = await import('../tests/helpers/browser.ts');

const started = performance.now();
const log = (message: string) => console.error(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(5)} s] ${message}`);
const workDir = mkdtempSync(join(tmpdir(), 'tagsite-bench-'));
log(`working in ${workDir}; the build runs in a snapshot of the project there`);
const project = projectSnapshot(root, join(workDir, 'project'));
const browser = await launchChromium();
const chromium = browser.version();
const all: SizeFigures[] = [];
try {
  const ordered = [...new Set(sizes)].sort((a, b) => a - b);
  for (const size of ordered) {
    all.push(await runSize(size, { project, workDir, seed, end, queries, fullBuildMax, rebuildRuns, stepTimeoutMs, options, browser, pagefind: !values['no-pagefind'], log }));
    // The figures so far, while bigger sizes still run; the whole table is printed once at the end.
    if (size !== ordered.at(-1)) console.error(`\n${table(all)}\n${all.at(-1)!.pagefind ? `\n${comparisonTable(size, all.at(-1)!.pagefind!)}\n` : ''}`);
  }
} finally {
  await browser.close();
  // Each size's files stay until here: deleted between sizes, they would be deleted seconds
  // before the next size's clean build, which ext4 without a journal (this machine's) then makes
  // many times slower, as it passes over every inode freed in the last minutes for each new file.
  if (!values.keep) rmSync(workDir, { recursive: true, force: true });
}

console.log(`tagsite browser-search benchmark: seed '${seed}', ${queries} searches of each kind after a warm-up, Chromium ${chromium} headless, ${cpus().length} CPUs`);
console.log('Times are per filter change through the page\'s own form: "compute" is the search\'s data-search-ms (in the page\'s thread or the');
console.log('worker), "submit→rendered" is from the form submit to the results in the DOM and laid out; each change starts after the last');
console.log('results were painted. Bytes are gzip (zlib default level) of every response fetched.');
console.log('Plain Fuse.js: one Fuse index over every record with keys title, body text, tags, author (ignoreLocation, threshold 0.34),');
console.log('fuse.search(q) on the main thread, then the same structured filters, sort and page in plain JS.\n');
console.log(table(all));
if (all.some((figures) => figures.pagefind)) {
  console.log('\ntagsite beside Pagefind: times are from asking to the results laid out. Bytes are each response\'s smaller of gzip and raw');
  console.log('size (Pagefind\'s files are gzip already): page = HTML, CSS, JS and Pagefind\'s WebAssembly; index = /search-index/ but its');
  console.log('display rows, Pagefind\'s meta, word and filter chunks; rows = display rows, Pagefind\'s fragments. Pagefind\'s page is a bare');
  console.log('one (no site CSS, 25 rows of title and excerpt); tagsite\'s is the site\'s /search/. Recall: the share of the topics holding');
  console.log('every word exactly (tagsite\'s word folding, by brute force) among all of a system\'s results (tagsite\'s engine run in Node');
  console.log('on the built index, checked against the page; every Pagefind result); a misspelt word counts the topics holding the word');
  console.log('meant. Precision: the share of the first 25 results holding every word, over word searches with at least 25 such topics.');
  for (const figures of all) if (figures.pagefind) console.log(`\n${comparisonTable(figures.size, figures.pagefind)}`);
}
if (values.keep) console.log(`\nkept ${workDir}`);
