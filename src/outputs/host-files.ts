/** The files static hosts read beside the site (`_headers`, `_redirects`): each part of the build adds its rules to them. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Adds rules to `<dir>/<name>`, creating it or appending to what is there (a copy from public/, or
 * an earlier part's rules) after a blank line. `rulesFor` gets what is there, so a path it already
 * names is left to it; no rules, no change.
 */
export function appendToHostFile(dir: string, name: string, rulesFor: (existing: string) => string): void {
  const file = join(dir, name);
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const rules = rulesFor(existing);
  if (!rules) return;
  const separator = existing === '' ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  writeFileSync(file, `${existing}${separator}${rules}`);
}
