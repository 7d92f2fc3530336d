import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileWriterThread, lazyFileWriter } from '../../src/build/file-writer.ts';
import { MADE_FOLDERS, writer } from '../../src/build/write-files.ts';
import { directoryPageFile, utf8, writingPrerenderer, type PageFiles } from '../../src/build/prerenderer.ts';
import type { PageReuse } from '../../src/build/store.ts';
import type { AstroPrerenderer, PrerenderResult, RouteData } from 'astro';

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tagsite-writer-'));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;

/** A previous output holding one page, `topics/kept/index.html`. */
function previousOutput(): string {
  const previous = folder();
  mkdirSync(join(previous, 'topics', 'kept'), { recursive: true });
  writeFileSync(join(previous, 'topics', 'kept', 'index.html'), 'kept page');
  return previous;
}

describe('a folder writer', () => {
  it('remembers only so many folders it made: past them, a folder it made is made again when it is gone', () => {
    const dir = folder();
    const files = writer(dir);
    const count = MADE_FOLDERS + 10;
    for (let i = 0; i < count; i++) files.write(`topics/t${i}/index.html`, `page ${i}`);
    expect(readFileSync(join(dir, 'topics', `t${count - 1}`, 'index.html'), 'utf8')).toBe(`page ${count - 1}`);
    // t0 was forgotten when the writer started again: the folder is made anew, not assumed.
    rmSync(join(dir, 'topics', 't0'), { recursive: true });
    files.write('topics/t0/index.html', 'page 0 again');
    expect(readFileSync(join(dir, 'topics', 't0', 'index.html'), 'utf8')).toBe('page 0 again');
    // The last folders are remembered still: one removed behind its back is not made again.
    rmSync(join(dir, 'topics', `t${count - 1}`), { recursive: true });
    expect(() => files.write(`topics/t${count - 1}/index.html`, 'again')).toThrow(/ENOENT/);
  });
});

describe('the file writer thread', () => {
  it('writes every queued file, in its folders, before close resolves; many writes may wait at once', async () => {
    const dir = folder();
    const files = fileWriterThread(dir);
    // 5,000 files from 8 writers at a time: more than the writer lets wait, so writes wait on it.
    const names = Array.from({ length: 5000 }, (_, i) => `topics/t-${i}/index.html`);
    for (let i = 0; i < names.length; i += 8) await Promise.all(names.slice(i, i + 8).map((name) => files.write(name, bytes(`<p>${name}</p>`))));
    await files.close();
    for (const name of [names[0]!, names[2345]!, names[4999]!]) expect(readFileSync(join(dir, name), 'utf8')).toBe(`<p>${name}</p>`);
  });

  it('carries files of the previous output over as links to the same file, beside the files it writes', async () => {
    const previous = previousOutput();
    const dir = folder();
    const files = fileWriterThread(dir);
    files.carry(['topics/kept/index.html'], previous);
    await files.write('topics/new/index.html', bytes('new page'));
    await files.close();
    expect(readFileSync(join(dir, 'topics/kept/index.html'), 'utf8')).toBe('kept page');
    expect(statSync(join(dir, 'topics/kept/index.html')).ino).toBe(statSync(join(previous, 'topics/kept/index.html')).ino);
    expect(readFileSync(join(dir, 'topics/new/index.html'), 'utf8')).toBe('new page');
  });

  it('reports a file it cannot write, naming it, and writes nothing after it', async () => {
    const dir = folder();
    // A file where the page's folder should be.
    writeFileSync(join(dir, 'tags'), 'in the way');
    const files = fileWriterThread(dir);
    await files.write('topics/a/index.html', bytes('a'));
    await files.write('tags/x/index.html', bytes('x'));
    await expect(files.close()).rejects.toThrow(/could not write tags\/x\/index\.html/);
    expect(readFileSync(join(dir, 'topics/a/index.html'), 'utf8')).toBe('a');
  });

  it('fails the writes that come after a failure instead of queueing them, and writes none of them', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'tags'));
    writeFileSync(join(dir, 'tags', 'x'), 'in the way');
    const files = fileWriterThread(dir);
    await files.write('tags/x/index.html', bytes('x'));
    // The failure reaches the rendering thread with the writer's next message: a later write throws it.
    let thrown: Error | undefined;
    for (let i = 0; i < 200 && !thrown; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      thrown = await files.write(`topics/t-${i}/index.html`, bytes('b')).then(() => undefined, (error: Error) => error);
    }
    expect(thrown?.message).toMatch(/could not write tags\/x\/index\.html/);
    await expect(files.close()).rejects.toThrow(/tags\/x\/index\.html/);
    expect(existsSync(join(dir, 'topics'))).toBe(false);
  });
});

describe('the lazy file writer', () => {
  it('writes its first files on this thread, each on the disk when its write resolves, then the rest through its thread', async () => {
    const dir = folder();
    const files = lazyFileWriter(dir, 3);
    const names = Array.from({ length: 40 }, (_, i) => `topics/t-${i}/index.html`);
    for (const name of names.slice(0, 3)) {
      await files.write(name, bytes(`<p>${name}</p>`));
      expect(readFileSync(join(dir, name), 'utf8')).toBe(`<p>${name}</p>`);
    }
    for (const name of names.slice(3)) await files.write(name, bytes(`<p>${name}</p>`));
    await files.close();
    for (const name of names) expect(readFileSync(join(dir, name), 'utf8')).toBe(`<p>${name}</p>`);
  });

  it('fails a write of its own at once, naming the file', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'tags'), 'in the way');
    const files = lazyFileWriter(dir);
    await expect(files.write('tags/x/index.html', bytes('x'))).rejects.toThrow(/could not write tags\/x\/index\.html/);
    await files.close();
  });

  it('carries files over through its thread, as links, beside the files it wrote itself', async () => {
    const previous = previousOutput();
    const dir = folder();
    const files = lazyFileWriter(dir);
    await files.write('topics/new/index.html', bytes('new page'));
    files.carry(['topics/kept/index.html'], previous);
    await files.close();
    expect(statSync(join(dir, 'topics/kept/index.html')).ino).toBe(statSync(join(previous, 'topics/kept/index.html')).ino);
    expect(readFileSync(join(dir, 'topics/new/index.html'), 'utf8')).toBe('new page');
  });
});

describe("a page's bytes", () => {
  it('are its UTF-8, in a buffer of their own, for a page of any size', () => {
    for (const html of ['<p>é</p>', `<p>${'café ☕ 🙂 '.repeat(2000)}</p>`, '\ud800 a lone surrogate']) {
      const bytes = utf8(html);
      expect(Buffer.from(bytes)).toEqual(Buffer.from(new TextEncoder().encode(html)));
      // Not a slice of Node's shared pool (8 KB), which the writer thread would be handed whole.
      expect(bytes.byteLength).toBe(Buffer.byteLength(html));
    }
  });
});

describe('a page file of the directory build format', () => {
  it('is the address under the base, with index.html, decoded', () => {
    expect(directoryPageFile('/topics/x/', '/')).toBe('topics/x/index.html');
    expect(directoryPageFile('/', '/')).toBe('index.html');
    expect(directoryPageFile('/community/tags/api/2/', '/community')).toBe('tags/api/2/index.html');
    expect(directoryPageFile('/community/tags/api/', '/community/')).toBe('tags/api/index.html');
    expect(directoryPageFile('/tags/%E6%97%A5%E6%9C%AC/', '/')).toBe('tags/日本/index.html');
    // As a file URL decodes it: every escape, `%23` and `%3F` included.
    expect(directoryPageFile('/forum/c%23-tips%3F/', '/')).toBe('forum/c#-tips?/index.html');
  });

  it('is none for status-code pages, addresses outside the base, and addresses of files', () => {
    expect(directoryPageFile('/404/', '/')).toBeUndefined();
    expect(directoryPageFile('/community/500/', '/community')).toBeUndefined();
    expect(directoryPageFile('/elsewhere/x/', '/community')).toBeUndefined();
    expect(directoryPageFile('/api/workflows.json', '/')).toBeUndefined();
    expect(directoryPageFile('/forum/a%2Fb/', '/')).toBeUndefined();
  });
});

describe("tagsite's prerenderer", () => {
  /** Astro's default prerenderer as far as tagsite's uses it: every address renders to a small page. */
  const astroDefaults = (): AstroPrerenderer => ({
    name: 'astro:default',
    getStaticPaths: async () => [],
    render: async (request) => new Response(`<p>${new URL(request.url).pathname}</p>`, { headers: { 'content-type': 'text/html' } }),
  });
  const page = { routeData: { type: 'page' } as RouteData };
  const setUp = async (settings: Partial<PageFiles> = {}) => {
    const outDir = folder();
    const prerenderer = writingPrerenderer(astroDefaults(), { outDir, base: '/', format: 'directory', publicDir: folder(), modules: { imports: {} }, ...settings });
    await prerenderer.setup!();
    return { prerenderer, outDir };
  };
  const body = async (result: Response | PrerenderResult) => ((result instanceof Response ? result : result.response).body === null ? null : await (result instanceof Response ? result : result.response).text());

  it('writes a page itself and hands Astro an empty response, so Astro writes nothing', async () => {
    const { prerenderer, outDir } = await setUp();
    expect(await body(await prerenderer.render(new Request('https://x.example/topics/a/'), page))).toBeNull();
    await prerenderer.teardown!();
    expect(readFileSync(join(outDir, 'topics/a/index.html'), 'utf8')).toBe('<p>/topics/a/</p>');
  });

  it('leaves to Astro endpoints, status pages, pages of another build format and pages public/ already has', async () => {
    const publicDir = folder();
    mkdirSync(join(publicDir, 'about'));
    writeFileSync(join(publicDir, 'about', 'index.html'), 'the public page');
    const { prerenderer, outDir } = await setUp({ publicDir });
    expect(await body(await prerenderer.render(new Request('https://x.example/api/links.json'), { routeData: { type: 'endpoint' } as RouteData }))).toBe('<p>/api/links.json</p>');
    expect(await body(await prerenderer.render(new Request('https://x.example/404/'), page))).toBe('<p>/404/</p>');
    expect(await body(await prerenderer.render(new Request('https://x.example/about/'), page))).toBe('<p>/about/</p>');
    await prerenderer.teardown!();
    expect(existsSync(join(outDir, 'about'))).toBe(false);
    const files = await setUp({ format: 'file' });
    expect(await body(await files.prerenderer.render(new Request('https://x.example/topics/a.html'), page))).toBe('<p>/topics/a.html</p>');
    await files.prerenderer.teardown!();
  });

  /** Astro's renderer as the build changes it (../../src/build/page-html.ts): it offers a page's HTML, and answers without a body when the build takes it. */
  const offeringDefaults = (status = 200): AstroPrerenderer => ({
    name: 'astro:default',
    getStaticPaths: async () => [],
    render: async (request) => {
      const html = `<p>${decodeURI(new URL(request.url).pathname)} · café ☕</p>`;
      const taken = (globalThis as Record<symbol, ((html: string) => boolean) | undefined>)[Symbol.for('tagsite.page-html')]?.(html);
      return new Response(taken ? null : html, { status, statusText: status === 404 ? 'Not Found' : 'OK', headers: { 'content-type': 'text/html' } });
    },
  });
  const setUpOffering = async (status?: number) => {
    const outDir = folder();
    const prerenderer = writingPrerenderer(offeringDefaults(status), { outDir, base: '/', format: 'directory', publicDir: folder(), modules: { imports: {} } });
    await prerenderer.setup!();
    return { prerenderer, outDir };
  };

  it("writes the HTML Astro's renderer gives it as UTF-8, and hands Astro an empty response", async () => {
    const { prerenderer, outDir } = await setUpOffering();
    expect(await body(await prerenderer.render(new Request('https://x.example/tags/caf%C3%A9/'), page))).toBeNull();
    await prerenderer.teardown!();
    expect(readFileSync(join(outDir, 'tags/café/index.html'))).toEqual(Buffer.from('<p>/tags/café/ · café ☕</p>', 'utf8'));
  });

  it('gives Astro back the HTML it took of a page Astro writes itself, with its status', async () => {
    const { prerenderer, outDir } = await setUpOffering(404);
    const result = await prerenderer.render(new Request('https://x.example/topics/gone/'), page);
    const response = result instanceof Response ? result : result.response;
    expect([response.status, response.statusText, response.headers.get('content-type')]).toEqual([404, 'Not Found', 'text/html']);
    expect(await response.text()).toBe('<p>/topics/gone/ · café ☕</p>');
    await prerenderer.teardown!();
    expect(existsSync(join(outDir, 'topics'))).toBe(false);
  });

  it('in a rebuild, links the pages the routes reuse once every route has listed its paths', async () => {
    const previous = previousOutput();
    const pages: PageReuse = { previous: new Map(), next: new Map(), reused: new Set(['topics/kept/index.html']), carried: new Set(), inPlace: false, routes: { previous: new Map(), next: new Map() }, postsShown: 0 };
    const { prerenderer, outDir } = await setUp({ reuse: { from: previous, pages } });
    await prerenderer.getStaticPaths();
    expect([...pages.carried]).toEqual(['topics/kept/index.html']);
    await prerenderer.teardown!();
    expect(readFileSync(join(outDir, 'topics/kept/index.html'), 'utf8')).toBe('kept page');
  });
});
