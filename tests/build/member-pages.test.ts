/**
 * A member's topics are paginated like a tag's: a page's weight does not grow with how much the
 * member wrote (issue 7). /members/<member>/ is the profile and the first page; /members/<member>/<n>/ the rest.
 */
import { afterAll, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildSite } from '../helpers/build.ts';
import { copyFixture, writeTopic } from './fixture-copies.ts';
import { fileForPath, readPage, textOf } from './built-site.ts';

const content = copyFixture('valid-small');
let outDir = '';
afterAll(() => {
  rmSync(dirname(content), { recursive: true, force: true });
  if (outDir) rmSync(dirname(outDir), { recursive: true, force: true });
});

it("splits a member's 56 topics into pages of 25, newest first, each saying the whole count", async () => {
  // valid-small has 4 topics by mira; 52 more, one a day of 2022 (older than the fixture's own).
  for (let i = 0; i < 52; i++) {
    const day = new Date(Date.UTC(2022, 0, 1 + i)).toISOString().slice(0, 10);
    writeTopic(content, `help/mira-${String(i).padStart(2, '0')}.md`, { title: `"Mira's question ${i}"`, author: 'mira', created: day, forum: 'help' });
  }
  ({ outDir } = await buildSite(content));
  const slugs: string[] = [];
  const pages = [
    { path: '/members/mira/', shown: 25, links: ['/members/mira/2/'] },
    { path: '/members/mira/2/', shown: 25, links: ['/members/mira/', '/members/mira/3/'] },
    { path: '/members/mira/3/', shown: 6, links: ['/members/mira/2/'] },
  ];
  for (const { path, shown, links } of pages) {
    const page = readPage(outDir, path);
    expect(page.querySelector('[data-member-profile]')?.getAttribute('data-name'), path).toBe('mira');
    expect(textOf(page.querySelector('[data-result-count]')), path).toBe('Found 56 results');
    const entries = page.querySelectorAll('[data-results] [data-result]');
    expect(entries, path).toHaveLength(shown);
    slugs.push(...entries.map((entry) => entry.getAttribute('data-topic')!));
    // The pages link their neighbours; page 1 is the profile's own address.
    const hrefs = page.querySelectorAll('[data-pagination] a').map((a) => a.getAttribute('href'));
    for (const link of links) expect(hrefs, path).toContain(link);
  }
  expect(new Set(slugs).size).toBe(56);
  // Newest first: the last page ends with the oldest of the 52.
  expect(slugs.at(-1)).toBe('mira-00');
  expect(slugs.slice(-52, -1)).toEqual(Array.from({ length: 51 }, (_, i) => `mira-${String(51 - i).padStart(2, '0')}`));
  expect(fileForPath(outDir, '/members/mira/4/')).toBeUndefined();
  // A member with few topics has one page only.
  expect(readPage(outDir, '/members/kenji/').querySelectorAll('[data-pagination] a')).toHaveLength(0);
});
