import { cpSync, existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot, runScript, type ScriptResult } from './cli.ts';

/** Builds the site from a content folder into a fresh temporary folder; fails the test on a build error. */
export async function buildSite(contentDir: string, env: Record<string, string> = {}): Promise<{ outDir: string; result: ScriptResult }> {
  const outDir = join(mkdtempSync(join(tmpdir(), 'tagsite-dist-')), 'dist');
  const result = await runScript('build', ['--content', contentDir, '--out', outDir], env);
  if (result.code !== 0) throw new Error(`build failed (${result.code}):\n${result.stderr}\n${result.stdout}`);
  return { outDir, result };
}

/**
 * A private copy of the sample content/ in a temporary folder: a build of it does not share
 * Astro's content cache with builds of content/ itself.
 */
export function copyOfSampleContent(label: string): string {
  const contentDir = join(mkdtempSync(join(tmpdir(), `tagsite-${label}-`)), 'content');
  cpSync(join(projectRoot, 'content'), contentDir, { recursive: true });
  return contentDir;
}

/** Builds a private copy of the sample content; returns the output folder. */
export async function buildSampleSite(label: string, env: Record<string, string> = {}): Promise<string> {
  return (await buildSite(copyOfSampleContent(label), env)).outDir;
}

/**
 * A folder on another file system than `path`, where a build's site is copied rather than renamed:
 * Linux's /dev/shm, in memory. Undefined where /dev/shm is missing or on the same file system.
 */
export function otherFileSystemThan(path: string): string | undefined {
  return existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(path).dev ? '/dev/shm' : undefined;
}
