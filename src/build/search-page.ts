/**
 * The search page's last touches, made once the index is written. A shared link (`/search/?q=…`)
 * is the page most often opened cold, and each request its first results wait for costs it:
 *
 * - **words.json inside the page.** A shared link needs the site's words.json (shard bounds and
 *   vocabulary keys) before it can ask for its words' index files; fetched from <head>, it cost a
 *   round trip before those requests could even start. Its text goes into the data-words attribute
 *   of the page's first-paint script (src/client/first-paint.js), which then asks for the words'
 *   files at once. Astro renders the page while the index thread is still making the index, so the
 *   text goes in once the index is written. `astro dev`'s page has none and fetches words.json.
 * - **The site's stylesheet inside the page.** A browser runs a page's scripts only once the
 *   stylesheets before them have loaded, so the page's search could not start before the
 *   stylesheet's request came back. In a `<style>` element it costs about the same bytes (the
 *   stylesheet is small), and no request. Other pages keep the link, so a visitor who moves on
 *   reads the cached file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listedFile, type FolderListing } from './folder-files.ts';

/** The search page's file (src/pages/search.astro), as the build names pages. */
export const SEARCH_PAGE = 'search/index.html';

/** Where Astro writes bundled scripts and stylesheets (its `build.assets`). */
const ASSETS_FOLDER = '_astro';

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

/** A stylesheet link of Astro's bundled CSS (the build's assets folder, `_astro/`): the file's name. */
const STYLESHEET_LINK = /<link rel="stylesheet" href="[^"]*\/_astro\/([^"/]+\.css)">/g;

/**
 * CSS that reads the same inside the page as from its own file: no url() or @import relative to
 * the file (they would resolve against the page's address instead), and nothing that would end
 * the `<style>` element.
 */
function sameInline(css: string): boolean {
  return !/<\/style/i.test(css) && !/@import/i.test(css) && !/url\(\s*['"]?(?![a-z][a-z0-9+.-]*:|\/|#)/i.test(css);
}

/**
 * `html` with each stylesheet link of Astro's bundled CSS replaced by a `<style>` element holding
 * the file's text (`read` gives it by file name, or undefined). A link whose file is missing, or
 * whose CSS would not read the same inline (sameInline), stays.
 */
export function withInlineStylesheets(html: string, read: (name: string) => string | undefined): string {
  return html.replace(STYLESHEET_LINK, (link, name: string) => {
    const css = read(name);
    return css !== undefined && sameInline(css) ? `<style>${css}</style>` : link;
  });
}

/**
 * Writes `words` and the site's stylesheets into the search page Astro rendered into `fresh` (it
 * has no getStaticPaths, so every build renders it). The stylesheets are read from `fresh`'s
 * `_astro/`, or, in a rebuild that updates the output in place and keeps its browser files there,
 * from `outDir`'s. Returns the page's path in `fresh` (the system's separators), or undefined when
 * the site has no such page or it has no first-paint script.
 */
export function finishSearchPage(fresh: string, outDir: string, words: string): string | undefined {
  const path = join(...SEARCH_PAGE.split('/'));
  if (!existsSync(join(fresh, path))) return undefined;
  const html = withInlineWords(readFileSync(join(fresh, path), 'utf8'), words);
  if (html === undefined) return undefined;
  const read = (name: string) => {
    const file = [fresh, outDir].map((dir) => join(dir, ASSETS_FOLDER, name)).find((candidate) => existsSync(candidate));
    return file === undefined ? undefined : readFileSync(file, 'utf8');
  };
  writeFileSync(join(fresh, path), withInlineStylesheets(html, read));
  return path;
}

/** `listing` (of `dir`, which held `path` when it was listed) with the file `path` (system separators) as it is now: in its place, nothing sorted again. */
export function restamped(listing: FolderListing, dir: string, path: string): FolderListing {
  const now = listedFile(dir, path);
  return { files: listing.files.map((file) => (file[0] === path ? now : file)), folders: listing.folders };
}
