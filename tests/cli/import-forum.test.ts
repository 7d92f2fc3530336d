// import-forum (SPEC 8) against fake Invision Community and Discourse servers on 127.0.0.1: the
// content written, faults survived, a second run that imports only what changed and leaves a file a
// person edited alone, the key in no output or file, bad arguments, and a build of what was imported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScript } from '../helpers/cli.ts';
import { buildSite } from '../helpers/build.ts';
import { readPage, textOf } from '../build/built-site.ts';
import { PROBLEM_LINE } from '../build/fixture-copies.ts';
import { startFakeDiscourse, startFakeIps, type FakeServer } from '../helpers/fake-forums.ts';
import { loadContent } from '../../src/content/load.ts';
import { formatProblem } from '../../src/content/problems.ts';

const IPS_KEY = 'ips-key-5f1e9d0c7b';
const DISCOURSE_KEY = 'discourse-key-8a2b4c';
const FAST = ['--timeout-ms', '1000', '--retry-delay-ms', '20'];

function freshContent(): string {
  return join(mkdtempSync(join(tmpdir(), 'tagsite-forum-import-')), 'content');
}

/** Every file under a folder with its text. */
function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, entry);
    if (statSync(path).isFile()) out.set(entry.split('\\').join('/'), readFileSync(path, 'utf8'));
  }
  return out;
}

function topicFiles(dir: string): Map<string, string> {
  return new Map([...files(dir)].filter(([name]) => name.startsWith('topics/')));
}

function validProblems(dir: string): string[] {
  return loadContent({ root: dir, contentDir: dir, excerptLength: 200 }).problems.map(formatProblem);
}

function expectNoSecret(secret: string, outputs: string[], dir: string) {
  for (const output of outputs) expect(output).not.toContain(secret);
  for (const [name, text] of files(dir)) expect(text.includes(secret), name).toBe(false);
}

describe('import-forum: bad arguments', () => {
  it('one line per problem, exit 1, nothing written, no stack', async () => {
    const dir = freshContent();
    const result = await runScript('import-forum', ['--from', 'phpbb', '--url', 'ftp://x', '--since', '2023-02-30', '--forums', 'a,2', '--content', dir, '--bogus'], { IPS_API_KEY: '' });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n').filter((line) => line && !/problems? found/.test(line));
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(line).toMatch(PROBLEM_LINE);
    expect(result.stderr).toContain("import-forum: --from: 'phpbb' is not a forum software");
    expect(result.stderr).toContain("import-forum: --since: '2023-02-30' is not a real calendar date");
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(dir)).toBe(false);
  });

  it('an Invision Community import needs IPS_API_KEY; a URL with a password is refused', async () => {
    const missing = await runScript('import-forum', ['--from', 'ips', '--url', 'https://forum.example/'], { IPS_API_KEY: '' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('import-forum: IPS_API_KEY: is not set');
    const password = await runScript('import-forum', ['--from', 'discourse', '--url', 'https://user:hunter2@forum.example/']);
    expect(password.code).toBe(1);
    expect(password.stderr).toContain('--url: must not hold a user name or password');
    expect(password.stderr).not.toContain('hunter2');
  });
});

describe('import-forum --from ips', () => {
  let server: FakeServer;
  const dir = freshContent();
  const outputs: string[] = [];
  const run = async (...flags: string[]) => {
    const result = await runScript('import-forum', ['--from', 'ips', '--url', server.url, '--content', dir, ...FAST, ...flags], { IPS_API_KEY: IPS_KEY });
    outputs.push(result.stdout, result.stderr);
    return result;
  };
  beforeAll(async () => {
    server = await startFakeIps({ topics: 300, key: IPS_KEY });
  });
  afterAll(() => server.close());

  it('--dry-run reads the forum and writes nothing', async () => {
    const result = await run('--dry-run');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('300 topics listed: 299 imported');
    expect(result.stdout).toContain('dry run: nothing written');
    const hidden = await run('--dry-run', '--include-hidden');
    expect(hidden.stdout).toContain('300 topics listed: 300 imported, 0 updated, 0 unchanged, 0 skipped');
    const since = await run('--dry-run', '--since', '2024-01-12');
    const recent = server.topics.filter((topic) => topic.updated >= '2024-01-12' && !topic.hidden).length;
    expect(since.stdout).toMatch(new RegExp(`: ${recent} imported, 0 updated, 0 unchanged, 0 skipped`));
    expect(since.stdout).toMatch(/import-forum: --since: \d+ topics listed were last active before 2024-01-12: not imported/);
    expect(since.stdout).toMatch(/stopped after page \d: the topics after it were last active before --since/);
    const some = await run('--dry-run', '--forums', '2');
    expect(some.code, some.stderr).toBe(0);
    expect(some.stdout).toContain('149 topics listed'); // forum 2 and its sub-forum 3
    expect(server.requests.some((path) => path.includes('forums=2%2C3'))).toBe(true);
    const unknown = await run('--dry-run', '--forums', '42');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('import-forum: --forums: 42 is not a forum of');
    expect(existsSync(dir)).toBe(false);
  });

  it('imports every page through a 429, a 500, a timeout and a page that is not JSON; the content validates', async () => {
    // A server with faults, which later runs use too.
    const faulty = await startFakeIps({ topics: 300, key: IPS_KEY, faults: true, slowMs: 1500 });
    await server.close();
    server = faulty;
    const result = await run();
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const pageTwo = faulty.requests.filter((path) => path.startsWith('/api/forums/topics?') && path.includes('&page=2&'));
    expect(pageTwo).toHaveLength(2); // the 429, then the page
    for (const page of [3, 4, 5]) expect(faulty.requests.filter((path) => path.includes(`&page=${page}&`)).length).toBeGreaterThanOrEqual(2);
    expect(faulty.headers.every((headers) => headers.authorization === `Basic ${Buffer.from(`${IPS_KEY}:`).toString('base64')}`)).toBe(true);

    const lines = result.stdout.trim().split('\n');
    expect(lines).toContain(`import-forum: topic 4: skipped: hidden on the forum (--include-hidden imports hidden topics) (${faulty.url}topic/4-hidden-topic/)`);
    expect(lines.some((line) => /: title: 261 characters: cut to 200 at a word boundary \(topic 2, /.test(line))).toBe(true);
    expect(lines.some((line) => /: tags: tag "a{60}" is 60 characters \(at most 50\): left out \(topic 3,/.test(line))).toBe(true);
    expect(lines.some((line) => /: forum: forum 99 is not in the forum list the API gave: put in 'imported-topics'/.test(line))).toBe(true);
    expect(lines).toContain('300 topics listed: 299 imported, 0 updated, 0 unchanged, 1 skipped, 0 not read (one line each above)');
    for (const line of lines.filter((l) => l.startsWith('import-forum:') || l.includes('.md:'))) expect(line).toMatch(PROBLEM_LINE);

    expect(topicFiles(dir).size).toBe(299);
    expect(validProblems(dir)).toEqual([]);
    const types = JSON.parse(readFileSync(join(dir, 'content-types.json'), 'utf8'));
    expect(types.forums[0]).toMatchObject({ id: 'community', name: 'Community', children: [{ id: 'help-and-support', name: 'Help & Support', children: [{ id: 'scripting' }] }, { id: 'share-your-workflows' }] });
    const hostile = readFileSync(join(dir, 'topics/community/hostile-post.md'), 'utf8');
    expect(hostile).toContain('[the docs](https://docs.example/api)');
    expect(hostile).toContain('![diagram](https://img.example/a.png)');
    expect(hostile).toContain('click me');
    expect(hostile).not.toMatch(/<script|javascript:|onerror|onmouseover|<iframe|data:image/i);
    expect(hostile).toMatch(/^---\n# imported by import-forum from http:\/\/127\.0\.0\.1:\d+\/topic\/1-hostile-post\/\ntitle: Hostile post\nauthor: member1\ncreated: '2024-01-01T01:00:00Z'\nupdated: '2024-01-02T01:00:00Z'\nforum: scripting\ntags: \[security\]\nreplies: 1\nviews: 13\naliases: \[\/topic\/1-hostile-post\/, \/index\.php\?\/topic\/1-hostile-post\/\]\n---\n/);
    const solved = [...topicFiles(dir).values()].find((text) => text.includes('question 10)'));
    expect(solved).toMatch(/tags: \[solved, /);
    const members = JSON.parse(readFileSync(join(dir, 'members.json'), 'utf8'));
    expect(members).toHaveLength(25);
    expect(members[0]).toEqual({ name: 'member0', joined: '2020-01-01', group: 'Administrators', location: 'Lisbon', interests: 'automation', aliases: ['/profile/1-member0/'] });
    expect(members[2].website).toBeUndefined();
    expect(JSON.stringify(members)).not.toContain('private.example');
    const state = JSON.parse(readFileSync(join(dir, `.tagsite-import-127.0.0.1-${new URL(faulty.url).port}.json`), 'utf8'));
    expect(state.topics['1'].url).toBe(`${faulty.url}topic/1-hostile-post/`);
    expect(state.forums['3']).toEqual({ id: 'scripting', url: `${faulty.url}forum/3-scripting/` });
    expect(state.members.member1.url).toBe(`${faulty.url}profile/2-member1/`);
    expect(state.tags.json).toBe(`${faulty.url}tags/json/`);
    expectNoSecret(IPS_KEY, outputs, dir);
  });

  it('records the old addresses of topics, forums, members and tags, and rewrites links to imported topics to their new pages', () => {
    const stateName = [...files(dir).keys()].find((name) => name.startsWith('.tagsite-import-'))!;
    const state = JSON.parse(readFileSync(join(dir, stateName), 'utf8'));
    const page = (id: number) => `/topics/${(state.topics[String(id)].file as string).replace(/^.*\/|\.md$/g, '')}/`;
    const types = JSON.parse(readFileSync(join(dir, 'content-types.json'), 'utf8'));
    expect(types.forums[0].aliases).toEqual(['/forum/1-community/']);
    expect(types.forums[0].children[0].children[0].aliases).toEqual(['/forum/3-scripting/']);
    // `/tags/<tag>/` is the tag's own page here too: only the prefix, whose old page has capitals, has an alias.
    expect(JSON.parse(readFileSync(join(dir, 'tags.json'), 'utf8'))).toEqual({ solved: { aliases: ['/tags/Solved/'] } });
    // Topic 20 links to topic 13 (relative, on a later page: rewritten once the run was through) and 23 (absolute, already imported).
    const twenty = readFileSync(join(dir, state.topics['20'].file), 'utf8');
    expect(twenty).toMatch(/^aliases: \[\/topic\/20-[a-z0-9-]+\/, \/index\.php\?\/topic\/20-[a-z0-9-]+\/\]$/m);
    expect(twenty).toContain(`See [this](${page(13)}) and [that](${page(23)}).`);
    // Topic 11 links to the hidden topic 4, which was not imported: the old address stays.
    expect(readFileSync(join(dir, state.topics['11'].file), 'utf8')).toContain(`See [this](${server.url}topic/4-an-old-title/)`);
    // The state knows the files as they are now: a re-run finds nothing edited.
    for (const topic of Object.values(state.topics) as Array<{ file: string; hash: string }>) expect(createHash('sha256').update(readFileSync(join(dir, topic.file), 'utf8')).digest('hex')).toBe(topic.hash);
  });

  it('after an interruption that lost the state file, a run adopts the files it wrote instead of writing them twice', async () => {
    const stateName = [...files(dir).keys()].find((name) => name.startsWith('.tagsite-import-'))!;
    rmSync(join(dir, stateName));
    const before = topicFiles(dir);
    const result = await run();
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('300 topics listed: 0 imported, 0 updated, 299 unchanged, 1 skipped, 0 not read');
    expect(topicFiles(dir).size).toBe(before.size);
  });

  it('a second run imports only what changed, and leaves a file a person edited alone, reporting it', async () => {
    const before = topicFiles(dir);
    const stateName = [...files(dir).keys()].find((name) => name.startsWith('.tagsite-import-'))!;
    const fileOf = (id: number) => JSON.parse(readFileSync(join(dir, stateName), 'utf8')).topics[String(id)].file as string;
    const changed = fileOf(100);
    const edited = fileOf(200);
    // Topic 150 as an import wrote it before imports recorded old addresses: it gets them, once.
    const older = fileOf(150);
    const withoutAliases = before.get(older)!.replace(/^aliases: .*\n/m, '');
    writeFileSync(join(dir, older), withoutAliases);
    const stateText = JSON.parse(readFileSync(join(dir, stateName), 'utf8'));
    stateText.topics['150'].hash = createHash('sha256').update(withoutAliases).digest('hex');
    writeFileSync(join(dir, stateName), JSON.stringify(stateText));
    writeFileSync(join(dir, edited), `${before.get(edited)!}
A line a person added.\n`);
    server.touch(100, { title: 'A new title for topic 100', html: '<p>Edited on the forum.</p>' });
    server.touch(200, { title: 'The forum changed this one too' });
    server.touch(290); // a new reply only
    const requestsBefore = server.requests.length;
    const result = await run();
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(`${edited.replace(/^/, '')}: (file): edited since it was imported from topic 200`);
    expect(result.stdout).toMatch(/: 0 imported, 2 updated, \d+ unchanged, 1 skipped, 0 not read/);
    // Paging stopped at the first page with nothing newer than the last run: topics are listed newest first.
    const topicPages = server.requests.slice(requestsBefore).filter((path) => path.startsWith('/api/forums/topics?'));
    expect(topicPages.length).toBeLessThan(3);
    const after = topicFiles(dir);
    const differ = [...after.keys()].filter((name) => after.get(name) !== before.get(name));
    expect(differ.sort()).toEqual([changed, edited, fileOf(290)].sort());
    expect(after.get(older)).toBe(before.get(older));
    expect(after.get(changed)).toContain('title: A new title for topic 100');
    expect(after.get(changed)).toContain('Edited on the forum.');
    expect(after.get(edited)).toContain('A line a person added.');
    expect(after.get(edited)).not.toContain('The forum changed this one too');
    expect(after.size).toBe(before.size);
    const validate = await runScript('validate', ['--content', dir]);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    expectNoSecret(IPS_KEY, outputs, dir);
  });

  it('builds into a site whose tag pages, search index and member pages show the imported topics', async () => {
    const { outDir } = await buildSite(dir);
    const tagPage = readPage(outDir, '/tags/security/');
    expect(textOf(tagPage.querySelector('[data-result-count]'))).toBe('Found 1 result');
    expect(tagPage.querySelector('[data-result][data-topic="hostile-post"]')).not.toBeNull();
    const index = readdirSync(join(outDir, 'search-index'), { recursive: true, encoding: 'utf8' }).map((name) => join(outDir, 'search-index', name)).filter((path) => statSync(path).isFile());
    expect(index.some((path) => readFileSync(path).toString('utf8').includes('Hostile post'))).toBe(true);
    const member = readPage(outDir, '/members/member1/');
    expect(member.querySelector('[data-topic="hostile-post"]')).not.toBeNull();
    rmSync(join(outDir, '..'), { recursive: true, force: true });
  }, 120_000);
});

describe('import-forum --from discourse', () => {
  it('imports categories, topics with both tag shapes and public profiles, with the optional key in headers only; a re-run fetches what failed; the forum builds into a site', async () => {
    const server = await startFakeDiscourse({ topics: 200, key: DISCOURSE_KEY, faults: true, slowMs: 1500 });
    const dir = freshContent();
    const env = { DISCOURSE_API_KEY: DISCOURSE_KEY, DISCOURSE_API_USERNAME: 'importer' };
    try {
      const first = await runScript('import-forum', ['--from', 'discourse', '--url', server.url, '--content', dir, ...FAST], env);
      // /t/12.json is never JSON on this server until it heals: that topic is reported and the run is incomplete.
      expect(first.code, first.stdout + first.stderr).toBe(1);
      expect(first.stdout).toContain(`import-forum: topic 12: not imported: GET /t/12.json: the reply is not JSON (after 5 tries) (${server.url}t/how-do-i-use-json-with-json-question-12/12); the next run tries again`);
      expect(first.stdout).toContain('200 topics listed: 198 imported, 0 updated, 0 unchanged, 1 skipped, 1 not read');
      expect(first.stdout).toContain("import-forum: (members): member 'member7': no public profile (GET /u/member7.json: HTTP 404); not listed in members.json");
      expect(server.requests.filter((path) => path === '/latest.json?page=1')).toHaveLength(2); // 429, then the page
      expect(server.requests.filter((path) => path === '/t/10.json')).toHaveLength(2); // 500, then the topic
      expect(server.requests.filter((path) => path === '/t/11.json')).toHaveLength(2); // timed out, then the topic
      expect(server.headers.every((headers) => headers['api-key'] === DISCOURSE_KEY && headers['api-username'] === 'importer')).toBe(true);

      const topics = topicFiles(dir);
      expect(topics.size).toBe(198);
      const byTitle = (fragment: string) => [...topics.values()].find((text) => text.includes(fragment))!;
      expect(byTitle('question 13)')).toContain('tags: [api, regex]'); // odd id: tags as strings
      expect(byTitle('question 16)')).toContain('tags: [python]'); // even id: tags as objects
      expect(byTitle('question 14)')).toContain('replies: 0');
      const hostile = byTitle('title: Hostile post');
      expect(hostile).toContain('[the docs](https://docs.example/api)');
      expect(hostile).not.toMatch(/<script|javascript:|onerror|onmouseover/i);
      const types = JSON.parse(readFileSync(join(dir, 'content-types.json'), 'utf8'));
      expect(types.forums[0].children[0]).toMatchObject({ id: 'help-and-support', children: [{ id: 'scripting' }] });
      const members = JSON.parse(readFileSync(join(dir, 'members.json'), 'utf8'));
      expect(members.map((m: { name: string }) => m.name)).not.toContain('member7');
      expect(members.find((m: { name: string }) => m.name === 'member1')).toEqual({ name: 'member1', joined: '2021-03-02', group: 'Trust level 1', website: 'https://member1.example/', location: 'Porto', aliases: ['/u/member1'] });
      expect(types.forums[0].children[0].aliases).toEqual(['/c/help-support/2']);
      const tagAliases = JSON.parse(readFileSync(join(dir, 'tags.json'), 'utf8'));
      expect(tagAliases.regex).toEqual({ aliases: ['/tag/regex'] });
      const stateOf = () => JSON.parse(readFileSync(join(dir, [...files(dir).keys()].find((name) => name.startsWith('.tagsite-import-'))!), 'utf8'));
      const page = (id: number) => `/topics/${(stateOf().topics[String(id)].file as string).replace(/^.*\/|\.md$/g, '')}/`;
      const twenty = readFileSync(join(dir, stateOf().topics['20'].file), 'utf8');
      expect(twenty).toMatch(/^aliases: \[\/t\/[a-z0-9-]+\/20, \/t\/20\]$/m);
      expect(twenty).toContain(`See [this](${page(13)}) and [that](${page(23)}).`);
      // Topic 19 links to topic 12, which this run could not read: its old address stays until it is imported.
      expect(readFileSync(join(dir, stateOf().topics['19'].file), 'utf8')).toContain(`See [this](${server.url}t/an-old-title/12)`);
      expect(validProblems(dir)).toEqual([]);

      server.heal();
      const before = server.requests.length;
      const second = await runScript('import-forum', ['--from', 'discourse', '--url', server.url, '--content', dir, ...FAST], env);
      expect(second.code, second.stdout + second.stderr).toBe(0);
      // Profiles already listed are not asked for again; the topics not changed are not read again.
      const asked = server.requests.slice(before);
      expect(asked.filter((path) => path.startsWith('/u/')).sort()).toEqual(['/u/member7.json', '/u/system.json']);
      expect(asked.filter((path) => path.startsWith('/t/'))).toEqual(['/t/12.json']);
      expect(second.stdout).toContain('200 topics listed: 1 imported, 0 updated, 198 unchanged, 1 skipped, 0 not read');
      expect(topicFiles(dir).size).toBe(199);
      // Topic 12 is imported now: the link to it from topic 19, written by the first run, leads to its page.
      expect(readFileSync(join(dir, stateOf().topics['19'].file), 'utf8')).toContain(`See [this](${page(12)})`);
      expectNoSecret(DISCOURSE_KEY, [first.stdout, first.stderr, second.stdout, second.stderr], dir);

      // The imported forum builds: its tag pages, search index and member pages show its topics.
      const { outDir } = await buildSite(dir);
      const regex = [...topicFiles(dir).values()].filter((text) => /^tags: \[.*\bregex\b.*\]$/m.test(text)).length;
      expect(regex).toBeGreaterThan(1);
      expect(textOf(readPage(outDir, '/tags/regex/').querySelector('[data-result-count]'))).toBe(`Found ${regex} results`);
      const index = readdirSync(join(outDir, 'search-index'), { recursive: true, encoding: 'utf8' }).map((name) => join(outDir, 'search-index', name)).filter((path) => statSync(path).isFile());
      expect(index.some((path) => readFileSync(path, 'utf8').includes('Hostile post'))).toBe(true);
      expect(readPage(outDir, '/members/member1/').querySelectorAll('[data-topic]').length).toBeGreaterThan(0);
      rmSync(join(outDir, '..'), { recursive: true, force: true });
    } finally {
      await server.close();
    }
  }, 180_000);
});
