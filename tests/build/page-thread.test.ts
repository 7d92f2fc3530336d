/**
 * Issue 22: a large site's full build renders the listings' pages in a second thread beside Astro
 * (src/build/page-thread.ts), and takes each page's HTML from Astro's renderer as a string
 * (src/build/page-html.ts). The site it writes is byte for byte the one Astro alone writes.
 */
import { afterAll, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { projectRoot, runScript } from '../helpers/cli.ts';
import { rendererFolder } from '../../src/build/unchanged.ts';
import { copyOfSampleContent } from '../helpers/build.ts';
import { expectSameSite } from './built-site.ts';

const content = copyOfSampleContent('page-thread');
const outputs = mkdtempSync(join(tmpdir(), 'tagsite-page-thread-'));
afterAll(() => {
  rmSync(dirname(content), { recursive: true, force: true });
  rmSync(outputs, { recursive: true, force: true });
});

/** The page code a build into `out` kept (src/build/kept-renderer.ts), all its modules' text. */
function keptPageCode(out: string): string {
  const folder = rendererFolder(projectRoot, content, out);
  const bundle = readdirSync(folder).find((name) => name.startsWith('bundle-'))!;
  return readdirSync(join(folder, bundle), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.mjs'))
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

it("writes the same site with the listings shared with a second thread and each page's HTML taken from Astro's renderer as with every page rendered and written by Astro", async () => {
  // The sample site is below the size that starts the thread by itself: TAGSITE_PAGE_THREAD says either way.
  const alone = await runScript('build', ['--content', content, '--out', join(outputs, 'alone'), '--clean'], { TAGSITE_PAGE_THREAD: '0', TAGSITE_PAGE_HTML: '0' });
  const shared = await runScript('build', ['--content', content, '--out', join(outputs, 'shared'), '--clean'], { TAGSITE_PAGE_THREAD: '1' });
  expect(alone.code, alone.stderr).toBe(0);
  expect(shared.code, shared.stderr).toBe(0);
  expect(alone.stdout).not.toContain('two threads');
  const byThread = /pages rendered by two threads \(([\d,]+) by the second\)/.exec(shared.stdout)?.[1];
  expect(Number(byThread?.replace(/,/g, '')), shared.stdout).toBeGreaterThan(0);

  // Astro's renderer offered each page's HTML to the build in one build's page code, not in the other's.
  const offer = 'Symbol.for("tagsite.page-html")';
  expect(keptPageCode(join(outputs, 'shared'))).toContain(offer);
  expect(keptPageCode(join(outputs, 'alone'))).not.toContain(offer);

  expectSameSite(join(outputs, 'shared'), join(outputs, 'alone'));
});
