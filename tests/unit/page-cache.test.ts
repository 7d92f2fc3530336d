/** The build's cache folders: one per content folder and output, deleted once their content folder is gone. */
import { afterAll, expect, it } from 'vitest';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keysOf, listedAsRemembered, noteSource, pruneCaches, rememberPages, rememberedFiles, UNNAMED_CACHE_MS, unchangedFiles, type RememberedFile } from '../../src/build/cache.ts';
import { rememberedPosts, rememberPosts } from '../../src/build/post-memory.ts';
import type { RememberedPost, RenderMemory } from '../../src/content/read-topics.ts';
import type { Topic } from '../../src/content/topics.ts';
import { folderFiles, folderListing } from '../../src/build/folder-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'tagsite-caches-'));

/** The memory as plain posts: a post read from a chunk gives its HTML and text when asked for them. */
const plain = (memory: RenderMemory) => new Map([...memory].map(([file, { digest, html, text, read }]) => [file, { digest, html, text, ...(read ? { read } : {}) }]));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('deletes the caches of content folders that are gone, and those that name none once left alone for a day, and keeps the others', () => {
  const root = join(dir, 'cache');
  const kept = join(dir, 'content-kept');
  const gone = join(dir, 'content-gone');
  mkdirSync(kept);
  noteSource(join(root, 'a'), kept);
  noteSource(join(root, 'b'), gone);
  // Another build's, just made (its source not noted yet), and one whose note is cut short.
  mkdirSync(join(root, 'c'), { recursive: true });
  mkdirSync(join(root, 'd'), { recursive: true });
  writeFileSync(join(root, 'd', 'source.json'), '{"content": "/sr');
  writeFileSync(join(root, 'a', 'pages.json'), '{}');
  expect(pruneCaches(root)).toBe(1);
  expect(readdirSync(root).sort()).toEqual(['a', 'c', 'd']);
  expect(existsSync(join(root, 'a', 'pages.json'))).toBe(true);
  // A day later, those two are an older tagsite's or a killed build's: pruned. The noted one stays.
  const dayAfter = Date.now() + UNNAMED_CACHE_MS + 60_000;
  expect(pruneCaches(root, dayAfter)).toBe(2);
  expect(readdirSync(root)).toEqual(['a']);
  // The note is replaced whole, with no file of its own left beside it.
  noteSource(join(root, 'a'), gone);
  expect(readdirSync(join(root, 'a')).sort()).toEqual(['pages.json', 'source.json']);
  expect(pruneCaches(root)).toBe(1);
  expect(readdirSync(root)).toEqual([]);
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
  // A key without a file in the output (a page not written) is not remembered.
  rememberPages(cache, 'code-1', new Map([...keys, ['topics/gone/index.html', 'kg']]), folderFiles(out));
  expect(rememberedFiles(cache, 'code-1').map(([file]) => file).sort()).toEqual([...keys.keys()].sort());
  expect(unchangedFiles(out, rememberedFiles(cache, 'code-1'))).toEqual(keys);
  expect(unchangedFiles(out, rememberedFiles(cache, 'code-2')), 'other code').toEqual(new Map());
  const listedBefore = folderListing(out);
  appendFileSync(join(out, 'topics/a/index.html'), '<p>Edited by hand</p>');
  rmSync(join(out, 'tags/x/rss.xml'));
  writeFileSync(join(out, 'topics/b/index.html'), '<p>topics/b/index.html</p>'); // the same bytes, written again later
  expect([...unchangedFiles(out, rememberedFiles(cache, 'code-1')).keys()]).toEqual(['index.html']);
  // The output as a check listed it, file by file: looked up instead of each file (the listing taken before the edits has them all).
  const names = (files: RememberedFile[]) => files.map(([file]) => file).sort();
  expect(names(listedAsRemembered(rememberedFiles(cache, 'code-1'), folderListing(out)))).toEqual(['index.html']);
  expect(names(listedAsRemembered(rememberedFiles(cache, 'code-1'), listedBefore))).toEqual([...keys.keys()].sort());
  expect(keysOf(listedAsRemembered(rememberedFiles(cache, 'code-1'), listedBefore))).toEqual(keys);
  writeFileSync(join(cache, 'pages.json'), JSON.stringify({ code: 'code-1', pages: [['index.html', 'k0']] }));
  expect(unchangedFiles(out, rememberedFiles(cache, 'code-1')), 'a manifest of the older form').toEqual(new Map());
});

it('remembers the topic memory in chunks and gives it back whole, only to the same code, and leaves out a chunk cut short', () => {
  const cache = join(dir, 'posts-cache');
  // Text of every UTF-8 length, and an empty post.
  const post = (i: number): RememberedPost => ({ digest: `d${i}`, html: i === 5 ? '' : `<p>Post ${i}: Grüße — 𝔘</p>`, text: i === 5 ? '' : `Post ${i}: Grüße — 𝔘`, ...(i % 2 ? { read: { stamp: `s${i}`, context: 'c', topic: { slug: `t${i}` } as Topic, key: `k${i}`, listingKey: `l${i}` } } : {}) });
  // More files than fit in two chunks, so the last chunk is a part one.
  const memory: RenderMemory = new Map(Array.from({ length: 2500 }, (_, i) => [`topics/t${i}.md`, post(i)]));
  rememberPosts(cache, 'code-1', memory);
  expect(plain(rememberedPosts(cache, 'code-1'))).toEqual(memory);
  expect(rememberedPosts(cache, 'code-2'), 'other code').toEqual(new Map());
  const chunks = (JSON.parse(readFileSync(join(cache, 'posts.json'), 'utf8')) as { chunks: string[] }).chunks;
  expect(chunks.length).toBeGreaterThan(1);
  expect(readdirSync(join(cache, 'posts')).sort(), 'no partial file left').toEqual([...chunks].sort());
  // One chunk cut short (a disk that filled up): the others are given back.
  const cut = join(cache, 'posts', chunks[0]!);
  const whole = readFileSync(cut);
  writeFileSync(cut, whole.subarray(0, whole.length >> 1));
  const partly = rememberedPosts(cache, 'code-1');
  expect(partly.size).toBeGreaterThan(0);
  expect(partly.size).toBeLessThan(memory.size);
  for (const [file, kept] of plain(partly)) expect(kept).toEqual(memory.get(file));
  // A list of an older form, or none: nothing.
  writeFileSync(join(cache, 'posts.json'), JSON.stringify({ code: 'code-1', memory: [] }));
  expect(rememberedPosts(cache, 'code-1')).toEqual(new Map());
  expect(rememberedPosts(join(dir, 'no-cache'), 'code-1')).toEqual(new Map());
  // An empty memory is remembered as one, and the chunks it no longer names are deleted.
  rememberPosts(cache, 'code-3', new Map());
  expect(rememberedPosts(cache, 'code-3')).toEqual(new Map());
  expect(readdirSync(join(cache, 'posts'))).toEqual([]);
});

it('keeps the chunk files of posts kept as read, writes the others, and writes anew a chunk whose file is gone', () => {
  const cache = join(dir, 'posts-reuse');
  const post = (i: number, text = `Post ${i}`): RememberedPost => ({ digest: `d${i}`, html: `<p>${text}</p>`, text });
  const paths = Array.from({ length: 20_000 }, (_, i) => `topics/t${String(i).padStart(5, '0')}.md`);
  const chunkFiles = () => new Map(readdirSync(join(cache, 'posts')).map((name) => [name, statSync(join(cache, 'posts', name)).ino]));
  rememberPosts(cache, 'code-1', new Map(paths.map((path, i) => [path, post(i)])));
  const before = chunkFiles();
  const read = rememberedPosts(cache, 'code-1');
  // One file edited, one added near the start, one deleted: new objects, in the files' order.
  const next: RenderMemory = new Map();
  for (const [path, kept] of read) {
    if (path === paths[3]) next.set('topics/t00003a.md', post(-1, 'added'));
    if (path === paths[9000]) continue;
    next.set(path, path === paths[15_000] ? post(15_000, 'edited') : kept);
  }
  // As read before: the chunk files the posts were read from are deleted once replaced.
  const expected = plain(next);
  rememberPosts(cache, 'code-1', next);
  const after = rememberedPosts(cache, 'code-1');
  expect([...after.keys()]).toEqual([...next.keys()]);
  expect(plain(after)).toEqual(expected);
  expect(after.get('topics/t00003a.md')?.text).toBe('added');
  expect(after.get(paths[15_000]!)?.html).toBe('<p>edited</p>');
  expect(after.get(paths[19_999]!)?.text).toBe('Post 19999');
  const now = chunkFiles();
  const kept = [...now].filter(([name, ino]) => before.get(name) === ino);
  expect(kept.length, 'chunk files left as they were').toBeGreaterThanOrEqual(before.size - 3);
  expect(now.size - kept.length, 'chunk files written').toBeLessThanOrEqual(3);
  expect([...before.keys()].filter((name) => !now.has(name)).length, 'replaced chunk files deleted').toBe(before.size - kept.length);

  // A chunk file deleted after the read (by hand: builds of one output take turns): its posts are
  // left out, to be read from their files again, and the other chunks kept.
  const readOnceMore = rememberedPosts(cache, 'code-1');
  const [firstChunk, ...otherChunks] = (JSON.parse(readFileSync(join(cache, 'posts.json'), 'utf8')) as { chunks: string[] }).chunks;
  rmSync(join(cache, 'posts', firstChunk!));
  const given = rememberPosts(cache, 'code-1', readOnceMore);
  const survived = rememberedPosts(cache, 'code-1');
  const inFirst = new Set([...readOnceMore.keys()].filter((path) => (readOnceMore.get(path) as { chunk?: { bodies: { name: string } } }).chunk?.bodies.name === firstChunk));
  expect(inFirst).toContain(paths[0]);
  expect([...survived.keys()]).toEqual([...readOnceMore.keys()].filter((path) => !inFirst.has(path)));
  expect((JSON.parse(readFileSync(join(cache, 'posts.json'), 'utf8')) as { chunks: string[] }).chunks).toEqual(otherChunks);
  expect(plain(survived)).toEqual(plain(new Map([...survived.keys()].map((path) => [path, readOnceMore.get(path)!]))));
  // The posts given back are the remembered ones, read from their chunk's file when asked for.
  expect([...given.keys()]).toEqual([...survived.keys()]);
  expect({ html: given.get(paths[19_999]!)!.html, text: given.get(paths[19_999]!)!.text }).toEqual({ html: '<p>Post 19999</p>', text: 'Post 19999' });
  rmSync(join(cache, 'posts'), { recursive: true, force: true });
  expect(() => given.get(paths[19_999]!)!.html).toThrow(/topic memory is damaged .*--clean/);
});

it("reads a chunk's posts only when one is asked for, and says so when they are damaged", () => {
  const cache = join(dir, 'posts-later');
  const memory: RenderMemory = new Map(Array.from({ length: 50 }, (_, i) => [`topics/t${i}.md`, { digest: `d${i}`, html: `<p>Post ${i}</p>`, text: `Post ${i}` }]));
  rememberPosts(cache, 'code-1', memory);
  const [name] = (JSON.parse(readFileSync(join(cache, 'posts.json'), 'utf8')) as { chunks: string[] }).chunks;
  const file = join(cache, 'posts', name!);
  // The posts' part is the file's end: overwritten with bytes of the same length that are no serialized value.
  const bytes = readFileSync(file);
  const postsLength = bytes.readUInt32LE(4);
  bytes.fill(0xff, bytes.length - postsLength);
  writeFileSync(file, bytes);
  const read = rememberedPosts(cache, 'code-1');
  // The records are read; the damage shows when a post is asked for, as a clear error.
  expect([...read.keys()]).toEqual([...memory.keys()]);
  expect(read.get('topics/t7.md')?.digest).toBe('d7');
  expect(() => read.get('topics/t7.md')?.html).toThrow(/topic memory is damaged .*--clean/);
});
