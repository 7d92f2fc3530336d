// The member search and member pages (SPEC 4.3, issue 6) in real Chromium on the many-members
// fixture: every filter through the form, combinations, both sort directions, paging, shared URLs,
// back/forward; the static pages without JavaScript; profiles; authors linked from topic pages.
// Every expected list comes from the brute-force oracle in tests/members-oracle.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildSite } from '../helpers/build.ts';
import { projectRoot } from '../helpers/cli.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { launchChromium } from '../helpers/browser.ts';
import { loadContent } from '../../src/content/load.ts';
import { projectOptions } from '../../src/cli/project.ts';
import { memberSlug } from '../../src/model/urls.ts';
import { EMPTY_MEMBER_QUERY, type MemberQuery, type MemberRecord } from '../../src/search/member-search.ts';
import type { Topic } from '../../src/content/topics.ts';
import { dayOffset, expectedMembers } from '../oracles/members.ts';

const FIXTURE = join(projectRoot, 'tests/fixtures/many-members');
const PAGE_SIZE = 24;
// The visitor's clock: the fixture's joined days sit around it, so every preset finds a different set.
const NOW = new Date('2024-06-15T12:00:00Z');
const FIELDS = ['twitter', 'website', 'jabber', 'location', 'interests'] as const;

let members: MemberRecord[];
let topics: Topic[];
let browser: Browser;
let site: StaticHost;
let withJs: BrowserContext;
let noJs: BrowserContext;

beforeAll(async () => {
  const { options } = await projectOptions(projectRoot);
  const loaded = loadContent({ root: projectRoot, contentDir: FIXTURE, excerptLength: options.excerptLength });
  expect(loaded.problems).toEqual([]);
  topics = loaded.content.topics;
  // Topic counts written out here: topics whose author is the member, in any case.
  members = loaded.content.members.map((member) => ({
    name: member.name, slug: memberSlug(member.name), joined: member.joined, group: member.group,
    twitter: member.twitter ?? '', website: member.website ?? '', jabber: member.jabber ?? '', location: member.location ?? '', interests: member.interests ?? '',
    topics: topics.filter((topic) => topic.author.toLowerCase() === member.name.toLowerCase()).length,
  }));
  const { outDir } = await buildSite(FIXTURE);
  site = await serveStatic(outDir);
  browser = await launchChromium();
  withJs = await browser.newContext();
  await withJs.clock.setFixedTime(NOW);
  noJs = await browser.newContext({ javaScriptEnabled: false });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const search = (changes: Partial<MemberQuery>): MemberQuery => ({ ...EMPTY_MEMBER_QUERY, ...changes });
/** The oracle's names on one page of a search. */
const expectedNames = (query: MemberQuery, page = 1) =>
  expectedMembers(members, query, NOW).slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((m) => m.name);
const memberUrl = (member: MemberRecord) => `${site.url}/members/${encodeURIComponent(member.slug)}/`;
const byName = (name: string) => members.find((m) => m.name === name)!;

async function open(page: Page, url: string): Promise<void> {
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(200);
}

const shownNames = (page: Page) => page.$$eval('[data-members] [data-member]', (cards) => cards.map((card) => card.getAttribute('data-name')));

/** Waits until the page shows exactly the members the oracle finds for `query` (on `pageNumber`), with the right count. */
async function expectShown(page: Page, query: MemberQuery, pageNumber = 1): Promise<void> {
  await expect.poll(() => shownNames(page), { timeout: 10_000 }).toEqual(expectedNames(query, pageNumber));
  const total = expectedMembers(members, query, NOW).length;
  expect(await page.textContent('[data-result-count]')).toContain(String(total));
}

/** The URL's search parameters as a plain object (`group` as written). */
const urlParams = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

/** Reads the member cards: what each shows. */
function readCards(page: Page) {
  return page.$$eval('[data-members] [data-member]', (cards) =>
    cards.map((card) => {
      const field = (name: string) => card.querySelector(`[data-field="${name}"] dd`)?.textContent?.trim() ?? '';
      return {
        name: card.getAttribute('data-name') ?? '',
        link: card.querySelector<HTMLAnchorElement>('[data-member-link]')?.href ?? '',
        linkText: card.querySelector('[data-member-link]')?.textContent?.trim() ?? '',
        joined: card.querySelector('[data-joined]')?.textContent?.trim() ?? '',
        group: card.querySelector('[data-group]')?.textContent?.trim() ?? '',
        topics: card.querySelector('[data-topic-count]')?.textContent?.trim() ?? '',
        twitter: field('twitter'), website: field('website'), jabber: field('jabber'), location: field('location'), interests: field('interests'),
        websiteHref: card.querySelector('[data-field="website"] a')?.getAttribute('href') ?? '',
        anchors: [...card.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? ''),
      };
    }),
  );
}

/** Every card shows its member's facts and only the profile fields that are set; the website as an http(s) link. */
async function expectCardsMatch(page: Page): Promise<void> {
  for (const card of await readCards(page)) {
    const member = byName(card.name);
    expect(card.linkText).toBe(member.name);
    expect(card.link).toBe(memberUrl(member));
    expect([card.joined, card.group, card.topics]).toEqual([member.joined, member.group, String(member.topics)]);
    for (const field of FIELDS) expect(card[field], `${member.name} ${field}`).toBe(member[field]);
    expect(card.websiteHref).toBe(member.website);
    for (const href of card.anchors) expect(href).toMatch(/^(https?:\/\/|\/)/);
  }
}

describe('/members/ without JavaScript', () => {
  it('lists every member, 24 a page, names A→Z, through the static pagination links', async () => {
    const page = await noJs.newPage();
    await open(page, `${site.url}/members/`);
    const all = expectedNames(EMPTY_MEMBER_QUERY, 1).concat(expectedNames(EMPTY_MEMBER_QUERY, 2), expectedNames(EMPTY_MEMBER_QUERY, 3));
    expect(all).toHaveLength(members.length);
    const seen: string[] = [];
    const pages: string[] = [];
    for (;;) {
      pages.push(new URL(page.url()).pathname);
      const shown = await shownNames(page);
      expect(shown.length).toBe(Math.min(PAGE_SIZE, members.length - seen.length));
      seen.push(...(shown as string[]));
      expect(await page.textContent('[data-result-count]')).toContain(String(members.length));
      await expectCardsMatch(page);
      const next = await page.$('[data-pagination] a[rel="next"]');
      if (!next) break;
      await Promise.all([page.waitForURL((url) => url.pathname !== pages.at(-1)), next.click()]);
      expect(await page.$('[data-pagination] a[rel="prev"]')).not.toBeNull();
    }
    expect(seen).toEqual(all);
    expect(pages).toEqual(['/members/', '/members/2/', '/members/3/']);
    await page.close();
  });

  it('escapes a member name that looks like markup', async () => {
    const page = await noJs.newPage();
    await open(page, `${site.url}/members/`);
    expect(await page.$$('[data-members] b, [data-members] bot')).toHaveLength(0);
    await page.close();
  });
});

describe('member search with JavaScript', () => {
  let page: Page;
  beforeAll(async () => {
    page = await withJs.newPage();
  });
  afterAll(async () => {
    await page.close();
  });

  /** Opens /members/ afresh (form empty) and waits for the form to be usable. */
  async function fresh(url = `${site.url}/members/`): Promise<void> {
    await open(page, url);
    await page.waitForSelector('[data-member-form]', { state: 'visible' });
  }

  it.each([
    ['q', 'an'], ['q', 'ANA'], ['location', 'LISBON'], ['interests', 'api'], ['website', 'HTTPS://'], ['twitter', '_dev'], ['jabber', 'chat.example'], ['q', 'no such member'],
  ] as const)('filters by %s contains "%s", ignoring case', async (field, value) => {
    await fresh();
    await page.fill(`#member-${field}`, value);
    await page.waitForURL((url) => url.searchParams.get(field) === value);
    const query = search({ [field]: value });
    await expectShown(page, query);
    await expectCardsMatch(page);
  });

  it.each(['day', 'week', 'month', 'six_months', 'year'] as const)('filters by joined in the last %s (visitor clock fixed)', async (preset) => {
    await fresh();
    await page.selectOption('#member-joined', preset);
    await page.waitForURL((url) => url.searchParams.get('joined') === preset);
    await expectShown(page, search({ joined: { kind: 'preset', preset } }));
  });

  it('filters by a custom joined range, both days included', async () => {
    await fresh();
    const from = dayOffset(NOW, -200);
    const to = dayOffset(NOW, -7);
    await page.selectOption('#member-joined', 'custom');
    // The choice stays (it does not snap back to "Any time") and the days can be given.
    expect(await page.inputValue('#member-joined')).toBe('custom');
    expect(await page.isVisible('#member-joined_from')).toBe(true);
    await page.fill('#member-joined_from', from);
    await page.fill('#member-joined_to', to);
    await page.waitForURL((url) => url.searchParams.get('joined_to') === to);
    const query = search({ joined: { kind: 'custom', from, to } });
    expect(expectedMembers(members, query, NOW).map((m) => m.joined)).toEqual(expect.arrayContaining([from, to]));
    await expectShown(page, query);
    expect(await page.isVisible('#member-joined_from')).toBe(true);
  });

  it('filters by several groups at once (any of them)', async () => {
    await fresh();
    await page.check('input[name="group"][value="Staff"]');
    await page.check('input[name="group"][value="Core Team"]');
    await page.waitForURL((url) => (url.searchParams.get('group') ?? '').split(',').sort().join() === 'Core Team,Staff');
    await expectShown(page, search({ groups: ['Staff', 'Core Team'] }));
    await page.uncheck('input[name="group"][value="Staff"]');
    await page.waitForURL((url) => url.searchParams.get('group') === 'Core Team');
    await expectShown(page, search({ groups: ['Core Team'] }));
  });

  it.each([
    ['name', 'desc'], ['joined', ''], ['joined', 'asc'], ['topics', ''], ['topics', 'asc'], ['topics', 'desc'],
  ] as const)('sorts by %s, direction "%s"', async (sort, dir) => {
    await fresh();
    await page.selectOption('#member-sort', sort);
    if (dir) await page.selectOption('#member-dir', dir);
    const query = search({ sort, ...(dir ? { dir } : {}) });
    await expectShown(page, query);
    await expectCardsMatch(page);
  });

  it('combines filters (AND across filters) with a sort', async () => {
    await fresh();
    await page.check('input[name="group"][value="Members"]');
    await page.check('input[name="group"][value="Alumni"]');
    await page.selectOption('#member-joined', 'year');
    await page.selectOption('#member-sort', 'joined');
    await page.selectOption('#member-dir', 'asc');
    await page.fill('#member-q', 'a');
    await page.waitForURL((url) => url.searchParams.get('q') === 'a');
    const query = search({ q: 'a', groups: ['Members', 'Alumni'], joined: { kind: 'preset', preset: 'year' }, sort: 'joined', dir: 'asc' });
    const found = expectedMembers(members, query, NOW);
    expect(found.length).toBeGreaterThan(1);
    expect(found.length).toBeLessThan(expectedMembers(members, search({ groups: ['Members', 'Alumni'] }), NOW).length);
    await expectShown(page, query);
  });

  it('pages 24 at a time; page 2 through the pagination link; a shared URL gives the same page', async () => {
    await fresh();
    await page.selectOption('#member-sort', 'topics');
    const query = search({ sort: 'topics' });
    await expectShown(page, query, 1);
    await Promise.all([page.waitForURL((url) => url.searchParams.get('page') === '2'), page.click('[data-pagination] a[rel="next"]')]);
    await expectShown(page, query, 2);
    expect(urlParams(page)).toEqual({ sort: 'topics', page: '2' });
    await expectCardsMatch(page);

    const shared = page.url();
    const other = await withJs.newPage();
    await open(other, shared);
    await expect.poll(() => shownNames(other), { timeout: 10_000 }).toEqual(expectedNames(query, 2));
    expect(await other.inputValue('#member-sort')).toBe('topics');
    await other.close();
  });

  it('a shared URL with every kind of filter reproduces the results and fills the form', async () => {
    const query = search({ q: 'a', groups: ['members', 'STAFF'], location: 'a', sort: 'joined', dir: 'asc', joined: { kind: 'custom', from: '2016-01-01', to: '2024-06-14' } });
    const url = `${site.url}/members/?q=a&group=members&group=STAFF&location=a&joined=custom&joined_from=2016-01-01&joined_to=2024-06-14&sort=joined&dir=asc`;
    expect(expectedMembers(members, query, NOW).length).toBeGreaterThan(0);
    await fresh(url);
    await expectShown(page, query);
    expect(await page.inputValue('#member-q')).toBe('a');
    expect(await page.inputValue('#member-location')).toBe('a');
    expect(await page.inputValue('#member-joined')).toBe('custom');
    expect(await page.inputValue('#member-joined_from')).toBe('2016-01-01');
    expect(await page.isChecked('input[name="group"][value="Staff"]')).toBe(true);
    expect(await page.isChecked('input[name="group"][value="Members"]')).toBe(true);
    expect(await page.isChecked('input[name="group"][value="Alumni"]')).toBe(false);
  });

  it('explains malformed parameters and still applies the good ones', async () => {
    await fresh(`${site.url}/members/?q=an&sort=popular&joined=fortnight&page=x`);
    await expectShown(page, search({ q: 'an' }));
    const notes = await page.textContent('[data-search-notes]');
    for (const name of ['sort', 'joined', 'page']) expect(notes).toContain(`${name}=`);
  });

  it('back and forward step through searches, results and form together', async () => {
    await fresh();
    await page.fill('#member-q', 'an');
    await page.waitForURL((url) => url.searchParams.get('q') === 'an');
    await page.selectOption('#member-sort', 'joined');
    await page.waitForURL((url) => url.searchParams.get('sort') === 'joined');
    const first = search({ q: 'an' });
    const second = search({ q: 'an', sort: 'joined' });
    await expectShown(page, second);
    await page.goBack();
    await expectShown(page, first);
    expect(await page.inputValue('#member-sort')).toBe('name');
    await page.goBack();
    await expectShown(page, EMPTY_MEMBER_QUERY);
    expect(await page.inputValue('#member-q')).toBe('');
    await page.goForward();
    await expectShown(page, first);
    expect(await page.inputValue('#member-q')).toBe('an');
    await page.goForward();
    await expectShown(page, second);
  });

  it('going back to a static page 2 after a search shows page 2 again', async () => {
    await fresh(`${site.url}/members/2/`);
    await expectShown(page, EMPTY_MEMBER_QUERY, 2);
    await page.fill('#member-q', 'an');
    await page.waitForURL((url) => url.searchParams.get('q') === 'an');
    await expectShown(page, search({ q: 'an' }));
    await page.goBack();
    expect(new URL(page.url()).pathname).toBe('/members/2/');
    await expectShown(page, EMPTY_MEMBER_QUERY, 2);
  });

  it('shows a website only as an http(s) link, even when the data says otherwise', async () => {
    const target = members.find((m) => m.website)!;
    await page.route('**/search-index/members.json', async (route) => {
      const response = await route.fetch();
      const records = (await response.json()) as MemberRecord[];
      for (const record of records) if (record.name === target.name) record.website = 'javascript:alert(document.domain)';
      await route.fulfill({ response, json: records });
    });
    await fresh(`${site.url}/members/?q=${encodeURIComponent(target.name)}`);
    await expect.poll(() => shownNames(page), { timeout: 10_000 }).toContain(target.name);
    const card = (await readCards(page)).find((c) => c.name === target.name)!;
    expect(card.website).toBe('');
    expect(card.anchors.filter((href) => /^\s*javascript:/i.test(href))).toEqual([]);
    await page.unroute('**/search-index/members.json');
  });

  it('a member card links to the member page', async () => {
    const member = byName('Q&A <bot>');
    await fresh(`${site.url}/members/?q=${encodeURIComponent('q&a')}`);
    await expect.poll(() => shownNames(page), { timeout: 10_000 }).toEqual([member.name]);
    await Promise.all([page.waitForURL(memberUrl(member)), page.click('[data-member-link]')]);
    expect(await page.getAttribute('[data-member-profile]', 'data-name')).toBe(member.name);
  });
});

/** The member's topics in SPEC 4.1's default order, written out here. */
const topicsOf = (member: MemberRecord) =>
  topics
    .filter((topic) => topic.author.toLowerCase() === member.name.toLowerCase())
    .sort((a, b) => b.updatedMs - a.updatedMs || b.createdMs - a.createdMs || (a.slug < b.slug ? -1 : 1));

describe('member pages', () => {
  it('show every member\'s profile and topics as a listing with the SPEC 4.1 hooks', async () => {
    const page = await noJs.newPage();
    for (const member of members) {
      await open(page, memberUrl(member));
      const shown = await page.evaluate(() => {
        const text = (selector: string) => document.querySelector(selector)?.textContent?.trim() ?? null;
        const profile = document.querySelector('[data-member-profile]');
        return {
          name: profile?.getAttribute('data-name'),
          heading: text('[data-member-profile] h1'),
          joined: text('[data-member-profile] [data-joined]'),
          group: text('[data-member-profile] [data-group]'),
          topicCount: text('[data-member-profile] [data-topic-count]'),
          fields: Object.fromEntries([...document.querySelectorAll('[data-member-profile] [data-field]')].map((dd) => [dd.getAttribute('data-field'), dd.textContent?.trim()])),
          website: document.querySelector('[data-member-profile] [data-field="website"] a')?.getAttribute('href') ?? '',
          listingHeading: text('[data-search-heading]'),
          count: text('[data-result-count]'),
          results: [...document.querySelectorAll('[data-results] [data-result]')].map((r) => ({
            slug: r.getAttribute('data-topic'),
            title: r.querySelector('a[data-title]')?.getAttribute('href') ?? null,
          })),
        };
      });
      const own = topicsOf(member);
      expect(shown.name).toBe(member.name);
      expect(shown.heading).toBe(member.name);
      expect([shown.joined, shown.group, shown.topicCount]).toEqual([member.joined, member.group, String(member.topics)]);
      expect(shown.fields).toEqual(Object.fromEntries(FIELDS.filter((f) => member[f]).map((f) => [f, member[f]])));
      expect(shown.website).toBe(member.website);
      expect(shown.listingHeading).toContain(member.name);
      expect(shown.count).toBe(`Found ${own.length} result${own.length === 1 ? '' : 's'}`);
      expect(shown.results.map((r) => r.slug)).toEqual(own.map((t) => t.slug));
      expect(shown.results.map((r) => r.title)).toEqual(own.map((t) => `/topics/${t.slug}/`));
    }
    expect(members.some((m) => m.topics === 0) && members.some((m) => m.topics > 2)).toBe(true);
    await page.close();
  });

  it('a topic page links its author to the member page when the author is a listed member', async () => {
    const page = await noJs.newPage();
    for (const topic of topics) {
      await open(page, `${site.url}/topics/${topic.slug}/`);
      const member = members.find((m) => m.name.toLowerCase() === topic.author.toLowerCase());
      expect(await page.textContent('[data-author]')).toBe(topic.author);
      const link = await page.$('[data-author] a');
      if (!member) {
        expect(link, topic.author).toBeNull();
        continue;
      }
      expect(await link!.getAttribute('href')).toBe(`/members/${encodeURIComponent(member.slug)}/`);
    }
    // One author spelt in another case than the member; following the link reaches the profile.
    const differentCase = topics.find((t) => t.author !== t.author.toLowerCase() && members.some((m) => m.name === t.author.toLowerCase()))!;
    await open(page, `${site.url}/topics/${differentCase.slug}/`);
    await Promise.all([page.waitForURL(/\/members\//), page.click('[data-author] a')]);
    expect(await page.getAttribute('[data-member-profile]', 'data-name')).toBe(differentCase.author.toLowerCase());
    expect(topics.some((t) => !members.some((m) => m.name.toLowerCase() === t.author.toLowerCase()))).toBe(true);
    await page.close();
  });
});
