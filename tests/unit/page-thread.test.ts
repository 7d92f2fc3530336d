/** How a full build parts its pages between Astro and the page thread (src/build/page-thread.ts). */
import { afterEach, expect, it, vi } from 'vitest';
import type { AstroPrerenderer, RouteData } from 'astro';
import { pageThreadWanted, sharedLast, threadedPrerenderer, type startPageThread } from '../../src/build/page-thread.ts';
import { buildStore } from '../../src/build/store.ts';

const route = (pattern: string, params: string[] = []) => ({ route: pattern, type: 'page', params }) as unknown as RouteData;
const tag = route('/tags/[tag]', ['tag']);
const topic = route('/topics/[slug]', ['slug']);
const news = route('/tags/news');
const member = route('/members/[slug]', ['slug']);

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  Object.assign(buildStore(), { indexFinished: undefined, indexGone: undefined });
});

it("shares the listings' pages and keeps the others, in Astro's order", () => {
  const paths = [
    { pathname: '/topics/a/', route: topic },
    { pathname: '/tags/x/', route: tag },
    { pathname: '/members/m/', route: member },
    { pathname: '/tags/y/', route: tag },
    { pathname: '/', route: route('/') },
  ];
  const { own, sharing } = sharedLast(paths);
  expect(own.map(({ pathname }) => pathname)).toEqual(['/topics/a/', '/']);
  expect(sharing.map(({ pathname }) => pathname)).toEqual(['/tags/x/', '/members/m/', '/tags/y/']);
});

it('builds the first of two routes that make one path, and says so as Astro does', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  // A page of its own before a tag's listing with its path, and the other way round.
  const first = sharedLast([{ pathname: '/tags/news/', route: news }, { pathname: '/tags/news/', route: tag }]);
  expect(first.own.map(({ route }) => route)).toEqual([news]);
  expect(first.sharing).toEqual([]);
  const second = sharedLast([{ pathname: '/tags/news/', route: tag }, { pathname: '/tags/news', route: news }, { pathname: '/tags/news/', route: tag }]);
  expect(second.sharing.map(({ route }) => route)).toEqual([tag]);
  expect(second.own).toEqual([]);
  expect(warn.mock.calls.map(([line]) => line)).toEqual([
    'Could not render `/tags/news` from route `/tags/[tag]` as it conflicts with higher priority route `/tags/news`.',
    'Could not render `/tags/news` from route `/tags/news` as it conflicts with higher priority route `/tags/[tag]`.',
    'Could not render `/tags/news` from route `/tags/[tag]` as it conflicts with higher priority route `/tags/[tag]`.',
  ]);
});

it('starts the thread from 1,000 topics, or as TAGSITE_PAGE_THREAD says', () => {
  vi.stubEnv('TAGSITE_PAGE_THREAD', undefined);
  expect(pageThreadWanted(999)).toBe(false);
  expect(pageThreadWanted(1000)).toBe(true);
  vi.stubEnv('TAGSITE_PAGE_THREAD', '0');
  expect(pageThreadWanted(100_000)).toBe(false);
  vi.stubEnv('TAGSITE_PAGE_THREAD', '1');
  expect(pageThreadWanted(3)).toBe(true);
});

/**
 * A prerenderer of these pages whose page thread is a stand-in: it notes when it is started and
 * the pages it is given, and claims none (the main thread renders them all).
 */
function prerendererWithThread(paths: Array<{ pathname: string; route: RouteData }>, cores = 2) {
  const rendered: string[] = [];
  const defaults = {
    name: 'astro:default',
    app: { manifest: {} },
    getStaticPaths: async () => paths,
    render: async (request: Request) => {
      rendered.push(new URL(request.url).pathname);
      return { response: new Response('page') };
    },
  } as unknown as AstroPrerenderer;
  const thread = { starts: 0, given: [] as string[][], started: Promise.resolve() };
  const start = (() => {
    thread.starts++;
    return { share: ({ paths: given }: { paths: string[] }) => thread.given.push(given), started: thread.started, finished: async () => 0, stop: async () => undefined };
  }) as unknown as typeof startPageThread;
  const target = { pageFiles: { base: '/' }, site: 'https://example.test', trailingSlash: 'always' };
  const prerenderer = threadedPrerenderer(defaults, (own) => own, () => ['entry.mjs', { styles: [], scripts: [] }, target, {}, {}] as unknown as Parameters<typeof startPageThread>, { start, cores });
  const render = (pathname: string, route: RouteData) => prerenderer.render(new Request(new URL(pathname, target.site)), { routeData: route } as never);
  return { prerenderer, thread, rendered, render };
}

it("starts the page thread once the index thread has finished and ended, and gives it the shared pages settled before", async () => {
  let finished = false;
  buildStore().indexFinished = () => finished;
  const { prerenderer, thread, rendered, render } = prerendererWithThread([{ pathname: '/topics/a/', route: topic }, { pathname: '/topics/b/', route: topic }, { pathname: '/tags/x/', route: tag }]);
  await prerenderer.setup?.();
  const order = await prerenderer.getStaticPaths();
  expect(order.map(({ pathname }) => pathname)).toEqual(['/topics/a/', '/topics/b/', '/tags/x/']);
  let ended = () => {};
  buildStore().indexGone = new Promise((resolve) => (ended = resolve));
  await render('/topics/a/', topic);
  expect(thread.starts, 'not while the index thread works').toBe(0);
  finished = true;
  const waiting = render('/topics/b/', topic);
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(thread.starts, 'not before the index thread has ended').toBe(0);
  expect(rendered).toEqual(['/topics/a/']);
  ended();
  await waiting;
  expect(thread.starts).toBe(1);
  expect(thread.given).toEqual([['/tags/x/']]);
  // The shared page the thread has not claimed is rendered here; the thread is started once only.
  await render('/tags/x/', tag);
  expect(thread.starts).toBe(1);
  expect(rendered).toEqual(['/topics/a/', '/topics/b/', '/tags/x/']);
  await prerenderer.teardown?.();
});

it('starts the page thread at the first shared page when the index thread is still at work, with more than two cores', async () => {
  buildStore().indexFinished = () => false;
  const { prerenderer, thread, render } = prerendererWithThread([{ pathname: '/topics/a/', route: topic }, { pathname: '/tags/x/', route: tag }, { pathname: '/tags/y/', route: tag }], 4);
  await prerenderer.setup?.();
  await prerenderer.getStaticPaths();
  await render('/topics/a/', topic);
  expect(thread.starts).toBe(0);
  await render('/tags/y/', tag);
  expect(thread.starts).toBe(1);
  expect(thread.given).toEqual([['/tags/x/', '/tags/y/']]);
  await prerenderer.teardown?.();
});

it('does not start the page thread when the build ends while the index thread is ending', async () => {
  buildStore().indexFinished = () => true;
  let ended = () => {};
  buildStore().indexGone = new Promise((resolve) => (ended = resolve));
  const { prerenderer, thread, render } = prerendererWithThread([{ pathname: '/topics/a/', route: topic }]);
  await prerenderer.setup?.();
  await prerenderer.getStaticPaths();
  const waiting = render('/topics/a/', topic);
  await prerenderer.teardown?.();
  ended();
  await waiting;
  expect(thread.starts).toBe(0);
});

it('with two cores, renders shared pages here while the index thread works, and does not wait for a thread started after', async () => {
  let finished = false;
  buildStore().indexFinished = () => finished;
  const { prerenderer, thread, rendered, render } = prerendererWithThread([{ pathname: '/topics/a/', route: topic }, { pathname: '/tags/x/', route: tag }, { pathname: '/tags/y/', route: tag }]);
  // A thread that never claims its first page: waiting for it would not end.
  thread.started = new Promise(() => undefined);
  await prerenderer.setup?.();
  await prerenderer.getStaticPaths();
  await render('/topics/a/', topic);
  await render('/tags/y/', tag);
  expect(thread.starts, 'the second core is the index thread\'s').toBe(0);
  finished = true;
  await render('/tags/x/', tag);
  expect(thread.starts).toBe(1);
  expect(rendered).toEqual(['/topics/a/', '/tags/y/', '/tags/x/']);
});
