/**
 * The workflow lists' endpoints: every address of both key styles gives its style's text, made and
 * checked once a build for all of them (it is the whole list, validated against both schemas).
 */
import { afterAll, expect, it, vi } from 'vitest';
import { resolve } from 'node:path';
import { buildStore } from '../../src/build/store.ts';
import { siteData } from '../../src/build/site-records.ts';
import * as lists from '../../src/outputs/workflow-list.ts';

vi.mock('astro:config/client', () => ({ base: '/' }));
// The lists are kept between builds by the pages' reuse (src/build/page-reuse.ts), which reads the site's options.
vi.mock('virtual:tagsite/options', () => ({ default: { pageSize: 25, intersections: { minTopics: 5, maxPages: 100 } } }));
vi.mock('../../src/outputs/workflow-list.ts', async (original) => {
  const real = await original<typeof lists>();
  return { ...real, renderWorkflowLists: vi.fn(real.renderWorkflowLists) };
});
const { listEndpoint } = await import('../../src/integration/routes/workflow-list.ts');

const root = resolve(import.meta.dirname, '../..');
const store = buildStore();
const before = { source: store.source, content: store.content };
afterAll(() => Object.assign(store, before));

it('makes both lists once for all their addresses, and again for another site address or other records', async () => {
  Object.assign(store, { source: { root, contentDir: resolve(root, 'content'), excerptLength: 200 }, content: undefined });
  const made = vi.mocked(lists.renderWorkflowLists);
  made.mockClear();
  const site = new URL('https://flows.example/');
  const call = (style: 'hyphenated' | 'underscore', at = site) => listEndpoint(style)({ site: at } as never) as Promise<Response>;
  const texts = await Promise.all([call('hyphenated'), call('underscore'), call('hyphenated'), call('underscore')].map(async (response) => (await response).text()));
  expect(made).toHaveBeenCalledTimes(1);
  const { topics, members, contentTypes } = await siteData();
  const direct = lists.renderWorkflowLists(topics, { siteRoot: 'https://flows.example/', members, contentTypes });
  expect(direct.problems).toEqual([]);
  expect(JSON.parse(direct.hyphenated).length).toBeGreaterThan(0);
  expect(texts).toEqual([direct.hyphenated, direct.underscore, direct.hyphenated, direct.underscore]);

  made.mockClear();
  const elsewhere = await (await call('hyphenated', new URL('https://other.example/'))).text();
  expect(made).toHaveBeenCalledTimes(1);
  expect(elsewhere).toContain('https://other.example/');
  expect(elsewhere).not.toContain('https://flows.example/');

  // Other records (the content read again, as `astro dev` does after a change): made again.
  made.mockClear();
  store.content = undefined;
  expect(await (await call('underscore')).text()).toBe(direct.underscore);
  expect(made).toHaveBeenCalledTimes(1);
});
