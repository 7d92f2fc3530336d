/**
 * Writes src/content/schema-types.ts from the JSON Schemas in schemas/, so the
 * TypeScript types are derived from the one definition of each format.
 * `npm run types` regenerates; a unit test fails when the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { renderSchemaTypes } from './schema-types-source.ts';
import { exitWithUsageOnHelp } from '../src/cli/usage.ts';

exitWithUsageOnHelp('types');

const target = new URL('../src/content/schema-types.ts', import.meta.url);
writeFileSync(target, await renderSchemaTypes());
console.log('wrote src/content/schema-types.ts');
