// Old addresses in real Chromium on a plain static server (src/cli/static-server.ts: no _redirects,
// 404.html for anything it has no file for): a fixture forum is imported from the fake Invision
// Community and the fake Discourse, built, served, and every old address the import recorded — each
// topic's (in every form, with any slug and with a post number), forum's, member's and tag's —
// reaches its new page, through a redirect page or the 404 page's script.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { runScript } from '../helpers/cli.ts';
import { fixturesDir, tempConfig } from '../build/fixture-copies.ts';
import { buildSite } from '../helpers/build.ts';
import { launchChromium } from '../helpers/browser.ts';
import { startFakeDiscourse, startFakeIps, type FakeServer } from '../helpers/fake-forums.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { forumSitePath } from '../../src/import/old-links.ts';
import { headersForPath } from '../../src/outputs/headers.ts';
import { memberPath, tagPath, topicPath } from '../../src/model/urls.ts';
import { normaliseTag, tagProblem } from '../../src/model/tags.ts';
import type { ImportState } from '../../src/import/state.ts';

const TOPICS = 24;
let browser: Browser;
const cleanUp: Array<() => unknown> = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const step of cleanUp.reverse()) await step();
});

/** Imports the fake forum into a fresh content folder, builds it and serves it; its state file. */
async function importedSite(from: 'ips' | 'discourse', server: FakeServer): Promise<{ site: StaticHost; state: ImportState }> {
  const work = mkdtempSync(join(tmpdir(), `tagsite-old-addresses-${from}-`));
  cleanUp.push(() => rmSync(work, { recursive: true, force: true }));
  const content = join(work, 'content');
  const result = await runScript('import-forum', ['--from', from, '--url', server.url, '--content', content, '--timeout-ms', '2000', '--retry-delay-ms', '20'], { IPS_API_KEY: 'old-addresses-key' });
  expect(result.code, result.stdout + result.stderr).toBe(0);
  const state = JSON.parse(readFileSync(join(content, readdirSync(content).find((name) => name.startsWith('.tagsite-import-'))!), 'utf8')) as ImportState;
  const { outDir } = await buildSite(content);
  cleanUp.push(() => rmSync(join(outDir, '..'), { recursive: true, force: true }));
  // Served with the site's own _headers, as a host that reads them: the 404 page's script runs under its Content-Security-Policy.
  const rules = readFileSync(join(outDir, '_headers'), 'utf8');
  const site = await serveStatic(outDir, '/', { headers: (path) => headersForPath(rules, path) });
  cleanUp.push(() => site.close());
  return { site, state };
}

/** Every old address the import recorded, and more of each topic's forms, with the new page it must reach. */
function oldAddresses(state: ImportState, topicForms: (path: string) => string[]): Array<[string, string]> {
  const path = (url: string | undefined) => (url === undefined ? undefined : forumSitePath(url, state.url));
  const pairs: Array<[string, string]> = [];
  for (const { url, file } of Object.values(state.topics)) {
    for (const old of topicForms(path(url)!)) pairs.push([old, topicPath(file.replace(/^.*\/|\.md$/g, ''))]);
  }
  for (const { id, url } of Object.values(state.forums)) if (path(url)) pairs.push([path(url)!, `/search/?type=${id}`]);
  for (const [name, { url }] of Object.entries(state.members)) if (path(url)) pairs.push([path(url)!, memberPath(name)]);
  for (const [tag, url] of Object.entries(state.tags)) if (!tagProblem(normaliseTag(tag))) pairs.push([path(url)!, tagPath(normaliseTag(tag))]);
  return pairs;
}

/** Opens each old address and waits until the browser shows the new page; the addresses that never got there. */
async function visit(site: StaticHost, pairs: Array<[string, string]>): Promise<string[]> {
  const page: Page = await browser.newPage();
  const missed: string[] = [];
  page.on('console', (message) => {
    // The hostile topic's image from another host is blocked as the policy means to; a blocked script or fetch would be the 404 page's.
    if (message.type() === 'error' && /Content[- ]Security[- ]Policy/i.test(message.text()) && !/img-src/.test(message.text())) missed.push(`CSP: ${message.text()}`);
  });
  for (const [old, to] of pairs) {
    const target = new URL(to, 'http://x');
    await page.goto(`${site.url}${old}`);
    const arrived = await page
      .waitForURL((url) => url.pathname === target.pathname && [...target.searchParams].every(([name, value]) => url.searchParams.get(name) === value), { timeout: 5000 })
      .then(() => true, () => false);
    if (!arrived) missed.push(`${old} → ${to} (ended at ${page.url()})`);
  }
  await page.close();
  return missed;
}

describe('every old address of an imported forum reaches its new page', () => {
  it('Invision Community: topics (friendly, behind index.php?, any slug), forums, profiles, tags', async () => {
    const server = await startFakeIps({ topics: TOPICS, key: 'old-addresses-key' });
    cleanUp.push(() => server.close());
    const { site, state } = await importedSite('ips', server);
    const pairs = oldAddresses(state, (path) => [path, `/index.php?${path}`, path.replace(/^(\/topic\/\d+)-[^/]*/, '$1-a-slug-it-never-had'), `/index.php?${path}&do=findComment&comment=5`]);
    expect(Object.keys(state.topics)).toHaveLength(TOPICS - 1);
    expect(pairs.filter(([old]) => old.startsWith('/forum/'))).toHaveLength(5);
    expect(pairs.filter(([old]) => old.startsWith('/profile/'))).toHaveLength(25);
    expect(pairs.some(([old]) => old === '/tags/Solved/')).toBe(true);
    expect(await visit(site, pairs)).toEqual([]);
    // An address nobody had stays "not found".
    const page = await browser.newPage();
    await page.goto(`${site.url}/topic/99999-never-there/`);
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/topic/99999-never-there/');
    await expect(page.locator('h1').textContent()).resolves.toBe('Page not found');
    await page.close();
  }, 240_000);

  it('Discourse: topics (with and without slug, any slug, a post number), categories, users, tags', async () => {
    const server = await startFakeDiscourse({ topics: TOPICS });
    cleanUp.push(() => server.close());
    const { site, state } = await importedSite('discourse', server);
    const pairs = oldAddresses(state, (path) => {
      const id = /\/(\d+)$/.exec(path)![1];
      return [path, `/t/${id}`, `${path}/3`, `/t/another-slug/${id}`, `/t/${id}/7`];
    });
    expect(pairs.filter(([old]) => old.startsWith('/c/'))).toHaveLength(5);
    expect(pairs.filter(([old]) => old.startsWith('/u/')).length).toBeGreaterThan(10);
    expect(pairs.filter(([old]) => old.startsWith('/tag/')).length).toBeGreaterThan(5);
    expect(await visit(site, pairs)).toEqual([]);
  }, 240_000);
});

it('under a sub-path (`base`), redirect pages and the 404 page lead to the page under it too', async () => {
  const config = tempConfig('{}');
  cleanUp.push(() => config.remove());
  const { outDir } = await buildSite(join(fixturesDir, 'old-addresses'), { ...config.env, TAGSITE_BASE: '/sub/' });
  cleanUp.push(() => rmSync(join(outDir, '..'), { recursive: true, force: true }));
  const site = await serveStatic(outDir, '/sub/');
  cleanUp.push(() => site.close());
  expect(readFileSync(join(outDir, '_redirects'), 'utf8')).toContain('/sub/topic/101-feeding-a-starter/ /sub/topics/starter-feeding/ 301');
  expect(
    await visit(site, [
      ['/topic/101-feeding-a-starter/', '/sub/topics/starter-feeding/'],
      ['/index.php?/topic/101-another-slug/', '/sub/topics/starter-feeding/'],
      ['/t/202/9', '/sub/topics/rye-crumb/'],
      ['/viewtopic.php?t=303', '/sub/topics/knife-care/'],
      ['/articles.php?cat=2', '/sub/search/?type=recipes'],
    ]),
  ).toEqual([]);
}, 120_000);
