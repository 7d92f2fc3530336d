/**
 * `npm run build` runs Node with one V8 background thread (`--v8-pool-size=1` in package.json),
 * where Node's default is four. A one-topic rebuild keeps both cores of a small machine busy with
 * threads of its own (this one, the index thread, the output check), and V8's optimising compilers
 * and helper tasks competed with them (some 0.1–0.2 s of a rebuild at 10,000 topics, on two cores).
 * A full build renders for twenty seconds and more and gains from those helpers (its young
 * generation is collected in parallel on them): it runs in a process of its own with Node's
 * default (src/cli/build.ts).
 */
import { spawnSync } from 'node:child_process';

/** The flags of a process like this one with V8's default background threads; undefined when this one has them. */
export function withDefaultPool(execArgv: readonly string[]): string[] | undefined {
  const flags: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    if (flag === '--v8-pool-size') i++; // its value is the next argument
    else if (!flag.startsWith('--v8-pool-size=')) flags.push(flag);
  }
  return flags.length === execArgv.length ? undefined : flags;
}

/**
 * Runs this command again in a process with V8's default background threads, when this one has
 * fewer, and gives its exit code; undefined when this process has them already.
 */
export function againWithDefaultPool(): number | undefined {
  const flags = withDefaultPool(process.execArgv);
  if (!flags) return undefined;
  const { status } = spawnSync(process.execPath, [...flags, ...process.argv.slice(1)], { stdio: 'inherit' });
  return status ?? 1;
}
