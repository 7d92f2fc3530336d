/**
 * How Astro's build renders tagsite's pages: with Astro's own prerenderer, route by route and
 * component by component, except that a page's file is written by a writer thread
 * (./file-writer.ts) instead of on the thread that renders. Astro is handed an empty response for
 * those pages, so it writes nothing itself; it still lists every page for `astro:build:done`. In a
 * rebuild the same thread links the reused pages from the previous output while the others render.
 */
import type { AstroPrerenderer } from 'astro';
import { lazyFileWriter, writerHere, type FileWriter } from './file-writer.ts';
import { folderFiles, sitePath } from './folder-files.ts';
import { withModulePreloads, type ModuleGraph } from './module-preloads.ts';
import { buildStore, pageReads, type PageReuse } from './store.ts';
import { readsKey } from './page-reads.ts';
import { takeHtml } from './page-html.ts';

/** Astro's status-code pages keep their own file names (`404.html`). */
export const STATUS_PAGES = new Set(['/404', '/500']);

/** The files of Astro's `publicDir`, as site paths (`/`-separated, relative): a page whose file is there is skipped. */
export function publicFiles(publicDir: string): Set<string> {
  return new Set(folderFiles(publicDir).map(([path]) => sitePath(path)));
}

/**
 * The file of a page of the `directory` build format, as Astro names it: `/topics/x/` →
 * `topics/x/index.html`. `pathname` is the address's path (percent-encoded, with the site's
 * `base`); undefined for an address that is not under `base`, is a status-code page, or has an
 * encoded `/` (Astro refuses those itself).
 */
export function directoryPageFile(pathname: string, base: string): string | undefined {
  const prefix = base.endsWith('/') ? base : `${base}/`;
  if (/%2f/i.test(pathname)) return undefined;
  const path = decodeURIComponent(pathname);
  if (!path.startsWith(prefix) || !path.endsWith('/')) return undefined;
  const inside = path.slice(prefix.length);
  if (STATUS_PAGES.has(`/${inside.slice(0, -1)}`)) return undefined;
  return `${inside}index.html`;
}

/** A status-code page's file. */
const STATUS_FILE = /^\d{3}\.html$/;

/** The file of a page or endpoint without parameters, by its address's path: a status-code page's is its own (`404.html`). */
function staticFile(pathname: string, type: string, base: string): string | undefined {
  const prefix = base.endsWith('/') ? base : `${base}/`;
  const path = decodeURIComponent(pathname);
  if (type === 'page') {
    const status = path.startsWith(prefix) ? `/${path.slice(prefix.length).replace(/\/$/, '')}` : undefined;
    return status && STATUS_PAGES.has(status) ? `${status.slice(1)}.html` : directoryPageFile(pathname, base);
  }
  return type === 'endpoint' && path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
}

/**
 * A page's HTML as UTF-8 (Node's encoder, the bytes TextEncoder gives), in an ArrayBuffer of its
 * own: never a slice of Node's shared pool, which the page writer would hand to its thread whole.
 * Encoded as soon as the page is done, so that the string dies young: pages sent to the writer
 * thread as strings (held until a batch went) raised a clean build's peak at 100,000 topics by
 * another 0.3–0.4 GB.
 */
export function utf8(html: string): ArrayBuffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(html, 'utf8'));
  bytes.write(html, 'utf8');
  return bytes.buffer as ArrayBuffer;
}

/** Where the pages go, and for a rebuild, the previous output (`from`) and the pages reused from it. */
export interface PageFiles {
  outDir: string;
  base: string;
  /** Astro's `build.format`. */
  format: string;
  /** Astro's `publicDir`: a page whose file is there is Astro's to skip, with its warning. */
  publicDir: string;
  /** The client bundle's imports, for each page's modulepreload links (filled in once Vite has written the bundle). */
  modules: ModuleGraph;
  reuse?: { from: string; pages: PageReuse };
  /** The pages are written by the thread that renders them, not by a writer thread (./page-thread.ts, which is one). */
  writeHere?: boolean;
}

/**
 * Astro's default prerenderer, with pages of the `directory` build format written by a writer
 * thread into `outDir`. Other formats, endpoints and anything but a 200 HTML page are Astro's to write.
 */
export function writingPrerenderer(defaults: AstroPrerenderer, { outDir, base, format, publicDir, modules, reuse, writeHere }: PageFiles): AstroPrerenderer {
  let files: FileWriter | undefined;
  let inPublic = new Set<string>();
  return {
    ...defaults,
    name: 'tagsite',
    async setup() {
      await defaults.setup?.();
      if (format !== 'directory') return;
      files = writeHere ? writerHere(outDir) : lazyFileWriter(outDir);
      inPublic = publicFiles(publicDir);
    },
    async getStaticPaths() {
      const paths = await defaults.getStaticPaths();
      // Every route has now said which of its pages are reused (./page-reuse.ts): they are linked while the others render.
      // (Not the index thread's files, when it has answered already: it links those it reuses itself.)
      if (files && reuse) {
        const reused = [...reuse.pages.reused].filter((file) => !reuse.pages.carried.has(file));
        if (!reuse.pages.inPlace) files.carry(reused, reuse.from);
        for (const file of reused) reuse.pages.carried.add(file);
      }
      return paths;
    },
    async render(request, options) {
      const shown = reuse?.pages.postsShown;
      const reads = new Set<string>();
      // The page's HTML as Astro's renderer made it (./page-html.ts): its Response then has no body.
      const { rendered, html } = await takeHtml(() => pageReads().run(reads, () => defaults.render(request, options)));
      const { response, metadata } = rendered instanceof Response ? { response: rendered, metadata: undefined } : rendered;
      const url = new URL(request.url);
      // A page or endpoint without parameters that showed no post is keyed by the parts of the
      // site's data it read: it is reused while they are the same (./page-reads.ts, ./kept-renderer.ts).
      const { content } = buildStore();
      const named = reuse && content && options.routeData.params.length === 0 && reuse.pages.postsShown === shown ? staticFile(url.pathname, options.routeData.type, base) : undefined;
      // A status-code page answers with its own status.
      const key = named && response.status === (STATUS_FILE.test(named) ? Number(named.slice(0, 3)) : 200) ? readsKey(reads, reuse!.pages, content!) : undefined;
      if (key) reuse!.pages.next.set(named!, key);
      // A page path with `?` or `#` would not survive as an address: Astro names its file.
      const file = files && options.routeData.type === 'page' && response.status === 200 && (html !== undefined || response.body) && !url.search && !url.hash ? directoryPageFile(url.pathname, base) : undefined;
      if (!files || !file || inPublic.has(file) || !response.headers.get('content-type')?.startsWith('text/html')) {
        // Astro writes this one (or skips it): with its HTML back in its Response.
        if (html === undefined) return rendered;
        const whole = new Response(html, { status: response.status, statusText: response.statusText, headers: response.headers });
        return rendered instanceof Response ? whole : { ...rendered, response: whole };
      }
      await files.write(file, utf8(withModulePreloads(html ?? (await response.text()), modules, base)));
      return { response: new Response(null), metadata };
    },
    async teardown() {
      try {
        await files?.close();
      } finally {
        await defaults.teardown?.();
      }
    },
  };
}
