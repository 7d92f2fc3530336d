import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (tests run scripts the way `npm run` does: from here). */
export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment a script gets: ours without the variables Vitest sets for Vite (`BASE_URL`,
 * `MODE`, `DEV`, `PROD`, `SSR`), which Astro would otherwise take as the site's own settings.
 */
function scriptEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR']) delete env[name];
  return env;
}

/**
 * Runs one of scripts/*.ts (or build.mjs) exactly as its npm script does (Node with type stripping), from the
 * project root, and collects its output. `env` is added to the environment.
 */
export function runScript(script: string, args: string[] = [], env: Record<string, string | undefined> = {}, input?: string): Promise<ScriptResult> {
  // The scripts are TypeScript, but for npm run build's entry (scripts/build.mjs).
  const file = [`scripts/${script}.ts`, `scripts/${script}.mjs`].find((name) => existsSync(join(projectRoot, name)))!;
  return runNode(['--experimental-strip-types', '--no-warnings', file, ...args], { env, ...(input === undefined ? {} : { input }) });
}

/** Runs Node with `args` in `cwd` (default: the project root) and collects its output; `spawned` is told its process id. */
export function runNode(args: string[], { cwd = projectRoot, env = {}, input, spawned }: { cwd?: string; env?: Record<string, string | undefined>; input?: string; spawned?: (pid: number) => void } = {}): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...scriptEnvironment(), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    if (child.pid !== undefined) spawned?.(child.pid);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}
