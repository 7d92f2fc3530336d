// The forum importer's pure rules: retry timing, secrets in messages, HTML to Markdown, forum ids,
// a topic's fields and the values changed, tags of both Discourse shapes, member records.
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jsonClient, MAX_RETRY_AFTER_MS, redact, retryDelay, FetchFailure } from '../../src/import/http.ts';
import { postMarkdown, safeAddress } from '../../src/import/post-markdown.ts';
import { cutText, forumIds, forumTopicText, isoSecond, parentsFirst, topicFields, withDescendants } from '../../src/import/mapping.ts';
import { discourseCategories, discourseTag, discourseTopic } from '../../src/import/discourse.ts';
import { ipsMember, ipsTopic } from '../../src/import/ips.ts';
import { memberRecord } from '../../src/import/content-data.ts';
import { forumUrl } from '../../src/import/arguments.ts';
import { readTopic } from '../../src/content/topics.ts';
import { readContentTypes } from '../../src/content/content-types.ts';
import type { SourceTopic } from '../../src/import/source.ts';
import { progressLine } from '../../src/import/progress.ts';

describe('retry timing', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('doubles the delay for 5xx, timeouts, broken connections and pages that are not JSON', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelay({ status: 503 }, attempt, 100, now))).toEqual([100, 200, 400, 800]);
    expect(retryDelay('timeout', 2, 100, now)).toBe(200);
    expect(retryDelay('network', 1, 100, now)).toBe(100);
    expect(retryDelay('not-json', 3, 100, now)).toBe(400);
  });
  it('waits as Retry-After says on 429: seconds or an HTTP date, the doubling delay without one', () => {
    expect(retryDelay({ status: 429, retryAfter: '7' }, 1, 100, now)).toBe(7000);
    expect(retryDelay({ status: 429, retryAfter: new Date(now + 3000).toUTCString() }, 1, 100, now)).toBe(3000);
    expect(retryDelay({ status: 429, retryAfter: new Date(now - 3000).toUTCString() }, 1, 100, now)).toBe(0);
    expect(retryDelay({ status: 429, retryAfter: null }, 2, 100, now)).toBe(200);
    expect(retryDelay({ status: 429, retryAfter: 'soon' }, 1, 100, now)).toBe(100);
    expect(retryDelay({ status: 429, retryAfter: String(MAX_RETRY_AFTER_MS / 1000 + 1) }, 1, 100, now)).toBeUndefined();
  });
  it('gives up at once on other statuses', () => {
    for (const status of [400, 401, 403, 404]) expect(retryDelay({ status }, 1, 100, now)).toBeUndefined();
  });

  it('a client waits with the injected clock, within its concurrency, and its failures never name the key', async () => {
    let running = 0;
    let most = 0;
    let calls = 0;
    const server = createServer((request, response) => {
      running++;
      most = Math.max(most, running);
      calls++;
      setTimeout(() => {
        running--;
        if (request.url === '/busy' && calls <= 1) response.writeHead(429, { 'Retry-After': '30' }).end();
        else if (request.url!.startsWith('/broken')) response.writeHead(502).end();
        else response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      }, 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const waits: number[] = [];
    const client = jsonClient({ timeoutMs: 2000, retryDelayMs: 10, attempts: 3, concurrency: 2, headers: { Authorization: 'Basic c2VjcmV0' }, secrets: ['s3cret'], sleep: async (ms) => void waits.push(ms), now: () => 0 });
    try {
      expect(await client.getJson(`${base}/busy`)).toEqual({ ok: true });
      expect(waits).toEqual([30_000]);
      await Promise.all(Array.from({ length: 6 }, () => client.getJson(`${base}/ok`)));
      expect(most).toBeLessThanOrEqual(2);
      const failure = await client.getJson(`${base}/broken?token=s3cret`).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(FetchFailure);
      expect((failure as Error).message).toBe('GET /broken?token=***: HTTP 502 (after 3 tries)');
    } finally {
      server.close();
    }
  });

  it('redacts every occurrence of every secret', () => {
    expect(redact('a KEY b KEY', ['KEY', ''])).toBe('a *** b ***');
  });
});

describe('HTML to Markdown', () => {
  const base = 'https://forum.example/community/';
  it('keeps links and images, resolves relative ones, and drops everything that could run', () => {
    const markdown = postMarkdown(
      '<p onclick="x()">See <a href="/topic/5/">topic 5</a>, <a href="javascript:alert(1)">this</a>, <a href="java\tscript:alert(2)">that</a>, <a href="mailto:a@b.example">mail</a>.</p>' +
        '<script>alert(3)</script><style>p{}</style><iframe src="https://x.example"></iframe><form><input value="v"></form>' +
        '<img src="pic.png" alt="A [pic]" onerror="alert(4)"><img src="data:image/png;base64,AA" alt="inline"><img data-src="https://cdn.example/real.png" src="blank.gif" alt="lazy">' +
        '<p>&lt;script&gt;alert(5)&lt;/script&gt; &amp;amp; AT&amp;T</p>',
      base,
    );
    expect(markdown).toContain('[topic 5](https://forum.example/topic/5/)');
    expect(markdown).toContain('[mail](mailto:a@b.example)');
    expect(markdown).toContain('![A \\[pic\\]](https://forum.example/community/pic.png)');
    expect(markdown).toContain('![lazy](https://cdn.example/real.png)');
    expect(markdown).toContain('&lt;script&gt;alert(5)&lt;/script&gt; &amp;amp; AT&T');
    expect(markdown).not.toMatch(/javascript|alert\([1-4]\)|onerror|onclick|<script|<iframe|data:/i);
  });
  it("what it writes renders, through the build's own Markdown, to no script, handler or javascript: URL", () => {
    const markdown = postMarkdown('<p><a href="https://ok.example/" title="x">ok</a> &lt;img src=x onerror=alert(1)&gt;</p><pre class="ipsCode">&lt;b&gt; ```</pre>', base);
    const types = readContentTypes({ data: { forums: [{ id: 'f', name: 'F' }] }, lineOf: () => undefined }, 'content-types.json').index;
    const read = readTopic('t.md', `---\ntitle: T\nauthor: a\ncreated: 2024-01-01\nforum: f\n---\n${markdown}\n`, { contentTypes: types, excerptLength: 200 });
    expect(read.problems).toEqual([]);
    expect(read.topic!.html).toContain('<a href="https://ok.example/"');
    expect(read.topic!.html).not.toMatch(/<img/);
    expect(read.topic!.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(markdown).toContain('````\n<b> ```\n````');
  });
  it('accepts only http, https (and mailto for links)', () => {
    expect(safeAddress('//cdn.example/x', 'https://f.example/')).toBe('https://cdn.example/x');
    expect(safeAddress('vbscript:x', 'https://f.example/')).toBeUndefined();
    expect(safeAddress('mailto:x@y.example', 'https://f.example/')).toBeUndefined();
    expect(safeAddress('#top', 'https://f.example/')).toBeUndefined();
  });
});

describe('forums', () => {
  const forums = [
    { id: '3', name: 'Scripting', parentId: '2' },
    { id: '2', name: 'Help & Support', parentId: '1' },
    { id: '1', name: 'Community' },
    { id: '9', name: '日本語' },
    { id: '7', name: 'Loop A', parentId: '8' },
    { id: '8', name: 'Loop B', parentId: '7' },
  ];
  it('orders parents before children and puts a loop at the top', () => {
    const ordered = parentsFirst(forums);
    expect(ordered.map((f) => f.id)).toEqual(['1', '2', '3', '9', '8', '7']);
    expect(ordered.find((f) => f.id === '8')!.parentId).toBeUndefined();
  });
  it('makes valid ids from names, unique, stable across runs, and finds an existing forum of the same id and name', () => {
    const existing = new Map<string, string | undefined>([['community', 'Community'], ['scripting', undefined]]);
    const ids = forumIds(forums, existing, new Map());
    expect(Object.fromEntries(ids)).toEqual({ '1': 'community', '2': 'help-and-support', '3': 'scripting-2', '9': 'forum-9', '7': 'loop-a', '8': 'loop-b' });
    const again = forumIds(forums, new Map([...existing, ...[...ids.values()].map((id) => [id, 'x'] as [string, string])]), ids);
    expect(again).toEqual(ids);
    expect(forumIds([{ id: '5', name: '!!!' }], new Map(), new Map()).get('5')).toBe('forum-5');
  });
  it('--forums takes sub-forums along', () => {
    expect([...withDescendants(['1'], forums)].sort()).toEqual(['1', '2', '3']);
  });
  it('reads Discourse categories flat (site.json) and nested (categories.json)', () => {
    expect(discourseCategories({ categories: [{ id: 1, name: 'A', slug: 'a' }, { id: 2, name: 'B', slug: 'b', parent_category_id: 1 }] }, 'https://d.example/')).toEqual([
      { id: '1', name: 'A', url: 'https://d.example/c/a/1' },
      { id: '2', name: 'B', parentId: '1', url: 'https://d.example/c/b/2' },
    ]);
    const nested = discourseCategories({ category_list: { categories: [{ id: 1, name: 'A', slug: 'a', subcategory_list: [{ id: 2, name: 'B', slug: 'b' }] }] } }, 'https://d.example/');
    expect(nested[1]).toMatchObject({ id: '2', parentId: '1' });
  });
});

describe('topics', () => {
  const topic = (change: Partial<SourceTopic> = {}): SourceTopic => ({
    id: '12', url: 'https://f.example/topic/12/', title: 'A title', author: 'mira', created: '2024-03-04T10:15:30.250Z', updated: '2024-03-06T00:00:00Z',
    forumId: '2', tags: ['API', ' web  search '], replies: 3, views: 9, hidden: false, stamp: 's', ...change,
  });
  const context = { forumIds: new Map([['2', 'help']]), fallbackForum: 'imported-topics', tagsPerTopic: 3 };
  it('maps the values, the prefix first among the tags', () => {
    const mapped = topicFields(topic({ prefix: 'Solved' }), 'mira', context);
    expect(mapped).toEqual({ fields: { title: 'A title', author: 'mira', created: '2024-03-04T10:15:30Z', updated: '2024-03-06T00:00:00Z', forum: 'help', tags: ['solved', 'api', 'web search'], replies: 3, views: 9 }, conversions: [] });
  });
  it('names every value it changes', () => {
    const mapped = topicFields(topic({ title: `${'word '.repeat(50)}end`, forumId: '77', tags: ['a', 'x'.repeat(51), 'b,c', 'A', 'd', 'e'], updated: '2024-01-01T00:00:00Z' }), '', context);
    if ('skip' in mapped) throw new Error(mapped.skip);
    expect([...mapped.fields.title].length).toBeLessThanOrEqual(200);
    expect(mapped.fields.title.endsWith('word…')).toBe(true);
    expect(mapped.fields).toMatchObject({ author: 'Guest', forum: 'imported-topics', tags: ['a', 'd', 'e'], updated: mapped.fields.created });
    expect(mapped.conversions.map((c) => c.field)).toEqual(['updated', 'title', 'author', 'forum', 'tags', 'tags']);
  });
  it('skips a topic without a valid first post date, and the text reads back', () => {
    expect(topicFields(topic({ created: 'yesterday' }), 'mira', context)).toEqual({ skip: 'its first post has no valid date ("yesterday")' });
    expect(isoSecond('0999-01-01T00:00:00Z')).toBeUndefined();
    expect(cutText('short', 10)).toBe('short');
    const text = forumTopicText('https://f.example/t/1\nx', { title: "It's: #1", author: '-x', created: '2024-01-01T00:00:00Z', updated: '2024-01-01T00:00:00Z', forum: 'help', tags: ['c#', '[x]'], replies: 0, views: 0 }, 'Body');
    expect(text.split('\n')[1]).toBe('# imported by import-forum from https://f.example/t/1x');
    const types = readContentTypes({ data: { forums: [{ id: 'help', name: 'Help' }] }, lineOf: () => undefined }, 'content-types.json').index;
    const read = readTopic('t.md', text, { contentTypes: types, excerptLength: 200 });
    expect(read.problems).toEqual([]);
    expect(read.topic).toMatchObject({ title: "It's: #1", author: '-x', tags: ['c#', '[x]'] });
  });
  it('reads both Discourse tag shapes and the IPS topic and member objects', () => {
    expect(discourseTag('json')).toBe('json');
    expect(discourseTag({ id: 3, name: 'web api', slug: 'web-api' })).toBe('web api');
    expect(discourseTopic({ id: 5, title: 'T', slug: 't', posts_count: 4, views: 2, created_at: '2024-01-01T00:00:00Z', last_posted_at: '2024-01-02T00:00:00Z', category_id: 3, tags: [{ name: 'a' }, 'b'], visible: false }, 'https://d.example/')).toMatchObject({
      id: '5', url: 'https://d.example/t/t/5', replies: 3, forumId: '3', tags: ['a', 'b'], hidden: true,
    });
    expect(ipsTopic({ id: 1, title: 'T', forum: { id: 2 }, posts: 1, views: 4, prefix: 'Solved', tags: ['x'], firstPost: { author: { name: 'm' }, date: '2024-01-01T00:00:00Z', content: '<p>x</p>' }, lastPost: { date: '2024-01-03T00:00:00Z' }, hidden: false, url: 'https://f.example/topic/1-t/' }, 'https://f.example/')).toMatchObject({
      replies: 0, prefix: 'Solved', html: '<p>x</p>', updated: '2024-01-03T00:00:00Z', tagUrls: { Solved: 'https://f.example/tags/Solved/', x: 'https://f.example/tags/x/' },
    });
    expect(ipsMember({ name: 'm', joined: '2020-05-06T07:00:00Z', primaryGroup: { name: 'Members' }, email: 'private@x', customFields: { 1: { name: 'Info', fields: { 1: { name: 'Location', value: 'Oslo' }, 2: { name: 'Twitter', value: '@m' }, 3: { name: 'Shoe size', value: '44' } } } } })).toEqual({
      name: 'm', joined: '2020-05-06T07:00:00Z', group: 'Members', location: 'Oslo', twitter: '@m', url: undefined,
    });
  });
  it('a member record: date only, group by default, websites that can be published, fields cut to their limits', () => {
    expect(memberRecord({ name: 'm', joined: '2020-05-06T23:59:00-02:00', website: 'ftp://x', interests: 'i'.repeat(600) }, 'https://forum.example/')).toEqual({
      member: { name: 'm', joined: '2020-05-07', group: 'Members', interests: 'i'.repeat(500) },
      notes: ['website "ftp://x" is not an http or https address: left out', 'interests is 600 characters: cut to 500'],
    });
    expect(memberRecord({ name: 'm' }, 'https://forum.example/')).toEqual({ skip: 'no valid join date (null)' });
  });
  it('the forum address is checked and made a base', () => {
    expect(forumUrl('https://f.example/community')).toEqual({ url: 'https://f.example/community/' });
    expect(forumUrl('https://f.example/?x=1')).toHaveProperty('problem');
  });
});

describe('progress line', () => {
  const stream = (isTTY: boolean) => {
    const written: string[] = [];
    return { written, stream: { isTTY, columns: 40, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream };
  };
  it('updates one line on a terminal and clears it at the end', () => {
    const { written, stream: tty } = stream(true);
    const line = progressLine(tty);
    line.show('page 1/3: 50 topics read');
    line.note('GET /x: HTTP 429; trying again in 1.0 s');
    line.done();
    expect(written[0]).toBe('\r\x1b[Kpage 1/3: 50 topics read');
    expect(written[1]!.length).toBeLessThanOrEqual(4 + 39);
    expect(written.at(-1)).toBe('\r\x1b[K');
  });
  it('says nothing elsewhere (a log, CI)', () => {
    const { written, stream: log } = stream(false);
    const line = progressLine(log);
    line.show('page 1');
    line.done();
    expect(written).toEqual([]);
  });
});
