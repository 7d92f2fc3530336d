/**
 * What a built site weighs, said before it is deployed, and the known static hosts' documented
 * limits it passes: a host refuses such a deploy (or a file of it), so the build says so first.
 */
import { sitePath, type FolderFiles } from './folder-files.ts';

export interface SiteSize {
  files: number;
  bytes: number;
  largest: { path: string; bytes: number };
}

/** A site's files (as `folderFiles` lists them): how many, their total size and the largest (its path with `/`). */
export function measureSite(files: FolderFiles): SiteSize {
  const size: SiteSize = { files: 0, bytes: 0, largest: { path: '', bytes: 0 } };
  for (const [path, bytes] of files) {
    size.files++;
    size.bytes += bytes;
    if (bytes > size.largest.bytes) size.largest = { path: sitePath(path), bytes };
  }
  return size;
}

const MiB = 1024 * 1024;

/** A host's documented limits (as of 2026): files a site, bytes a file, bytes a site. */
export interface HostLimit {
  host: string;
  files?: number;
  fileBytes?: number;
  siteBytes?: number;
}

export const HOST_LIMITS: readonly HostLimit[] = [
  { host: 'Cloudflare Pages', files: 20_000, fileBytes: 25 * MiB },
  { host: 'GitHub Pages', siteBytes: 1024 * MiB },
];

/** Sizes as people read them: 1.2 MB, 340 KB (powers of 1,024, as hosts state their limits). */
export function readableBytes(bytes: number): string {
  if (bytes >= 1024 * MiB) return `${(bytes / (1024 * MiB)).toFixed(2)} GB`;
  if (bytes >= MiB) return `${(bytes / MiB).toFixed(1)} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}

/** One line: the site's file count, total size and largest file. */
export function sizeLine(size: SiteSize): string {
  const largest = size.files > 0 ? `, largest ${size.largest.path} (${readableBytes(size.largest.bytes)})` : '';
  return `site: ${size.files.toLocaleString('en')} files, ${readableBytes(size.bytes)}${largest}`;
}

/**
 * One line for each known host limit the site passes, naming what brings it under: most files are
 * listing pages (one per page of each tag's topics) and the search index's files.
 */
export function hostLimitWarnings(size: SiteSize, limits: readonly HostLimit[] = HOST_LIMITS): string[] {
  const warnings: string[] = [];
  for (const limit of limits) {
    if (limit.files !== undefined && size.files > limit.files) {
      warnings.push(
        `warning: ${size.files.toLocaleString('en')} files, more than ${limit.host} takes (${limit.files.toLocaleString('en')} a site): ` +
          'a larger `pageSize` option makes fewer listing pages per tag, a smaller `intersections.maxPages` fewer tag intersection pages (each with its feed), or deploy to a host without a file limit',
      );
    }
    if (limit.fileBytes !== undefined && size.largest.bytes > limit.fileBytes) {
      warnings.push(
        `warning: ${size.largest.path} is ${readableBytes(size.largest.bytes)}, more than ${limit.host} takes (${readableBytes(limit.fileBytes)} a file): ` +
          'fewer or shorter topics under it (its folder says which), or a host without that limit',
      );
    }
    if (limit.siteBytes !== undefined && size.bytes > limit.siteBytes) {
      warnings.push(
        `warning: the site is ${readableBytes(size.bytes)}, more than ${limit.host} takes (${readableBytes(limit.siteBytes)} a site): ` +
          'a smaller `excerptLength` option shrinks every listing page and the search index, or use a host without that limit',
      );
    }
  }
  return warnings;
}

/** Static rules of `_redirects` that Cloudflare Pages reads (as of 2026; and 100 dynamic ones): it ignores the rest. */
export const CLOUDFLARE_REDIRECT_RULES = 2_000;

/** A line when the site's `_redirects` has more rules than Cloudflare Pages reads; old addresses are served without them anyway. */
export function redirectRulesWarning(redirects: string): string | undefined {
  const rules = redirects.split(/\r?\n/).filter((line) => line.trim() !== '' && !line.trim().startsWith('#')).length;
  if (rules <= CLOUDFLARE_REDIRECT_RULES) return undefined;
  return (
    `warning: _redirects has ${rules.toLocaleString('en')} rules, more than Cloudflare Pages reads (${CLOUDFLARE_REDIRECT_RULES.toLocaleString('en')}): ` +
    'there the rest are ignored, and the redirect pages and the 404 page lead those old addresses to their pages (without a 301)'
  );
}
