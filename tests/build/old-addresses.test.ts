/**
 * Old addresses (`aliases`, SPEC 10) on a built site (tests/fixtures/old-addresses): the _redirects
 * lines, a redirect page at each old path that can be a file (left out of the sitemap), the 404
 * page's lookup files, and alias problems the same from validate and build.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSite } from '../helpers/build.ts';
import { runScript } from '../helpers/cli.ts';
import { copyFixture, fixturesDir, problemLines, problemPath, tempConfig } from './fixture-copies.ts';
import { fileForPath, readPage } from './built-site.ts';
import { findOldAddress, shardOf } from '../../src/model/old-addresses.ts';

const SITE = 'https://fixture.example';
let outDir: string;

beforeAll(async () => {
  const config = tempConfig('{}');
  try {
    ({ outDir } = await buildSite(join(fixturesDir, 'old-addresses'), config.env));
  } finally {
    config.remove();
  }
});

const file = (path: string) => readFileSync(fileForPath(outDir, path)!, 'utf8');

/** The 404 page's lookup as a visitor's script reads it: the lookup file of each key. */
function lookup(): (key: string) => string | undefined {
  const shards = Number(readPage(outDir, '/404.html').querySelector('[data-old-addresses]')?.getAttribute('data-shards'));
  return (key) => (JSON.parse(file(`/old-addresses/${shardOf(key, shards)}.json`)) as Record<string, string>)[key];
}

describe('old addresses', () => {
  it('are _redirects lines, path-only ones, each once, after the hand-written rules', () => {
    const lines = file('/_redirects').split('\n');
    const rules = lines.slice(lines.findIndex((line) => line.startsWith('# Old addresses'))).filter((line) => line && !line.startsWith('#'));
    expect(rules.sort()).toEqual([
      '/c/kitchen/7 /search/?type=kitchen 301',
      '/forum/7-kitchen/ /search/?type=kitchen 301',
      '/forum/8-baking/ /search/?type=baking 301',
      '/old/knife-care.html /topics/knife-care/ 301',
      '/profile/12-hazel/ /members/hazel/ 301',
      '/t/202 /topics/rye-crumb/ 301',
      '/t/why-is-my-rye-crumb-gummy/202 /topics/rye-crumb/ 301',
      '/tag/rye /tags/rye/ 301',
      '/tag/sourdough /tags/sourdough/ 301',
      '/topic/101-feeding-a-starter/ /topics/starter-feeding/ 301',
      '/topics/carbon-knife/ /topics/knife-care/ 301',
      '/u/hazel /members/hazel/ 301',
    ]);
  });

  it('have a redirect page where the old path can be a file, left out of the sitemap', () => {
    const pages: Array<[string, string]> = [
      ['/topic/101-feeding-a-starter/', '/topics/starter-feeding/'],
      ['/t/why-is-my-rye-crumb-gummy/202/', '/topics/rye-crumb/'],
      ['/t/202/', '/topics/rye-crumb/'],
      ['/topics/carbon-knife/', '/topics/knife-care/'],
      ['/forum/8-baking/', '/search/?type=baking'],
      ['/c/kitchen/7/', '/search/?type=kitchen'],
      ['/profile/12-hazel/', '/members/hazel/'],
      ['/u/hazel/', '/members/hazel/'],
      ['/tag/sourdough/', '/tags/sourdough/'],
    ];
    for (const [old, to] of pages) {
      const page = readPage(outDir, old);
      expect(page.querySelector('link[rel="canonical"]')?.getAttribute('href'), old).toBe(`${SITE}${to}`);
      expect(page.querySelector('meta[http-equiv="refresh"]')?.getAttribute('content')).toBe(`0; url=${to}`);
      expect(page.querySelector('script')).toBeNull();
    }
    expect(readPage(outDir, '/topic/101-feeding-a-starter/').querySelector('[data-redirect]')?.textContent).toContain("The topic 'Feeding a sourdough starter twice a day' is now here");
    // No page for a query string, an extension, an address that only differs from its page in case, nor a tag without topics.
    expect(fileForPath(outDir, '/old/knife-care.html')).toBeUndefined();
    expect(readdirSync(join(outDir, 'tags'))).not.toContain('Sourdough');
    expect(fileForPath(outDir, '/tag/unused/')).toBeUndefined();
    expect(file('/_redirects')).not.toContain('/tag/unused');
    const sitemap = file('/sitemap-0.xml');
    expect(sitemap).not.toContain('/topic/101');
    expect(sitemap).not.toContain('/t/202');
    expect(sitemap).toContain('/topics/starter-feeding/');
  });

  it('the 404 page finds the others in its lookup files: query strings, any slug of a known id, a case variant', () => {
    const find = lookup();
    const expected: Array<[string, string | undefined]> = [
      ['/index.php?/topic/101-feeding-a-starter/', '/topics/starter-feeding/'],
      ['/index.php?/topic/101-any-old-slug/&do=findComment&comment=9', '/topics/starter-feeding/'],
      ['/topic/101-renamed-since/page/2/', '/topics/starter-feeding/'],
      ['/t/a-new-slug/202', '/topics/rye-crumb/'],
      ['/t/why-is-my-rye-crumb-gummy/202/5', '/topics/rye-crumb/'],
      ['/t/202/5', '/topics/rye-crumb/'],
      ['/viewtopic.php?t=303', '/topics/knife-care/'],
      ['/articles.php?cat=2', '/search/?type=recipes'],
      ['/forum/7-kitchen-and-more/', '/search/?type=kitchen'],
      ['/u/Hazel/activity', '/members/hazel/'],
      ['/tags/Sourdough/', '/tags/sourdough/'],
      ['/topic/999-unknown/', undefined],
      ['/viewtopic.php?t=304', undefined],
    ];
    for (const [old, to] of expected) expect(findOldAddress(old, find), old).toBe(to);
    const sizes = readdirSync(join(outDir, 'old-addresses')).map((name) => readFileSync(join(outDir, 'old-addresses', name)).length);
    expect(sizes.length).toBe(1);
    expect(sizes[0]).toBeLessThan(1000);
  });

  it('the 404 page carries its script as a file, and the number of lookup files', () => {
    const page = readPage(outDir, '/404.html');
    expect(page.querySelector('[data-old-addresses]')?.getAttribute('data-shards')).toBe('1');
    expect(page.querySelectorAll('script').every((script) => script.getAttribute('src'))).toBe(true);
  });
});

it('alias problems are the same lines from validate and build, all at once, and nothing is built', async () => {
  const dir = copyFixture('old-addresses');
  const topic = (name: string, aliases: string) => writeFileSync(join(dir, 'topics', `${name}.md`), `---\ntitle: ${name}\nauthor: Orrin\ncreated: 2024-07-01\nforum: kitchen\naliases: ${aliases}\n---\nText.\n`);
  topic('twice', "['/t/202/', /T/WHY-IS-MY-RYE-CRUMB-GUMMY/202]");
  topic('served', "[/search/, '/tags/sourdough/?page=2', /topics/flatbread/, /rss.xml, /]");
  topic('bad-paths', "[topic/1, '//evil.example/x', '/a b', '/x#y']");
  topic('same-id', "['/topic/101-another-topic/']");
  topic('listed-twice', "[/old/a, /old/a/]");
  const file = (name: string) => problemPath(dir, `topics/${name}.md`);
  const validate = await runScript('validate', ['--content', dir]);
  expect(validate.code).toBe(1);
  const lines = problemLines(validate.stderr);
  expect(lines).toContain(`${file('twice')}:6: aliases[0]: '/t/202/' names the same address as ${problemPath(dir, 'topics/rye-crumb.md')}:9 aliases[1] ('/t/202'): an old address leads to one page; remove one`);
  expect(lines).toContain(`${file('twice')}:6: aliases[1]: '/T/WHY-IS-MY-RYE-CRUMB-GUMMY/202' names the same address as ${problemPath(dir, 'topics/rye-crumb.md')}:9 aliases[0] ('/t/why-is-my-rye-crumb-gummy/202'): an old address leads to one page; remove one`);
  expect(lines).toContain(`${file('served')}:6: aliases[0]: '/search/' is an address of the site's own /search/: an alias names an old address the site does not serve`);
  expect(lines).toContain(`${file('served')}:6: aliases[1]: '/tags/sourdough/?page=2' is an address of the site's page /tags/sourdough/: an alias names an old address the site does not serve`);
  expect(lines).toContain(`${file('served')}:6: aliases[2]: '/topics/flatbread/' is an address of the site's page /topics/flatbread/: an alias names an old address the site does not serve`);
  expect(lines).toContain(`${file('served')}:6: aliases[3]: '/rss.xml' is an address of the site's own /rss.xml: an alias names an old address the site does not serve`);
  expect(lines).toContain(`${file('served')}:6: aliases[4]: '/' is an address of the home page: an alias names an old address the site does not serve`);
  for (const [i, path] of ['topic/1', '//evil.example/x', '/a b', '/x#y'].entries()) expect(lines).toContain(`${file('bad-paths')}:6: aliases[${i}]: ${JSON.stringify(path)} is not valid: One old address: a site path starting with a single /, with or without a query string (\`/topic/123-some-slug/\`, \`/index.php?/topic/123-some-slug/\`), at most 400 characters, no spaces, control characters, backslashes or #.`);
  // Topic files are read in name order: the later one is blamed, once.
  expect(lines).toContain(`${file('starter-feeding')}:10: aliases[0]: '/topic/101-feeding-a-starter/' names topic/101 of the old forum, as ${file('same-id')}:6 aliases[0] ('/topic/101-another-topic/') does for another page: the 404 page could not tell where it leads; remove one`);
  expect(lines).toContain(`${file('listed-twice')}:6: aliases[1]: '/old/a/' is listed twice: keep one`);
  expect(lines).toHaveLength(13);
  const build = await runScript('build', ['--content', dir, '--out', join(dir, '..', 'dist')]);
  expect(build.code).toBe(1);
  expect(problemLines(build.stderr)).toEqual(lines);
  expect(fileForPath(join(dir, '..', 'dist'), '/index.html')).toBeUndefined();
}, 120_000);
