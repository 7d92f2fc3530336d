// Old addresses (SPEC 10): the 404 page's lookup (findOldAddress and the keys behind it), the file a
// redirect page can stand at, and the checks of aliases across records and the site's own addresses.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContent } from '../../src/content/load.ts';
import { addressKey, findOldAddress, idKeys, lookupKeys, redirectFile, shardCount, shardOf, withoutBase } from '../../src/model/old-addresses.ts';
import { oldAddresses, readAliases, SITE_SECTIONS, type AliasTarget, type DeclaredAlias } from '../../src/content/aliases.ts';
import { lookupEntries, lookupFiles, oldAddressRedirects } from '../../src/outputs/old-addresses.ts';
import { shardsFor } from '../../src/client/old-addresses.ts';
import { formatProblem, type Problem } from '../../src/content/problems.ts';

const topic = (slug: string): AliasTarget => ({ kind: 'topic', slug, title: slug });
const alias = (path: string, to: AliasTarget, file = 'content/topics/a.md', field = 'aliases[0]'): DeclaredAlias => ({ path, file, line: 7, field, to });
const site = { topicSlugs: new Set(['a', 'b', 'flatbread']), tags: new Set(['json', 'c++']), memberNames: ['hazel'], sections: new Set(SITE_SECTIONS) };

describe('the 404 page’s lookup', () => {
  const table = new Map([
    ['topic/123', '/topics/a/'],
    ['t/55', '/topics/b/'],
    ['/viewtopic.php?t=9', '/topics/c/'],
    ['c/7', '/search/?type=kitchen'],
    ['u/hazel', '/members/hazel/'],
    ['/old/page/', '/topics/d/'],
  ]);
  const find = (address: string) => findOldAddress(address, (key) => table.get(key));

  it.each([
    ['/topic/123-some-slug/', '/topics/a/'],
    ['/topic/123-a-renamed-slug/', '/topics/a/'],
    ['/topic/123/', '/topics/a/'],
    ['/topic/123-slug/page/3/?sort=asc', '/topics/a/'],
    ['/index.php?/topic/123-some-slug/', '/topics/a/'],
    ['/index.php?/topic/123-some-slug/&do=findComment&comment=4', '/topics/a/'],
    ['/?/topic/123-x/', '/topics/a/'],
    ['/t/whatever/55', '/topics/b/'],
    ['/t/whatever/55/', '/topics/b/'],
    ['/t/55', '/topics/b/'],
    ['/t/slug/55/4', '/topics/b/'],
    ['/t/55/4', '/topics/b/'],
    ['/t/2024/55', '/topics/b/'],
    ['/viewtopic.php?t=9', '/topics/c/'],
    ['/c/kitchen/7', '/search/?type=kitchen'],
    ['/c/home/kitchen/7/', '/search/?type=kitchen'],
    ['/u/Hazel/summary', '/members/hazel/'],
    ['/old/page', '/topics/d/'],
  ])('%s → %s', (address, to) => {
    expect(find(address)).toBe(to);
  });

  it.each(['/topic/12-x/', '/topic/1234-x/', '/topics/123-x/', '/t/slug/56', '/viewtopic.php?t=90', '/c/kitchen/8', '/forum/123-x/', '/t/slug/5x', '/', '//topic/123-x/'])('%s is not known', (address) => {
    expect(find(address)).toBeUndefined();
  });

  it('reads the ids forums put in their addresses, the ambiguous one both ways', () => {
    expect(idKeys('/profile/12-hazel/')).toEqual(['profile/12']);
    expect(idKeys('/forum/3-help-and-support/')).toEqual(['forum/3']);
    expect(idKeys('/t/12/3')).toEqual(['t/12', 't/3']);
    expect(idKeys('/tag/Some%20Tag')).toEqual(['tag/some tag']);
    expect(idKeys('/topics/my-topic/')).toEqual([]);
  });

  it('compares addresses as a browser’s location gives them', () => {
    expect(addressKey('/a b/')).toBeUndefined();
    expect(addressKey('/Ünïcode/?q=ä')).toBe('/%C3%9Cn%C3%AFcode/?q=%C3%A4');
    expect(addressKey('/a/../b/')).toBe('/b/');
    expect(lookupKeys('/old/page')).toEqual(['/old/page', '/old/page/']);
    expect(withoutBase('/sub/topic/1-x/', '/sub/')).toBe('/topic/1-x/');
    expect(withoutBase('/sub?x', '/sub')).toBe('?x');
    expect(withoutBase('/subway/', '/sub/')).toBe('/subway/');
  });

  it('spreads keys over lookup files of a few hundred keys, each file found again by the key', () => {
    expect([0, 1, 256, 257, 10_000, 20_000].map(shardCount)).toEqual([0, 1, 1, 2, 64, 128]);
    const entries = new Map(Array.from({ length: 10_000 }, (_, i) => [`topic/${i}`, `/topics/topic-number-${i}/`]));
    const { shards, files } = lookupFiles(entries);
    expect(shards).toBe(64);
    const sizes = [...files.values()].map((json) => Object.keys(JSON.parse(json)).length);
    expect(Math.max(...sizes)).toBeLessThan(256 * 1.4);
    expect(JSON.parse(files.get(`old-addresses/${shardOf('topic/4321', shards)}.json`)!)['topic/4321']).toBe('/topics/topic-number-4321/');
    expect(shardsFor('/index.php?/topic/4321-x/', shards)).toContain(shardOf('topic/4321', shards));
  });
});

describe('redirect pages', () => {
  it.each([
    ['/topic/1-x/', 'topic/1-x/index.html'],
    ['/t/slug/55', 't/slug/55/index.html'],
    ['/tag/c%2B%2B', 'tag/c++/index.html'],
    ['/index.php?/topic/1-x/', undefined],
    ['/viewtopic.php', undefined],
    ['/old/page.html', undefined],
    ['/a%2Fb/', undefined],
    ['/', undefined],
  ])('%s → %s', (key, file) => {
    expect(redirectFile(key)).toBe(file);
  });
});

describe('aliases across the content', () => {
  const lines = (problems: Problem[]) => problems.map(formatProblem);

  it('resolves each to its page: a file where one can stand, the ids it names', () => {
    const { addresses, problems } = oldAddresses(
      [alias('/topic/5-a/', topic('a')), alias('/index.php?/topic/5-a/', topic('a')), alias('/forum/2-x/', { kind: 'type', id: 'kitchen', name: 'Kitchen' }), alias('/u/hazel', { kind: 'member', name: 'Hazel' }), alias('/tag/js', { kind: 'tag', tag: 'json' })],
      site,
    );
    expect(problems).toEqual([]);
    expect(addresses.map(({ key, to, file, ids }) => [key, to, file, ids])).toEqual([
      ['/topic/5-a/', '/topics/a/', 'topic/5-a/index.html', ['topic/5']],
      ['/index.php?/topic/5-a/', '/topics/a/', undefined, ['topic/5']],
      ['/forum/2-x/', '/search/?type=kitchen', 'forum/2-x/index.html', ['forum/2']],
      ['/u/hazel', '/members/hazel/', 'u/hazel/index.html', ['u/hazel']],
      ['/tag/js', '/tags/json/', 'tag/js/index.html', ['tag/js']],
    ]);
    expect(oldAddressRedirects(addresses).map(({ from }) => from)).toEqual(['/topic/5-a/', '/forum/2-x/', '/u/hazel', '/tag/js']);
    // The query string is found by its id; the paths by their files (and their ids).
    expect([...lookupEntries(addresses).keys()]).toEqual(['topic/5', 'forum/2', 'u/hazel', 'tag/js']);
  });

  it('drops an alias naming its own page, without a problem; one in another case only is left to the 404 page', () => {
    const json = { kind: 'tag', tag: 'json' } as const;
    const { addresses, problems } = oldAddresses([alias('/tags/json/', json), alias('/tags/json', json, 'x', 'b'), alias('/tags/JSON/', json, 'x', 'c')], site);
    expect(problems).toEqual([]);
    expect(addresses.map(({ key, file }) => [key, file])).toEqual([['/tags/JSON/', undefined]]);
    expect(oldAddressRedirects(addresses)).toEqual([]);
    expect([...lookupEntries(addresses)]).toEqual([['/tags/JSON/', '/tags/json/']]);
  });

  it('reports two aliases of one address (whatever the case or last /), an address the site serves, one id for two pages', () => {
    const { problems, addresses } = oldAddresses(
      [
        alias('/t/x/9', topic('a')),
        alias('/T/X/9/', topic('b'), 'content/topics/b.md'),
        alias('/members/hazel/', topic('a'), 'content/topics/a.md', 'aliases[1]'),
        alias('/members/someone-gone/', topic('a'), 'content/topics/a.md', 'aliases[2]'),
        alias('/tags/c~2b~2b/', topic('a'), 'content/topics/a.md', 'aliases[3]'),
        alias('/_astro/x.js', topic('a'), 'content/topics/a.md', 'aliases[4]'),
        alias('/t/other-slug/9', topic('b'), 'content/topics/b.md', 'aliases[1]'),
        alias('/members/2/', topic('b'), 'content/topics/b.md', 'aliases[2]'),
      ],
      site,
    );
    expect(lines(problems)).toEqual([
      "content/topics/b.md:7: aliases[0]: '/T/X/9/' names the same address as content/topics/a.md:7 aliases[0] ('/t/x/9'): an old address leads to one page; remove one",
      "content/topics/a.md:7: aliases[1]: '/members/hazel/' is an address of the site's page /members/hazel/: an alias names an old address the site does not serve",
      "content/topics/a.md:7: aliases[3]: '/tags/c~2b~2b/' is an address of the site's page /tags/c~2b~2b/: an alias names an old address the site does not serve",
      "content/topics/a.md:7: aliases[4]: '/_astro/x.js' is an address of the site's own /_astro/: an alias names an old address the site does not serve",
      "content/topics/b.md:7: aliases[1]: '/t/other-slug/9' names t/9 of the old forum, as content/topics/a.md:7 aliases[0] ('/t/x/9') does for another page: the 404 page could not tell where it leads; remove one",
      "content/topics/b.md:7: aliases[2]: '/members/2/' is an address of the site's page /members/2/: an alias names an old address the site does not serve",
    ]);
    // A page of a member who is gone is free.
    expect(addresses.map(({ key }) => key)).toEqual(['/t/x/9', '/members/someone-gone/']);
  });

  it('reads at most 20 on a record, with the line of the list', () => {
    const problems: Problem[] = [];
    const read = readAliases(Array.from({ length: 21 }, (_, i) => `/t/${i}`), { file: 'content/members.json', field: '[0].aliases', pointer: '/0/aliases', lineOf: (pointer) => (pointer === '/0/aliases' ? 3 : 4) }, { kind: 'member', name: 'Hazel' }, problems);
    expect(lines(problems)).toEqual(['content/members.json:3: [0].aliases: has 21 aliases; at most 20 allowed']);
    expect(read).toHaveLength(21);
    expect(read[0]).toMatchObject({ path: '/t/0', line: 4, field: '[0].aliases[0]' });
  });
});

describe('aliases in every content file', () => {
  it('are read from topics, forums and categories, members and tags, each problem blamed on its file, line and field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tagsite-aliases-'));
    mkdirSync(join(dir, 'topics'));
    writeFileSync(join(dir, 'content-types.json'), '{\n  "forums": [\n    { "id": "kitchen", "name": "Kitchen", "aliases": ["/forum/7-kitchen/", "/u/hazel"] }\n  ],\n  "categories": [{ "id": "recipes", "name": "Recipes", "kind": "articles", "aliases": ["/search/"] }]\n}\n');
    writeFileSync(join(dir, 'members.json'), '[\n  {\n    "name": "Hazel",\n    "joined": "2021-04-01",\n    "group": "Members",\n    "aliases": [\n      "/u/hazel"\n    ]\n  },\n  { "name": "Orrin", "joined": "2022-01-01", "group": "Staff", "aliases": ["no-slash"] }\n]\n');
    writeFileSync(join(dir, 'tags.json'), '{\n  "bread": {\n    "aliases": ["/forum/7-kitchen"]\n  }\n}\n');
    writeFileSync(join(dir, 'topics', 'bread.md'), '---\ntitle: Bread\nauthor: Hazel\ncreated: 2024-01-01\nforum: kitchen\ntags: [bread]\n---\nText.\n');
    writeFileSync(join(dir, 'topics', 'rye.md'), `---\ntitle: Rye\nauthor: Hazel\ncreated: 2024-01-01\nforum: kitchen\naliases:\n${Array.from({ length: 21 }, (_, i) => `  - /t/rye/${i + 1}\n`).join('')}---\nText.\n`);
    const { problems, content } = loadContent({ root: dir, contentDir: dir, excerptLength: 200 });
    expect(problems.map(formatProblem)).toEqual([
      "content-types.json:5: categories[0].aliases[0]: '/search/' is an address of the site's own /search/: an alias names an old address the site does not serve",
      "members.json:7: [0].aliases[0]: '/u/hazel' names the same address as content-types.json:3 forums[0].aliases[1] ('/u/hazel'): an old address leads to one page; remove one",
      expect.stringMatching(/^members\.json:10: \[1\]\.aliases\[0\]: "no-slash" is not valid: One old address/),
      "tags.json:3: bread.aliases[0]: '/forum/7-kitchen' names the same address as content-types.json:3 forums[0].aliases[0] ('/forum/7-kitchen/'): an old address leads to one page; remove one",
      'topics/rye.md:6: aliases: has 21 aliases; at most 20 allowed',
    ]);
    expect(content.oldAddresses.find(({ key }) => key === '/u/hazel')?.to).toBe('/search/?type=kitchen');
  });
});
