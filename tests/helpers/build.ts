import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScript, type ScriptResult } from './cli.ts';

/** Builds the site from a content folder into a fresh temporary folder; fails the test on a build error. */
export async function buildSite(contentDir: string, env: Record<string, string> = {}): Promise<{ outDir: string; result: ScriptResult }> {
  const outDir = join(mkdtempSync(join(tmpdir(), 'tagsite-dist-')), 'dist');
  const result = await runScript('build', ['--content', contentDir, '--out', outDir], env);
  if (result.code !== 0) throw new Error(`build failed (${result.code}):\n${result.stderr}\n${result.stdout}`);
  return { outDir, result };
}
