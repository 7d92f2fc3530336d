/**
 * Fake forums on 127.0.0.1 for the importer's tests and bench: an Invision Community REST API and a
 * Discourse, serving the shapes their documentation gives, with invented content (nested forums,
 * hostile HTML, over-long titles and tags, hidden topics, both Discourse tag shapes) and, when asked,
 * the faults real servers have: a 429 with Retry-After, a 500, a reply slower than the client's
 * timeout, a page that is not JSON.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeTopic {
  id: number;
  title: string;
  author: string;
  forum: number;
  tags: string[];
  prefix?: string;
  posts: number;
  views: number;
  created: string;
  updated: string;
  hidden: boolean;
  html: string;
}

export interface FakeForum {
  id: number;
  name: string;
  parentId: number | null;
  type: string;
}

export const FAKE_FORUMS: FakeForum[] = [
  { id: 1, name: 'Community', parentId: null, type: 'category' },
  { id: 2, name: 'Help & Support', parentId: 1, type: 'discussions' },
  { id: 3, name: 'Scripting', parentId: 2, type: 'discussions' },
  { id: 4, name: 'Share your Workflows', parentId: 1, type: 'discussions' },
  { id: 5, name: 'Announcements', parentId: null, type: 'discussions' },
  { id: 6, name: 'Old site', parentId: null, type: 'redirect' },
];

export const HOSTILE_HTML =
  '<p>Read <a href="https://docs.example/api">the docs</a> and <a href="javascript:alert(1)">click me</a>.</p>' +
  '<script>alert("xss")</script><p onmouseover="steal()">Hover <img src="https://img.example/a.png" alt="diagram" onerror="alert(2)"></p>' +
  '<iframe src="https://evil.example/"></iframe><p><a href=" JAVASCRIPT:alert(3)">again</a> &lt;script&gt;text&lt;/script&gt;</p>' +
  '<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="inline"><pre class="ipsCode">let x = 1 &lt; 2;</pre>';

const WORDS = ['json', 'api', 'clipboard', 'safari', 'python', 'workflow', 'hotkey', 'regex', 'shell', 'finder', 'calendar', 'notes'];
const DAY = 86_400_000;

/** `count` invented topics, deterministic: topic n is in forum 2–5, by member n % 25, with its quirks at n = 1–6. */
export function fakeTopics(count: number, start = Date.parse('2024-01-01T00:00:00Z')): FakeTopic[] {
  const topics: FakeTopic[] = [];
  for (let id = 1; id <= count; id++) {
    const created = start + id * 3_600_000;
    const word = WORDS[id % WORDS.length]!;
    const other = WORDS[(id * 7) % WORDS.length]!;
    topics.push({
      id,
      title: `How do I use ${word} with ${other}? (question ${id})`,
      author: `member${id % 25}`,
      forum: [2, 3, 4, 5][id % 4]!,
      tags: word === other ? [word] : [word, other],
      ...(id % 10 === 0 ? { prefix: 'Solved' } : {}),
      posts: 1 + (id % 7),
      views: 10 + id * 3,
      created: new Date(created).toISOString(),
      updated: new Date(created + (id % 5) * DAY).toISOString(),
      hidden: false,
      // Links to an older topic (relative) and a newer one (absolute, `{{forum}}` being the forum's address): the old addresses an import rewrites.
      html: `<p>I am trying to get <strong>${word}</strong> working with <em>${other}</em> in topic ${id}.</p><ul><li>step one</li><li>step two</li></ul><p>See <a href="/topic/${id > 7 ? id - 7 : id + 1}-an-old-title/">this</a> and <a href="{{forum}}index.php?/topic/${id + 3}-another-title/">that</a>.</p>`,
    });
  }
  const quirk = (id: number, change: Partial<FakeTopic>) => {
    const topic = topics[id - 1];
    if (topic) Object.assign(topic, change);
  };
  quirk(1, { title: 'Hostile post', html: HOSTILE_HTML, tags: ['security'] });
  quirk(2, { title: `A very long title ${'that goes on and on '.repeat(12)}end` });
  quirk(3, { tags: ['ok', 'a'.repeat(60), 'has,comma'] });
  quirk(4, { hidden: true, title: 'Hidden topic' });
  quirk(5, { forum: 99, title: 'Topic in a forum the API does not list' });
  quirk(6, { author: '', title: 'Posted by a guest' });
  return topics;
}

export const MEMBER_COUNT = 25;

export interface FakeServer {
  url: string;
  topics: FakeTopic[];
  /** Every request's path and query, in order. */
  requests: string[];
  /** Headers of every request. */
  headers: Array<Record<string, string | string[] | undefined>>;
  /** Changes a topic as a new reply would: new values, last post now. */
  touch(id: number, change?: Partial<FakeTopic>): void;
  /** Serves no more faults. */
  heal(): void;
  close(): Promise<void>;
}

export interface FakeOptions {
  topics: number;
  /** The API key the server accepts (IPS: Basic user name; Discourse: Api-Key header). */
  key?: string;
  /** Serve the faults (each once, at fixed places). */
  faults?: boolean;
  /** How long the slow reply takes, in ms. */
  slowMs?: number;
}

type Handler = (path: string, query: URLSearchParams, request: IncomingMessage) => unknown;

/** Serves `handle`'s value as JSON; an Error is 404; faults as `fault(path+query)` says, each only the first time. */
async function serve(options: FakeOptions, topics: FakeTopic[], handle: Handler, authorised: (request: IncomingMessage) => boolean, faultAt: Map<string, string>): Promise<FakeServer> {
  const requests: string[] = [];
  const headers: FakeServer['headers'] = [];
  const served = new Set<string>();
  let healed = false;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const address = new URL(request.url ?? '/', 'http://fake');
    const key = `${address.pathname}${address.search}`;
    requests.push(key);
    headers.push(request.headers);
    const json = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      response.writeHead(status, { 'Content-Type': 'application/json', ...extra });
      response.end(JSON.stringify(body));
    };
    if (!authorised(request)) return json(401, { errorCode: '3S290/7', errorMessage: 'INVALID_API_KEY' });
    const fault = options.faults && !healed ? faultAt.get(key) : undefined;
    if (fault && (fault === 'not-json-always' || !served.has(key))) {
      served.add(key);
      if (fault === '429') return json(429, { errors: ['slow down'] }, { 'Retry-After': '1' });
      if (fault === '500') return json(500, { errors: ['oops'] });
      if (fault.startsWith('not-json')) {
        response.writeHead(200, { 'Content-Type': 'text/html' });
        return response.end('<html><body>Down for maintenance</body></html>');
      }
      if (fault === 'slow') {
        setTimeout(() => json(200, handle(address.pathname, address.searchParams, request)), options.slowMs ?? 2000).unref();
        return;
      }
    }
    let body: unknown;
    try {
      body = handle(address.pathname, address.searchParams, request);
    } catch {
      return json(404, { errors: ['not found'] });
    }
    json(200, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    topics,
    requests,
    headers,
    touch(id, change = {}) {
      const topic = topics.find((t) => t.id === id)!;
      Object.assign(topic, change, { updated: new Date().toISOString(), posts: topic.posts + 1 });
    },
    heal: () => {
      healed = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const activityOrder = new WeakMap<FakeTopic[], { key: string; sorted: FakeTopic[] }>();

/** The topics, most recently active first (kept until a topic changes: a big forum's pages are asked for often). */
function byActivity(topics: FakeTopic[]): FakeTopic[] {
  const key = topics.map((topic) => topic.updated).join();
  const cached = activityOrder.get(topics);
  if (cached?.key.length === key.length && cached.key === key) return cached.sorted;
  const sorted = [...topics].sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : b.id - a.id));
  activityOrder.set(topics, { key, sorted });
  return sorted;
}

function page<T>(items: T[], query: URLSearchParams, defaultPerPage: number) {
  // Like real servers, it caps the page size: 50 topics a page whatever is asked for.
  const perPage = Math.min(50, Math.max(1, Number(query.get("perPage") ?? defaultPerPage)));
  const number = Math.max(1, Number(query.get('page') ?? 1));
  return { page: number, perPage, totalResults: items.length, totalPages: Math.max(1, Math.ceil(items.length / perPage)), results: items.slice((number - 1) * perPage, number * perPage) };
}

export function memberName(n: number): string {
  return `member${n}`;
}

/** An Invision Community: /api/forums/forums, /api/forums/topics, /api/core/members, Basic auth with the key as user name. */
export function startFakeIps(options: FakeOptions): Promise<FakeServer> {
  const topics = fakeTopics(options.topics);
  let base = '';
  const forumObject = (id: number) => {
    const forum = FAKE_FORUMS.find((f) => f.id === id) ?? { id, name: `Forum ${id}`, parentId: null, type: 'discussions' };
    return { id: forum.id, name: forum.name, path: forum.name, type: forum.type, topics: 0, url: `${base}forum/${forum.id}-${forum.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/`, parentId: forum.parentId };
  };
  const post = (topic: FakeTopic, date: string, first: boolean) => ({
    id: topic.id * 10 + (first ? 0 : 1), item_id: topic.id, author: { id: topic.author ? 1 : 0, name: topic.author }, date, content: first ? topic.html.replaceAll('{{forum}}', base) : '<p>a reply</p>', hidden: false, url: `${base}topic/${topic.id}/`,
  });
  const members = () => Array.from({ length: MEMBER_COUNT }, (_, n) => ({
    id: n + 1,
    name: memberName(n),
    title: null,
    formattedName: memberName(n),
    primaryGroup: { id: n === 0 ? 4 : 3, name: n === 0 ? 'Administrators' : 'Members', formattedName: 'Members' },
    email: `${memberName(n)}@private.example`,
    joined: new Date(Date.parse('2020-01-01T00:00:00Z') + n * DAY).toISOString(),
    registrationIpAddress: '10.0.0.1',
    profileUrl: `${base}profile/${n + 1}-${memberName(n)}/`,
    customFields: {
      1: { name: 'Personal Information', fields: { 1: { name: 'Location', value: n % 3 === 0 ? 'Lisbon' : '' }, 2: { name: 'Interests', value: 'automation' }, 3: { name: 'Website', value: n === 2 ? 'javascript:alert(1)' : n % 2 ? `https://${memberName(n)}.example/` : '' } } },
    },
  }));
  const handle: Handler = (path, query) => {
    if (path === '/api/forums/forums') return page(FAKE_FORUMS.map((f) => forumObject(f.id)), query, 25);
    if (path === '/api/core/members') return page(members(), query, 25);
    if (path === '/api/forums/topics') {
      const forums = query.get('forums')?.split(',').map(Number);
      const chosen = byActivity(topics).filter((topic) => !forums || forums.includes(topic.forum));
      const result = page(chosen, query, 25);
      return {
        ...result,
        results: result.results.map((topic) => ({
          id: topic.id, title: topic.title, forum: forumObject(topic.forum), posts: topic.posts, views: topic.views, prefix: topic.prefix ?? null, tags: topic.tags,
          firstPost: post(topic, topic.created, true), lastPost: post(topic, topic.updated, false), bestAnswer: null, locked: false, hidden: topic.hidden, pinned: false, featured: false, archived: false, poll: null,
          url: `${base}topic/${topic.id}-${topic.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 40)}/`, rating: 0,
        })),
      };
    }
    throw new Error('not found');
  };
  const expected = options.key === undefined ? undefined : `Basic ${Buffer.from(`${options.key}:`).toString('base64')}`;
  const faults = new Map([
    ['/api/forums/topics?sortBy=updated&sortDir=desc&page=2&perPage=100', '429'],
    ['/api/forums/topics?sortBy=updated&sortDir=desc&page=3&perPage=100', '500'],
    ['/api/forums/topics?sortBy=updated&sortDir=desc&page=4&perPage=100', 'slow'],
    ['/api/forums/topics?sortBy=updated&sortDir=desc&page=5&perPage=100', 'not-json'],
  ]);
  return serve(options, topics, handle, (request) => expected === undefined || request.headers.authorization === expected, faults).then((server) => {
    base = server.url;
    return server;
  });
}

/** A Discourse: /site.json, /categories.json, /latest.json?page=N, /t/<id>.json, /u/<name>.json; Api-Key / Api-Username when a key is set. */
export function startFakeDiscourse(options: FakeOptions): Promise<FakeServer> {
  const topics = fakeTopics(options.topics);
  let base = '';
  // Its links in Discourse's forms: `/t/<slug>/<id>`, and `/t/<slug>/<id>/<post>` on the forum's address.
  const cooked = (html: string) => html.replace(/href="\/topic\/(\d+)-([^"/]*)\/"/g, 'href="/t/$2/$1"').replace(/href="\{\{forum\}\}index\.php\?\/topic\/(\d+)-([^"/]*)\/"/g, `href="${base}t/$2/$1/2"`);
  const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 50) || 'topic';
  const categories = FAKE_FORUMS.filter((f) => f.type !== 'redirect').map((f) => ({ id: f.id, name: f.name, slug: slug(f.name), ...(f.parentId ? { parent_category_id: f.parentId } : {}) }));
  const PER_PAGE = 30;
  const handle: Handler = (path, query) => {
    if (path === '/site.json') return { categories, can_tag_topics: true };
    if (path === '/latest.json') {
      const number = Number(query.get('page') ?? 0);
      const all = byActivity(topics).filter((topic) => !topic.hidden || options.key);
      const rows = all.slice(number * PER_PAGE, (number + 1) * PER_PAGE);
      return {
        users: [],
        topic_list: {
          can_create_topic: false,
          per_page: PER_PAGE,
          ...((number + 1) * PER_PAGE < all.length ? { more_topics_url: `/latest?page=${number + 1}` } : {}),
          topics: rows.map((topic) => ({
            id: topic.id, title: topic.title, fancy_title: topic.title.replace(/&/g, '&amp;'), slug: slug(topic.title), posts_count: topic.posts, reply_count: topic.posts - 1,
            created_at: topic.created, last_posted_at: topic.updated, bumped_at: topic.updated, views: topic.views, category_id: topic.forum, visible: !topic.hidden,
            // Older Discourse lists tags as strings, newer as objects with a name.
            tags: topic.id % 2 ? topic.tags : topic.tags.map((tag, i) => ({ id: i + 1, name: tag, slug: slug(tag) })),
          })),
        },
      };
    }
    const topic = /^\/t\/(\d+)\.json$/.exec(path);
    if (topic) {
      const found = topics[Number(topic[1]) - 1];
      if (!found) throw new Error('not found');
      return { id: found.id, title: found.title, post_stream: { posts: [{ id: found.id * 10, post_number: 1, username: found.author || 'system', cooked: cooked(found.html), created_at: found.created }], stream: [found.id * 10] }, details: { created_by: { username: found.author } } };
    }
    const user = /^\/u\/([^/]+)\.json$/.exec(path);
    if (user) {
      const name = decodeURIComponent(user[1]!);
      const n = Number(name.replace('member', ''));
      if (!/^member\d+$/.test(name) || n === 7) throw new Error('hidden profile');
      return { user: { id: n + 1, username: name, name: `Member ${n}`, created_at: new Date(Date.parse('2021-03-01T00:00:00Z') + n * DAY).toISOString(), trust_level: 1, location: n % 2 ? 'Porto' : undefined, website: n % 4 === 1 ? `https://${name}.example/` : undefined } };
    }
    throw new Error('not found');
  };
  const faults = new Map([
    ['/latest.json?page=1', '429'],
    ['/t/10.json', '500'],
    ['/t/11.json', 'slow'],
    ['/t/12.json', 'not-json-always'],
  ]);
  const authorised = (request: IncomingMessage) => options.key === undefined || (request.headers['api-key'] === options.key && request.headers['api-username'] === 'importer');
  return serve(options, topics, handle, authorised, faults).then((server) => {
    base = server.url;
    return server;
  });
}
