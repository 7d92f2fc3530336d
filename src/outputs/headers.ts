/**
 * HTTP caching of the workflow lists on static hosts: a `_headers` file (Netlify, Cloudflare
 * Pages) gives every list address (both key styles, primary and backup) the client's cache lifetime.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withBase } from '../model/urls.ts';

/**
 * The `_headers` rules for the list paths. Paths that an existing `_headers` (from public/) already
 * names are left to it, so a hand-written rule is never doubled.
 */
export function workflowHeaderRules(paths: readonly string[], base: string, cacheSeconds: number, existing = ''): string {
  const named = new Set(existing.split(/\r?\n/).filter((line) => /^\S/.test(line)).map((line) => line.trim()));
  const rules = paths
    .map((path) => withBase(base, path))
    .filter((path) => !named.has(path))
    .map((path) => `${path}\n  Cache-Control: public, max-age=${cacheSeconds}\n`);
  return rules.length === 0 ? '' : `# The workflow lists: as long in HTTP caches as in the /workflows/ client (workflows.cacheSeconds).\n${rules.join('')}`;
}

/** Adds the list's rules to `<dir>/_headers`, creating it or appending to the copy of public/_headers. */
export function writeWorkflowHeaders(dir: string, paths: readonly string[], base: string, cacheSeconds: number): void {
  if (paths.length === 0) return;
  const file = join(dir, '_headers');
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const rules = workflowHeaderRules(paths, base, cacheSeconds, existing);
  if (!rules) return;
  const separator = existing === '' ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  writeFileSync(file, `${existing}${separator}${rules}`);
}
