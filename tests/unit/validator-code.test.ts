// A build keeps the validators' code (src/content/validator-code.ts): the kept code, loaded by the
// next build instead of compiling the schema, must validate alike and report the same errors.
import { afterAll, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileValidator, keepValidatorCode, validatorInputs, type SchemaName } from '../../src/content/schema-validation.ts';
import { keepValidator, keptValidator } from '../../src/content/validator-code.ts';

const folder = mkdtempSync(join(tmpdir(), 'tagsite-validators-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
keepValidatorCode(folder);

/** Front matters and data files, valid and not: formats (a year before 1000, a day that is not), types, unknown fields, enums, patterns. */
const samples: Array<[SchemaName, unknown]> = [
  ['topic', { title: 'Knots for beginners', author: 'ines', created: '2024-02-29', tags: ['rope'] }],
  ['topic', { title: 'Knots', author: 'ines', created: '0999-01-01T10:00:00Z', updated: '2024-02-30', tags: 'rope', colour: 'red' }],
  ['topic', { title: 5, created: 'yesterday', replies: -1, views: 1.5, tags: ['ROPE!', ''] }],
  ['topic', {}],
  ['members', [{ name: 'ines', links: [{ label: 'Site', url: 'not a url' }] }, { name: 5 }]],
  ['links', [{ title: 'Rope care', url: 'https://ropes.example/care', tags: ['rope'] }, { url: 'ftp:x' }]],
  ['tags', { bowline: { description: 'A loop', synonyms: ['bow-line'] }, bad: 7 }],
  ['contentTypes', { forums: [{ id: 'help', name: 'Help' }], extra: true }],
];
/** The site's options, checked with their defaults filled in. */
const options: Array<[SchemaName, unknown]> = [
  ['options', {}],
  ['options', { pageSize: 0, excerptLength: 'long', intersections: { minTopics: 2 } }],
  ['options', { pageSize: 30, workflows: { cacheSeconds: 60 } }],
];

it('loads kept code that validates as the compiled schema does, with the same errors and defaults', () => {
  for (const [withDefaults, checked] of [[false, samples], [true, options]] as const) {
    for (const [name, data] of checked) {
      const { ajv, validate } = compileValidator(name, withDefaults);
      const inputs = validatorInputs(name, withDefaults);
      keepValidator(folder, inputs, ajv, validate);
      const kept = keptValidator(folder, inputs);
      expect(kept, name).toBeTypeOf('function');
      const [viaCompiled, viaKept] = [structuredClone(data), structuredClone(data)];
      expect(kept!(viaKept), `${name} valid`).toBe(validate(viaCompiled));
      expect(kept!.errors ?? null, `${name} errors`).toEqual(validate.errors ?? null);
      expect(viaKept, `${name} with defaults filled in`).toEqual(viaCompiled);
    }
  }
  expect(samples.some(([name, data]) => !compileValidator(name, false).validate(data)), 'some samples are invalid').toBe(true);
  expect(options.some(([name, data]) => !compileValidator(name, true).validate(structuredClone(data))), 'some options are invalid').toBe(true);
});

it('gives none for other inputs, or for code that does not load, which is then kept anew', () => {
  const inputs = validatorInputs('links', false);
  const { ajv, validate } = compileValidator('links', false);
  const alone = mkdtempSync(join(tmpdir(), 'tagsite-validators-one-'));
  keepValidator(alone, inputs, ajv, validate);
  expect(keptValidator(alone, inputs)).toBeTypeOf('function');
  expect(keptValidator(alone, validatorInputs('members', false))).toBeUndefined();
  rmSync(alone, { recursive: true, force: true });
  const damaged = mkdtempSync(join(tmpdir(), 'tagsite-validators-damaged-'));
  try {
    keepValidator(damaged, inputs, ajv, validate);
    const [file] = readdirSync(damaged);
    writeFileSync(join(damaged, file!), 'module.exports = validate0; const x = (');
    expect(keptValidator(damaged, inputs)).toBeUndefined();
    keepValidator(damaged, inputs, ajv, validate);
    expect(keptValidator(damaged, inputs)).toBeTypeOf('function');
  } finally {
    rmSync(damaged, { recursive: true, force: true });
  }
});
