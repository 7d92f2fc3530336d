/**
 * Walks a built site and finds every reference to the site itself — links, assets, form actions,
 * the addresses scripts fetch, feed and sitemap URLs, `_headers` paths, script chunk imports — and
 * says which point nowhere. Used on files (as a static host would serve them) and to list what to
 * ask a real server for.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { parse, type HTMLElement } from 'node-html-parser';

export interface Reference {
  /** The file it is in, relative to the output folder (`tags/api/index.html`). */
  from: string;
  /** As written. */
  raw: string;
  /** Resolved against the page's own address (site + base + path). */
  url: URL;
  /** A folder scripts fetch files from (`data-index-url="/search-index/"`): the folder must exist. */
  folder?: boolean;
}

export interface Site {
  outDir: string;
  /** Astro `base`, with a trailing slash: `/` or `/sub/path/`. */
  base: string;
  /** Astro `site`: the public origin absolute links use. */
  site: string;
}

/** Every file of the output folder, relative, with `/` separators. */
export function siteFiles(outDir: string): string[] {
  return readdirSync(outDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => posix.join(...join(entry.parentPath, entry.name).slice(outDir.length + 1).split(/[\\/]/)));
}

/** The address a file is served at: `tags/api/index.html` → `<site><base>tags/api/`. */
export function addressOf({ base, site }: Site, file: string): URL {
  return new URL(`${base}${file.replace(/(^|\/)index\.html$/, '$1')}`, site);
}

const URL_ATTRIBUTES = ['href', 'src', 'action', 'poster', 'content'];

/** The page's elements outside <template>: template markup is the scripts' blueprint, not a page. */
function rendered(html: string): HTMLElement {
  const page = parse(html);
  for (const template of page.querySelectorAll('template')) template.remove();
  return page;
}

// Folders named in data-*-url attributes, told apart from pages by a `\0` in front.
const FOLDER = '\0';

function htmlReferences(text: string): string[] {
  const raws: string[] = [];
  for (const element of rendered(text).querySelectorAll('*')) {
    for (const [name, value] of Object.entries(element.attributes)) {
      if (name === 'content') {
        // Only meta tags that hold an address of this page (og:url); others hold words.
        if (element.tagName === 'META' && element.getAttribute('property') === 'og:url') raws.push(value);
      } else if (URL_ATTRIBUTES.includes(name)) raws.push(value);
      else if (/^data-[\w-]*-url$/.test(name)) raws.push(value.endsWith('/') ? `${FOLDER}${value}` : value);
      else if (name === 'srcset') raws.push(...value.split(',').map((part) => part.trim().split(/\s+/)[0]!).filter(Boolean));
    }
  }
  return raws;
}

/** Hashed chunk names a script imports or starts as a worker (`./render.BmW6zA_g.js`, `/_astro/worker-ynt8coI0.js`). */
function scriptReferences(text: string): string[] {
  return [...text.matchAll(/["'`]((?:\.{1,2}\/|\/(?:[\w~%.-]+\/)*)?[\w.-]+[.-][\w-]{8}\.(?:js|css|mjs))["'`]/g)].map((match) => match[1]!);
}

/** Every reference to this site in one file (or in `text`, the file as a server sent it), resolved; references elsewhere are left out. */
export function referencesIn(site: Site, file: string, text = readFileSync(join(site.outDir, file), 'utf8')): Reference[] {
  const at = addressOf(site, file);
  let raws: string[] = [];
  if (file.endsWith('.html')) raws = htmlReferences(text);
  else if (file.endsWith('.xml')) raws = [...text.matchAll(/<(?:loc|link|guid)(?:\s[^>]*)?>([^<]+)<|\shref="([^"]+)"/g)].map((match) => (match[1] ?? match[2]!).replace(/&amp;/g, '&'));
  else if (file.endsWith('.txt')) raws = [...text.matchAll(/^Sitemap:\s*(\S+)/gm)].map((match) => match[1]!);
  else if (file.endsWith('.json')) raws = [...text.matchAll(/"(https?:\/\/[^"\\]+)"/g)].map((match) => match[1]!);
  else if (file.endsWith('.js')) raws = scriptReferences(text);
  else if (file.endsWith('.css')) raws = [...text.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)].map((match) => match[1]!);
  // A rule's path names a file, unless it is a pattern (`/*`: every page's headers).
  else if (posix.basename(file) === '_headers') raws = text.split('\n').filter((line) => line.startsWith('/') && !line.includes('*')).map((line) => line.trim());
  const references: Reference[] = [];
  for (const written of raws) {
    const folder = written.startsWith(FOLDER);
    const raw = folder ? written.slice(1) : written;
    let url: URL;
    try {
      url = new URL(raw, at);
    } catch {
      references.push({ from: file, raw, url: new URL('invalid:') });
      continue;
    }
    if (url.origin === new URL(site.site).origin) references.push({ from: file, raw, url, ...(folder ? { folder } : {}) });
  }
  return references;
}

const idsCache = new Map<string, Set<string>>();
function idsOf(path: string): Set<string> {
  let ids = idsCache.get(path);
  if (!ids) {
    ids = new Set(parse(readFileSync(path, 'utf8')).querySelectorAll('[id]').map((element) => element.id));
    idsCache.set(path, ids);
  }
  return ids;
}

/** Why a reference points nowhere, or undefined when a static host serves something for it. */
export function brokenReason(site: Site, reference: Reference): string | undefined {
  const { url } = reference;
  if (url.protocol === 'invalid:') return 'not a URL';
  if (!url.pathname.startsWith(site.base)) return `outside the site's base ${site.base}`;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname.slice(site.base.length));
  } catch {
    return 'bad percent-encoding';
  }
  if (path.split('/').includes('..')) return 'climbs out of the site';
  let file = join(site.outDir, path);
  if (reference.folder) return existsSync(file) && statSync(file).isDirectory() ? undefined : 'no such folder';
  if (path === '' || path.endsWith('/')) file = join(file, 'index.html');
  else if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
  if (!existsSync(file) || !statSync(file).isFile()) return 'no such file';
  const fragment = decodeURIComponent(url.hash.slice(1));
  if (fragment && file.endsWith('.html') && !idsOf(file).has(fragment)) return `no element with id "${fragment}"`;
  return undefined;
}

/** Every reference of the whole site, and the broken ones as `file: raw (reason)` lines. */
export function walkSite(site: Site): { references: Reference[]; broken: string[] } {
  idsCache.clear();
  const references = siteFiles(site.outDir).flatMap((file) => referencesIn(site, file));
  const broken = references.flatMap((reference) => {
    const reason = brokenReason(site, reference);
    return reason ? [`${reference.from}: ${reference.raw} (${reason})`] : [];
  });
  return { references, broken };
}
