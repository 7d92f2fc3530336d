/**
 * `npm run build` gives Node one V8 background thread (package.json); a full build runs in a
 * process of its own with Node's default (src/cli/v8-pool.ts), which replaces the first where Node
 * has process.execve, and a content rebuild in the first. The build's process has Rolldown allocate
 * without transparent huge pages unless the environment says otherwise (scripts/build.mjs).
 */
import { afterAll, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runNode } from '../helpers/cli.ts';
import { copyOfSampleContent } from '../helpers/build.ts';

const content = copyOfSampleContent('v8-pool');
const folder = mkdtempSync(join(tmpdir(), 'tagsite-v8-pool-'));
afterAll(() => {
  rmSync(dirname(content), { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
});

// Loaded by each process the build runs in: notes its process id, its flags and how Rolldown's
// allocator is told to take huge pages (scripts/build.mjs), one line a process.
const noted = join(folder, 'processes.txt');
const note = join(folder, 'note.mjs');
writeFileSync(note, `import { appendFileSync } from 'node:fs';\nimport { isMainThread } from 'node:worker_threads';\nif (isMainThread) appendFileSync(${JSON.stringify(noted)}, JSON.stringify([process.pid, process.execArgv.filter((flag) => flag.startsWith('--v8-pool-size')), process.env.MIMALLOC_ALLOW_THP ?? null]) + '\\n');\n`);
const out = join(folder, 'site');
const build = (extra: string[] = [], env: Record<string, string | undefined> = { MIMALLOC_ALLOW_THP: undefined }) => {
  rmSync(noted, { force: true });
  return runNode(['--v8-pool-size=1', '--import', note, '--experimental-strip-types', '--no-warnings', 'scripts/build.mjs', '--content', content, '--out', out, ...extra], { env });
};
const notes = () => readFileSync(noted, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as [number, string[], string | null]);
const hugePages = () => notes().map(([, , allowed]) => allowed);
const processes = () => notes().map(([, flags]) => flags);
// A full build's process replaces the first (one process id, so no waiting parent holds memory), where Node can.
const replaces = typeof process.execve === 'function';

it("builds in full in a process with V8's default background threads, a content rebuild in its own, and says a failure once with its exit code", async () => {
  const full = await build();
  expect(full.code, full.stderr).toBe(0);
  expect(existsSync(join(out, 'index.html'))).toBe(true);
  expect(processes()).toEqual([['--v8-pool-size=1'], []]);
  const [first, second] = notes().map(([pid]) => pid);
  if (replaces) expect(second, 'the full build in the first process\'s place').toBe(first);
  else expect(second).not.toBe(first);
  expect(full.stdout.match(/^built /gm)).toHaveLength(1);
  // The build's own process, which bundles, has Rolldown allocate without transparent huge pages.
  expect(hugePages()).toEqual([null, '0']);

  const topic = join(content, 'topics/community/flowsmith-2-9-4-bugfix-release.md');
  writeFileSync(topic, `${readFileSync(topic, 'utf8')}\nA sentence added after the first build.\n`);
  // One the environment gives is kept.
  const rebuild = await build([], { MIMALLOC_ALLOW_THP: '1' });
  expect(rebuild.code, rebuild.stderr).toBe(0);
  expect(rebuild.stdout).toContain("rendered by the last build's page code");
  expect(processes()).toEqual([['--v8-pool-size=1']]);
  expect(hugePages()).toEqual(['1']);

  // A full build that stops on a problem: said once, by the process that built, with its exit code.
  writeFileSync(join(content, 'members.json'), JSON.stringify([{ name: 5 }]));
  const failed = await build(['--clean']);
  expect(failed.code).toBe(1);
  expect(processes()).toEqual([['--v8-pool-size=1'], []]);
  const said = `${failed.stdout}${failed.stderr}`;
  expect(said.match(/members\.json:1: \[0\]\.name: must be a string/g)).toHaveLength(1);
  expect(said.match(/problems found/g)).toHaveLength(1);
  expect(readFileSync(join(out, 'topics/flowsmith-2-9-4-bugfix-release/index.html'), 'utf8'), 'the output as it was').toContain('A sentence added after the first build.');
});
