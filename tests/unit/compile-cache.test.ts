import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trimCompileCache } from '../../src/build/compile-cache.ts';

const dir = mkdtempSync(join(tmpdir(), 'tagsite-compile-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A compile cache as Node lays it out: a folder per Node version and flags, an entry per module. */
function cacheWith(name: string, entries: number): string {
  const cache = join(dir, name);
  for (const version of ['v24-x64-aaaa-0', 'v24-x64-bbbb-0']) {
    mkdirSync(join(cache, version), { recursive: true });
    for (let i = 0; i < entries / 2; i++) writeFileSync(join(cache, version, `entry${i}`), 'compiled');
  }
  return cache;
}

describe('trimCompileCache', () => {
  it('empties a compile cache of more entries than the limit, keeping its folders for the entries still to come', () => {
    const cache = cacheWith('full', 30);
    expect(trimCompileCache(cache, 20)).toBe(30);
    expect(readdirSync(cache).sort()).toEqual(['v24-x64-aaaa-0', 'v24-x64-bbbb-0']);
    expect(readdirSync(join(cache, 'v24-x64-aaaa-0'))).toEqual([]);
  });

  it('leaves a cache within the limit as it is, and does nothing without one', () => {
    const cache = cacheWith('small', 20);
    expect(trimCompileCache(cache, 20)).toBe(0);
    expect(readdirSync(join(cache, 'v24-x64-bbbb-0'))).toHaveLength(10);
    expect(trimCompileCache(join(dir, 'none'), 20)).toBe(0);
    expect(existsSync(join(dir, 'none'))).toBe(false);
    expect(trimCompileCache(undefined, 20)).toBe(0);
  });
});
