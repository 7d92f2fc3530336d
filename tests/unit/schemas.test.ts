import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderSchemaTypes } from '../../scripts/schema-types-source.ts';
import { schemas, validatorFor, type SchemaName } from '../../src/content/schema-validation.ts';

type Schema = Record<string, unknown>;

const SCHEMA_DIR = new URL('../../schemas/', import.meta.url);
const files = readdirSync(SCHEMA_DIR).filter((name) => name.endsWith('.json')).sort();

/** Follows a local `$ref` (`#/$defs/id`) to the schema it names. */
function resolve(root: Schema, schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  return ref.slice(2).split('/').reduce<Schema>((node, key) => node[key] as Schema, root);
}

/** Every property of every object in a schema, at any depth: inside properties, list items, $defs and combinators. */
function propertiesOf(root: Schema): { path: string; schema: Schema }[] {
  const found: { path: string; schema: Schema }[] = [];
  const walk = (schema: Schema, path: string) => {
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
      found.push({ path: `${path}.properties.${name}`, schema: property });
      walk(property, `${path}.properties.${name}`);
    }
    for (const [name, definition] of Object.entries((schema.$defs ?? {}) as Record<string, Schema>)) walk(definition, `${path}.$defs.${name}`);
    if (schema.items && typeof schema.items === 'object') walk(schema.items as Schema, `${path}.items`);
    for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
      ((schema[keyword] ?? []) as Schema[]).forEach((branch, i) => walk(branch, `${path}.${keyword}[${i}]`));
    }
  };
  walk(root, '#');
  return found;
}

/** Every object schema in a schema, the root included. */
function objectsOf(root: Schema): { path: string; schema: Schema }[] {
  const found: { path: string; schema: Schema }[] = [];
  const walk = (schema: Schema, path: string) => {
    if (schema.type === 'object') found.push({ path, schema });
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) walk(property, `${path}.properties.${name}`);
    for (const [name, definition] of Object.entries((schema.$defs ?? {}) as Record<string, Schema>)) walk(definition, `${path}.$defs.${name}`);
    if (schema.items && typeof schema.items === 'object') walk(schema.items as Schema, `${path}.items`);
  };
  walk(root, '#');
  return found;
}

// The formats people write: SPEC 2 and 3 make an unknown field an error (it is usually a typo).
const WRITTEN_FORMATS = ['topic.schema.json', 'content-types.schema.json', 'members.schema.json', 'links.schema.json', 'options.schema.json'];

it('there are schemas to check', () => {
  expect(files).toEqual(expect.arrayContaining(['topic.schema.json', 'content-types.schema.json', 'members.schema.json', 'links.schema.json', 'options.schema.json']));
});

describe.each(files)('%s', (file) => {
  const root = JSON.parse(readFileSync(new URL(file, SCHEMA_DIR), 'utf8')) as Schema;

  it('is JSON Schema 2020-12 with a description', () => {
    expect(root.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(typeof root.description).toBe('string');
  });

  it('documents every property with a description and a default', () => {
    const missing: string[] = [];
    for (const { path, schema } of propertiesOf(root)) {
      // A property that only points at a definition is documented there.
      const target = resolve(root, schema);
      if (typeof target.description !== 'string' || target.description.trim() === '') missing.push(`${path}: description`);
      if (!('default' in target)) missing.push(`${path}: default`);
    }
    expect(missing).toEqual([]);
  });
});

describe.each(WRITTEN_FORMATS)('%s, a format people write,', (file) => {
  it('forbids unknown fields in every object', () => {
    const root = JSON.parse(readFileSync(new URL(file, SCHEMA_DIR), 'utf8')) as Schema;
    const open = objectsOf(root).filter(({ schema }) => schema.additionalProperties !== false).map(({ path }) => path);
    expect(open).toEqual([]);
  });
});

describe('the validators', () => {
  it.each(Object.keys(schemas))('%s compiles in strict mode', (name) => {
    expect(() => validatorFor(name as SchemaName)).not.toThrow();
  });

  it('options compile to fill in defaults', () => {
    expect(() => validatorFor('options', true)).not.toThrow();
  });
});

describe('src/content/schema-types.ts', () => {
  it('is what `npm run types` makes from the schemas now', async () => {
    const current = readFileSync(new URL('../../src/content/schema-types.ts', import.meta.url), 'utf8');
    expect(current, 'schema-types.ts is out of date: run `npm run types`').toBe(await renderSchemaTypes());
  });
});

describe('compiled validators', () => {
  it("are compiled once a process: a second copy of the module (Astro's bundle carries one) is given the same", async () => {
    const first = await import('../../src/content/schema-validation.ts');
    const copyUrl = new URL('../../src/content/schema-validation.ts?bundled-copy', import.meta.url).href;
    const copy = (await import(/* @vite-ignore */ copyUrl)) as typeof first;
    expect(copy).not.toBe(first);
    expect(copy.validatorFor('workflowList')).toBe(first.validatorFor('workflowList'));
    expect(copy.validatorFor('options', true)).toBe(first.validatorFor('options', true));
    expect(first.validatorFor('options', true)).not.toBe(first.validatorFor('options'));
  });

  it('are shared with a copy printed anew, as a bundler prints it (types stripped, other quotes and spacing)', async () => {
    const first = await import('../../src/content/schema-validation.ts');
    const source = readFileSync(new URL('../../src/content/schema-validation.ts', import.meta.url), 'utf8');
    // Imports made absolute, types stripped, then reprinted: single quotes become double, indents tabs.
    const absolute = source.replace(/from '(\.{1,2}\/[^']+)'/g, (_, path: string) => `from '${new URL(path, new URL('../../src/content/', import.meta.url)).href}'`);
    const printed = stripTypeScriptTypes(absolute)
      .replace(/'([^'\n]*)'/g, '"$1"')
      .replace(/^( {2})+/gm, (indent) => '\t'.repeat(indent.length / 2));
    expect(printed).not.toContain(source.slice(source.indexOf('function createAjv'), source.indexOf('return ajv;')));
    const folder = mkdtempSync(join(tmpdir(), 'tagsite-bundled-'));
    try {
      const file = join(folder, 'schema-validation.mjs');
      writeFileSync(file, printed);
      const copy = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as typeof first;
      expect(copy.validatorFor('topic')).toBe(first.validatorFor('topic'));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
