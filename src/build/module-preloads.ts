/**
 * `<link rel="modulepreload">` for what a page's scripts import. Astro writes a page's script as
 * `<script type="module" src="/_astro/x.js">`; the browser learns which files that script imports
 * only once it has it, a round trip later (and on a page whose first frame is being drawn, later
 * still). The client bundle knows them. Each page gets a link in <head> for every file its scripts
 * import, so the browser fetches them beside the scripts.
 *
 * A module a script imports only when it needs it (`import('…')`) is not fetched ahead.
 */
import type { Plugin } from 'vite';

/** Site paths of the client bundle's files (`_astro/x.js`, without the base). */
export interface ModuleGraph {
  /** Each entry file's static imports, transitively: what a browser fetches before it runs the entry. */
  imports: Record<string, string[]>;
}

interface Chunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  imports: string[];
}

/** The ModuleGraph of `bundle`. */
export function moduleGraph(bundle: Record<string, Chunk | { type: 'asset' }>): ModuleGraph {
  const chunks = new Map(Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [[output.fileName, output] as const] : [])));
  const imported = (name: string, into: Set<string>): Set<string> => {
    for (const next of chunks.get(name)?.imports ?? []) {
      if (into.has(next) || !chunks.has(next)) continue;
      into.add(next);
      imported(next, into);
    }
    return into;
  };
  const graph: ModuleGraph = { imports: {} };
  for (const chunk of chunks.values()) {
    if (chunk.isEntry) graph.imports[chunk.fileName] = [...imported(chunk.fileName, new Set())];
  }
  return graph;
}

/** Collects the client bundle's ModuleGraph (`found`) as Vite writes it. */
export function modulePreloadPlugin(found: (graph: ModuleGraph) => void): Plugin {
  return {
    name: 'tagsite-module-preloads',
    applyToEnvironment: (environment) => environment.name === 'client',
    generateBundle(_options, bundle) {
      found(moduleGraph(bundle as unknown as Record<string, Chunk | { type: 'asset' }>));
    },
  };
}

/** How Astro writes a page's script: only pages with one get links. */
const MODULE_SCRIPT_START = '<script type="module" src="';
const MODULE_SCRIPT = /<script type="module" src="([^"]+)"/g;

/**
 * A page's HTML as a build writes it: before `</head>`, a link for each file the page's module
 * scripts (those under `base`) import. No file is named twice, nor one a script loads.
 */
export function withModulePreloads(html: string, graph: ModuleGraph, base: string): string {
  const prefix = base.endsWith('/') ? base : `${base}/`;
  if (!html.includes(MODULE_SCRIPT_START)) return html;
  const head = html.indexOf('</head>');
  if (head < 0) return html;
  const scripts = [...html.matchAll(MODULE_SCRIPT)].map((match) => match[1]!);
  const named = new Set(scripts);
  const links = scripts
    .flatMap((src) => (src.startsWith(prefix) ? (graph.imports[src.slice(prefix.length)] ?? []) : []))
    .map((file) => `${prefix}${file}`)
    .filter((href) => !named.has(href) && named.add(href))
    .map((href) => `<link rel="modulepreload" href="${href}">`)
    .join('');
  return links === '' ? html : `${html.slice(0, head)}${links}${html.slice(head)}`;
}
