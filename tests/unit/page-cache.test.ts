/** The build's cache folders: one per content folder and output, deleted once their content folder is gone. */
import { afterAll, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noteSource, pruneCaches } from '../../src/build/cache.ts';

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
