/** The build's cache folders: one per content folder and output, deleted once their content folder is gone. */
import { afterAll, expect, it } from 'vitest';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noteSource, pruneCaches, rememberPages, reusablePages } from '../../src/build/cache.ts';
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
  expect(reusablePages(cache, out, 'code-1')).toEqual(keys);
  expect(reusablePages(cache, out, 'code-2'), 'other code').toEqual(new Map());
  appendFileSync(join(out, 'topics/a/index.html'), '<p>Edited by hand</p>');
  rmSync(join(out, 'tags/x/rss.xml'));
  writeFileSync(join(out, 'topics/b/index.html'), '<p>topics/b/index.html</p>'); // the same bytes, written again later
  expect([...reusablePages(cache, out, 'code-1').keys()]).toEqual(['index.html']);
  writeFileSync(join(cache, 'pages.json'), JSON.stringify({ code: 'code-1', pages: [['index.html', 'k0']] }));
  expect(reusablePages(cache, out, 'code-1'), 'a manifest of the older form').toEqual(new Map());
});
