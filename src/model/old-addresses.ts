/**
 * Old addresses (SPEC 10, `aliases`): the rules the build and the 404 page's script share. The
 * build gives each alias a redirect page where the address can be a file, and puts the others in
 * the lookup files the 404 page reads; the 404 page looks up the address it was opened at. An
 * address is looked up as it is and by the id it carries (`/topic/123-anything/`, `/t/slug/123/4`),
 * so any slug or post number of a known topic leads to its page. Browser-safe.
 */

/**
 * An address as `location.pathname + location.search` gives it (the URL parser's percent-encoding),
 * so an alias and the address a browser opens compare equal. Undefined for anything but a site path.
 */
export function addressKey(address: string): string | undefined {
  if (!address.startsWith('/') || address.startsWith('//') || /[\\#\s]/.test(address)) return undefined;
  let url: URL;
  try {
    url = new URL(address, 'http://site.invalid');
  } catch {
    return undefined;
  }
  return `${url.pathname}${url.search}`;
}

/**
 * The file a static host would serve at a path-only address (`/topic/1-x/` and `/topic/1-x` →
 * `topic/1-x/index.html`), or undefined where none can stand: a query string, an extension (the
 * host would serve it as that type), `.`/`..` or an encoded `/`.
 */
export function redirectFile(key: string): string | undefined {
  if (key.includes('?')) return undefined;
  const segments = key.split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  if (segments.length === 0) return undefined;
  const decoded: string[] = [];
  for (const segment of segments) {
    let text: string;
    try {
      text = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    if (text === '' || text === '.' || text === '..' || /[/\\\u0000-\u001f\u007f]/.test(text)) return undefined;
    decoded.push(text);
  }
  if (/\.[A-Za-z0-9]+$/.test(decoded.at(-1)!)) return undefined;
  return `${decoded.join('/')}/index.html`;
}

const DIGITS = /^\d+$/;

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

/**
 * The ids an address names on the forums tagsite imports from, most likely first:
 * Invision Community's `/topic/<id>-<slug>/`, `/forum/<id>-<slug>/`, `/profile/<id>-<name>/` (also
 * behind `/index.php?`, with more after them); Discourse's `/t/<slug>/<id>`, `/t/<id>`,
 * `/t/<slug>/<id>/<post>`, `/c/<slug>/<id>`, `/u/<name>…`, `/tag/<tag>…`. `/t/<a>/<b>` with both
 * numbers is topic a's post b or topic b with a number for a slug: both are named.
 */
export function idKeys(key: string): string[] {
  const path = key.replace(/^\/(?:index\.php)?\?(?=\/)/, '').split(/[?&#]/)[0]!;
  const segments = path.split('/').slice(1).filter((segment, i, all) => segment !== '' || i < all.length - 1);
  const [first, ...rest] = segments;
  if (!first) return [];
  const ips = /^(topic|forum|profile)$/.exec(first) && /^(\d+)(?:-|$)/.exec(rest[0] ?? '');
  if (ips) return [`${first}/${ips[1]}`];
  if (first === 't') {
    const [a = '', b, c] = rest;
    if (rest.length === 1 && DIGITS.test(a)) return [`t/${a}`];
    if (rest.length === 2 && DIGITS.test(b!)) return DIGITS.test(a) ? [`t/${a}`, `t/${b}`] : [`t/${b}`];
    if (rest.length === 3 && DIGITS.test(b!) && DIGITS.test(c!)) return [`t/${b}`];
    return [];
  }
  if (first === 'c') {
    const id = rest.filter(Boolean).at(-1);
    return id && DIGITS.test(id) ? [`c/${id}`] : [];
  }
  if ((first === 'u' || first === 'tag') && rest[0]) return [`${first}/${decoded(rest[0])}`];
  return [];
}

/** The keys an address is looked up by, in order: the address itself (with and without its last `/`), then its ids. */
export function lookupKeys(address: string): string[] {
  const key = addressKey(address);
  if (!key) return [];
  const [path, query] = [key.split('?')[0]!, key.includes('?') ? key.slice(key.indexOf('?')) : ''];
  const other = path.endsWith('/') && path !== '/' ? `${path.slice(0, -1)}${query}` : `${path}/${query}`;
  return [...new Set([key, other, ...idKeys(key)])];
}

/** Where an old address now leads (a site path), by the lookup of keys to site paths; undefined when it is not known. */
export function findOldAddress(address: string, lookup: (key: string) => string | undefined): string | undefined {
  for (const key of lookupKeys(address)) {
    const target = lookup(key);
    if (target !== undefined) return target;
  }
  return undefined;
}

/** The lookup file a key is in (FNV-1a of its UTF-16 units): `shards` files of similar size. */
export function shardOf(key: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return hash % shards;
}

/** Keys a lookup file holds at most: about 15 KB (4 KB gzipped) of topic addresses, fetched by a visitor on a 404. */
export const KEYS_PER_SHARD = 256;

/** How many lookup files `keys` keys take: a power of two, 0 for none. */
export function shardCount(keys: number): number {
  if (keys === 0) return 0;
  let shards = 1;
  while (keys / shards > KEYS_PER_SHARD) shards *= 2;
  return shards;
}

/** An address without the site's `base` (`/sub/topic/1/` → `/topic/1/` under `/sub/`), as aliases are written. */
export function withoutBase(address: string, base: string): string {
  const head = base.endsWith('/') ? base.slice(0, -1) : base;
  return head && (address === head || address.startsWith(`${head}/`) || address.startsWith(`${head}?`)) ? address.slice(head.length) || '/' : address;
}
