/**
 * `astro build`, which the Astro presets of Netlify, Vercel and Cloudflare Pages run, is the same
 * build as `npm run build`: it validates everything before writing anything, builds beside the
 * output and swaps the site in whole. Run in a copy of the project, since a plain `astro build`
 * builds the project's own content/ into its own dist/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { projectRoot, runNode } from '../helpers/cli.ts';
import { PROBLEM_LINE } from './fixture-copies.ts';

const project = join(mkdtempSync(join(tmpdir(), 'tagsite-astro-build-')), 'project');
const astro = (args: string[]) => runNode([join(projectRoot, 'node_modules', 'astro', 'bin', 'astro.mjs'), ...args], { cwd: project, env: { ASTRO_TELEMETRY_DISABLED: '1' } });
const npmBuild = (args: string[], env: Record<string, string> = {}) => runNode(['--experimental-strip-types', '--no-warnings', 'scripts/build.mjs', ...args], { cwd: project, env });

/** Every file of a folder with the digest of its bytes. */
function digests(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), createHash('sha1').update(readFileSync(path)).digest('hex'));
  }
  return files;
}

beforeAll(() => {
  for (const part of ['package.json', 'astro.config.mjs', 'tsconfig.json', 'src', 'schemas', 'scripts', 'content']) {
    cpSync(join(projectRoot, part), join(project, part), { recursive: true });
  }
  symlinkSync(join(projectRoot, 'node_modules'), join(project, 'node_modules'), 'dir');
});
afterAll(() => rmSync(join(project, '..'), { recursive: true, force: true }));

describe('astro build', () => {
  it('writes the same files as npm run build', async () => {
    const viaAstro = await astro(['build']);
    expect(viaAstro.stderr).not.toMatch(/error/i);
    expect(viaAstro.code).toBe(0);
    // The sample's own address: the build says so, in one line.
    expect(viaAstro.stderr.split('\n').filter((line) => line.includes("is the sample's https://flowsmiths.example"))).toHaveLength(1);
    const viaNpm = await npmBuild(['--out', 'dist-npm']);
    expect(viaNpm.code).toBe(0);
    const astroFiles = digests(join(project, 'dist'));
    expect(astroFiles.size).toBeGreaterThan(50);
    expect(astroFiles.has('search-index/core.json')).toBe(true);
    expect(astroFiles.has('sitemap-index.xml')).toBe(true);
    expect(astroFiles).toEqual(digests(join(project, 'dist-npm')));
    // Both say what the site weighs, before it is deployed: its files, size and largest file.
    const bytes = [...astroFiles.keys()].map((file) => statSync(join(project, 'dist', file)).size);
    const largest = Math.max(...bytes);
    for (const { stdout } of [viaAstro, viaNpm]) {
      const line = /^site: ([\d,]+) files, ([\d.]+) (KB|MB), largest (\S+) \(/m.exec(stdout);
      expect(line, stdout).not.toBeNull();
      expect(Number(line![1]!.replace(/,/g, ''))).toBe(astroFiles.size);
      expect(statSync(join(project, 'dist', line![4]!)).size).toBe(largest);
    }
    // Nothing is left of the build's own folders.
    expect(readdirSync(project).filter((name) => name.startsWith('.dist.building'))).toEqual([]);
    expect(readdirSync(join(project, '.tagsite-build')).filter((name) => /^\d+$/.test(name))).toEqual([]);
    // npm run build keeps Node's compiled modules for the next build (scripts/build.mjs).
    expect(readdirSync(join(project, '.tagsite-build', 'compile-cache'), { recursive: true }).length).toBeGreaterThan(10);
  });

  it('on a broken topic prints every problem in one line each, exits non-zero and leaves dist/ byte for byte as it was', async () => {
    const before = digests(join(project, 'dist'));
    expect(before.size).toBeGreaterThan(50);
    const topic = join(project, 'content', 'topics', 'broken.md');
    writeFileSync(topic, '---\ntitle: ""\nauthor: mira\ncreated: 2026-02-30\nforum: nowhere\nreplies: -1\n---\nBody.\n');
    try {
      const result = await astro(['build']);
      expect(result.code).not.toBe(0);
      const lines = result.stderr.split('\n').filter((line) => line.startsWith('content/topics/broken.md'));
      expect(lines.map((line) => PROBLEM_LINE.exec(line)?.groups?.field)).toEqual(['title', 'created', 'forum', 'replies']);
      expect(result.stderr).not.toMatch(/^\s+at /m); // no stack trace
      expect(digests(join(project, 'dist'))).toEqual(before);
      // It gave back the output's lock (src/build/in-place.ts outputLock) before it stopped.
      expect(readdirSync(join(project, '.tagsite-build')).filter((name) => name.startsWith('output-') && name.endsWith('.lock'))).toEqual([]);
    } finally {
      rmSync(topic);
    }
  });

  it("removes the work folders of builds whose process is gone; a host's address replaces the sample's, without the warning", async () => {
    const dead = join(project, '.tagsite-build', '999999999');
    cpSync(join(project, 'content'), join(dead, 'site'), { recursive: true });
    const result = await npmBuild([], { NETLIFY: 'true', URL: 'https://tags.netlify.example' });
    expect(result.code).toBe(0);
    expect(existsSync(dead)).toBe(false);
    expect(result.stderr).not.toContain('flowsmiths.example');
    expect(readFileSync(join(project, 'dist', 'sitemap-0.xml'), 'utf8')).toContain('<loc>https://tags.netlify.example/tags/');
  });
});
