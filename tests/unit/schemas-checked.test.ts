import { beforeEach, describe, expect, it } from 'vitest';

beforeEach(() => {
  // The validators are shared on globalThis: this file starts from none.
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('tagsite.validators')];
});

describe('schemasChecked', () => {
  it('checks the schemas against the meta-schema until a content rebuild says the same code checked them; validators still validate', async () => {
    const { compileValidator, schemasChecked, validatorFor, schemaProblems } = await import('../../src/content/schema-validation.ts');
    // The Ajv instance a validator was compiled by (compileValidator gives the same one again).
    const ajvOf = (name: 'topic' | 'options', withDefaults: boolean) => compileValidator(name, withDefaults).ajv;
    const topic = validatorFor('topic');
    expect(ajvOf('topic', false).opts.validateSchema).toBe(true);
    schemasChecked();
    // Compiled before: the same, by the same instance. Set up after: without the meta-schema check.
    expect(validatorFor('topic')).toBe(topic);
    expect(ajvOf('topic', false).opts.validateSchema).toBe(true);
    const options = validatorFor('options', true);
    expect(ajvOf('options', true).opts.validateSchema).toBe(false);
    const given: Record<string, unknown> = { pageSize: 40 };
    expect(options(given)).toBe(true);
    expect(given.pageSize).toBe(40);
    const problems = schemaProblems('options', { pageSize: 'forty' }, 'astro.config.mjs', () => undefined, { root: 'tagsite', withDefaults: true });
    expect(problems).toEqual([expect.objectContaining({ file: 'astro.config.mjs', field: 'tagsite.pageSize' })]);
  });
});
