/**
 * The 404 page's way on (SPEC 10): an old address with a query string, or any slug of a known id
 * (`/index.php?/topic/123-…`, `/t/anything/123`), has no file of its own, so the host serves the
 * 404 page; this looks the address up in the one or two lookup files its keys are in and replaces
 * the page with the new one. Started by src/pages/404.astro on `[data-old-addresses]`.
 */
import { findOldAddress, lookupKeys, shardOf, withoutBase } from '../model/old-addresses.ts';
import { withBase } from '../model/urls.ts';

/** The lookup files the keys of `address` are in: their numbers, each once. */
export function shardsFor(address: string, shards: number): number[] {
  return [...new Set(lookupKeys(address).map((key) => shardOf(key, shards)))];
}

export async function start(root: HTMLElement): Promise<void> {
  const shards = Number(root.dataset.shards ?? 0);
  const base = root.dataset.base ?? '/';
  if (!(shards > 0)) return;
  const address = withoutBase(`${location.pathname}${location.search}`, base);
  const found = new Map<string, string>();
  await Promise.all(
    shardsFor(address, shards).map(async (shard) => {
      try {
        const response = await fetch(withBase(base, `/old-addresses/${shard}.json`));
        if (!response.ok) return;
        for (const [key, to] of Object.entries((await response.json()) as Record<string, string>)) found.set(key, to);
      } catch {
        // Offline or blocked: the page stays the "not found" page it is.
      }
    }),
  );
  const target = findOldAddress(address, (key) => found.get(key));
  if (target === undefined) return;
  const note = root.querySelector<HTMLAnchorElement>('[data-old-address-link]');
  if (note) {
    note.href = withBase(base, target);
    note.textContent = note.href;
    root.hidden = false;
  }
  location.replace(withBase(base, target));
}
