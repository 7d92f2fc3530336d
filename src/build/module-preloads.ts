/**
 * `<link rel="modulepreload">` for what a page's scripts import. Astro writes a page's script as
 * `<script type="module" src="/_astro/x.js">`; the browser learns which files that script imports
 * only once it has it, a round trip later (and on a page whose first frame is being drawn, later
 * still). The client bundle knows them. Each page gets a link in <head> for every file its scripts
 * import, so the browser fetches them beside the scripts.
 *
 * A module a script imports only when it needs it (`import('…')`) is not fetched ahead, unless the
 * page asks for it by its source path, as /search/ does for word matching (a shared link's first
 * search needs it at once): `<link rel="modulepreload" href="/src/search/word-match.ts">` (with the
 * site's base). `astro dev` serves that path itself; a build points the link at the module's file
 * in the bundle, and adds what that file imports.
 */
import { relative } from 'node:path';
import type { Plugin } from 'vite';
import { sitePath } from './folder-files.ts';

/** Site paths of the client bundle's files (`_astro/x.js`, without the base). */
export interface ModuleGraph {
  /** Each entry file's static imports, transitively: what a browser fetches before it runs the entry. */
  imports: Record<string, string[]>;
  /** Each module imported only when needed, by its path in the project (`src/search/word-match.ts`): its file, then that file's imports. */
  lazy: Record<string, string[]>;
}

interface Chunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
}

/** The ModuleGraph of `bundle`, whose modules are under `root`. */
export function moduleGraph(bundle: Record<string, Chunk | { type: 'asset' }>, root: string): ModuleGraph {
  const chunks = new Map(Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [[output.fileName, output] as const] : [])));
  const imported = (name: string, into: Set<string>): Set<string> => {
    for (const next of chunks.get(name)?.imports ?? []) {
      if (into.has(next) || !chunks.has(next)) continue;
      into.add(next);
      imported(next, into);
    }
    return into;
  };
  const graph: ModuleGraph = { imports: {}, lazy: {} };
  for (const chunk of chunks.values()) {
    if (chunk.isEntry) graph.imports[chunk.fileName] = [...imported(chunk.fileName, new Set())];
    if (chunk.isDynamicEntry && chunk.facadeModuleId && !chunk.facadeModuleId.startsWith('\0')) {
      const source = sitePath(relative(root, chunk.facadeModuleId.replace(/\?.*/, '')));
      graph.lazy[source] = [chunk.fileName, ...imported(chunk.fileName, new Set())];
    }
  }
  return graph;
}

/** Collects the client bundle's ModuleGraph (`found`) as Vite writes it. */
export function modulePreloadPlugin(found: (graph: ModuleGraph) => void): Plugin {
  return {
    name: 'tagsite-module-preloads',
    applyToEnvironment: (environment) => environment.name === 'client',
    generateBundle(_options, bundle) {
      found(moduleGraph(bundle as unknown as Record<string, Chunk | { type: 'asset' }>, this.environment.config.root));
    },
  };
}

const MODULE_SCRIPT = /<script type="module" src="([^"]+)"/g;
const SOURCE_PRELOAD = /<link rel="modulepreload" href="([^"]+)">/g;

/**
 * `html` as a build writes it: each modulepreload link to a source module (see the top of this
 * file) replaced by links to its files, and before `</head>` a link for each file the page's
 * module scripts (those under `base`) import. No file is named twice, nor one a script loads.
 */
export function withModulePreloads(html: string, graph: ModuleGraph, base: string): string {
  const prefix = base.endsWith('/') ? base : `${base}/`;
  const head = html.indexOf('</head>');
  if (head < 0) return html;
  const scripts = [...html.matchAll(MODULE_SCRIPT)].map((match) => match[1]!);
  const named = new Set(scripts);
  const links = (files: readonly string[]) =>
    files
      .map((file) => `${prefix}${file}`)
      .filter((href) => !named.has(href) && named.add(href))
      .map((href) => `<link rel="modulepreload" href="${href}">`)
      .join('');
  const imports = links(scripts.flatMap((src) => (src.startsWith(prefix) ? (graph.imports[src.slice(prefix.length)] ?? []) : [])));
  const inHead = html.slice(0, head).replace(SOURCE_PRELOAD, (link, href: string) => {
    const files = href.startsWith(prefix) ? graph.lazy[href.slice(prefix.length)] : undefined;
    return files ? links(files) : link;
  });
  return `${inHead}${imports}${html.slice(head)}`;
}
