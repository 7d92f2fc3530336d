/**
 * Every internal link resolves: the whole built sample site is walked — pages, feeds, sitemap,
 * robots.txt, _headers, scripts, styles, the published lists — and no reference to the site may
 * point nowhere. Built again under a sub-path `base` and served by a real static host there, every
 * page's links and assets must answer 200 over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSampleSite } from '../helpers/build.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { addressOf, referencesIn, siteFiles, walkSite, type Site } from './link-walk.ts';

const SITE = 'https://flowsmiths.example';
const SUB = '/sub/path';

async function buildSample(env: Record<string, string> = {}): Promise<string> {
  return buildSampleSite('links', env);
}

/** References of each kind of file the walk must have looked into, so a walk that finds nothing fails. */
function expectThorough(references: ReturnType<typeof walkSite>['references'], base: string): void {
  const from = (pattern: RegExp) => references.filter((reference) => pattern.test(reference.from));
  expect(references.length).toBeGreaterThan(2000);
  expect(from(/\.html$/).some((reference) => reference.url.pathname.startsWith(`${base}_astro/`) && reference.url.pathname.endsWith('.css'))).toBe(true);
  expect(from(/\.html$/).some((reference) => reference.url.pathname.endsWith('.js'))).toBe(true);
  expect(from(/^rss\.xml$/).length).toBeGreaterThan(40);
  expect(from(/^sitemap-\d+\.xml$/).length).toBeGreaterThan(100);
  expect(from(/^robots\.txt$/)).toHaveLength(1);
  // The four workflow list addresses (two key styles, each with its backup copy).
  expect(from(/^_headers$/)).toHaveLength(4);
  expect(from(/^_astro\/.*\.js$/).some((reference) => /worker/.test(reference.raw))).toBe(true);
  expect(from(/^api\/workflows\.json$/).length).toBeGreaterThan(0);
  expect(references.some((reference) => reference.folder)).toBe(true);
}

describe('the walk itself', () => {
  it('finds each kind of broken reference in a small hand-made site', () => {
    const outDir = mkdtempSync(join(tmpdir(), 'tagsite-walk-'));
    const base = '/b/';
    mkdirSync(join(outDir, 'tags', 'c~2b~2b'), { recursive: true });
    mkdirSync(join(outDir, 'tags', '日本語'), { recursive: true });
    mkdirSync(join(outDir, 'index-files'));
    writeFileSync(join(outDir, 'tags', 'c~2b~2b', 'index.html'), '<p id="top">c++</p>');
    writeFileSync(join(outDir, 'tags', '日本語', 'index.html'), '<p>日本語</p>');
    writeFileSync(join(outDir, 'rss.xml'), `<rss><channel><link>${SITE}/b/</link><item><link>${SITE}/b/tags/nope/</link></item></channel></rss>`);
    writeFileSync(
      join(outDir, 'index.html'),
      `<a href="/b/tags/c~2b~2b/">ok</a><a href="tags/c~2b~2b/#top">ok</a><a href="/b/tags/%E6%97%A5%E6%9C%AC%E8%AA%9E/">ok</a>
       <a href="/b/tags/c~2b~2b">ok: a folder, redirected</a><a href="#main">no id</a><a href="/b/tags/c~2b~2b/#gone">no id there</a>
       <a href="/tags/c~2b~2b/">outside base</a><a href="tags/missing/">missing</a><img src="/b/%E0%A4%A.png">
       <a href="https://elsewhere.example/x/">external</a><a href="mailto:a@b.c">mail</a>
       <div data-index-url="/b/index-files/"></div><div data-index-url="/b/no-folder/"></div>
       <template><a href="/b/placeholder/">blueprint</a></template><main id="main2"></main>`,
    );
    const { references, broken } = walkSite({ outDir, base, site: SITE });
    expect(broken.sort()).toEqual(
      [
        'index.html: #main (no element with id "main")',
        'index.html: /b/tags/c~2b~2b/#gone (no element with id "gone")',
        "index.html: /tags/c~2b~2b/ (outside the site's base /b/)",
        'index.html: tags/missing/ (no such file)',
        'index.html: /b/%E0%A4%A.png (bad percent-encoding)',
        'index.html: /b/no-folder/ (no such folder)',
        `rss.xml: ${SITE}/b/tags/nope/ (no such file)`,
      ].sort(),
    );
    expect(references.map((reference) => reference.raw)).not.toContain('/b/placeholder/');
    expect(references.map((reference) => reference.raw)).not.toContain('https://elsewhere.example/x/');
  });
});

describe('the sample site at the root', () => {
  let outDir: string;
  beforeAll(async () => {
    outDir = await buildSample();
  });

  it('has no reference to the site that points nowhere', () => {
    const { references, broken } = walkSite({ outDir, base: '/', site: SITE });
    expect(broken).toEqual([]);
    expectThorough(references, '/');
  });
});

describe(`the sample site under the sub-path ${SUB}`, () => {
  let site: Site;
  let host: StaticHost;
  beforeAll(async () => {
    const outDir = await buildSample({ TAGSITE_BASE: SUB });
    site = { outDir, base: `${SUB}/`, site: SITE };
    host = await serveStatic(outDir, SUB);
  });
  afterAll(() => host?.close());

  it('has no reference that points nowhere or leaves the base', () => {
    const { references, broken } = walkSite(site);
    expect(broken).toEqual([]);
    expectThorough(references, `${SUB}/`);
  });

  it('serves every file, and every link and asset of each answers 200, over HTTP', async () => {
    const origin = new URL(host.url).origin;
    const onServer = (url: URL) => `${origin}${url.pathname}${url.search}`;
    const files = siteFiles(site.outDir);
    const targets = new Map<string, string>(); // URL → the first file that refers to it
    for (const file of files) {
      const response = await fetch(onServer(addressOf(site, file)), { redirect: 'manual' });
      expect(response.status, file).toBe(200);
      const text = await response.text();
      for (const reference of referencesIn(site, file, text)) {
        // A folder is a prefix scripts add file names to; the walk above checks it exists.
        if (!reference.folder && !targets.has(onServer(reference.url))) targets.set(onServer(reference.url), `${file}: ${reference.raw}`);
      }
    }
    expect(targets.size).toBeGreaterThan(files.length / 2);
    const failed: string[] = [];
    for (const [url, from] of targets) {
      const response = await fetch(url, { redirect: 'manual' });
      await response.arrayBuffer();
      if (response.status !== 200) failed.push(`${from} → ${response.status}`);
    }
    expect(failed).toEqual([]);
  });
});
