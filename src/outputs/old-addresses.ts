/**
 * What the build publishes for old addresses (`aliases`, checked in src/content/aliases.ts): the
 * `_redirects` rules, and the lookup files the 404 page reads for the addresses no file can stand
 * at (query strings) and for any address carrying a known id (`/topic/123-anything/`).
 */
import type { OldAddress } from '../content/aliases.ts';
import { shardCount, shardOf } from '../model/old-addresses.ts';
import type { Redirect } from './redirects.ts';

/** Each path-only old address to its page, for `_redirects` (hosts match paths, not query strings). */
export function oldAddressRedirects(addresses: readonly OldAddress[]): Redirect[] {
  const bare = (path: string) => path.toLowerCase().replace(/(.)\/$/, '$1');
  // An address that differs from its page only in case would be a loop on a host that ignores case.
  return addresses.filter(({ key, to }) => !key.includes('?') && bare(key) !== bare(to)).map(({ key, to }) => ({ from: key, to }));
}

/**
 * The 404 page's lookup: each old-forum id to its page, and each address with neither a redirect
 * page nor an id (a query string the ids do not cover) to its page.
 */
export function lookupEntries(addresses: readonly OldAddress[]): Map<string, string> {
  const entries = new Map<string, string>();
  for (const { key, to, file, ids } of addresses) {
    for (const id of ids) entries.set(id, to);
    if (!file && ids.length === 0) entries.set(key, to);
  }
  return entries;
}

/** The lookup in files of about KEYS_PER_SHARD keys each: `old-addresses/<n>.json`, `{ key: site path }`. */
export function lookupFiles(entries: ReadonlyMap<string, string>): { shards: number; files: Map<string, string> } {
  const shards = shardCount(entries.size);
  const parts = Array.from({ length: shards }, () => ({}) as Record<string, string>);
  for (const [key, to] of entries) parts[shardOf(key, shards)]![key] = to;
  return { shards, files: new Map(parts.map((part, i) => [`old-addresses/${i}.json`, JSON.stringify(part)])) };
}
