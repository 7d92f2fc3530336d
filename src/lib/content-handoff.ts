import type { SiteContent } from './content.ts';

// `npm run build` validates the content before Astro starts, and Astro then runs in the same
// process. The validated records are handed over through a global (Astro loads the content config
// in its own module graph, so a module variable would not be shared) instead of reading, checking
// and rendering every topic a second time.
const KEY = Symbol.for('tagsite.validated-content');

interface Handed {
  contentDir: string;
  excerptLength: number;
  content: SiteContent;
}

/** Called by the build script once the content is valid. */
export function handOverContent(handed: Handed): void {
  (globalThis as Record<symbol, unknown>)[KEY] = handed;
}

/** The content the build script validated, when it is for this content folder and these options. */
export function takeHandedContent(contentDir: string, excerptLength: number): SiteContent | undefined {
  const handed = (globalThis as Record<symbol, Handed | undefined>)[KEY];
  return handed && handed.contentDir === contentDir && handed.excerptLength === excerptLength ? handed.content : undefined;
}
