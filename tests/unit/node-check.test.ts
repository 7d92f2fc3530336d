/** Every npm script first checks Node's version: on an old Node one line, not `bad option: --experimental-strip-types`. */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../helpers/cli.ts';
import { nodeVersionProblem } from '../../scripts/require-node.mjs';

const check = join(projectRoot, 'scripts', 'require-node.mjs');

describe('the Node version check', () => {
  it('accepts 22.12 and later, and names the required and the found version otherwise', () => {
    for (const version of ['22.12.0', '22.18.1', '23.0.0', '24.11.1', 'v26.0.0']) expect(nodeVersionProblem(version)).toBeUndefined();
    const problem = nodeVersionProblem('20.20.2') as string;
    expect(problem).toBe('node: version: tagsite needs Node.js >= 22.12, this is v20.20.2; README.md "Set-up" shows how to get a current one');
    expect(nodeVersionProblem('22.11.0')).toContain('this is v22.11.0');
    expect(nodeVersionProblem('18.0.0')).toContain('>= 22.12');
  });

  it('runs first in every npm script', () => {
    const scripts = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const [name, command] of Object.entries(scripts)) expect(command, name).toMatch(/^node scripts\/require-node\.mjs && /);
  });

  it('is silent and exits 0 on this Node', () => {
    expect(execFileSync(process.execPath, [check], { encoding: 'utf8' })).toBe('');
  });

  // Debian's own Node (20 on this project's machines) is the old Node a newcomer meets.
  const systemNode = '/usr/bin/node';
  const systemVersion = existsSync(systemNode) ? execFileSync(systemNode, ['--version'], { encoding: 'utf8' }).trim() : undefined;
  it.runIf(systemVersion !== undefined && nodeVersionProblem(systemVersion) !== undefined)(`prints one line and exits 1 on the system's old Node (${systemVersion})`, () => {
    const result = spawnSync(systemNode, [check], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([nodeVersionProblem(systemVersion!)]);
  });
});
