/**
 * The build's loader (issue 7): topic files shared between threads, and first posts rendered by an
 * earlier build reused while their Markdown is unchanged; the same content and problems as loadContent.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContent, loadContentInParallel } from '../../src/content/load.ts';
import { formatProblem } from '../../src/content/problems.ts';
import { writeCorpus } from '../../scripts/bench/corpus.ts';

// Enough topics for worker threads to be used (loadContentInParallel's PARALLEL_FROM is 1,500).
const dir = mkdtempSync(join(tmpdir(), 'tagsite-parallel-'));
writeCorpus(dir, { count: 1600, seed: 'parallel' });
const options = { root: dir, contentDir: dir, excerptLength: 200 };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadContentInParallel', () => {
  it('gives exactly what loadContent gives, problems included', async () => {
    const { content: topicsBefore } = loadContent(options);
    const broken = join(dir, topicsBefore.topics[1200]!.file);
    const text = readFileSync(broken, 'utf8');
    writeFileSync(broken, text.replace(/^created: .*$/m, 'created: 2023-02-30').replace(/^views: .*$/m, 'views: many'));
    try {
      const sequential = loadContent(options);
      const parallel = await loadContentInParallel(options);
      expect(parallel.problems.map(formatProblem)).toEqual(sequential.problems.map(formatProblem));
      expect(parallel.problems.map((problem) => problem.field).sort()).toEqual(['created', 'views']);
      expect(parallel.content).toEqual(sequential.content);
      expect(parallel.content.topics).toHaveLength(1599);
    } finally {
      writeFileSync(broken, text);
    }
  });

  it('reuses a remembered rendering only while the Markdown it was made from is unchanged', async () => {
    const first = await loadContentInParallel(options);
    expect(first.memory.size).toBe(1600);
    // Two topics, one from each thread's share; their remembered renderings are marked.
    const [early, late] = [first.content.topics[3]!, first.content.topics[1500]!];
    const memory = new Map(first.memory);
    for (const topic of [early, late]) memory.set(topic.file, { ...memory.get(topic.file)!, html: '<p>remembered</p>', text: 'remembered' });
    const lateFile = join(dir, late.file);
    const lateText = readFileSync(lateFile, 'utf8');
    writeFileSync(lateFile, `${lateText}\nA new last paragraph.\n`);
    try {
      const second = await loadContentInParallel(options, memory);
      const bySlug = new Map(second.content.topics.map((topic) => [topic.slug, topic]));
      expect(bySlug.get(early.slug)!.html).toBe('<p>remembered</p>');
      expect(bySlug.get(early.slug)!.excerpt).toBe('remembered');
      expect(bySlug.get(late.slug)!.html).toContain('A new last paragraph.');
      expect(second.memory.get(late.file)!.html).toContain('A new last paragraph.');
    } finally {
      writeFileSync(lateFile, lateText);
    }
  });
});
