import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAX_REMEMBERED, resolutionMemory, resolutionValidity } from '../../src/build/resolution-memory.ts';

const dir = mkdtempSync(join(tmpdir(), 'tagsite-resolutions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file to resolve to, and its URL. */
function moduleFile(name: string): string {
  const path = join(dir, 'modules', name);
  mkdirSync(join(dir, 'modules'), { recursive: true });
  writeFileSync(path, 'export default 1;\n');
  return pathToFileURL(path).href;
}

/** A `next` resolve hook answering from `answers` (by specifier), counting its calls. */
function nextFrom(answers: Record<string, string>) {
  const calls: string[] = [];
  const next = (specifier: string) => {
    calls.push(specifier);
    const url = answers[specifier];
    if (!url) throw new Error(`Cannot find module '${specifier}'`);
    return { url, format: url.startsWith('node:') ? 'builtin' : 'module' };
  };
  return { next, calls };
}

const context = { parentURL: 'file:///project/src/a.ts', conditions: ['node', 'import'], importAttributes: {} };

describe('resolutionMemory', () => {
  it('answers an import resolved by an earlier process from its file, without resolving it again, while the validity is the same', () => {
    const file = join(dir, 'same.json');
    const url = moduleFile('same.js');
    const first = nextFrom({ lib: url });
    const memory = resolutionMemory(file, 'v1');
    expect(memory.resolve('lib', context, first.next)).toEqual({ url, format: 'module' });
    memory.save();
    expect(first.calls).toEqual(['lib']);

    const again = nextFrom({ lib: 'file:///elsewhere.js' });
    expect(resolutionMemory(file, 'v1').resolve('lib', context, again.next)).toEqual({ url, format: 'module', shortCircuit: true });
    expect(again.calls).toEqual([]);
    // Another Node or other package files: resolved anew.
    expect(resolutionMemory(file, 'v2').resolve('lib', context, again.next).url).toBe('file:///elsewhere.js');
    expect(again.calls).toEqual(['lib']);
  });

  it('keeps imports from another module, or under other conditions or attributes, apart', () => {
    const file = join(dir, 'apart.json');
    const memory = resolutionMemory(file, 'v1');
    memory.resolve('lib', context, nextFrom({ lib: moduleFile('apart.js') }).next);
    memory.save();
    const later = resolutionMemory(file, 'v1');
    const other = nextFrom({ lib: moduleFile('other.js') });
    later.resolve('lib', { ...context, parentURL: 'file:///project/src/b.ts' }, other.next);
    later.resolve('lib', { ...context, conditions: ['node', 'require'] }, other.next);
    later.resolve('lib', { ...context, importAttributes: { type: 'json' } }, other.next);
    expect(other.calls).toEqual(['lib', 'lib', 'lib']);
  });

  it('resolves anew a remembered file that is gone, so a missing module gets the resolver`s own error', () => {
    const file = join(dir, 'gone.json');
    const url = moduleFile('gone.js');
    const memory = resolutionMemory(file, 'v1');
    memory.resolve('lib', context, nextFrom({ lib: url }).next);
    memory.save();
    rmSync(new URL(url));
    const missing = nextFrom({});
    expect(() => resolutionMemory(file, 'v1').resolve('lib', context, missing.next)).toThrow("Cannot find module 'lib'");
    expect(missing.calls).toEqual(['lib']);
  });

  it('remembers files only, and saves nothing when nothing was resolved anew', () => {
    const file = join(dir, 'builtins.json');
    const memory = resolutionMemory(file, 'v1');
    const builtin = nextFrom({ 'node:fs': 'node:fs' });
    memory.resolve('node:fs', context, builtin.next);
    memory.save();
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
    resolutionMemory(file, 'v1').resolve('node:fs', context, builtin.next);
    expect(builtin.calls).toEqual(['node:fs', 'node:fs']);
  });

  it('adds to what another process saved meanwhile, and past its limit keeps only what the saving process used', () => {
    const file = join(dir, 'merged.json');
    const [a, b] = [moduleFile('a.js'), moduleFile('b.js')];
    const one = resolutionMemory(file, 'v1');
    const two = resolutionMemory(file, 'v1');
    one.resolve('a', context, nextFrom({ a }).next);
    two.resolve('b', context, nextFrom({ b }).next);
    one.save();
    two.save();
    const none = nextFrom({});
    const both = resolutionMemory(file, 'v1');
    expect([both.resolve('a', context, none.next).url, both.resolve('b', context, none.next).url]).toEqual([a, b]);
    expect(none.calls).toEqual([]);

    // Past the limit: only what this process resolved, from the memory or anew.
    const many = resolutionMemory(file, 'v1');
    many.resolve('a', context, none.next);
    const url = moduleFile('many.js');
    for (let i = 0; i < MAX_REMEMBERED; i++) many.resolve(`m${i}`, context, () => ({ url }));
    many.save();
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { resolutions: unknown[] };
    expect(saved.resolutions).toHaveLength(MAX_REMEMBERED + 1);
    const pruned = resolutionMemory(file, 'v1');
    expect(pruned.resolve('a', context, none.next).url).toBe(a);
    expect(() => pruned.resolve('b', context, none.next)).toThrow("Cannot find module 'b'");
  });
});

describe('resolutionValidity', () => {
  it('changes with package.json, each package manager`s lock files and Node`s version', () => {
    const root = join(dir, 'project');
    mkdirSync(join(root, 'node_modules'), { recursive: true });
    const files = ['package.json', 'package-lock.json', 'node_modules/.package-lock.json', 'yarn.lock', 'pnpm-lock.yaml'];
    for (const name of files) writeFileSync(join(root, name), '{}');
    const validities = [resolutionValidity(root)];
    expect(resolutionValidity(root)).toBe(validities[0]);
    files.forEach((name, i) => {
      utimesSync(join(root, name), new Date(2020, 0, 1 + i), new Date(2020, 0, 1 + i));
      validities.push(resolutionValidity(root));
    });
    expect(new Set(validities).size).toBe(files.length + 1);
    expect(validities[0]).toContain(process.version);
  });
});

describe('rememberResolutions in a Node process', () => {
  it("answers a package's import from the memory until an install changes the lock file", () => {
    const root = join(dir, 'real');
    const pkg = join(root, 'node_modules', 'invented-lib');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(root, 'package.json'), '{"type":"module"}');
    writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3}');
    writeFileSync(join(pkg, 'first.js'), "export default 'first';\n");
    writeFileSync(join(pkg, 'second.js'), "export default 'second';\n");
    writeFileSync(join(pkg, 'package.json'), '{"name":"invented-lib","type":"module","main":"first.js"}');
    const memoryModule = pathToFileURL(join(import.meta.dirname, '../../src/build/resolution-memory.ts')).href;
    writeFileSync(join(root, 'main.mjs'), `const { rememberResolutions } = await import(${JSON.stringify(memoryModule)});\nrememberResolutions(${JSON.stringify(join(root, 'resolutions.json'))}, ${JSON.stringify(root)});\nconst lib = await import('invented-lib');\nconsole.log(lib.default);\n`);
    const run = () => execFileSync(process.execPath, ['--experimental-strip-types', '--no-warnings', 'main.mjs'], { cwd: root, encoding: 'utf8' }).trim();

    expect(run()).toBe('first');
    // The package changed behind npm's back: the memory still answers as before.
    writeFileSync(join(pkg, 'package.json'), '{"name":"invented-lib","type":"module","main":"second.js"}');
    expect(run()).toBe('first');
    // An install rewrites the lock file: resolved anew.
    writeFileSync(join(root, 'package-lock.json'), '{"lockfileVersion":3,"packages":{}}');
    expect(run()).toBe('second');
  });
});
