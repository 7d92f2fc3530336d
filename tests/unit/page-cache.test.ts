/** The build's cache folders: one per content folder and output, deleted once their content folder is gone. */
import { afterAll, expect, it } from 'vitest';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { serialize } from 'node:v8';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noteSource, pruneCaches, rememberedPosts, rememberPages, rememberPosts, rememberedFiles, unchangedFiles } from '../../src/build/cache.ts';
import type { RememberedPost, RenderMemory } from '../../src/content/load.ts';
import type { Topic } from '../../src/content/topics.ts';
import { folderFiles } from '../../src/build/folder-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'tagsite-caches-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('deletes the caches of content folders that are gone, and those that name none, and keeps the others', () => {
  const root = join(dir, 'cache');
  const kept = join(dir, 'content-kept');
  const gone = join(dir, 'content-gone');
  mkdirSync(kept);
  noteSource(join(root, 'a'), kept);
  noteSource(join(root, 'b'), gone);
  mkdirSync(join(root, 'c'), { recursive: true });
  writeFileSync(join(root, 'a', 'pages.json'), '{}');
  expect(pruneCaches(root)).toBe(2);
  expect(readdirSync(root)).toEqual(['a']);
  expect(existsSync(join(root, 'a', 'pages.json'))).toBe(true);
  expect(pruneCaches(join(dir, 'no-such-folder'))).toBe(0);
});

it('reuses a page of the previous output only while its file is as that build left it', () => {
  const cache = join(dir, 'pages-cache');
  const out = join(dir, 'pages-out');
  for (const file of ['index.html', 'topics/a/index.html', 'topics/b/index.html', 'tags/x/rss.xml']) {
    mkdirSync(join(out, file, '..'), { recursive: true });
    writeFileSync(join(out, file), `<p>${file}</p>`);
  }
  const keys = new Map([['index.html', 'k0'], ['topics/a/index.html', 'ka'], ['topics/b/index.html', 'kb'], ['tags/x/rss.xml', 'kx']]);
  rememberPages(cache, 'code-1', keys, folderFiles(out));
  expect(unchangedFiles(out, rememberedFiles(cache, 'code-1'))).toEqual(keys);
  expect(unchangedFiles(out, rememberedFiles(cache, 'code-2')), 'other code').toEqual(new Map());
  appendFileSync(join(out, 'topics/a/index.html'), '<p>Edited by hand</p>');
  rmSync(join(out, 'tags/x/rss.xml'));
  writeFileSync(join(out, 'topics/b/index.html'), '<p>topics/b/index.html</p>'); // the same bytes, written again later
  expect([...unchangedFiles(out, rememberedFiles(cache, 'code-1')).keys()]).toEqual(['index.html']);
  writeFileSync(join(cache, 'pages.json'), JSON.stringify({ code: 'code-1', pages: [['index.html', 'k0']] }));
  expect(unchangedFiles(out, rememberedFiles(cache, 'code-1')), 'a manifest of the older form').toEqual(new Map());
});

it('remembers the topic memory in chunks and gives it back whole, only to the same code, and nothing from a cut or older file', () => {
  const cache = join(dir, 'posts-cache');
  const post = (i: number): RememberedPost => ({ digest: `d${i}`, html: `<p>Post ${i}</p>`, text: `Post ${i}`, ...(i % 2 ? { read: { stamp: `s${i}`, context: 'c', topic: { slug: `t${i}` } as Topic, key: `k${i}` } } : {}) });
  // More files than fit in two chunks, so the last chunk is a part one.
  const memory: RenderMemory = new Map(Array.from({ length: 2500 }, (_, i) => [`topics/t${i}.md`, post(i)]));
  rememberPosts(cache, 'code-1', memory);
  expect(rememberedPosts(cache, 'code-1')).toEqual(memory);
  expect(rememberedPosts(cache, 'code-2'), 'other code').toEqual(new Map());
  expect(readdirSync(cache), 'no partial file left').toEqual(['posts.v8']);
  // Cut short (a disk that filled up), or of the older form (one serialized object): nothing.
  const file = join(cache, 'posts.v8');
  writeFileSync(file, readFileSync(file).subarray(0, 40_000));
  expect(rememberedPosts(cache, 'code-1')).toEqual(new Map());
  writeFileSync(file, serialize({ code: 'code-1', memory }));
  expect(rememberedPosts(cache, 'code-1')).toEqual(new Map());
  expect(rememberedPosts(join(dir, 'no-cache'), 'code-1')).toEqual(new Map());
  // An empty memory is remembered as one.
  rememberPosts(cache, 'code-3', new Map());
  expect(rememberedPosts(cache, 'code-3')).toEqual(new Map());
});

it('copies the chunks of posts kept as read, serializes the others, and copies nothing from a memory file replaced or deleted meanwhile', () => {
  const cache = join(dir, 'posts-reuse');
  const post = (i: number, text = `Post ${i}`): RememberedPost => ({ digest: `d${i}`, html: `<p>${text}</p>`, text });
  const paths = Array.from({ length: 20_000 }, (_, i) => `topics/t${String(i).padStart(5, '0')}.md`);
  rememberPosts(cache, 'code-1', new Map(paths.map((path, i) => [path, post(i)])));
  const read = rememberedPosts(cache, 'code-1');
  // Changed in place, the posts read are still the same objects: a copied chunk keeps the text it was written with.
  for (const kept of read.values()) kept.text = 'changed in place';
  // One file edited, one added near the start, one deleted: new objects, in the files' order.
  const next: RenderMemory = new Map();
  for (const [path, kept] of read) {
    if (path === paths[3]) next.set('topics/t00003a.md', post(-1, 'added'));
    if (path === paths[9000]) continue;
    next.set(path, path === paths[15_000] ? post(15_000, 'edited') : kept);
  }
  rememberPosts(cache, 'code-1', next);
  const after = rememberedPosts(cache, 'code-1');
  expect([...after.keys()]).toEqual([...next.keys()]);
  expect(after.get('topics/t00003a.md')?.text).toBe('added');
  expect(after.get(paths[15_000]!)?.text).toBe('edited');
  const serialized = [...after.values()].filter((kept) => kept.text === 'changed in place').length;
  // Only the chunks of the three changes (about 1,000 files each) were serialized again; the rest were copied as they were.
  expect(serialized).toBeGreaterThan(0);
  expect(serialized).toBeLessThan(6000);
  expect(after.get(paths[19_999]!)?.text).toBe('Post 19999');

  // The file replaced by another build after this one read it: nothing is copied from it.
  const readAgain = rememberedPosts(cache, 'code-1');
  rememberPosts(cache, 'code-1', new Map([['topics/other.md', post(0)]]));
  for (const kept of readAgain.values()) kept.text = 'changed in place';
  rememberPosts(cache, 'code-1', readAgain);
  expect([...rememberedPosts(cache, 'code-1').values()].every((kept) => kept.text === 'changed in place')).toBe(true);

  // The whole cache deleted after the read (a `--clean` build of the same output meanwhile): the memory is written all the same.
  const readOnceMore = rememberedPosts(cache, 'code-1');
  rmSync(cache, { recursive: true, force: true });
  rememberPosts(cache, 'code-1', readOnceMore);
  expect(rememberedPosts(cache, 'code-1')).toEqual(readOnceMore);
});
