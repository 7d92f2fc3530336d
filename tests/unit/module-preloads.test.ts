import { describe, expect, it } from 'vitest';
import { moduleGraph, withModulePreloads, type ModuleGraph } from '../../src/build/module-preloads.ts';

const chunk = (fileName: string, imports: string[], more: { isEntry?: boolean } = {}) => ({ type: 'chunk' as const, fileName, imports, isEntry: false, ...more });

describe('moduleGraph', () => {
  const chunks = [
    chunk('_astro/Search.a1.js', ['_astro/shared.b2.js'], { isEntry: true }),
    chunk('_astro/Members.c3.js', ['_astro/shared.b2.js', '_astro/list.d4.js'], { isEntry: true }),
    chunk('_astro/shared.b2.js', ['_astro/base.e5.js']),
    chunk('_astro/base.e5.js', ['_astro/shared.b2.js']), // a cycle ends
    chunk('_astro/list.d4.js', []),
    chunk('_astro/word-match.f6.js', ['_astro/shared.b2.js']), // imported only when needed: no entry's
  ];
  const bundle = { ...Object.fromEntries(chunks.map((c) => [c.fileName, c])), '_astro/Page.css': { type: 'asset' as const } };

  it("lists each entry's static imports, transitively, once each", () => {
    const graph = moduleGraph(bundle);
    expect(graph.imports).toEqual({
      '_astro/Search.a1.js': ['_astro/shared.b2.js', '_astro/base.e5.js'],
      '_astro/Members.c3.js': ['_astro/shared.b2.js', '_astro/base.e5.js', '_astro/list.d4.js'],
    });
  });
});

describe('withModulePreloads', () => {
  const graph: ModuleGraph = {
    imports: { '_astro/Search.a1.js': ['_astro/shared.b2.js', '_astro/base.e5.js'], '_astro/Other.h8.js': ['_astro/shared.b2.js'] },
  };
  const page = (head: string, body: string) => `<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`;
  const links = (html: string) => [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((match) => match[1]);
  const headOf = (html: string) => html.slice(0, html.indexOf('</head>'));

  it("puts a link into <head> for each file the page's scripts import, once, and none for a script itself", () => {
    const html = withModulePreloads(page('', '<script type="module" src="/_astro/Search.a1.js"></script><script type="module" src="/_astro/Other.h8.js"></script>'), graph, '/');
    expect(links(headOf(html))).toEqual(['/_astro/shared.b2.js', '/_astro/base.e5.js']);
    expect(links(html)).toHaveLength(2);
  });

  it('names files under the base the site is served from', () => {
    const html = withModulePreloads(page('', '<script type="module" src="/sub/path/_astro/Search.a1.js"></script>'), graph, '/sub/path');
    expect(links(html)).toEqual(['/sub/path/_astro/shared.b2.js', '/sub/path/_astro/base.e5.js']);
  });

  it('leaves a page without module scripts, or with scripts the bundle does not know (elsewhere, or another build), as it is', () => {
    for (const html of [
      page('', '<p>no scripts</p>'),
      page('', '<script type="module" src="/_astro/Unknown.z9.js"></script><script type="module" src="https://cdn.example/x.js"></script>'),
      '<p>a fragment without a head <script type="module" src="/_astro/Search.a1.js"></script></p>',
    ]) {
      expect(withModulePreloads(html, graph, '/')).toBe(html);
    }
  });

  it('keeps every other character of a page with text past ASCII, under a base past ASCII too', () => {
    const html = page('<meta name="description" content="Café ünïcödé 日本語 🙂">', '<p>Grüße</p><script type="module" src="/forüm/_astro/Search.a1.js"></script>');
    const linked = withModulePreloads(html, graph, '/forüm/');
    expect(links(linked)).toEqual(['/forüm/_astro/shared.b2.js', '/forüm/_astro/base.e5.js']);
    expect(linked.replace(/<link rel="modulepreload" href="[^"]+">/g, '')).toBe(html);
  });
});
