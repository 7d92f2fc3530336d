import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROBE_TAG, corpusFiles, corpusShape, tagList, writeCorpus } from '../../scripts/bench/corpus.ts';
import { Random, Zipf } from '../../scripts/bench/random.ts';
import { loadContent } from '../../src/content/load.ts';
import { DEFAULT_LIMITS } from '../../src/content/limits.ts';
import { formatProblem } from '../../src/content/problems.ts';
import { normaliseTag } from '../../src/model/tags.ts';
import { projectRoot, runScript } from '../helpers/cli.ts';
import { BUILD_NODE_OPTIONS, realBuild, runMeasured } from '../../scripts/bench/site.ts';

const folders: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tagsite-bench-corpus-'));
  folders.push(dir);
  return join(dir, 'content');
};
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const filesOf = (count: number, seed?: string) => [...corpusFiles({ count, ...(seed ? { seed } : {}) })];

describe('the benchmark corpus generator', () => {
  it('gives the same files for the same seed, and other files for another seed', () => {
    const first = filesOf(120, 'a');
    expect(filesOf(120, 'a')).toEqual(first);
    const other = filesOf(120, 'b');
    expect(other.map((file) => file.text)).not.toEqual(first.map((file) => file.text));
  });

  it('writes a content folder that loads with no problems, with the shape a forum has', () => {
    const dir = freshDir();
    writeCorpus(dir, { count: 400, seed: 'unit' });
    expect(readdirSync(dir).sort()).toEqual(['content-types.json', 'links.json', 'members.json', 'topics']);
    const { content, problems } = loadContent({ root: dir, contentDir: dir, excerptLength: 200 });
    expect(problems.map(formatProblem)).toEqual([]);
    expect(content.topics).toHaveLength(400);

    // 3–8 tags a topic, from a long-tailed set: the most used tag is on far more topics than the typical one.
    for (const topic of content.topics) expect(topic.tags.length).toBeGreaterThanOrEqual(3), expect(topic.tags.length).toBeLessThanOrEqual(8);
    const counts = new Map<string, number>();
    for (const topic of content.topics) for (const tag of topic.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    const sorted = [...counts.values()].sort((a, b) => b - a);
    expect(sorted[0]!).toBeGreaterThan(10 * sorted[Math.floor(sorted.length / 2)]!);
    expect(counts.size).toBeGreaterThan(corpusShape(400).tags / 2);

    // Authors come from about count/20 members, all listed in members.json.
    const members = new Set(content.members.map((member) => member.name));
    expect(members.size).toBe(corpusShape(400).members);
    for (const topic of content.topics) expect(members.has(topic.author)).toBe(true);

    // Some workflows, link records, sub-forum topics; bodies of about 150 words; long-tailed replies.
    expect(content.topics.filter((topic) => topic.workflow).length).toBeGreaterThanOrEqual(3);
    expect(content.links.length).toBe(corpusShape(400).links);
    expect(content.topics.some((topic) => topic.contentType === 'applescript-and-jxa')).toBe(true);
    const words = content.topics.map((topic) => topic.html.replace(/<[^>]+>/g, ' ').split(/\s+/).filter(Boolean).length).sort((a, b) => a - b);
    expect(words[words.length >> 1]!).toBeGreaterThan(100);
    expect(words[words.length >> 1]!).toBeLessThan(250);
    const replies = content.topics.map((topic) => topic.replies);
    expect(replies.filter((n) => n === 0).length).toBeGreaterThan(40);
    expect(Math.max(...replies)).toBeGreaterThan(20);

    // Dates spread over about five years up to the fixed end day; updated is never before created.
    const created = content.topics.map((topic) => topic.createdMs);
    expect(Math.max(...created) - Math.min(...created)).toBeGreaterThan(3 * 365 * 86_400_000);
    expect(Math.max(...content.topics.map((topic) => topic.updatedMs))).toBeLessThanOrEqual(Date.parse('2026-11-01T00:00:00Z'));
  });

  it("ends every corpus of 100 topics or more with the same 20 probe topics, whatever its size", () => {
    const probes = (count: number) => filesOf(count).filter((file) => file.path.includes(`/${PROBE_TAG}-`));
    const small = probes(100);
    expect(small).toHaveLength(20);
    expect(probes(2000)).toEqual(small);
    for (const file of small) expect(file.text).toMatch(new RegExp(`^tags: \\["${PROBE_TAG}", `, 'm'));
    expect(filesOf(100).filter((file) => file.path.startsWith('topics/'))).toHaveLength(100);
    expect(probes(99)).toEqual([]);
  });

  it('keeps tags distinct after normalising, and a small corpus\'s tags are a prefix of a big one\'s', () => {
    const big = tagList(3000);
    expect(new Set(big.map(normaliseTag)).size).toBe(3000);
    expect(tagList(500)).toEqual(big.slice(0, 500));
    for (const tag of big) expect(normaliseTag(tag).length).toBeLessThanOrEqual(50);
  });

  it('draws Zipf ranks with the most common first', () => {
    const zipf = new Zipf(100, 1, 1);
    const random = new Random('zipf');
    const seen = new Array<number>(100).fill(0);
    for (let i = 0; i < 20_000; i++) seen[zipf.draw(random)]!++;
    expect(seen[0]!).toBeGreaterThan(seen[9]! * 5);
    expect(seen[99]!).toBeGreaterThan(0);
  });

  it('is usable on its own: npm run bench -- --generate N --out <dir>', async () => {
    const dir = freshDir();
    const result = await runScript('bench', ['--generate', '60', '--out', dir, '--seed', 'cli']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('wrote 60 topics');
    const { content, problems } = loadContent({ root: dir, contentDir: dir, excerptLength: 200 });
    expect(problems).toEqual([]);
    expect(content.topics.map((topic) => topic.title).sort()).toEqual(
      filesOf(60, 'cli').filter((file) => file.path.startsWith('topics/')).map((file) => JSON.parse(/^title: (.*)$/m.exec(file.text)![1]!) as string).sort(),
    );

    const again = await runScript('bench', ['--generate', '60', '--out', dir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^bench: --out: .* is not empty/m);
    const bad = await runScript('bench', ['--generate', 'many', '--out', freshDir()]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('bench: --generate: expected a whole number');
  });
});

describe('the shape of a big corpus', () => {
  it('lists members and link records up to what a data file holds by default, so the default options build it', () => {
    expect(corpusShape(100_000)).toMatchObject({ members: 5_000, links: 1_000 });
    expect(corpusShape(1_000_000)).toMatchObject({ members: DEFAULT_LIMITS.dataFileRecords, links: DEFAULT_LIMITS.dataFileRecords });
    expect(corpusShape(10_000_000).members).toBe(DEFAULT_LIMITS.dataFileRecords);
  });
});

describe("the benchmark's build", () => {
  it('runs Node with the options `npm run build` gives it', () => {
    const { scripts } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.build).toBe(`node scripts/require-node.mjs && node ${BUILD_NODE_OPTIONS.join(' ')} scripts/build.mjs`);
  });

  it('builds clean (caches forgotten) where it measures a clean build, and as a user does otherwise', async () => {
    // A project whose build says what it was asked.
    const project = join(freshDir(), '..', 'project');
    mkdirSync(join(project, 'scripts'), { recursive: true });
    writeFileSync(join(project, 'scripts', 'build.mjs'), 'console.log(JSON.stringify(process.argv.slice(2)));');
    const asked = async (clean?: boolean) => JSON.parse((await realBuild(project, '/c', '/o', 30_000, clean)).output) as string[];
    expect(await asked(true)).toEqual(['--content', '/c', '--out', '/o', '--clean']);
    expect(await asked()).toEqual(['--content', '/c', '--out', '/o']);
  });

  it('counts the CPU time of a run on every thread, not the time it waited', async () => {
    // Two threads busy until the process has used 1.2 s of CPU (however busy the machine is), then 0.6 s asleep.
    const busy = 'for (let used = process.cpuUsage(); used.user + used.system < 1_200_000; used = process.cpuUsage());';
    const script = `const { Worker } = require('node:worker_threads'); const w = new Worker(${JSON.stringify(busy)}, { eval: true }); ${busy} w.on('exit', () => setTimeout(() => {}, 600));`;
    const run = await runMeasured(process.execPath, ['-e', script], projectRoot, 30_000);
    expect(run.seconds).toBeGreaterThan(1.1);
    expect(run.cpuSeconds).toBeGreaterThan(0.9);
    expect(run.cpuSeconds).toBeLessThan(run.seconds + 0.6);
    // Of it, the time in the kernel: most of that loop's (each cpuUsage() asks the kernel), little of a loop that asks nothing.
    expect(run.systemSeconds).toBeGreaterThan(0.3);
    expect(run.systemSeconds).toBeLessThanOrEqual(run.cpuSeconds);
    const own = await runMeasured(process.execPath, ['-e', 'for (let n = 1, end = Date.now() + 800; (n & 0xfffff) !== 0 || Date.now() < end; n++);'], projectRoot, 30_000);
    expect(own.cpuSeconds).toBeGreaterThan(0.5);
    expect(own.systemSeconds).toBeLessThan(own.cpuSeconds / 4);
    const idle = await runMeasured(process.execPath, ['-e', 'setTimeout(() => {}, 800)'], projectRoot, 30_000);
    expect(idle.cpuSeconds).toBeLessThan(0.4);
  });
});
