/**
 * Reusing unchanged pages between builds. Every page made by getStaticPaths, and every tag feed,
 * has a key that covers everything it shows (src/page-keys.ts, src/lib/side-files.ts). `npm run build`
 * remembers the keys of the last build of the same content into the same output folder; when the
 * site's code is unchanged too, a page whose key is unchanged is not rendered again: its file is
 * hard-linked from the previous output into the new one (the new site is still swapped in whole,
 * and no file of the previous one is ever written).
 * The registry lives on a global because Astro loads the pages in a module graph of its own.
 */
const KEY = Symbol.for('tagsite.page-reuse');

export interface PageReuse {
  /** Key of each page file (`topics/x/index.html`) in the previous output, for pages that may be reused. */
  previous: Map<string, string>;
  /** Key of every page file of this build. */
  next: Map<string, string>;
  /** Page files taken from the previous output instead of rendered. */
  reused: Set<string>;
}

const slot = globalThis as Record<symbol, PageReuse | undefined>;

/** Starts recording keys; `previous` holds the pages that may be reused (empty: render everything). */
export function startPageReuse(previous: Map<string, string>): PageReuse {
  return (slot[KEY] = { previous, next: new Map(), reused: new Set() });
}

/** The registry of this build, when `npm run build` started one (not in `astro dev`). */
export function pageReuse(): PageReuse | undefined {
  return slot[KEY];
}

/** The file of a page path: `/topics/x/` → `topics/x/index.html`. */
export function pageFile(path: string): string {
  return `${path.replace(/^\/+/, '')}index.html`;
}
