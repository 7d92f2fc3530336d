/**
 * A build's reading of its topic files spills each post it renders to a file as it goes
 * (src/content/post-spill.ts): the topics come back without their posts, the posts where the
 * spill files hold them, and the topic memory made from them is the one made from posts held.
 */
import { afterAll, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContent, loadContentInParallel, postOf } from '../../src/content/load.ts';
import { rememberedPosts, rememberPosts } from '../../src/build/post-memory.ts';
import { PostInChunk } from '../../src/build/chunk-posts.ts';
import { forgetSpill } from '../../src/content/post-spill.ts';
import { renderingOf } from '../../src/content/kept-posts.ts';
import { writeCorpus } from '../../scripts/bench/corpus.ts';

// Enough topics for a reading thread besides this one (loadContentInParallel's PARALLEL_FROM is 1,500).
const dir = mkdtempSync(join(tmpdir(), 'tagsite-spill-'));
writeCorpus(dir, { count: 1600, seed: 'spill' });
const options = { root: dir, contentDir: dir, excerptLength: 200 };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('spills every post it renders, by each thread into its own file, and gives each topic its post back from there', async () => {
  const spill = join(dir, 'spill');
  const held = await loadContentInParallel(options);
  const spilled = await loadContentInParallel({ ...options, spill });
  // A file a share: this thread's, and each reading thread's (one a further core, at most four in all).
  const shares = Math.min(availableParallelism(), 4);
  expect(readdirSync(spill).sort()).toEqual(Array.from({ length: shares }, (_, n) => `${n}.posts`));
  const { content } = loadContent(options);
  expect(spilled.problems).toEqual([]);
  expect(spilled.content.topics.every((topic) => topic.html === '' && topic.text === ''), 'no topic holds its post').toBe(true);
  expect(spilled.content.topics.map((topic) => postOf(spilled.content, topic))).toEqual(content.topics.map(({ html, text }) => ({ html, text })));
  // The records and their keys are the ones read with the posts held.
  expect(spilled.content.topics.map((topic) => ({ ...topic, ...postOf(spilled.content, topic) }))).toEqual(held.content.topics);
  expect(spilled.content.topics.map((topic) => spilled.keys.get(topic))).toEqual(held.content.topics.map((topic) => held.keys.get(topic)));
  expect(spilled.listings).toBe(held.listings);
  // Every post is in a spill file, none in the heap.
  for (const post of spilled.memory.values()) expect(post instanceof PostInChunk && post.bodies.path.startsWith(spill), 'a post in a spill file').toBe(true);
  const bytes = readdirSync(spill).reduce((sum, name) => sum + readFileSync(join(spill, name)).length, 0);
  expect(bytes).toBe(content.topics.reduce((sum, { html, text }) => sum + 4 + Buffer.byteLength(html) + Buffer.byteLength(text), 0));
  forgetSpill(spill);
});

it('makes the topic memory the posts held make, and the spill can go once it is made', async () => {
  const spill = join(dir, 'spill-memory');
  const held = await loadContentInParallel(options);
  const spilled = await loadContentInParallel({ ...options, spill });
  const caches = [mkdtempSync(join(tmpdir(), 'tagsite-spill-held-')), mkdtempSync(join(tmpdir(), 'tagsite-spill-spilled-'))];
  try {
    rememberPosts(caches[0]!, 'code', held.memory);
    const posts = rememberPosts(caches[1]!, 'code', spilled.memory);
    // The same chunk files, named by their bytes' digest.
    const list = (cache: string) => readFileSync(join(cache, 'posts.json'), 'utf8');
    expect(list(caches[1]!)).toBe(list(caches[0]!));
    forgetSpill(spill);
    expect(readdirSync(dir)).not.toContain('spill-memory');
    expect(held.content.topics.map((topic) => renderingOf(posts.get(topic.file)!))).toEqual(held.content.topics.map(({ html, text }) => ({ html, text })));
  } finally {
    for (const cache of caches) rmSync(cache, { recursive: true, force: true });
  }
});

it('writes no spill file where it renders no post: a rebuild that takes every topic from its memory', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'tagsite-spill-again-'));
  const spill = join(dir, 'spill-again');
  try {
    rememberPosts(cache, 'code', (await loadContentInParallel({ ...options, spill })).memory);
    forgetSpill(spill);
    const again = await loadContentInParallel({ ...options, spill }, rememberedPosts(cache, 'code'));
    expect(again.problems).toEqual([]);
    expect(again.content.topics).toHaveLength(1600);
    expect(existsSync(spill) ? readdirSync(spill) : [], 'no spill file').toEqual([]);
  } finally {
    forgetSpill(spill);
    rmSync(cache, { recursive: true, force: true });
  }
});
