import { loadContent, type SiteContent } from '../content/load.ts';
import { ContentProblemsError } from '../content/problems.ts';
import type { SideFiles } from './index-and-feeds.ts';

// The validated content, shared by everything that runs in the build's process: `npm run build`
// validates it before Astro starts and hands it over here, and the pages read it from here. It
// lives on a global because Astro loads the pages in a module graph of its own (a module variable
// would not be shared). Pages do not go through Astro's content layer: copying 100,000 records
// into its data store (and serialising that store to disk) cost seconds and memory for nothing,
// since the records are already validated and normalised.
const KEY = Symbol.for('tagsite.validated-content');

const SOURCE = Symbol.for('tagsite.content-source');

/** Where the content comes from and how it is read. */
export interface ContentSource {
  /** The project root (problems name files relative to it). */
  root: string;
  contentDir: string;
  excerptLength: number;
}

interface Held extends Omit<ContentSource, 'root'> {
  content: SiteContent;
}

const slot = globalThis as Record<symbol, Held | ContentSource | undefined>;

/** Set by the integration when Astro starts: the content folder of this build or dev server. */
export function setContentSource(source: ContentSource): void {
  slot[SOURCE] = source;
}

/** Called by the build script once the content is valid. */
export function handOverContent(held: Held): void {
  slot[KEY] = held;
}

/** Forgets the held content (`astro dev` calls it when a file under the content folder changes). */
export function forgetContent(): void {
  slot[KEY] = undefined;
}

/**
 * The content of the source's folder: the records the build script validated, or (in `astro dev`, where
 * no build script runs) loaded and validated here once. Invalid content throws
 * ContentProblemsError, which lists every problem.
 */
export function heldContent(): SiteContent {
  const source = slot[SOURCE] as ContentSource | undefined;
  if (!source) throw new Error('tagsite: no content source (is the tagsite() integration in astro.config.mjs?)');
  const { root, contentDir, excerptLength } = source;
  const held = slot[KEY] as Held | undefined;
  if (held && held.contentDir === contentDir && held.excerptLength === excerptLength) return held.content;
  const { content, problems } = loadContent({ root, contentDir, excerptLength });
  if (problems.length > 0) throw new ContentProblemsError(problems);
  handOverContent({ contentDir, excerptLength, content });
  return content;
}

const SIDE_FILES = Symbol.for('tagsite.side-files');

/** The build script builds the search index and tag feeds in a worker thread while Astro renders the pages. */
export function handOverSideFiles(files: Promise<SideFiles>): void {
  (globalThis as Record<symbol, unknown>)[SIDE_FILES] = files;
}

/** The search index and feeds the build script is building, if it is. */
export function handedSideFiles(): Promise<SideFiles> | undefined {
  return (globalThis as Record<symbol, Promise<SideFiles> | undefined>)[SIDE_FILES];
}
