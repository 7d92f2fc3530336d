/**
 * Issue 7: a build after a small change renders only the pages it changed and reuses the others
 * from the previous output, and the result is exactly what a clean build of the same content makes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { projectRoot, runNode, runScript, type ScriptResult } from '../helpers/cli.ts';
import { copyOfSampleContent, otherFileSystemThan } from '../helpers/build.ts';
import { expectSameSite, siteFiles } from './built-site.ts';
import { editJson } from './fixture-copies.ts';
import { loadContent } from '../../src/content/load.ts';
import { searchIndexFiles } from '../../src/build/index-and-feeds.ts';
import { tagFeedFiles } from '../../src/build/tag-files.ts';
import { rendererFolder } from '../../src/build/unchanged.ts';
import { takeLock } from '../../src/cli/lock.ts';
import { outputLock } from '../../src/build/in-place.ts';
import { workFolder } from '../../src/build/swap.ts';
import { DomUtils, parseDocument } from 'htmlparser2';

const content = copyOfSampleContent('rebuild');
const outputs = mkdtempSync(join(tmpdir(), 'tagsite-rebuild-'));
afterAll(() => {
  rmSync(dirname(content), { recursive: true, force: true });
  rmSync(outputs, { recursive: true, force: true });
});

async function build(outDir: string, env: Record<string, string> = {}, extra: string[] = []): Promise<ScriptResult> {
  const result = await runScript('build', ['--content', content, '--out', outDir, ...extra], env);
  if (result.code !== 0) throw new Error(`build failed (${result.code}):\n${result.stderr}\n${result.stdout}`);
  return result;
}

/** "(N of M pages, feeds and index files unchanged, reused)" → N, or 0 when nothing was reused. */
const reusedCount = (result: ScriptResult) => Number(/\((\d+) of \d+ pages, feeds and index files unchanged, reused\)/.exec(result.stdout)?.[1] ?? 0);

/** Whether a build rendered its pages with the page code the last build kept, skipping Astro's bundling (src/build/kept-renderer.ts). */
const withKeptCode = (result: ScriptResult) => result.stdout.includes("rendered by the last build's page code, no bundling");

/** The words.json text the search page of `site` holds for a shared link's first request (src/build/search-page.ts). */
function searchPageWords(site: string): string | undefined {
  const script = DomUtils.findOne((element) => element.name === 'script' && 'data-words-index' in element.attribs, parseDocument(readFileSync(join(site, 'search/index.html'), 'utf8')).children);
  return script ? DomUtils.getAttributeValue(script, 'data-words') : undefined;
}

/** The search page's stylesheet links and the text of its `<style>` elements (src/build/search-page.ts). */
function searchPageStyles(site: string): { links: number; inline: string } {
  const document = parseDocument(readFileSync(join(site, 'search/index.html'), 'utf8')).children;
  const links = DomUtils.findAll((element) => element.name === 'link' && element.attribs.rel === 'stylesheet', document);
  const styles = DomUtils.findAll((element) => element.name === 'style', document);
  return { links: links.length, inline: styles.map((style) => DomUtils.textContent(style)).join('\n') };
}

/** The text of each stylesheet in `site`'s `_astro/`. */
function bundledStylesheets(site: string): string[] {
  return readdirSync(join(site, '_astro')).filter((name) => name.endsWith('.css')).map((name) => readFileSync(join(site, '_astro', name), 'utf8'));
}

function topicFile(name: string): string {
  const found = readdirSync(join(content, 'topics'), { recursive: true, withFileTypes: true }).find((entry) => entry.name === name);
  if (!found) throw new Error(`no topic ${name}`);
  return join(found.parentPath, found.name);
}

/** Adds `line` to the end of a topic file (its post). */
function appendTo(file: string, line: string): void {
  writeFileSync(file, `${readFileSync(file, 'utf8')}\n${line}\n`);
}

describe('rebuilding into the same output folder', () => {
  const site = join(outputs, 'site');

  it('keeps the output as it is when nothing changed, and builds again when it was touched', async () => {
    await build(site);
    const first = siteFiles(site);
    const times = () => readdirSync(site, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs);
    const written = times();
    const again = await build(site);
    expect(again.stdout).toMatch(/^nothing changed since the last build of .*site \(content, code, config, and the output as it left it\): kept as it is/m);
    expect(times(), 'no file written').toEqual(written);
    // A file of the output deleted: the build runs, reusing every page it can, and restores it.
    // The search index and the feeds are made again, and linked from the old output where the same.
    const inode = (file: string) => statSync(join(site, file)).ino;
    const kept = ['search-index/core.json', 'search-index/display/0.json', 'tags/json/rss.xml'].map((file) => [file, inode(file)]);
    rmSync(join(site, 'tags/index.html'));
    // An index file edited by hand is made again, not linked with the edit.
    writeFileSync(join(site, 'search-index/words.json'), '{"edited":"by hand"}');
    const restored = await build(site);
    expect(reusedCount(restored)).toBeGreaterThan(100);
    expect(withKeptCode(restored), 'the code is unchanged: no bundling').toBe(true);
    expect(siteFiles(site)).toEqual(first);
    // The site is listed in two parts (all but the index while the index thread finishes it, then the index): every file counted once.
    expect(restored.stdout).toContain(`site: ${first.size.toLocaleString('en')} files,`);
    expect(kept.map(([file]) => [file, inode(file as string)]), 'the same files, not copies').toEqual(kept);
    // The replaced output is deleted by a process of its own, after the build has ended.
    const beside = () => readdirSync(outputs).filter((name) => name !== 'site');
    for (let waited = 0; beside().length > 0 && waited < 20_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(beside()).toEqual([]);
    // --clean always builds, with Astro.
    const clean = await build(site, {}, ['--clean']);
    expect(reusedCount(clean)).toBe(0);
    expect(withKeptCode(clean)).toBe(false);
    expect(siteFiles(site)).toEqual(first);
  });

  it('after edits, renders what changed and equals a clean build of the edited content', async () => {
    // A topic edited and bumped to the top of its tags, one deleted, one given another tag, a member's profile changed.
    const edited = topicFile('clipboard-action-strips-formatting.md');
    writeFileSync(edited, readFileSync(edited, 'utf8').replace(/^updated: .*$/m, 'updated: 2026-11-20T10:00:00Z').concat('\nAn edit made after the first build.\n'));
    rmSync(topicFile('jq-or-javascript-for-json.md'));
    const retagged = topicFile('working-with-json-in-flowsmith.md');
    writeFileSync(retagged, readFileSync(retagged, 'utf8').replace(/^tags: \[/m, 'tags: [rebuilt-tag, '));
    editJson(content, 'members.json', (members: Array<{ name: string; location?: string }>) => {
      members[0]!.location = 'Somewhere new';
    });
    // A tag renamed: the pages of its topics are rendered again from files the build kept, posts and all.
    writeFileSync(join(content, 'tags.json'), JSON.stringify({ 'copy-paste': { synonyms: ['clipboard'] } }));

    const rebuilt = await build(site);
    const reused = reusedCount(rebuilt);
    expect(reused).toBeGreaterThan(0);
    expect(withKeptCode(rebuilt)).toBe(true);
    const clean = join(outputs, 'clean');
    const cleanBuild = await build(clean, {}, ['--clean']);
    expect(reusedCount(cleanBuild)).toBe(0);
    expectSameSite(site, clean);
    expect(readFileSync(join(site, 'topics/clipboard-action-strips-formatting/index.html'), 'utf8')).toContain('An edit made after the first build.');
    expect(siteFiles(site).has('topics/jq-or-javascript-for-json/index.html')).toBe(false);
    expect(siteFiles(site).has('tags/rebuilt-tag/index.html')).toBe(true);
    const renamed = readFileSync(join(site, 'topics/action-reference-clipboard/index.html'), 'utf8');
    expect(renamed).toContain('/tags/copy-paste/');
    expect(renamed).toContain('Returns the current clipboard contents.');
  });

  it('writes the tag feeds the worker thread made: the same files as making them in process', async () => {
    const { content: records } = loadContent({ root: content, contentDir: content, excerptLength: 200 });
    // The site's options: the default intersections (pairs of 5 topics or more, 2,000 pages at most).
    const { feeds: expected } = tagFeedFiles(records.topics, { siteTitle: 'Flowsmiths Community', siteRoot: 'https://flowsmiths.example/', intersections: { minTopics: 5, maxPages: 2000 }, canonicalOf: records.tags.canonicalOf });
    const written = new Map([...siteFiles(site)].filter(([path]) => path.startsWith('tags/') && path.endsWith('/rss.xml')));
    expect([...written.keys()].sort()).toEqual(expected.map((feed) => feed.file).sort());
    for (const { file, xml } of expected) expect(Buffer.from(written.get(file)!, 'latin1').toString('utf8'), file).toBe(xml!);
  });

  it('writes the search index the worker thread built: the same files as building it in process', () => {
    const { content: records } = loadContent({ root: content, contentDir: content, excerptLength: 200 });
    const expected = searchIndexFiles({ topics: records.topics, members: records.members, contentTypes: records.contentTypes.list, canonicalOf: records.tags.canonicalOf });
    const written = [...siteFiles(site)].filter(([path]) => path.startsWith('search-index/'));
    expect(written.map(([path]) => path.slice('search-index/'.length)).sort()).toEqual([...expected.keys()].sort());
    for (const [path, bytes] of written) expect(Buffer.from(bytes, 'latin1').toString('utf8'), path).toBe(expected.get(path.slice('search-index/'.length)));
    expect(searchPageWords(site), "the search page holds the index's words.json").toBe(expected.get('words.json'));
  });

  it('keeps the previous site and its page keys when a rebuild fails', async () => {
    const before = siteFiles(site);
    const broken = topicFile('clipboard-action-strips-formatting.md');
    const text = readFileSync(broken, 'utf8');
    writeFileSync(broken, text.replace(/^created: .*$/m, 'created: 2023-02-30'));
    const failed = await runScript('build', ['--content', content, '--out', site]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/clipboard-action-strips-formatting\.md:\d+: created: /);
    expect(siteFiles(site)).toEqual(before);
    writeFileSync(broken, text);
    const after = await build(site);
    expect(reusedCount(after)).toBeGreaterThan(100);
    expect(siteFiles(site)).toEqual(before);
  });

  it("builds with Astro again when the page code kept is gone, or a browser file of the output was edited by hand", async () => {
    const topic = topicFile('clipboard-action-strips-formatting.md');
    const edit = (line: string) => appendTo(topic, line);
    const folder = rendererFolder(projectRoot, content, site);
    for (const name of readdirSync(folder)) if (name.startsWith('bundle-')) rmSync(join(folder, name), { recursive: true });
    edit('Edited once the kept code was gone.');
    const without = await build(site);
    expect(withKeptCode(without)).toBe(false);
    expect(reusedCount(without)).toBeGreaterThan(100);
    // That build kept its code again: the next uses it.
    edit('Edited again.');
    expect(withKeptCode(await build(site))).toBe(true);
    const script = readdirSync(join(site, '_astro')).find((name) => name.endsWith('.js'))!;
    const bytes = readFileSync(join(site, '_astro', script), 'utf8');
    writeFileSync(join(site, '_astro', script), `${bytes}\n// edited by hand`);
    edit('Edited with a browser file changed.');
    expect(withKeptCode(await build(site))).toBe(false);
    expect(readFileSync(join(site, '_astro', script), 'utf8')).toBe(bytes);
    const clean = join(outputs, 'clean-after-kept');
    await build(clean, {}, ['--clean']);
    expectSameSite(site, clean);
  });

  it('takes the output in turn before it looks at it, also in a build with Astro: the pages it reuses stay as it found them', async () => {
    await build(site);
    // Without the kept page code the next build runs Astro, and reuses the unchanged pages of the output.
    rmSync(rendererFolder(projectRoot, content, site), { recursive: true, force: true });
    const topic = topicFile('clipboard-action-strips-formatting.md');
    appendTo(topic, 'Edited while another build held the output.');
    const release = await takeLock(outputLock(projectRoot, site));
    let pid = 0;
    const running = runNode(['--experimental-strip-types', '--no-warnings', 'scripts/build.mjs', '--content', content, '--out', site], { spawned: (id) => (pid = id) });
    let started = false;
    try {
      // The build's work folder would hold the new site: none while the other holds the output.
      for (const until = Date.now() + 12_000; Date.now() < until && !started; await new Promise((wait) => setTimeout(wait, 100))) {
        started = pid > 0 && existsSync(workFolder(projectRoot, pid));
      }
    } finally {
      release();
    }
    expect(started).toBe(false);
    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    expect(withKeptCode(result)).toBe(false);
    expect(reusedCount(result)).toBeGreaterThan(0);
    expect(readFileSync(join(site, 'topics', 'clipboard-action-strips-formatting', 'index.html'), 'utf8')).toContain('Edited while another build held the output.');
  });

  it('renders every page again when the code or the configuration changed (here: the base path)', async () => {
    const result = await build(site, { TAGSITE_BASE: '/sub/path' });
    expect(reusedCount(result)).toBe(0);
    expect(withKeptCode(result), 'another base: Astro bundles the pages again').toBe(false);
    expect(readFileSync(join(site, 'tags/index.html'), 'utf8')).toContain('href="/sub/path/tags/');
    // A content rebuild under the base path writes what a clean build does.
    const topic = topicFile('working-with-json-in-flowsmith.md');
    writeFileSync(topic, readFileSync(topic, 'utf8').replace(/^tags: \[/m, 'tags: [under-base, '));
    const rebuilt = await build(site, { TAGSITE_BASE: '/sub/path' });
    expect(withKeptCode(rebuilt)).toBe(true);
    expect(readFileSync(join(site, 'tags/under-base/index.html'), 'utf8')).toContain('href="/sub/path/topics/working-with-json-in-flowsmith/"');
    const under = join(outputs, 'under');
    await build(under, { TAGSITE_BASE: '/sub/path' }, ['--clean']);
    expectSameSite(site, under);
  });
});

describe('a content rebuild of an output still as the last build left it', () => {
  const site = join(outputs, 'in-place');
  const clean = join(outputs, 'in-place-clean');
  const inPlace = (result: ScriptResult) => result.stdout.includes('only the files that changed written into the output');
  /** Each file's inode and modification time. */
  const stamps = (dir: string) => new Map([...siteFiles(dir).keys()].map((path) => [path, `${statSync(join(dir, path)).ino}:${statSync(join(dir, path)).mtimeMs}`]));
  /** Folders of the site with nothing in them (a clean build leaves none). */
  const emptyFolders = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isDirectory() && readdirSync(join(entry.parentPath, entry.name)).length === 0).map((entry) => relative(dir, join(entry.parentPath, entry.name)));

  it('writes only what changed into it, deletes what the site lost with its folders, and equals a clean build', async () => {
    await build(site);
    const edited = topicFile('clipboard-action-strips-formatting.md');
    writeFileSync(edited, readFileSync(edited, 'utf8').replace(/^updated: .*$/m, '').replace(/^created: .*$/m, '$&\nupdated: 2026-11-21T09:00:00Z').concat('\nEdited for the update in place.\n'));
    const gone = topicFile('flowsmith-2-9-4-bugfix-release.md');
    rmSync(gone);
    writeFileSync(join(dirname(edited), 'a-topic-added-in-place.md'), '---\ntitle: "A topic added between two builds"\nauthor: tomasz\ncreated: 2026-11-21T08:00:00Z\nforum: help\ntags: [clipboard, added-in-place]\n---\nIts body.\n');
    const before = stamps(site);
    const folders = ['', 'topics', '_astro'].map((folder) => statSync(join(site, folder)).ino);

    const rebuilt = await build(site);
    expect(withKeptCode(rebuilt)).toBe(true);
    expect(inPlace(rebuilt), rebuilt.stdout).toBe(true);
    // The same folders (a swapped-in site is a new folder), and most files as they were: not written, not linked anew.
    expect(['', 'topics', '_astro'].map((folder) => statSync(join(site, folder)).ino)).toEqual(folders);
    const after = stamps(site);
    const untouched = [...after].filter(([path, stamp]) => before.get(path) === stamp).length;
    expect(untouched / after.size).toBeGreaterThan(0.5);
    expect(after.has('topics/flowsmith-2-9-4-bugfix-release/index.html')).toBe(false);
    expect(emptyFolders(site)).toEqual([]);
    expect(readFileSync(join(site, 'tags/added-in-place/index.html'), 'utf8')).toContain('A topic added between two builds');
    expect(JSON.parse(searchPageWords(site)!), "the search page holds this build's words.json").toEqual(JSON.parse(readFileSync(join(site, 'search-index/words.json'), 'utf8')));
    expect(before.get('search/index.html'), 'the search page was written again').not.toBe(after.get('search/index.html'));
    // The browser's files stayed in the output, not in the new folder: the stylesheet still goes in.
    const sheets = bundledStylesheets(site);
    expect(sheets.length).toBeGreaterThan(0);
    const page = searchPageStyles(site);
    expect(page.links, 'no stylesheet link left on the search page').toBe(0);
    for (const css of sheets) expect(page.inline).toContain(css);
    // Its stamp has the output as the update left it (the folders it did not touch by their stamped times): nothing changed since.
    expect((await build(site)).stdout).toMatch(/^nothing changed since the last build/m);

    await build(clean, {}, ['--clean']);
    expectSameSite(site, clean);
  });

  it("keeps the search index's word files and the other topics' rows when a topic is bumped to the top of the listing", async () => {
    await build(site);
    // Only its `updated` changes, as a reply makes it: the newest of the site now.
    const bumped = topicFile('forum-rules-and-posting-guidelines.md');
    writeFileSync(bumped, readFileSync(bumped, 'utf8').replace(/^updated: .*$/m, 'updated: 2026-11-23T09:00:00Z'));
    const before = stamps(site);
    const rebuilt = await build(site);
    expect(inPlace(rebuilt), rebuilt.stdout).toBe(true);
    const after = stamps(site);
    const rewritten = [...after.keys()].filter((path) => path.startsWith('search-index/') && before.get(path) !== after.get(path));
    expect(rewritten).toContain('search-index/core.json');
    // The word files name topics by numbers a bump does not change; one display file holds its row.
    expect(rewritten.filter((path) => /^search-index\/(?:postings|positions|vocab)/.test(path))).toEqual([]);
    expect(rewritten.filter((path) => path.startsWith('search-index/display/'))).toHaveLength(1);
    expect(rewritten.filter((path) => path.startsWith('search-index/tag-ordinals/')).every((path) => path === 'search-index/tag-ordinals/meta.json')).toBe(true);
    const home = parseDocument(readFileSync(join(site, 'index.html'), 'utf8'));
    expect(DomUtils.getAttributeValue(DomUtils.findOne((element) => element.attribs['data-topic'] !== undefined, home.children)!, 'data-topic')).toBe('forum-rules-and-posting-guidelines');

    await build(clean, {}, ['--clean']);
    expectSameSite(site, clean);
  });

  it('replaces the output whole when a file was put into it by hand since', async () => {
    writeFileSync(join(site, 'tags', 'put-here-by-hand.txt'), 'not the build’s');
    const edited = topicFile('clipboard-action-strips-formatting.md');
    appendTo(edited, 'Edited once more.');
    const rebuilt = await build(site);
    expect(withKeptCode(rebuilt)).toBe(true);
    expect(inPlace(rebuilt)).toBe(false);
    expect(siteFiles(site).has('tags/put-here-by-hand.txt')).toBe(false);
    await build(clean, {}, ['--clean']);
    expectSameSite(site, clean);
  });

  it('takes turns with another build of the same output: both finish, and the output is a clean build of the content', async () => {
    await build(site);
    const edited = topicFile('clipboard-action-strips-formatting.md');
    appendTo(edited, 'Edited before two builds at once.');
    const results = await Promise.all([build(site), build(site)]);
    expect(results.filter(withKeptCode)).toHaveLength(2);
    await build(clean, {}, ['--clean']);
    expectSameSite(site, clean);
    expect(emptyFolders(site)).toEqual([]);
  });
});

describe('an output on another file system than the project', () => {
  // The site is assembled in the project's work folder and copied there (a rename cannot move it).
  const elsewhere = otherFileSystemThan(projectRoot);
  const other = elsewhere && mkdtempSync(join(elsewhere, 'tagsite-rebuild-'));
  afterAll(() => {
    if (other) rmSync(other, { recursive: true, force: true });
  });

  it('is found as the build left it: kept when nothing changed, and updated in place after an edit', async () => {
    expect(other, `${projectRoot} and /dev/shm are on one file system here: this test needs two`).toBeDefined();
    const site = join(other!, 'site');
    await build(site, {}, ['--clean']);
    expect((await build(site)).stdout).toMatch(/^nothing changed since the last build/m);
    appendTo(topicFile('clipboard-action-strips-formatting.md'), 'Edited for an output elsewhere.');
    const rebuilt = await build(site);
    expect(withKeptCode(rebuilt)).toBe(true);
    expect(rebuilt.stdout).toContain('only the files that changed written into the output');
    expect(readFileSync(join(site, 'topics/clipboard-action-strips-formatting/index.html'), 'utf8')).toContain('Edited for an output elsewhere.');
  });
});
