/**
 * `aliases` (SPEC 10): old addresses that lead to a topic, tag, member or forum. Each reader
 * collects its records' aliases (readAliases); once everything is read, oldAddresses checks them
 * across all files and the site's own addresses, and resolves what the build writes for each.
 */
import { memberPath, memberSlug, tagPath, topicPath } from '../model/urls.ts';
import { tagSlug } from '../model/tags.ts';
import { addressKey, idKeys, redirectFile } from '../model/old-addresses.ts';
import type { Problem } from './problems.ts';

/** Most aliases on one record: a forum gives two or three addresses a topic; room for renames. */
export const ALIASES_MAX = 20;

/** The page an alias leads to. */
export type AliasTarget =
  | { kind: 'topic'; slug: string; title: string }
  | { kind: 'tag'; tag: string }
  | { kind: 'member'; name: string }
  | { kind: 'type'; id: string; name: string };

/** One alias as a content file gives it, with where it is written. */
export interface DeclaredAlias {
  /** As written. */
  path: string;
  file: string;
  line?: number;
  field: string;
  to: AliasTarget;
}

/** An alias the build serves: its address (as a browser gives it), the page it leads to, and its redirect page's file if it can have one. */
export interface OldAddress {
  key: string;
  /** Site path of the page it leads to. */
  to: string;
  /** What the redirect page says, without its link. */
  what: string;
  /** `topic/1-x/index.html`: where its redirect page goes; none for a query string or an extension. */
  file?: string;
  /** The ids of the old forum it names (`topic/123`): the 404 page finds the page by them too. */
  ids: string[];
}

/** Site path of an alias's page. A forum or category has none of its own: the search for its topics. */
export function targetPath(to: AliasTarget): string {
  if (to.kind === 'topic') return topicPath(to.slug);
  if (to.kind === 'tag') return tagPath(to.tag);
  if (to.kind === 'member') return memberPath(to.name);
  return `/search/?type=${encodeURIComponent(to.id)}`;
}

function description(to: AliasTarget): string {
  if (to.kind === 'topic') return `The topic '${to.title}' is now here`;
  if (to.kind === 'tag') return `Topics tagged '${to.tag}' are now here`;
  if (to.kind === 'member') return `${to.name}'s profile is now here`;
  return `The topics of '${to.name}' are now here`;
}

/**
 * The aliases of one record (`value` at `pointer`, field `field`): at most ALIASES_MAX; entries
 * the schema rejected are left to its problems.
 */
export function readAliases(value: unknown, where: { file: string; field: string; pointer: string; lineOf: (pointer: string) => number | undefined }, to: AliasTarget, problems: Problem[]): DeclaredAlias[] {
  if (!Array.isArray(value)) return [];
  if (value.length > ALIASES_MAX) {
    problems.push({ file: where.file, line: where.lineOf(where.pointer), field: where.field, message: `has ${value.length} aliases; at most ${ALIASES_MAX} allowed` });
  }
  return value.flatMap((path: unknown, i) =>
    typeof path === 'string' && addressKey(path) !== undefined ? [{ path, file: where.file, line: where.lineOf(`${where.pointer}/${i}`), field: `${where.field}[${i}]`, to }] : [],
  );
}

/** The addresses the site serves itself, from its content: an alias must name none of them. */
export interface SiteAddresses {
  topicSlugs: ReadonlySet<string>;
  /** Tags with pages, and synonyms (their old pages redirect). */
  tags: ReadonlySet<string>;
  memberNames: readonly string[];
  /** First path segments of the site's own pages and files (`search`, `_astro`, `about` …). */
  sections: ReadonlySet<string>;
}

/** The site's own first path segments, whatever the content: pages, data files, host files, build output. */
export const SITE_SECTIONS = ['tags', 'topics', 'members', 'search', 'links', 'workflows', 'about', 'api', 'search-index', 'old-addresses', '_astro', 'rss.xml', 'robots.txt', '404.html', 'index.html', '_redirects', '_headers', 'sitemap-index.xml', 'sitemap-0.xml', 'favicon.svg', 'og-image.png'];

/** Why an address (an alias's path, lower-cased, without its query) is one the site serves; undefined when it is free. */
function servedBySite(path: string, site: SiteAddresses, records: { topics: Set<string>; tags: Set<string>; members: Set<string> }): string | undefined {
  const segments = path.split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  if (segments.length === 0) return 'the home page';
  const [first, second] = segments as [string, string | undefined];
  if (!site.sections.has(first)) return undefined;
  // An old page of a record that is gone (a renamed topic's `/topics/old-slug/`) is free; not the
  // member list's pages (`/members/2/`: a member's segment is never all digits) nor `/tags/intersection/`.
  const own = { topics: records.topics, tags: records.tags, members: records.members }[first as 'topics' | 'tags' | 'members'];
  const listPage = (first === 'members' && /^\d+$/.test(second ?? '')) || (first === 'tags' && second === 'intersection');
  if (own && segments.length === 2 && !own.has(second!) && !listPage) return undefined;
  return own && segments.length === 2 ? `the site's page /${first}/${second}/` : `the site's own /${first}${first.includes('.') ? '' : '/'}`;
}

/** An alias's address for comparisons between aliases: a path names one file whatever the case or its last `/`. */
function comparable(key: string): string {
  const [path, ...query] = key.split('?');
  const bare = path!.length > 1 && path!.endsWith('/') ? path!.slice(0, -1) : path!;
  return query.length > 0 ? `${bare.toLowerCase()}?${query.join('?')}` : bare.toLowerCase();
}

function safeDecode(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

const where = (alias: DeclaredAlias) => `${alias.file}${alias.line ? `:${alias.line}` : ''} ${alias.field}`;

/**
 * Checks every alias against the others and the site's own addresses, and resolves those that pass.
 * Two aliases naming one address (the same path whatever its case or last `/`), or one old-forum id
 * for two pages, or an address the site serves, is a problem. An alias naming its own page's address
 * (a forum tag page at `/tags/<tag>/`, as tagsite's) is dropped without one: it leads there already.
 */
export function oldAddresses(aliases: readonly DeclaredAlias[], site: SiteAddresses): { addresses: OldAddress[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const records = {
    topics: new Set([...site.topicSlugs].map((slug) => slug.toLowerCase())),
    tags: new Set([...site.tags].map((tag) => tagSlug(tag).toLowerCase())),
    members: new Set(site.memberNames.map((name) => memberSlug(name).toLowerCase())),
  };
  const byAddress = new Map<string, DeclaredAlias>();
  const byId = new Map<string, { alias: DeclaredAlias; to: string }>();
  const addresses: OldAddress[] = [];
  const clashed = new Set<string>();
  for (const alias of aliases) {
    const key = addressKey(alias.path)!;
    const to = targetPath(alias.to);
    const problem = (message: string) => problems.push({ file: alias.file, ...(alias.line ? { line: alias.line } : {}), field: alias.field, message });
    const same = comparable(key);
    if (same === comparable(addressKey(to)!)) {
      // Its own page's address: nothing to redirect; in another case only, the 404 page still sends it.
      const bare = (path: string) => path.replace(/(.)\/$/, '$1');
      if (bare(key) !== bare(addressKey(to)!)) addresses.push({ key, to, what: description(alias.to), ids: [] });
      continue;
    }
    const first = byAddress.get(same);
    if (first) {
      problem(first.file === alias.file && first.field.replace(/\[\d+\]$/, '') === alias.field.replace(/\[\d+\]$/, '') ? `'${alias.path}' is listed twice: keep one` : `'${alias.path}' names the same address as ${where(first)} ('${first.path}'): an old address leads to one page; remove one`);
      continue;
    }
    byAddress.set(same, alias);
    const served = servedBySite(safeDecode(same.split('?')[0]!), site, records);
    if (served) {
      problem(`'${alias.path}' is an address of ${served}: an alias names an old address the site does not serve`);
      continue;
    }
    // A path with several ids (`/t/12/3`) is found by the address itself only.
    const ids = idKeys(key).length === 1 ? idKeys(key) : [];
    const clash = ids.map((id) => byId.get(id)).find((other) => other && other.to !== to);
    if (clash) {
      // Once for a page: its other addresses with the same id say nothing new.
      if (clashed.has(`${ids[0]}\0${to}`)) continue;
      clashed.add(`${ids[0]}\0${to}`);
      problem(`'${alias.path}' names ${ids[0]} of the old forum, as ${where(clash.alias)} ('${clash.alias.path}') does for another page: the 404 page could not tell where it leads; remove one`);
      continue;
    }
    for (const id of ids) byId.set(id, { alias, to });
    const file = redirectFile(key);
    addresses.push({ key, to, what: description(alias.to), ids, ...(file ? { file } : {}) });
  }
  return { addresses, problems };
}
