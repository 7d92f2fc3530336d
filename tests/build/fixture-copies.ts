/** Helpers of the build tests: temporary copies of fixture folders, broken on purpose, and temporary configs. */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { projectRoot } from '../helpers/cli.ts';

export const fixturesDir = join(projectRoot, 'tests', 'fixtures');

/** A fresh copy of tests/fixtures/<name> in a temporary folder (a content folder to break or extend). */
export function copyFixture(name: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), `tagsite-${name}-`)), 'content');
  cpSync(join(fixturesDir, name), dir, { recursive: true });
  return dir;
}

/** Front matter written field by field; each value is raw YAML (so tests can write broken YAML). */
export type FrontMatter = Record<string, string | undefined>;

/** Writes a topic file: `---`, the fields (undefined ones left out), `---`, the body. */
export function writeTopic(contentDir: string, path: string, fields: FrontMatter, body = 'A first post.\n'): void {
  const lines = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => (value!.startsWith('\n') ? `${key}:${value}` : `${key}: ${value}`));
  const file = join(contentDir, 'topics', path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `---\n${lines.join('\n')}\n---\n${body}`);
}

/** Reads a JSON file of the content folder, lets `change` edit it, writes it back. */
export function editJson(contentDir: string, name: string, change: (data: any) => unknown): void {
  const file = join(contentDir, name);
  const data = JSON.parse(readFileSync(file, 'utf8'));
  const result = change(data);
  writeFileSync(file, `${JSON.stringify(result === undefined ? data : result, null, 2)}\n`);
}

let configCount = 0;

/**
 * Writes an Astro config file inside the project (Astro and scripts/project.ts resolve TAGSITE_CONFIG
 * from the project root) whose tagsite() gets `optionsSource` (JavaScript text). Returns the path
 * relative to the project root, for TAGSITE_CONFIG, and a clean-up function.
 */
export function tempConfig(optionsSource: string): { path: string; env: Record<string, string>; remove: () => void } {
  const name = `.tmp-config-${process.pid}-${++configCount}.mjs`;
  const file = join(fixturesDir, name);
  writeFileSync(
    file,
    [
      "import { defineConfig } from 'astro/config';",
      "import tagsite from '../../src/integration/index.ts';",
      'export default defineConfig({',
      "  site: 'https://fixture.example',",
      "  base: process.env.TAGSITE_BASE || '/',",
      `  integrations: [tagsite(${optionsSource})],`,
      '});',
      '',
    ].join('\n'),
  );
  const path = `tests/fixtures/${name}`;
  return { path, env: { TAGSITE_CONFIG: path }, remove: () => rmSync(file, { force: true }) };
}

/** The path a problem line uses for a file of a content folder: relative to the project root, with `/`. */
export function problemPath(contentDir: string, file: string): string {
  return relative(projectRoot, join(contentDir, file)).split('\\').join('/');
}

/** The problem lines of a command's output (without the closing count and notes). */
export function problemLines(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .filter((line) => !/^\d+ problems? found\.$/.test(line) && !line.startsWith('The build stopped') && !line.startsWith('npm '));
}

/** SPEC 7's one line: `<file>[:<line>]: <field>: <message>`. */
export const PROBLEM_LINE = /^(?<file>[^:\s][^:]*?)(?::(?<line>\d+))?: (?<field>[^:]+?): (?<message>\S.*)$/;

/** Every file of a folder with its modification time and a hash of its bytes: two equal snapshots mean nothing changed. */
export function snapshotTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const stat = statSync(path);
    const hash = entry.isFile() ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'dir';
    files.set(relative(dir, path), `${stat.mtimeMs} ${hash}`);
  }
  return files;
}
