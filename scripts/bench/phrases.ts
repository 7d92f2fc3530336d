/**
 * `node --experimental-strip-types --no-warnings scripts/bench/phrases.ts [topics] [--seed s]`:
 * what quoted phrases cost (issue 23) on a synthetic corpus: the bytes of the positions files
 * beside the postings and the whole index, the index's build time, and what a phrase search reads
 * (files, gzip bytes) and how long matching takes in Node.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DEFAULT_SEED, writeCorpus } from './corpus.ts';
import { Random } from './random.ts';
import { loadContent } from '../../src/content/load.ts';
import { sortForListing } from '../../src/model/listing.ts';
import { buildSearchIndex } from '../../src/search/index-build.ts';
import type { WordsFile } from '../../src/search/index-format.ts';
import { WordMatcher } from '../../src/search/word-match.ts';
import { terms } from '../../src/search/words.ts';

const args = process.argv.slice(2);
const count = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 5000);
const seed = args.includes('--seed') ? args[args.indexOf('--seed') + 1]! : DEFAULT_SEED;

const dir = mkdtempSync(join(tmpdir(), 'tagsite-phrases-'));
try {
  writeCorpus(dir, { count, seed });
  const { content } = loadContent({ root: dir, contentDir: dir, excerptLength: 200 });
  const topics = sortForListing(content.topics);
  const median = (runs: number[]) => [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
  const builds: number[] = [];
  let files = new Map<string, string>();
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    files = buildSearchIndex(topics, content.contentTypes.list);
    builds.push(performance.now() - started);
  }
  const bytes = (prefix: string) => {
    let raw = 0;
    let gzip = 0;
    let n = 0;
    for (const [path, text] of files) if (path.startsWith(prefix)) (raw += Buffer.byteLength(text), (gzip += gzipSync(text).length), n++);
    return { files: n, raw, gzip };
  };
  const kb = ({ files: n, raw, gzip }: { files: number; raw: number; gzip: number }) => `${n} files, ${(raw / 1e6).toFixed(2)} MB (${(gzip / 1e6).toFixed(2)} MB gzip)`;
  const postings = bytes('postings/');
  const positions = bytes('positions/');
  console.log(`${topics.length} topics, ${topics.reduce((sum, topic) => sum + terms(topic.text).length, 0)} words in posts`);
  console.log(`index build (buildSearchIndex, median of 5): ${median(builds).toFixed(0)} ms`);
  console.log(`whole index: ${kb(bytes(''))}`);
  console.log(`postings:    ${kb(postings)}`);
  console.log(`positions:   ${kb(positions)} = ${(positions.raw / postings.raw).toFixed(2)}× the postings`);

  // Phrases of two to four words taken from posts (so they stand somewhere).
  const random = new Random(seed);
  const info = JSON.parse(files.get('words.json')!) as WordsFile;
  for (let n = 0; n < 8; n++) {
    const words = terms(topics[Math.floor(random.next() * topics.length)]!.text);
    const length = 2 + (n % 3);
    const start = Math.floor(random.next() * Math.max(1, words.length - length));
    const q = `"${words.slice(start, start + length).join(' ')}"`;
    const read: string[] = [];
    const matcher = new WordMatcher(async <T>(path: string) => (read.push(path), JSON.parse(files.get(path)!) as T), info);
    const started = performance.now();
    const [found] = await matcher.phrases(q, false);
    const ms = performance.now() - started;
    const gzip = read.reduce((sum, path) => sum + gzipSync(files.get(path)!).length, 0);
    console.log(`${q}: ${found!.reduce((sum, hit) => sum + hit, 0)} topics; read ${read.length} files, ${(gzip / 1000).toFixed(0)} KB gzip; ${ms.toFixed(1)} ms`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
