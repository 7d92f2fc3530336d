import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolveOptions } from '../../src/integration/options.ts';

const schema = JSON.parse(readFileSync(new URL('../../schemas/options.schema.json', import.meta.url), 'utf8')) as {
  properties: Record<string, { default: unknown; properties?: Record<string, { default: unknown }> }>;
};

describe('resolveOptions: defaults', () => {
  it('fills in every option of SPEC 3 with its documented default', () => {
    const { options, problems } = resolveOptions(undefined);
    expect(problems).toEqual([]);
    expect(options).toMatchObject({
      title: expect.any(String),
      excerptLength: 200,
      tagsShown: 2,
      pageSize: 25,
      alwaysShowTags: false,
      workflows: {
        primaryUrl: '/api/workflows.json',
        backupUrl: expect.any(String),
        backupDownloadBase: expect.any(String),
        cacheSeconds: 360,
      },
      lookup: { url: expect.stringMatching(/^https?:\/\//) },
    });
    expect(options.title.length).toBeGreaterThan(0);
    expect(options.workflows.backupUrl).not.toBe(options.workflows.primaryUrl);
  });

  it('takes each default from the schema (the one place they are documented)', () => {
    const { options } = resolveOptions({});
    const resolved = options as unknown as Record<string, unknown>;
    for (const [name, property] of Object.entries(schema.properties)) {
      if (property.properties) {
        for (const [inner, innerProperty] of Object.entries(property.properties)) {
          expect((resolved[name] as Record<string, unknown>)[inner], `${name}.${inner}`).toEqual(innerProperty.default);
        }
      } else expect(resolved[name], name).toEqual(property.default);
    }
  });

  it('null is the same as no options', () => {
    expect(resolveOptions(null)).toEqual(resolveOptions({}));
  });

  it('keeps the values given and fills in the rest, also inside workflows and lookup', () => {
    const { options, problems } = resolveOptions({
      title: 'Flowsmith Community',
      pageSize: 10,
      alwaysShowTags: true,
      workflows: { cacheSeconds: 60 },
      lookup: { url: 'http://127.0.0.1:9999/api' },
    });
    expect(problems).toEqual([]);
    expect(options).toMatchObject({
      title: 'Flowsmith Community',
      excerptLength: 200,
      pageSize: 10,
      alwaysShowTags: true,
      workflows: { primaryUrl: '/api/workflows.json', cacheSeconds: 60 },
      lookup: { url: 'http://127.0.0.1:9999/api' },
    });
  });

  it('never changes the object it is given, and never shares defaults between calls', () => {
    const user = { workflows: {} };
    const first = resolveOptions(user).options;
    expect(user).toEqual({ workflows: {} });
    first.workflows.cacheSeconds = 1;
    (first.lookup as { url: string }).url = 'changed';
    const second = resolveOptions(user).options;
    expect(second.workflows.cacheSeconds).toBe(360);
    expect(second.lookup.url).not.toBe('changed');
  });
});

describe('resolveOptions: bad values', () => {
  /** The problems of one set of options, as `field: message`. */
  const fields = (user: unknown) => resolveOptions(user).problems.map((p) => p.field);

  it.each([
    ['title', { title: '' }],
    ['title', { title: 42 }],
    ['excerptLength', { excerptLength: 'long' }],
    ['excerptLength', { excerptLength: 10 }],
    ['excerptLength', { excerptLength: 200.5 }],
    ['tagsShown', { tagsShown: -1 }],
    ['pageSize', { pageSize: 0 }],
    ['pageSize', { pageSize: '25' }],
    ['alwaysShowTags', { alwaysShowTags: 'yes' }],
    ['workflows', { workflows: '/api/workflows.json' }],
    ['workflows.primaryUrl', { workflows: { primaryUrl: '' } }],
    ['workflows.cacheSeconds', { workflows: { cacheSeconds: -1 } }],
    ['workflows.cacheSeconds', { workflows: { cacheSeconds: 1.5 } }],
    ['lookup.url', { lookup: { url: 'ftp://lookup.example' } }],
    ['lookup.apiKey', { lookup: { apiKey: 'secret' } }],
    ['pagesize', { pagesize: 10 }],
  ])('names tagsite.%s', (field, user) => {
    const { problems } = resolveOptions(user);
    expect(problems).toEqual([{ file: 'astro.config.mjs', line: undefined, field: `tagsite.${field}`, message: expect.any(String) }]);
  });

  it('hints at the option meant by a near miss', () => {
    expect(resolveOptions({ pageSizes: 10 }).problems[0]!.message).toContain("did you mean 'pageSize'");
  });

  it('reports every bad option at once', () => {
    expect(fields({ excerptLength: 0, tagsShown: 'two', workflows: { cacheSeconds: -5, extra: 1 } }).sort()).toEqual(
      ['tagsite.excerptLength', 'tagsite.tagsShown', 'tagsite.workflows.cacheSeconds', 'tagsite.workflows.extra'].sort(),
    );
  });

  it('options that are not an object are one problem', () => {
    expect(fields('title')).toEqual(['tagsite']);
    expect(fields([])).toEqual(['tagsite']);
  });

  it('names another file when asked', () => {
    expect(resolveOptions({ pageSize: 0 }, 'tagsite.config.json').problems[0]!.file).toBe('tagsite.config.json');
  });
});
