/**
 * `npm run build` runs Node with one V8 background thread (`--v8-pool-size=1` in package.json),
 * where Node's default is four. A one-topic rebuild keeps both cores of a small machine busy with
 * threads of its own (this one, the index thread, the output check), and V8's optimising compilers
 * and helper tasks competed with them (some 0.1–0.2 s of a rebuild at 10,000 topics, on two cores).
 * A full build renders for twenty seconds and more and gains from those helpers (its young
 * generation is collected in parallel on them): it runs in a process of its own with Node's
 * default (src/cli/build.ts). That process replaces this one where Node can (`process.execve`, Node
 * 22.15 and later, not Windows), rather than running beside it: a waiting parent held 90 MB of the
 * build's peak memory, at any size of site.
 */
import { spawnSync } from 'node:child_process';

/**
 * The V8 flags a full build's process runs with, each unless this one gives it (in either form,
 * `--x` or `--no-x`, with or without a value):
 * - `--heap-growing-percent=25`: each heap grows by a quarter of what its last full collection
 *   left before the next one (V8's own factor, chosen by how fast it collects, grew the main
 *   thread's heap from 0.4 to 1.4 GB of mostly dead pages at 100,000 topics). With 50, a clean
 *   build of 100,000 topics peaked at 1.76 GB instead of 2.38 GB, and spent less time in the
 *   kernel; with 25 (measured later, side by side with 50 on the code as it is now) it peaks at
 *   1.33–1.36 GB instead of 1.45 GB in 88–94 s against 88 s, and one of 1,000,000 topics at
 *   6.67 GB, in 23.2 minutes.
 * - `--no-allocation-site-pretenuring`: V8 allocates the objects of a place in the code straight
 *   into the old generation once most of them have lived long, and reading the content mixes the
 *   records, which live to the end, with what dies once a file is read: the old generation kept
 *   those dead objects' holes between the records, which V8 compacts a few megabytes a full
 *   collection. At 1,000,000 topics the main thread's heap ended the reading at 2.76 GB committed
 *   for 1.48 GB alive, against 3.48 GB for the same without it; at 100,000 topics the build took
 *   the same time.
 */
export const FULL_BUILD_FLAGS = ['--heap-growing-percent=25', '--no-allocation-site-pretenuring'];

/** A V8 flag's name: without its `--no-` or `--`, its value, and with `_` as `-`. */
const flagName = (flag: string) => flag.replace(/=.*$/, '').replaceAll('_', '-').replace(/^--(no-)?/, '');

/**
 * The flags of a process like this one with V8's default background threads, for a full build
 * (with FULL_BUILD_FLAGS, each unless given); undefined when this one has them.
 */
export function withDefaultPool(execArgv: readonly string[]): string[] | undefined {
  const flags: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    if (flag === '--v8-pool-size') i++; // its value is the next argument
    else if (!flag.startsWith('--v8-pool-size=')) flags.push(flag);
  }
  if (flags.length === execArgv.length) return undefined;
  const given = new Set(flags.map(flagName));
  return [...flags, ...FULL_BUILD_FLAGS.filter((flag) => !given.has(flagName(flag)))];
}

/**
 * Runs this command again in a process with V8's default background threads, when this one has
 * fewer: in this process's place (it does not return), or else in a child, whose exit code it
 * gives. Undefined when this process has them already.
 */
export function againWithDefaultPool(): number | undefined {
  const flags = withDefaultPool(process.execArgv);
  if (!flags) return undefined;
  const args = [...flags, ...process.argv.slice(1)];
  if (typeof process.execve === 'function') {
    try {
      process.execve(process.execPath, [process.execPath, ...args], process.env);
    } catch {
      // Not replaced (the system refused): the child below builds.
    }
  }
  const { status } = spawnSync(process.execPath, args, { stdio: 'inherit' });
  return status ?? 1;
}
