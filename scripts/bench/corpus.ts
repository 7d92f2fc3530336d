/**
 * The synthetic community the benchmark measures: a valid content folder (SPEC 2) of any size,
 * the same for the same seed. Tags, authors, words, replies and views are long-tailed as on a real
 * forum; dates spread over five years with more activity recently.
 */
import { mkdirSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Random, Zipf } from './random.ts';
import { TextMaker, rareWord } from './text.ts';
import { FIRST_NAMES, GENERAL, TAGS, TECHNICAL } from './vocabulary.ts';
import { normaliseTag } from '../../src/model/tags.ts';
import { DEFAULT_LIMITS } from '../../src/content/limits.ts';

export const DEFAULT_SEED = 'tagsite';
/** The corpus ends on a fixed day, so a seed always gives the same files (not "today"). */
export const DEFAULT_END = '2026-11-01';

export interface CorpusOptions {
  /** Number of topics. */
  count: number;
  seed?: string;
  /** Last day of activity, YYYY-MM-DD. */
  end?: string;
}

export interface CorpusFile {
  /** Path inside the content folder, with `/`. */
  path: string;
  text: string;
}

/** How big each part of a corpus of `count` topics is. */
export function corpusShape(count: number) {
  return {
    // About 2,000 tags at 10,000 topics, growing slower than the topics (Heaps' law).
    tags: Math.max(40, Math.round(2000 * (count / 10_000) ** 0.6)),
    // One member profile for every 20 topics and one link record for every 100, up to what a data
    // file holds by default (limits.dataFileRecords): a bigger community lists its most active members.
    members: Math.min(DEFAULT_LIMITS.dataFileRecords, Math.max(5, Math.round(count / 20))),
    links: Math.min(DEFAULT_LIMITS.dataFileRecords, Math.max(5, Math.round(count / 100))),
    // Distinct rare words: roughly what a real corpus of count × 150 words has.
    rareWords: Math.max(2000, Math.round(30 * Math.sqrt(count * 150))),
  };
}

/** The forum's content types: a forum tree, article categories and feature categories. */
export const CONTENT_TYPES = {
  forums: [
    { id: 'automation', name: 'Automation', children: [{ id: 'share-workflows', name: 'Share Your Workflows' }, { id: 'ideas', name: 'Ideas & Feature Requests' }] },
    {
      id: 'help', name: 'Help & Support', children: [
        { id: 'scripting', name: 'Scripting', children: [{ id: 'applescript-and-jxa', name: 'AppleScript & JXA' }, { id: 'shell-scripts', name: 'Shell Scripts' }] },
        { id: 'integrations', name: 'Integrations', children: [{ id: 'web-apis', name: 'Web APIs & HTTP' }] },
        { id: 'installation', name: 'Installation & Setup' },
      ],
    },
    { id: 'community', name: 'Community', children: [{ id: 'announcements', name: 'Announcements' }, { id: 'off-topic', name: 'Off-Topic Lounge' }] },
  ],
  categories: [
    { id: 'guides', name: 'Guides', kind: 'articles' },
    { id: 'wiki', name: 'Community Wiki', kind: 'pages' },
    { id: 'action-reference', name: 'Action Reference', kind: 'databases' },
    { id: 'templates', name: 'Workflow Templates', kind: 'templates' },
    { id: 'screencasts', name: 'Screencasts', kind: 'media' },
  ],
  featureCategories: [{ id: 'showcase', name: 'Showcase' }, { id: 'staff-picks', name: 'Staff Picks' }],
};

/** Where topics go ([front-matter field, id], weight). */
const PLACES: Array<readonly [readonly ['forum' | 'category', string], number]> = [
  [['forum', 'automation'], 2], [['forum', 'share-workflows'], 12], [['forum', 'ideas'], 6],
  [['forum', 'help'], 4], [['forum', 'scripting'], 8], [['forum', 'applescript-and-jxa'], 6],
  [['forum', 'shell-scripts'], 6], [['forum', 'integrations'], 4], [['forum', 'web-apis'], 8],
  [['forum', 'installation'], 5], [['forum', 'community'], 2], [['forum', 'announcements'], 1],
  [['forum', 'off-topic'], 4], [['category', 'guides'], 4], [['category', 'wiki'], 2],
  [['category', 'action-reference'], 2], [['category', 'templates'], 2], [['category', 'screencasts'], 1],
  [['category', 'showcase'], 2], [['category', 'staff-picks'], 1],
];

/** The first `size` tags, most common first; a smaller corpus's tags are a prefix of a bigger one's. */
export function tagList(size: number): string[] {
  const random = new Random('tag-list');
  const seen = new Set<string>();
  const tags: string[] = [];
  const add = (tag: string) => {
    const key = normaliseTag(tag);
    if (key.length === 0 || key.length > 50 || seen.has(key)) return;
    seen.add(key);
    tags.push(tag);
  };
  for (const tag of TAGS) if (tags.length < size) add(tag);
  for (let n = 0; tags.length < size; n++) {
    const r = random.next();
    if (r < 0.45) add(`${random.pick(TECHNICAL)}-${random.pick(GENERAL)}`);
    else if (r < 0.6) add(`${random.pick(TECHNICAL)} ${random.pick(TECHNICAL)}`);
    else add(rareWord(1_000_000 + n));
  }
  return tags;
}

function memberNames(count: number, random: Random): string[] {
  const names = new Set<string>();
  for (let i = 0; names.size < count; i++) {
    const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
    const round = Math.floor(i / FIRST_NAMES.length);
    const name =
      round === 0 ? first
        : random.weighted<string>([[`${first}.${String.fromCharCode(97 + random.int(0, 25))}`, 3], [`${first}_${random.int(1, 99)}`, 3], [`${first}${random.int(70, 2005)}`, 2]]);
    names.add(name);
  }
  return [...names];
}

const DAY_MS = 86_400_000;
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const yamlString = (text: string) => JSON.stringify(text); // JSON strings are valid YAML

function slugOf(title: string, n: number): string {
  const stem = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').split('-').slice(0, 7).join('-').slice(0, 60).replace(/-+$/, '');
  return `${stem || 'topic'}-${n.toString(36)}`;
}

/**
 * Every file of the corpus, in a fixed order: content-types.json, members.json, links.json, then
 * the topics (topics/<year>/<slug>.md). Deterministic for (count, seed, end).
 */
export function* corpusFiles(options: CorpusOptions): Generator<CorpusFile> {
  const { count } = options;
  const seed = options.seed ?? DEFAULT_SEED;
  const endMs = Date.parse(`${options.end ?? DEFAULT_END}T00:00:00Z`);
  const spanMs = 5 * 365.25 * DAY_MS;
  const shape = corpusShape(count);
  const random = new Random(`${seed}/${count}`);

  yield { path: 'content-types.json', text: `${JSON.stringify(CONTENT_TYPES, null, 2)}\n` };

  const members = memberNames(shape.members, random);
  const groups: Array<readonly [string, number]> = [['Members', 90], ['Regulars', 7], ['Moderators', 2], ['Staff', 1]];
  const profiles = members.map((name) => ({
    name,
    joined: isoDay(endMs - spanMs - 2 * 365 * DAY_MS + random.next() * (spanMs + 2 * 365 * DAY_MS - 30 * DAY_MS)),
    group: random.weighted(groups),
    ...(random.chance(0.2) ? { twitter: `${name.replace(/[^a-z0-9_]/g, '_')}` } : {}),
    ...(random.chance(0.15) ? { website: `https://${name.replace(/[^a-z0-9]/g, '')}.example.net` } : {}),
    ...(random.chance(0.3) ? { location: random.pick(['Lisbon', 'Berlin', 'Lagos', 'Kyoto', 'Toronto', 'Malmö', 'São Paulo', 'Pune']) } : {}),
    ...(random.chance(0.25) ? { interests: `${random.pick(TECHNICAL)}, ${random.pick(TECHNICAL)} and ${random.pick(GENERAL)}` } : {}),
  }));
  yield { path: 'members.json', text: `${JSON.stringify(profiles, null, 2)}\n` };

  const tags = tagList(shape.tags);
  const linkRecords = Array.from({ length: shape.links }, (_, i) => {
    const tool = `${rareWord(2_000_000 + i)}`;
    return {
      name: tool.charAt(0).toUpperCase() + tool.slice(1),
      description: `Reference for ${random.pick(TECHNICAL)} ${random.pick(GENERAL)} in ${tool}.`,
      tags: [...new Set(Array.from({ length: random.int(1, 4) }, () => normaliseTag(random.pick(tags.slice(0, 200)))))],
      link: `https://docs.${tool}.example/${i}/${random.pick(TECHNICAL)}`,
      timestamp: isoDay(endMs - random.next() * spanMs),
      credit: `${random.pick(members).replace(/[^a-z0-9._-]/g, '')}@flowsmiths`,
    };
  });
  yield { path: 'links.json', text: `${JSON.stringify(linkRecords, null, 2)}\n` };

  const text = new TextMaker(random, shape.rareWords);
  const tagRank = new Zipf(tags.length, 1.0, 6);
  const authorOrder = random.shuffled(members);
  const authorRank = new Zipf(authorOrder.length, 1.0, 3);
  const tagsPerTopic: Array<readonly [number, number]> = [[3, 25], [4, 25], [5, 20], [6, 13], [7, 10], [8, 7]];
  const probes = count >= 100 ? PROBE_TOPICS : 0;
  for (let n = 0; n < count - probes; n++) {
    const title = text.title();
    const slug = slugOf(title, n);
    const sharesWorkflow = n < 3 || random.chance(0.01);
    const [field, place] = sharesWorkflow ? (['forum', 'share-workflows'] as const) : random.weighted(PLACES);
    const chosen = new Set<number>();
    for (const wanted = random.weighted(tagsPerTopic); chosen.size < wanted; ) chosen.add(tagRank.draw(random));
    // Activity grows over the years: created is skewed towards the end of the span.
    let createdMs = Math.floor((endMs - spanMs + random.next() ** (1 / 1.5) * spanMs) / 1000) * 1000;
    let created = isoSeconds(createdMs);
    if (random.chance(0.3)) {
      created = isoDay(createdMs);
      createdMs = Date.parse(`${created}T00:00:00Z`);
    }
    const replies = random.chance(0.3) ? 0 : Math.max(1, Math.floor(random.logNormal(1.2, 1.1)));
    const views = Math.floor(random.logNormal(4.8, 1.1)) + replies * random.int(5, 40);
    const lines = [
      `title: ${yamlString(title)}`,
      `author: ${yamlString(authorOrder[authorRank.draw(random)]!)}`,
      `created: ${created}`,
    ];
    if (random.chance(0.5)) lines.push(`updated: ${isoSeconds(Math.min(endMs, createdMs + Math.round(random.logNormal(1.5, 1.8) * DAY_MS / 1000) * 1000))}`);
    lines.push(`${field}: ${place}`, `tags: [${[...chosen].map((rank) => yamlString(tags[rank]!)).join(', ')}]`, `replies: ${replies}`, `views: ${views}`);
    if (sharesWorkflow) {
      const file = `${title.replace(/[^A-Za-z0-9 ]+/g, '').trim().split(/\s+/).slice(0, 4).join(' ')} ${n}.flowsmith`;
      lines.push(
        'workflow:',
        `  file: ${yamlString(file)}`,
        `  download: ${yamlString(`https://downloads.flowsmiths.example/${slug}/${encodeURIComponent(file)}`)}`,
        `  version: "${random.int(1, 4)}.${random.int(0, 12)}.${random.int(0, 9)}"`,
        `  description: ${yamlString(`${title.slice(0, 60)} (${random.pick(TECHNICAL)})`)}`,
      );
    }
    const words = Math.round(Math.min(600, Math.max(40, random.logNormal(Math.log(150), 0.35))));
    yield { path: `topics/${created.slice(0, 4)}/${slug}.md`, text: `---\n${lines.join('\n')}\n---\n${text.body(words)}\n` };
  }
  if (probes > 0) yield* probeTopics(seed, endMs, members.slice(0, 5), tags.slice(0, 40));
}

/** The tag of the probe topics (see probeTopics). */
export const PROBE_TAG = 'weight-probe';
const PROBE_TOPICS = 20;

/**
 * The last 20 topics of every corpus of 100 topics or more: the same files whatever the corpus's
 * size (for one seed and end), all tagged PROBE_TAG. Their tag page holds the same topics in a
 * 1,000- and a 100,000-topic site, so the bench compares what the site itself adds to a page as
 * it grows. Authors and other tags come from what every corpus has: its first members and tags.
 */
function* probeTopics(seed: string, endMs: number, authors: string[], tags: string[]): Generator<CorpusFile> {
  const random = new Random(`${seed}/probe`);
  const text = new TextMaker(random, 2000);
  for (let i = 0; i < PROBE_TOPICS; i++) {
    const title = text.title();
    const slug = `${PROBE_TAG}-${slugOf(title, i)}`;
    const [field, place] = random.weighted(PLACES);
    const others = new Set<string>();
    for (const wanted = random.int(2, 7); others.size < wanted; ) others.add(random.pick(tags));
    const created = isoSeconds(Math.floor((endMs - random.next() * 365 * DAY_MS) / 1000) * 1000);
    const replies = random.chance(0.3) ? 0 : random.int(1, 30);
    const lines = [
      `title: ${yamlString(title)}`,
      `author: ${yamlString(random.pick(authors))}`,
      `created: ${created}`,
      `${field}: ${place}`,
      `tags: [${[PROBE_TAG, ...others].map(yamlString).join(', ')}]`,
      `replies: ${replies}`,
      `views: ${random.int(20, 3000) + replies * 10}`,
    ];
    yield { path: `topics/${created.slice(0, 4)}/${slug}.md`, text: `---\n${lines.join('\n')}\n---\n${text.body(random.int(100, 200))}\n` };
  }
}

/** Writes a corpus into `dir` (which must be empty or not exist yet). Returns what was written. */
export function writeCorpus(dir: string, options: CorpusOptions): { files: number; topics: number } {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} is not empty: give a new or empty folder`);
  let files = 0;
  const made = new Set<string>();
  for (const file of corpusFiles(options)) {
    const path = join(dir, file.path);
    const folder = dirname(path);
    if (!made.has(folder)) mkdirSync(folder, { recursive: true }), made.add(folder);
    writeFileSync(path, file.text);
    files++;
  }
  return { files, topics: options.count };
}
