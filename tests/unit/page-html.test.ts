/**
 * Issue 22: a page's HTML goes from Astro's renderer to the build as a string (src/build/page-html.ts),
 * without Astro's encoding and Response on the thread that renders.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasMiddleware, htmlFromRenderer, pageHtmlPlugin, takeHtml } from '../../src/build/page-html.ts';

const offer = (html: string): boolean | undefined => (globalThis as Record<symbol, ((html: string) => boolean) | undefined>)[Symbol.for('tagsite.page-html')]?.(html);

/** The installed Astro's `render/page.js`, as Vite reads it into the page code. */
const renderPageFile = join(dirname(createRequire(import.meta.url).resolve('astro/package.json')), 'dist', 'runtime', 'server', 'render', 'page.js');

describe('taking a page’s HTML', () => {
  it('takes the HTML the renderer offers while a page renders, once, and gives it back with what the rendering returned', async () => {
    const { rendered, html } = await takeHtml(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1)); // across awaits, as a page renders
      expect(offer('<p>the page</p>')).toBe(true);
      expect(offer('<p>a second page in the same rendering</p>')).toBe(false);
      return 'returned';
    });
    expect([rendered, html]).toEqual(['returned', '<p>the page</p>']);
  });

  it('takes nothing outside a page’s rendering, nor when the renderer offers nothing', async () => {
    expect(offer('<p>rendered by Astro alone</p>')).toBe(false);
    expect(await takeHtml(async () => 7)).toEqual({ rendered: 7 });
  });

  it('keeps two pages rendering at once apart', async () => {
    const page = (name: string, wait: number) => takeHtml(async () => {
      await new Promise((resolve) => setTimeout(resolve, wait));
      offer(`<p>${name}</p>`);
    });
    const [a, b] = await Promise.all([page('a', 5), page('b', 1)]);
    expect([a.html, b.html]).toEqual(['<p>a</p>', '<p>b</p>']);
  });
});

describe("the change to Astro's renderer", () => {
  const installed = readFileSync(renderPageFile, 'utf8');

  it('applies to the installed Astro, and leaves its encoding for a page the build does not take', () => {
    const changed = htmlFromRenderer(installed);
    expect(changed, 'this Astro version encodes pages elsewhere: src/build/page-html.ts needs its pattern again').toBeDefined();
    expect(changed).toContain('if (globalThis[Symbol.for("tagsite.page-html")]?.(body)) body = null;');
    expect(changed).toContain('body = encoder.encode(body);');
    // Three lines are added: the offer, the `else {` before Astro's encoding, and its closing brace after it.
    const lines = changed!.split('\n');
    const at = lines.findIndex((line) => line.includes('tagsite.page-html'));
    expect([lines[at + 1]!.trim(), lines[at + 4]!.trim()]).toEqual(['else {', '}']);
    expect(lines.filter((_, i) => i !== at && i !== at + 1 && i !== at + 4).join('\n')).toBe(installed);
  });

  it('renders as before where the page is not taken, and without a body where it is', async () => {
    // The changed branch, run as the bundle runs it: `encoder`, `headers` and `streaming` as renderPage has them.
    const branch = /( *)if \(!streaming && typeof body === "string"\) \{[\s\S]*?\n\1\}/.exec(htmlFromRenderer(installed)!)![0];
    const run = new Function('body', 'encoder', 'headers', 'streaming', `${branch}\nreturn body;`) as (body: string, encoder: TextEncoder, headers: Headers, streaming: boolean) => Uint8Array | null;
    const headers = new Headers();
    expect(Buffer.from(run('<p>café</p>', new TextEncoder(), headers, false)!).toString('utf8')).toBe('<p>café</p>');
    expect(headers.get('content-length')).toBe('12');
    const taken = await takeHtml(async () => run('<p>café</p>', new TextEncoder(), new Headers(), false));
    expect(taken).toEqual({ rendered: null, html: '<p>café</p>' });
  });

  it('changes nothing in a renderer of another shape, and only Astro’s render/page.js', () => {
    expect(htmlFromRenderer(installed.replace('body = encoder.encode(body);', 'body = encode(body);'))).toBeUndefined();
    const transform = pageHtmlPlugin().transform as (source: string, id: string) => { code: string } | undefined;
    expect(transform(installed, renderPageFile)?.code).toBe(htmlFromRenderer(installed));
    expect(transform(installed, `${renderPageFile}?v=1`)?.code).toBe(htmlFromRenderer(installed));
    expect(transform(installed, join(dirname(renderPageFile), 'component.js'))).toBeUndefined();
  });
});

describe('a project with middleware of its own', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));
  const srcDir = (file?: string) => {
    const root = mkdtempSync(join(tmpdir(), 'tagsite-middleware-'));
    roots.push(root);
    if (file) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), 'export const onRequest = (context, next) => next();\n');
    }
    return root;
  };

  it('is known by src/middleware.* or src/middleware/index.*', () => {
    for (const file of ['middleware.ts', 'middleware.js', 'middleware.mjs', 'middleware/index.ts', 'middleware/index.js']) expect(hasMiddleware(srcDir(file)), file).toBe(true);
    for (const file of [undefined, 'middleware.md', 'middleware/other.ts', 'pages/middleware.ts']) expect(hasMiddleware(srcDir(file)), file).toBe(false);
  });
});
