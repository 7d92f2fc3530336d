/**
 * A page's HTML as Astro's renderer made it, a string, for the build to write itself. Astro ends
 * every page by encoding its HTML to UTF-8 in JavaScript and wrapping the bytes in a Response, and
 * the build then read them back out of the Response's stream to write them: per page an encoding,
 * two copies and a web stream on the thread that renders (at 100,000 topics some 12 s of the main
 * thread's 75 s of pages, garbage collection aside). A small change to Astro's `renderPage`, made
 * as Vite bundles the page code (htmlFromRenderer), offers the string to the build instead: while
 * a page renders inside takeHtml, the build keeps it and Astro's Response goes without a body.
 * Outside takeHtml, and in `astro dev`, Astro renders as it always does. The build encodes the
 * string with Node's own UTF-8 encoder (./prerenderer.ts, utf8), the bytes TextEncoder gives.
 *
 * A project with middleware of its own keeps Astro's Response whole (middleware may read it): the
 * change is made only where nothing but Astro stands between the renderer and the build.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

/** Where the bundled renderer finds the build's offer. */
const OFFER = Symbol.for('tagsite.page-html');

/** The page being rendered now: its HTML, once the renderer has given it. */
interface Taken {
  html?: string;
}

const taking = new AsyncLocalStorage<Taken>();

// The renderer's question, for every page: does the build take this page's HTML as it is?
(globalThis as { [OFFER]?: (html: string) => boolean })[OFFER] = (html) => {
  const page = taking.getStore();
  if (!page || page.html !== undefined) return false;
  page.html = html;
  return true;
};

/**
 * Runs `render` (one page's rendering), taking the page's HTML from Astro's renderer: `html` is
 * the page's whole HTML when it was taken (its Response then has no body), else undefined.
 */
export async function takeHtml<T>(render: () => Promise<T>): Promise<{ rendered: T; html?: string }> {
  const page: Taken = {};
  const rendered = await taking.run(page, render);
  return page.html === undefined ? { rendered } : { rendered, html: page.html };
}

/** The module of Astro's whose `renderPage` ends a page, and the lines that encode its HTML there. */
const RENDER_PAGE = /[\\/]astro[\\/]dist[\\/]runtime[\\/]server[\\/]render[\\/]page\.js$/;
const ENCODING = /( *)if \(!streaming && typeof body === "string"\) \{\n(\s*body = encoder\.encode\(body\);\n\s*headers\.set\("Content-Length", body\.byteLength\.toString\(\)\);\n)(\s*)\}/;

/**
 * The source of Astro's `render/page.js` with its page's HTML offered to the build before it is
 * encoded: undefined when the source is not as this Astro version has it (the page then renders
 * as Astro renders it; a test fails on the Astro version that moves it).
 */
export function htmlFromRenderer(source: string): string | undefined {
  if (!ENCODING.test(source)) return undefined;
  return source.replace(ENCODING, (_all, indent: string, encode: string, closing: string) =>
    `${indent}if (!streaming && typeof body === "string") {\n${indent}  if (globalThis[Symbol.for("tagsite.page-html")]?.(body)) body = null;\n${indent}  else {\n${encode}${indent}  }\n${closing}}`,
  );
}

/** Whether the project has middleware of its own (Astro's `src/middleware.*` or `src/middleware/index.*`). */
export function hasMiddleware(srcDir: string): boolean {
  const names = ['middleware', join('middleware', 'index')];
  return names.some((name) => ['ts', 'js', 'mts', 'mjs'].some((extension) => existsSync(join(srcDir, `${name}.${extension}`))));
}

/** The Vite plugin that makes the change to Astro's renderer in a build's page code. */
export function pageHtmlPlugin(): Plugin {
  return {
    name: 'tagsite-page-html',
    apply: 'build',
    transform(source, id) {
      if (!RENDER_PAGE.test(id.split('?')[0]!)) return undefined;
      const changed = htmlFromRenderer(source);
      return changed === undefined ? undefined : { code: changed, map: null };
    },
  };
}
