/**
 * The `_redirects` file of static hosts (Netlify, Cloudflare Pages): one `<old path> <new path> 301`
 * a line. Any part of the build with old addresses adds its rules through writeRedirects (tag
 * synonyms here; a redirect page at each old path serves hosts that do not read the file).
 */
import { feedPath, tagPath, withBase } from '../model/urls.ts';
import { appendToHostFile } from './host-files.ts';

/** An old address and the page it now leads to: site paths without `base`, as the site's links write them. */
export interface Redirect {
  from: string;
  to: string;
}

/** The old address of each rule line (its first field); comments and blank lines name none. */
function namedPaths(existing: string): Set<string> {
  return new Set(existing.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#')).map((line) => line.split(/\s+/)[0]!));
}

/**
 * The `_redirects` lines for `redirects` under `base`, after a comment saying what they are. An old
 * path that `existing` (a hand-written public/_redirects) or an earlier rule already names is left
 * out: a host follows the first rule that matches, so a second would never apply.
 */
export function redirectRules(redirects: readonly Redirect[], base: string, comment: string, existing = ''): string {
  const named = namedPaths(existing);
  const lines: string[] = [];
  for (const { from, to } of redirects) {
    const old = withBase(base, from);
    if (named.has(old)) continue;
    named.add(old);
    lines.push(`${old} ${withBase(base, to)} 301`);
  }
  return lines.length === 0 ? '' : `# ${comment}\n${lines.join('\n')}\n`;
}

/** Adds rules to `<dir>/_redirects`, creating it or appending to what is there (a copy of public/_redirects). */
export function writeRedirects(dir: string, redirects: readonly Redirect[], base: string, comment: string): void {
  appendToHostFile(dir, '_redirects', (existing) => redirectRules(redirects, base, comment, existing));
}

/** A synonym's old tag page and feed lead to its canonical tag's, when that tag has topics (and so pages). */
export function tagRedirects(canonicalOf: ReadonlyMap<string, string>, tagged: ReadonlySet<string>): Redirect[] {
  return [...canonicalOf].flatMap(([synonym, canonical]) =>
    tagged.has(canonical)
      ? [
          { from: tagPath(synonym), to: tagPath(canonical) },
          { from: feedPath(synonym), to: feedPath(canonical) },
        ]
      : [],
  );
}
