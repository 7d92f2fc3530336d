/**
 * Old addresses in an import: the site paths (relative to the forum's address) that the importers
 * record as `aliases`, and the links of imported first posts to other imported topics, rewritten to
 * the topics' new pages. Links are found by the 404 page's own rules (src/model/old-addresses.ts),
 * so any slug, post number or `/index.php?` form of an imported topic's address is rewritten.
 */
import { addressKey, findOldAddress, idKeys } from '../model/old-addresses.ts';
import { topicPath } from '../model/urls.ts';
import type { ImportState } from './state.ts';

/** Longest alias the content accepts (schemas: `aliases` items). */
const ALIAS_MAX = 400;

/** An address on the forum as a site path relative to the forum's address (`https://x/forum/t/a/1` → `/t/a/1` under `https://x/forum/`); undefined elsewhere. */
export function forumSitePath(url: string, base: string): string | undefined {
  if (!URL.canParse(url) || !URL.canParse(base)) return undefined;
  const address = new URL(url);
  const root = new URL(base);
  const head = root.pathname.endsWith('/') ? root.pathname : `${root.pathname}/`;
  if (address.origin !== root.origin || !`${address.pathname}/`.startsWith(head)) return undefined;
  return `/${address.pathname.slice(head.length)}${address.search}`;
}

/** The addresses among `urls` that can be aliases (site paths under the forum's address), each once. */
export function aliasesOf(urls: ReadonlyArray<string | undefined>, base: string): string[] {
  const paths = urls.flatMap((url) => {
    const path = url === undefined ? undefined : forumSitePath(url, base);
    const key = path === undefined ? undefined : addressKey(path);
    return key && key !== '/' && key.length <= ALIAS_MAX ? [key] : [];
  });
  return [...new Set(paths)];
}

/**
 * Each imported topic's old address and ids → its page: what a link in a first post is looked up in.
 * `unrecorded` (old address → file) adds the files of a run that stopped before it recorded them.
 */
export function importedTopicIndex(state: ImportState, base: string, unrecorded: ReadonlyMap<string, string> = new Map()): Map<string, string> {
  const index = new Map<string, string>();
  for (const { url, file } of [...[...unrecorded].map(([url, file]) => ({ url, file })), ...Object.values(state.topics)]) {
    const path = forumSitePath(url, base);
    const key = path === undefined ? undefined : addressKey(path);
    if (!key) continue;
    const to = topicPath(file.slice(file.lastIndexOf('/') + 1, -'.md'.length));
    index.set(key, to);
    const ids = idKeys(key);
    if (ids.length === 1) index.set(ids[0]!, to);
  }
  return index;
}

/**
 * The Markdown of a first post with its links to imported topics on the old forum (absolute, as
 * post-markdown writes every link) replaced by the topics' new pages.
 */
export function rewriteOldLinks(markdown: string, base: string, index: ReadonlyMap<string, string>): string {
  const newPage = (url: string) => {
    const path = forumSitePath(url, base);
    return path === undefined ? undefined : findOldAddress(path, (key) => index.get(key));
  };
  return markdown
    .replace(/\]\((https?:\/\/[^)\s]+)\)/g, (link, url: string) => {
      const to = newPage(url);
      return to ? `](${to})` : link;
    })
    .replace(/<(https?:\/\/[^>\s]+)>/g, (link, url: string) => {
      const to = newPage(url);
      return to ? `[${to}](${to})` : link;
    });
}
