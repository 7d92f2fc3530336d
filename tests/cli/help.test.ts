/** `npm run <command> -- --help` prints the command's usage and exits 0, without running it. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, runScript } from '../helpers/cli.ts';

const SCRIPTS: Array<[command: string, script: string]> = [
  ['build', 'build'],
  ['validate', 'validate'],
  ['add-link', 'add-link'],
  ['new-topic', 'new-topic'],
  ['check-links', 'check-links'],
  ['import-workflows', 'import-workflows'],
  ['import-forum', 'import-forum'],
  ['bench', 'bench'],
  ['types', 'generate-types'],
];

describe('--help', () => {
  it('is offered by every command that runs a script of ours', () => {
    const scripts = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    // A script of ours: scripts/<name>.ts, or the build's entry (scripts/build.mjs); every one first runs the Node check (require-node.mjs).
    const ours = Object.keys(scripts).filter((name) => /scripts\/(?!require-node\b)[\w-]+\.(?:ts|mjs)\b/.test(scripts[name]!));
    expect(ours.sort()).toEqual(SCRIPTS.map(([command]) => command).sort());
  });

  it.each(SCRIPTS)('npm run %s -- --help prints its usage and exits 0', async (command, script) => {
    for (const flag of ['--help', '-h']) {
      const result = await runScript(script, [flag]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout.split('\n')[0]).toMatch(new RegExp(`npm run ${command}\\b`));
    }
  });
});
