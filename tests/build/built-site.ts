/** Reading a built site the way a static host serves it: `/tags/c~2b~2b/` → `tags/c~2b~2b/index.html`. */
import { expect } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, type HTMLElement } from 'node-html-parser';

/** Every file of a built site, by path, with its bytes (as latin1 text: one character a byte). */
export function siteFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(relative(dir, join(entry.parentPath, entry.name)), readFileSync(join(entry.parentPath, entry.name), 'latin1'));
  }
  return files;
}

/** That the built site in `actual` has exactly the files of the one in `expected`, byte for byte. */
export function expectSameSite(actual: string, expected: string): void {
  const a = siteFiles(actual);
  const b = siteFiles(expected);
  expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
  expect([...b].filter(([path, bytes]) => a.get(path) !== bytes).map(([path]) => path)).toEqual([]);
}

/** The file a static host serves for a site path (percent-decoded, `index.html` for folders), or undefined. */
export function fileForPath(outDir: string, sitePath: string): string | undefined {
  const path = decodeURIComponent(sitePath.split(/[?#]/)[0]!);
  const file = join(outDir, path.endsWith('/') ? `${path}index.html` : path);
  return existsSync(file) ? file : undefined;
}

/** The parsed page at a site path; fails when the site has no such page. */
export function readPage(outDir: string, sitePath: string): HTMLElement {
  const file = fileForPath(outDir, sitePath);
  if (!file) throw new Error(`the built site has no page ${sitePath}`);
  return parse(readFileSync(file, 'utf8'));
}

/** The text of an element, whitespace collapsed. */
export function textOf(element: HTMLElement | null | undefined): string {
  return (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The count shown beside a tag on /tags/ (`(17)`), or undefined when the tag is not listed. */
export function tagCountOnTagsPage(page: HTMLElement, tag: string): number | undefined {
  const link = page.querySelectorAll('[data-tag-list] a[data-tag]').find((a) => a.getAttribute('data-tag') === tag);
  const count = /\((\d+)\)/.exec(textOf(link?.nextElementSibling));
  return count ? Number(count[1]) : undefined;
}
