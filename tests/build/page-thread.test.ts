/**
 * Issue 22: a large site's full build renders the listings' pages in a second thread beside Astro
 * (src/build/page-thread.ts). The site it writes is byte for byte the one Astro alone writes.
 */
import { afterAll, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runScript } from '../helpers/cli.ts';
import { copyOfSampleContent } from '../helpers/build.ts';
import { expectSameSite } from './built-site.ts';

const content = copyOfSampleContent('page-thread');
const outputs = mkdtempSync(join(tmpdir(), 'tagsite-page-thread-'));
afterAll(() => {
  rmSync(dirname(content), { recursive: true, force: true });
  rmSync(outputs, { recursive: true, force: true });
});

it('writes the same site with the listings shared with a second thread as with every page rendered by Astro', async () => {
  // The sample site is below the size that starts the thread by itself: TAGSITE_PAGE_THREAD says either way.
  const alone = await runScript('build', ['--content', content, '--out', join(outputs, 'alone'), '--clean'], { TAGSITE_PAGE_THREAD: '0' });
  const shared = await runScript('build', ['--content', content, '--out', join(outputs, 'shared'), '--clean'], { TAGSITE_PAGE_THREAD: '1' });
  expect(alone.code, alone.stderr).toBe(0);
  expect(shared.code, shared.stderr).toBe(0);
  expect(alone.stdout).not.toContain('two threads');
  const byThread = /pages rendered by two threads \(([\d,]+) by the second\)/.exec(shared.stdout)?.[1];
  expect(Number(byThread?.replace(/,/g, '')), shared.stdout).toBeGreaterThan(0);

  expectSameSite(join(outputs, 'shared'), join(outputs, 'alone'));
});
