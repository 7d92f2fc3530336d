/**
 * Issue 22: after only a topic's post changed, a rebuild keeps every listing page and feed as it
 * is, without making or keying them again (the listings are as the last build had them), and the
 * site equals a clean build; a change to what the listings show renders them again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runScript, type ScriptResult } from '../helpers/cli.ts';
import { copyOfSampleContent } from '../helpers/build.ts';
import { expectSameSite, siteFiles } from './built-site.ts';
import { memberPath } from '../../src/model/urls.ts';

const content = copyOfSampleContent('rebuild-listings');
const outputs = mkdtempSync(join(tmpdir(), 'tagsite-rebuild-listings-'));
afterAll(() => {
  rmSync(dirname(content), { recursive: true, force: true });
  rmSync(outputs, { recursive: true, force: true });
});

async function build(outDir: string, extra: string[] = []): Promise<ScriptResult> {
  const result = await runScript('build', ['--content', content, '--out', outDir, ...extra]);
  if (result.code !== 0) throw new Error(`build failed (${result.code}):\n${result.stderr}\n${result.stdout}`);
  return result;
}

async function expectCleanBuild(site: string): Promise<void> {
  const clean = join(outputs, 'clean');
  await build(clean, ['--clean']);
  expectSameSite(site, clean);
}

const topic = join(content, 'topics/share/clipboard-cleaner-workflow.md');
// Its tags' and its author's listing pages, its tags' feeds, the sitemap, and pages and endpoints
// without parameters made from the listings: the home page, the list of tags, the site's feed, the workflow list.
const listings = ['tags/clipboard/index.html', 'tags/text/index.html', 'tags/regex/index.html', `${decodeURI(memberPath('felix.m')).slice(1)}index.html`, 'tags/clipboard/rss.xml', 'tags/regex/rss.xml', 'sitemap-0.xml', 'index.html', 'tags/index.html', 'rss.xml', 'api/workflows.json'];

describe('a rebuild after a post changed', () => {
  const site = join(outputs, 'site');
  const modified = (file: string) => statSync(join(site, file)).mtimeMs;

  it('keeps the listing pages and feeds untouched, renders the topic page, and equals a clean build', async () => {
    await build(site);
    const before = listings.map(modified);
    const page = modified('topics/clipboard-cleaner-workflow/index.html');
    const searchPage = modified('search/index.html');
    // At the end of the post, past its excerpt: what listings show of the topic stays the same.
    writeFileSync(topic, `${readFileSync(topic, 'utf8')}\nA sentence added after the first build.\n`);
    await build(site);
    expect(listings.map(modified), 'listing pages and feeds kept as they were').toEqual(before);
    // The search page holds the index's words, which the sentence changed.
    expect(modified('search/index.html')).not.toBe(searchPage);
    expect(modified('topics/clipboard-cleaner-workflow/index.html')).not.toBe(page);
    expect(readFileSync(join(site, 'topics/clipboard-cleaner-workflow/index.html'), 'utf8')).toContain('A sentence added after the first build.');
    await expectCleanBuild(site);
  });

  it("renders a tag's pages, its feeds and the sitemap again when what they show changed: a description in tags.json, a title and date", async () => {
    writeFileSync(join(content, 'tags.json'), JSON.stringify({ regex: { description: 'Patterns that match text, and the workflows built on them.' } }));
    await build(site);
    expect(readFileSync(join(site, 'tags/regex/index.html'), 'utf8')).toContain('Patterns that match text, and the workflows built on them.');
    await expectCleanBuild(site);

    // Renamed and updated: its listings and feeds show the title, the sitemap dates its pages anew.
    const before = modified('tags/text/index.html');
    writeFileSync(topic, readFileSync(topic, 'utf8').replace(/^title: .*$/m, 'title: "Clipboard Cleaner, renamed after the first build"').replace(/^updated: .*$/m, 'updated: 2026-11-26'));
    await build(site);
    expect(modified('tags/text/index.html')).not.toBe(before);
    for (const file of ['tags/text/index.html', 'tags/clipboard/rss.xml', 'rss.xml']) expect(readFileSync(join(site, file), 'utf8'), file).toContain('Clipboard Cleaner, renamed after the first build');
    expect(readFileSync(join(site, 'sitemap-0.xml'), 'utf8')).toMatch(/<loc>[^<]*\/topics\/clipboard-cleaner-workflow\/<\/loc><lastmod>2026-11-26<\/lastmod>/);
    await expectCleanBuild(site);
  });

  it("keeps the sitemap when only a title changed (nothing that orders or dates a page), and shows the title on every listing, intersections' too", async () => {
    const sitemap = modified('sitemap-0.xml');
    const slug = 'paginating-rest-apis';
    const intersections = [...siteFiles(join(site, 'tags/intersection')).entries()].filter(([path, html]) => path.endsWith('index.html') && html.includes(`/topics/${slug}/`)).map(([path]) => join('tags/intersection', path));
    expect(intersections.length, 'intersection pages listing the topic').toBeGreaterThan(1);
    const file = join(content, `topics/${readdirSync(join(content, 'topics'), { recursive: true }).map(String).find((name) => name.endsWith(`${slug}.md`))}`);
    // Pages without parameters that show no topic: the documentation links, the about page, the "not found" page;
    // and those that show only how many topics a tag or a member has: the list of tags, the list of members.
    const unread = ['links/index.html', 'about/index.html', '404.html', 'tags/index.html', 'members/index.html'];
    const pagesBefore = unread.map(modified);
    // The renamed topic's author's page, and another member's.
    const [author, other] = [`${decodeURI(memberPath('priya_k')).slice(1)}index.html`, `${decodeURI(memberPath('felix.m')).slice(1)}index.html`];
    const [authorBefore, otherBefore] = [modified(author), modified(other)];
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^title: .*$/m, 'title: "Paginating REST APIs, renamed after a build"'));
    await build(site);
    expect(modified('sitemap-0.xml')).toBe(sitemap);
    expect(unread.map(modified), 'pages that read no topic kept as they were').toEqual(pagesBefore);
    for (const page of ['tags/api/index.html', author, ...intersections]) expect(readFileSync(join(site, page), 'utf8'), page).toContain('Paginating REST APIs, renamed after a build');
    expect(modified(author)).not.toBe(authorBefore);
    expect(modified(other), "another member's page").toBe(otherBefore);
    await expectCleanBuild(site);
  });

  it('renders the list of tags, the list of members and both members\' pages again when a topic gets another tag or another author, and equals a clean build', async () => {
    const file = join(content, 'topics/guides/paginating-rest-apis.md');
    const [tagsPage, membersPage] = [modified('tags/index.html'), modified('members/index.html')];
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^tags: \[(.*)\]$/m, 'tags: [$1, cursors-after-a-build]'));
    await build(site);
    expect(modified('tags/index.html')).not.toBe(tagsPage);
    expect(readFileSync(join(site, 'tags/index.html'), 'utf8')).toContain('cursors-after-a-build');
    expect(modified('members/index.html'), 'the same topic counts').toBe(membersPage);
    await expectCleanBuild(site);

    const [oldAuthor, newAuthor] = [`${decodeURI(memberPath('priya_k')).slice(1)}index.html`, `${decodeURI(memberPath('felix.m')).slice(1)}index.html`];
    const [oldBefore, newBefore, tagsBefore] = [modified(oldAuthor), modified(newAuthor), modified('tags/index.html')];
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^author: priya_k$/m, 'author: felix.m'));
    await build(site);
    expect(modified(oldAuthor)).not.toBe(oldBefore);
    expect(modified(newAuthor)).not.toBe(newBefore);
    expect(readFileSync(join(site, newAuthor), 'utf8')).toContain('/topics/paginating-rest-apis/');
    expect(readFileSync(join(site, oldAuthor), 'utf8')).not.toContain('/topics/paginating-rest-apis/');
    expect(modified('members/index.html'), 'other topic counts').not.toBe(membersPage);
    expect(modified('tags/index.html'), 'the same tags').toBe(tagsBefore);
    await expectCleanBuild(site);
  });

  it('renders a page without parameters again when a part of the data it read changed, and keeps those that did not read it', async () => {
    const tagsPage = modified('tags/index.html');
    const links = JSON.parse(readFileSync(join(content, 'links.json'), 'utf8')) as Array<Record<string, unknown>>;
    writeFileSync(join(content, 'links.json'), JSON.stringify([...links, { ...links[0], link: 'https://knots.example/added-after-a-build', name: 'Knots added after a build' }], null, 2));
    await build(site);
    expect(readFileSync(join(site, 'links/index.html'), 'utf8')).toContain('Knots added after a build');
    expect(modified('tags/index.html'), 'the list of tags reads no links').toBe(tagsPage);
    await expectCleanBuild(site);
  });
});
