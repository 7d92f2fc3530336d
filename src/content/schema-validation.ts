import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type * as AjvModule from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import topicSchema from '../../schemas/topic.schema.json' with { type: 'json' };
import contentTypesSchema from '../../schemas/content-types.schema.json' with { type: 'json' };
import membersSchema from '../../schemas/members.schema.json' with { type: 'json' };
import linksSchema from '../../schemas/links.schema.json' with { type: 'json' };
import tagsSchema from '../../schemas/tags.schema.json' with { type: 'json' };
import optionsSchema from '../../schemas/options.schema.json' with { type: 'json' };
import workflowListSchema from '../../schemas/workflow-list.schema.json' with { type: 'json' };
import workflowListUnderscoreSchema from '../../schemas/workflow-list-underscore.schema.json' with { type: 'json' };
import lookupResponseSchema from '../../schemas/lookup-response.schema.json' with { type: 'json' };
import checkLinksReportSchema from '../../schemas/check-links-report.schema.json' with { type: 'json' };
import { fieldPath, type Problem } from './problems.ts';
import { FORMATS, keepValidator, keptCodeOption, keptValidator } from './validator-code.ts';

// Ajv is loaded when a schema is first compiled: a build whose validators are all kept as code
// (./validator-code.ts), as a rebuild's are, does without it (some 40 ms of loading).
const require = createRequire(import.meta.url);

/** The JSON Schemas by name. Each format is defined once, in schemas/. */
export const schemas = {
  topic: topicSchema,
  contentTypes: contentTypesSchema,
  members: membersSchema,
  links: linksSchema,
  tags: tagsSchema,
  options: optionsSchema,
  workflowList: workflowListSchema,
  workflowListUnderscore: workflowListUnderscoreSchema,
  lookupResponse: lookupResponseSchema,
  checkLinksReport: checkLinksReportSchema,
} as const;

export type SchemaName = keyof typeof schemas;

const SHARED = Symbol.for('tagsite.validators');

/** Ajv's options besides `useDefaults` and `validateSchema`; with the schemas they key the shared validators below. */
const AJV_OPTIONS = {
  allErrors: true,
  strict: true,
  // verbose: the messages read `parentSchema` (allowed fields of an unknown one, a pattern's description).
  verbose: true,
} as const;

/** The formats beside ajv-formats' own. A content date is a calendar day (that day in UTC) or an ISO 8601 date-time. */
function contentFormats(): Record<string, (s: string) => boolean> {
  const date = fullFormats['date'] as { validate: (s: string) => boolean };
  const dateTime = fullFormats['date-time'] as { validate: (s: string) => boolean };
  // Years are 1000–9999: four digits that every date reader, feed and sitemap agrees on (no year 0000).
  const inYears = (s: string) => /^[1-9]/.test(s);
  return {
    date: (s) => inYears(s) && date.validate(s),
    'date-time': (s) => inYears(s) && dateTime.validate(s),
    'date-or-date-time': (s) => inYears(s) && (date.validate(s) || dateTime.validate(s)),
  };
}

function createAjv(useDefaults: boolean, validateSchema: boolean): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof AjvModule;
  const addFormats = require('ajv-formats') as typeof addFormatsModule;
  // Its validators' source is kept (keptCodeOption), for a build that keeps their code.
  const ajv = new Ajv({ ...AJV_OPTIONS, useDefaults, validateSchema, code: keptCodeOption() });
  addFormats(ajv);
  for (const [name, validate] of Object.entries(contentFormats())) ajv.addFormat(name, validate);
  return ajv;
}

/**
 * The Ajv instances and the validators they compiled, one set a process for the same schemas and
 * Ajv options: Astro's bundle of the pages carries a copy of this module (printed anew, so keyed
 * by data, not by this module's text), which then compiles nothing the build has compiled already
 * (an Ajv instance's first compile costs some 50 ms, the next a few), and Ajv is set up only when
 * a schema is first needed. A schema edited while `astro dev` runs makes a set of its own (the
 * schemas' ids would clash in one Ajv); an edit to createAjv's formats takes a restart of it.
 */
interface Validators {
  ajv: { strict?: Ajv2020; defaulting?: Ajv2020 };
  compiled: Map<string, ValidateFunction>;
  /** The schemas were checked against JSON Schema's meta-schema by an earlier build of the same code. */
  checked?: boolean;
  /** Where the validators' code is kept between builds (./validator-code.ts), when a build keeps it. */
  codeFolder?: string;
}
const shared = ((globalThis as { [SHARED]?: Map<string, Validators> })[SHARED] ??= new Map());
const sharedKey = JSON.stringify([AJV_OPTIONS, schemas]);
const validators: Validators = shared.get(sharedKey) ?? { ajv: {}, compiled: new Map() };
shared.set(sharedKey, validators);

/**
 * Says the schemas are those a build of the same code has compiled, and so checked against JSON
 * Schema's meta-schema (a content rebuild, src/build/kept-renderer.ts): Ajv set up from now on
 * does not check them again, which is most of its first compile (some 150 ms).
 */
export function schemasChecked(): void {
  validators.checked = true;
}

/**
 * Keeps the validators' code in `folder` (./validator-code.ts): a validator kept there is loaded
 * instead of compiled, and one compiled is kept there, for this process and the next build.
 */
export function keepValidatorCode(folder: string): void {
  validators.codeFolder = folder;
  (globalThis as { [FORMATS]?: unknown })[FORMATS] ??= { ...fullFormats, ...contentFormats() };
}

/** What a schema's validator is made from: the key of its kept code (./validator-code.ts). */
export const validatorInputs = (name: SchemaName, withDefaults: boolean): unknown => [AJV_OPTIONS, withDefaults, schemas[name]];

/** A schema compiled by this process's Ajv instance for it, and that instance. */
export function compileValidator(name: SchemaName, withDefaults: boolean): { ajv: Ajv2020; validate: ValidateFunction } {
  const { ajv } = validators;
  const check = validators.checked !== true;
  const instance = withDefaults ? (ajv.defaulting ??= createAjv(true, check)) : (ajv.strict ??= createAjv(false, check));
  return { ajv: instance, validate: instance.compile(schemas[name]) };
}

/** Returns the compiled validator of a schema; `withDefaults` fills in `default` values as it validates. */
export function validatorFor(name: SchemaName, withDefaults = false): ValidateFunction {
  const key = `${name}:${withDefaults}`;
  let validate = validators.compiled.get(key);
  if (!validate) {
    const { codeFolder } = validators;
    const inputs = validatorInputs(name, withDefaults);
    validate = codeFolder === undefined ? undefined : keptValidator(codeFolder, inputs);
    if (!validate) {
      const made = compileValidator(name, withDefaults);
      validate = made.validate;
      if (codeFolder !== undefined) keepValidator(codeFolder, inputs, made.ajv, validate);
    }
    validators.compiled.set(key, validate);
  }
  return validate;
}

/** Turns a JSON pointer (`/tags/2`) into a field path (`tags[2]`), with an optional root prefix. */
export function pointerToField(pointer: string, root = ''): string {
  let path = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path = /^\d+$/.test(key) ? fieldPath(path, Number(key)) : fieldPath(path, key);
  }
  return path || '(file)';
}

const FORMAT_WORDS: Record<string, string> = {
  date: 'a real calendar date YYYY-MM-DD',
  'date-time': 'an ISO 8601 date-time',
  'date-or-date-time': 'a date YYYY-MM-DD or an ISO 8601 date-time',
  uri: 'an absolute URL',
};

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' && !Number.isInteger(value)) return `the number ${value}`;
  return typeof value === 'string' ? `the text ${JSON.stringify(value)}` : `${typeof value} ${String(value)}`;
}

function valueAt(data: unknown, pointer: string): unknown {
  let value = data;
  for (const raw of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}

/** Letters to change, add or drop to turn one word into the other (Levenshtein distance). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/** The allowed field an unknown one was probably meant to be: another case (`pagesize`), a prefix (`tag`) or a typo or two away. */
function likelyField(extra: string, allowed: string[]): string | undefined {
  const typed = extra.toLowerCase();
  const near = (name: string) => {
    const known = name.toLowerCase();
    return known.startsWith(typed) || typed.startsWith(known) || editDistance(known, typed) <= (typed.length > 5 ? 2 : 1);
  };
  return allowed.find((name) => name.toLowerCase() === typed) ?? allowed.find(near);
}

/** Says what one Ajv error means in the user's words, naming the field it concerns. */
function explain(error: ErrorObject, data: unknown, root: string): { field: string; message: string } {
  const here = error.instancePath;
  const value = valueAt(data, here);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { field: pointerToField(`${here}/${String(params.missingProperty)}`, root), message: 'is required' };
    case 'additionalProperties': {
      const allowed = Object.keys(
        ((error.parentSchema as { properties?: Record<string, unknown> }).properties ?? {}) as object,
      );
      const extra = String(params.additionalProperty);
      const guess = likelyField(extra, allowed);
      return {
        field: pointerToField(`${here}/${extra}`, root),
        message: `unknown field${guess ? ` (did you mean '${guess}'?)` : ''}; allowed: ${allowed.join(', ')}`,
      };
    }
    case 'type':
      return {
        field: pointerToField(here, root),
        message: `must be ${params.type === 'integer' ? 'a whole number' : params.type === 'array' ? 'a list' : params.type === 'object' ? 'an object' : `a ${String(params.type)}`}, not ${describeType(value)}`,
      };
    case 'minLength':
      return {
        field: pointerToField(here, root),
        message: params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters`,
      };
    case 'maxLength':
      return {
        field: pointerToField(here, root),
        message: `must be at most ${String(params.limit)} characters (it has ${[...String(value)].length})`,
      };
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
      return { field: pointerToField(here, root), message: `must be ${String(params.comparison)} ${String(params.limit)}, not ${String(value)}` };
    case 'format': {
      const year = typeof value === 'string' && /^0\d{3}-/.test(value) ? ' with a year from 1000 to 9999' : '';
      return {
        field: pointerToField(here, root),
        message: `must be ${FORMAT_WORDS[String(params.format)] ?? String(params.format)}${year}, not ${JSON.stringify(value)}`,
      };
    }
    case 'enum':
      return {
        field: pointerToField(here, root),
        message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, not ${JSON.stringify(value)}`,
      };
    case 'pattern': {
      const description = (error.parentSchema as { description?: string }).description;
      return {
        field: pointerToField(here, root),
        message: `${JSON.stringify(value)} is not valid${description ? `: ${description}` : ` (must match ${String(params.pattern)})`}`,
      };
    }
    default:
      return { field: pointerToField(here, root), message: error.message ?? 'is not valid' };
  }
}

/**
 * Validates data against a schema and returns the problems, one per field (Ajv may report one
 * mistake under several keywords: the first explanation of a field wins).
 */
export function schemaProblems(
  name: SchemaName,
  data: unknown,
  file: string,
  lineOf: (pointer: string) => number | undefined,
  options: { root?: string; withDefaults?: boolean } = {},
): Problem[] {
  const validate = validatorFor(name, options.withDefaults);
  if (validate(data)) return [];
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    const { field, message } = explain(error, data, options.root ?? '');
    if (seen.has(field)) continue;
    seen.add(field);
    const pointer = error.keyword === 'required' || error.keyword === 'additionalProperties'
      ? `${error.instancePath}/${String((error.params as Record<string, unknown>).missingProperty ?? (error.params as Record<string, unknown>).additionalProperty)}`
      : error.instancePath;
    problems.push({ file, line: lineOf(pointer) ?? lineOf(error.instancePath), field, message });
  }
  return problems;
}
