/**
 * Validators kept as code between builds. Compiling a schema with Ajv generates its validating
 * code and evaluates it: some 50–100 ms for the topic schema, in every rebuild that reads a changed
 * topic. A build keeps that code (Ajv's standalone code, a CommonJS module) in a folder, by a
 * digest of the schema, Ajv's options and version, and the next build loads it instead (a few
 * milliseconds). The code finds the formats it checks (./schema-validation.ts) on `globalThis`,
 * under FORMATS, which must be set before it is loaded.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Ajv2020, Options, ValidateFunction } from 'ajv/dist/2020.js';
import type * as AjvModule from 'ajv/dist/2020.js';
import type standaloneCode from 'ajv/dist/standalone/index.js';
import { digest } from './digest.ts';

/** Where the code finds the formats its schema checks: an object of them by name, as Ajv holds them. */
export const FORMATS = Symbol.for('tagsite.formats');

// Ajv's modules are loaded when first needed (./schema-validation.ts): a build whose validators are all kept loads none.
const require = createRequire(import.meta.url);

/** Ajv's `code` option for an instance whose validators are kept as code: their formats taken from FORMATS. */
export function keptCodeOption(): NonNullable<Options['code']> {
  const { _ } = require('ajv/dist/2020.js') as typeof AjvModule;
  return { source: true, formats: _`globalThis[Symbol.for("tagsite.formats")]` };
}

const AJV_VERSION = (require('ajv/package.json') as { version: string }).version;

/** The kept code's file in `folder` for a validator made from `inputs` (the schema, Ajv's options). */
const codeFile = (folder: string, inputs: unknown) => join(folder, `${digest(JSON.stringify([AJV_VERSION, inputs]))}.cjs`);

/** The validator kept in `folder` for these `inputs`, if there is one that loads. */
export function keptValidator(folder: string, inputs: unknown): ValidateFunction | undefined {
  const file = codeFile(folder, inputs);
  if (!existsSync(file)) return undefined;
  try {
    const validate = require(file) as unknown;
    return typeof validate === 'function' ? (validate as ValidateFunction) : undefined;
  } catch {
    return undefined; // unreadable: compiled anew, and kept again
  }
}

/** Keeps `validate`'s code (compiled by `ajv`, made with KEPT_CODE) in `folder` for these `inputs`; written whole or not at all. */
export function keepValidator(folder: string, inputs: unknown, ajv: Ajv2020, validate: ValidateFunction): void {
  try {
    mkdirSync(folder, { recursive: true });
    const file = codeFile(folder, inputs);
    const part = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.part`;
    // Ajv's runtime helpers by their full paths: the folder need not be inside the project.
    const standalone = require('ajv/dist/standalone/index.js') as { default: typeof standaloneCode };
    const code = standalone.default(ajv, validate).replace(/require\("(ajv\/dist\/runtime\/[\w-]+)"\)/g, (_call, module: string) => `require(${JSON.stringify(require.resolve(module))})`);
    writeFileSync(part, code);
    renameSync(part, file);
  } catch {
    // not kept: the next build compiles it again
  }
}
