import { beforeEach, describe, expect, it, vi } from 'vitest';

/** The options of every Ajv the module sets up, in order. */
const made: Array<{ validateSchema?: boolean | 'log' }> = [];

vi.mock('ajv/dist/2020.js', async (original) => {
  const ajv = await original<typeof import('ajv/dist/2020.js')>();
  class Recorded extends ajv.Ajv2020 {
    constructor(options: ConstructorParameters<typeof ajv.Ajv2020>[0]) {
      super(options);
      made.push({ ...options });
    }
  }
  return { ...ajv, Ajv2020: Recorded };
});

beforeEach(() => {
  // The validators are shared on globalThis: this file starts from none.
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('tagsite.validators')];
  made.length = 0;
});

describe('schemasChecked', () => {
  it('checks the schemas against the meta-schema until a content rebuild says the same code checked them; validators still validate', async () => {
    const { schemasChecked, validatorFor, schemaProblems } = await import('../../src/content/schema-validation.ts');
    const topic = validatorFor('topic');
    expect(made).toEqual([expect.objectContaining({ validateSchema: true })]);
    schemasChecked();
    // Compiled before: the same. Set up after: without the meta-schema check.
    expect(validatorFor('topic')).toBe(topic);
    const options = validatorFor('options', true);
    expect(made).toEqual([expect.objectContaining({ validateSchema: true }), expect.objectContaining({ validateSchema: false })]);
    const given: Record<string, unknown> = { pageSize: 40 };
    expect(options(given)).toBe(true);
    expect(given.pageSize).toBe(40);
    const problems = schemaProblems('options', { pageSize: 'forty' }, 'astro.config.mjs', () => undefined, { root: 'tagsite', withDefaults: true });
    expect(problems).toEqual([expect.objectContaining({ file: 'astro.config.mjs', field: 'tagsite.pageSize' })]);
  });
});
