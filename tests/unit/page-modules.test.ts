/** Each route's page module loaded once while a build renders its pages (src/build/page-rendering.ts). */
import { expect, it } from 'vitest';
import { pageModulesLoadedOnce } from '../../src/build/page-rendering.ts';

/** An app whose page map counts how often each route's module is imported; `failing` fails its first import. */
function countingApp(failing?: string) {
  const imports = new Map<string, number>();
  const load = (component: string) => async () => {
    const count = (imports.get(component) ?? 0) + 1;
    imports.set(component, count);
    if (component === failing && count === 1) throw new Error(`cannot import ${component}`);
    return { page: () => component };
  };
  const pageMap = new Map([
    ['src/pages/topics/[slug].astro', load('src/pages/topics/[slug].astro')],
    ['src/pages/index.astro', load('src/pages/index.astro')],
  ]);
  return { app: { manifest: { routes: [], pageMap } }, imports };
}

it("imports each route's module once, however many of its pages render, and gives the same module", async () => {
  const { app, imports } = countingApp();
  pageModulesLoadedOnce(app);
  const topic = app.manifest.pageMap.get('src/pages/topics/[slug].astro')!;
  const modules = await Promise.all([topic(), topic(), topic()]);
  expect(await topic()).toBe(modules[0]);
  expect(modules[1]).toBe(modules[0]);
  await app.manifest.pageMap.get('src/pages/index.astro')!();
  expect(Object.fromEntries(imports)).toEqual({ 'src/pages/topics/[slug].astro': 1, 'src/pages/index.astro': 1 });
});

it('imports again after a failed import, and says why the failed one failed', async () => {
  const { app, imports } = countingApp('src/pages/index.astro');
  pageModulesLoadedOnce(app);
  const home = app.manifest.pageMap.get('src/pages/index.astro')!;
  await expect(home()).rejects.toThrow('cannot import src/pages/index.astro');
  expect(await home()).toMatchObject({});
  expect(await home()).toBe(await home());
  expect(imports.get('src/pages/index.astro')).toBe(2);
});

it('leaves an app without a page map as it is', () => {
  const app = { manifest: { routes: [] } };
  expect(pageModulesLoadedOnce(app)).toBe(app);
  expect(app.manifest).toEqual({ routes: [] });
});
