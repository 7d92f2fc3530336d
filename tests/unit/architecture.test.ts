/**
 * The source tree keeps its boundaries: what the browser runs (src/client, src/model, src/search)
 * reaches no Node module through any import, type-only imports aside, and no source file is long.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { projectRoot } from '../helpers/cli.ts';

const src = join(projectRoot, 'src');
const NODE_MODULES = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && pattern.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The modules a file imports for their values (`import type` and `import { type x }`-only lists are not loaded at run time). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const match of text.matchAll(/^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm)) {
    if (match[5] ?? match[6]) {
      specifiers.push((match[5] ?? match[6])!);
      continue;
    }
    if (match[2]) continue;
    const names = match[3]!.replace(/^\{|\}$/g, '').split(',').map((name) => name.trim()).filter(Boolean);
    if (names.length > 0 && match[3]!.startsWith('{') && names.every((name) => name.startsWith('type '))) continue;
    specifiers.push(match[4]!);
  }
  return specifiers;
}

/** Every module reached from `entry` through value imports: project files by path, packages by name. */
function reachable(entry: string): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of valueImports(file)) {
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        if (existsSync(target) && /\.(ts|js|mjs)$/.test(target)) queue.push(target);
      } else if (!packages.has(specifier)) packages.set(specifier, relative(projectRoot, file));
    }
  }
  return { files, packages };
}

describe('browser code', () => {
  const entries = [...filesUnder(join(src, 'client'), /\.ts$/), ...filesUnder(join(src, 'model'), /\.ts$/), ...filesUnder(join(src, 'search'), /\.ts$/)];

  it('finds the browser modules', () => {
    expect(entries.length).toBeGreaterThan(20);
  });

  it.each(entries.map((file) => [relative(projectRoot, file), file]))('%s reaches no Node module', (_name, file) => {
    const { packages } = reachable(file);
    const node = [...packages].filter(([name]) => NODE_MODULES.has(name)).map(([name, from]) => `${name} (imported by ${from})`);
    expect(node).toEqual([]);
  });

  it('the reader of imports sees a Node import through a chain of files', () => {
    const { packages } = reachable(join(src, 'content', 'load.ts'));
    expect([...packages.keys()]).toContain('node:fs');
  });
});

describe('source files', () => {
  // Generated from schemas/ by `npm run types`.
  const GENERATED = new Set([join(src, 'content', 'schema-types.ts')]);
  const MAX_LINES = 300;
  const files = filesUnder(src, /\.(ts|astro|mjs)$/).filter((file) => !GENERATED.has(file));

  it.each(files.map((file) => [relative(projectRoot, file), file]))(`%s has at most ${MAX_LINES} lines`, (_name, file) => {
    expect(readFileSync(file, 'utf8').split('\n').length).toBeLessThanOrEqual(MAX_LINES);
  });
});

describe('the build threads', () => {
  it('every worker thread started in Node has the young generation of src/build/threads.ts', () => {
    const browser = [join(src, 'client')];
    const starts = filesUnder(src, /\.ts$/)
      .filter((file) => !browser.some((dir) => file.startsWith(dir)))
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/new Worker\((?:[^()]|\([^()]*\))*\)/g)].map((match) => [relative(projectRoot, file), match[0]] as const));
    expect(starts.map(([file]) => file).sort()).toEqual(['src/build/file-writer.ts', 'src/build/index-and-feeds.ts', 'src/build/output-check.ts', 'src/build/page-thread.ts', 'src/content/reading-thread.ts']);
    for (const [file, call] of starts) expect(call, file).toContain('resourceLimits: THREAD_LIMITS');
  });
});

describe("the build's code", () => {
  // Loaded when first needed (src/content/markdown.ts, src/content/schema-validation.ts): a
  // rebuild that renders no post and compiles no schema (its validators kept as code) loads none.
  const LOADED_WHEN_NEEDED = ['marked', 'sanitize-html', 'htmlparser2', 'ajv/dist/2020.js', 'ajv/dist/standalone/index.js', 'ajv-formats'];

  it.each(['src/build/kept-renderer.ts', 'src/build/pipeline.ts', 'src/content/load.ts'])('%s reaches no Markdown renderer, sanitiser or schema compiler through its imports', (entry) => {
    const { packages } = reachable(join(projectRoot, entry));
    expect([...packages.keys()].filter((name) => LOADED_WHEN_NEEDED.includes(name))).toEqual([]);
    // The reader sees the packages these modules do import.
    expect([...packages.keys()]).toContain('gray-matter');
  });
});
