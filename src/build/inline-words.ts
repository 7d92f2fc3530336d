/**
 * words.json inside /search/. A shared link (`/search/?q=…`) needs the site's words.json (shard
 * bounds and vocabulary keys) before it can ask for its words' index files; fetched from <head>, it
 * cost a round trip before those requests could even start. A build therefore writes words.json's
 * text into the data-words attribute of the search page's first-paint script
 * (src/client/first-paint.js), which then asks for the words' files at once. The page is rendered
 * by Astro while the index thread is still making the index, so the text goes in once the index is
 * written. `astro dev`'s page has none and fetches words.json.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FolderFiles, FolderListing } from './folder-files.ts';

/** The search page's file (src/pages/search.astro), as the build names pages. */
export const SEARCH_PAGE = 'search/index.html';

/** The first-paint script's tag of a page with a search index (src/layouts/Page.astro). */
const SCRIPT_TAG = /<script data-words-index="[^"]*"[^>]*>/;
const WORDS_ATTRIBUTE = / data-words='[^']*'/;

/** `text` for a single-quoted attribute value (JSON is full of double quotes, and has few single ones). */
function attributeValue(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `html` with `words` (words.json's text) as the first-paint script's data-words, or undefined when the page has no such script. */
export function withInlineWords(html: string, words: string): string | undefined {
  const tag = SCRIPT_TAG.exec(html);
  if (!tag) return undefined;
  const attribute = ` data-words='${attributeValue(words)}'`;
  const withWords = WORDS_ATTRIBUTE.test(tag[0]) ? tag[0].replace(WORDS_ATTRIBUTE, attribute) : `${tag[0].slice(0, -1)}${attribute}>`;
  return `${html.slice(0, tag.index)}${withWords}${html.slice(tag.index + tag[0].length)}`;
}

/**
 * Writes `words` into the search page Astro rendered into `fresh` (it has no getStaticPaths, so
 * every build renders it). Returns the page's path in `fresh` (the system's separators), or
 * undefined when the site has no such page or it has no first-paint script.
 */
export function inlineWords(fresh: string, words: string): string | undefined {
  const path = join(...SEARCH_PAGE.split('/'));
  if (!existsSync(join(fresh, path))) return undefined;
  const html = withInlineWords(readFileSync(join(fresh, path), 'utf8'), words);
  if (html === undefined) return undefined;
  writeFileSync(join(fresh, path), html);
  return path;
}

/** `listing` (of `dir`, which held `path` when it was listed) with the file `path` (system separators) as it is now: in its place, nothing sorted again. */
export function restamped(listing: FolderListing, dir: string, path: string): FolderListing {
  const { size, mtimeMs } = statSync(join(dir, path));
  return { files: listing.files.map((file): FolderFiles[number] => (file[0] === path ? [path, size, mtimeMs] : file)), folders: listing.folders };
}
