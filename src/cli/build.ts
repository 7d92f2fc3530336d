/**
 * `npm run build [-- --content <dir>] [--out <dir>] [--clean]` (loaded by scripts/build.mjs): `astro build` with these flags,
 * unless nothing has changed since the last build of the output (src/build/unchanged.ts), or only
 * the content has: then the page code the last build kept renders the pages, without Astro's
 * bundling (src/build/kept-renderer.ts). The build itself (validate first, pages beside the
 * output, swap in whole, reuse unchanged pages) is src/build/pipeline.ts, run by the tagsite
 * integration inside `astro build`.
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildStore, type BuildOutcome } from '../build/store.ts';
import { workFolder } from '../build/swap.ts';
import { PartlyUpdatedError } from '../build/in-place.ts';
import { buildInputs, contentListingInThread, rendererFolder, stampBuild, stampedOutput, unchangedOutput, contentStamp, type ContentListing, type ContentStamp } from '../build/unchanged.ts';
import { configProblem, contentDir, parseArgs, printProblems, projectRoot, stopOnProblems } from './project.ts';
import { exitWithUsageOnHelp } from './usage.ts';
import { againWithDefaultPool } from './v8-pool.ts';
import { endOutputChecks } from '../build/output-check.ts';
import { keptRenderer } from '../build/renderer-head.ts';

exitWithUsageOnHelp('build');

const root = projectRoot();
const args = parseArgs(process.argv.slice(2), { content: 'string', out: 'string', clean: 'boolean' }, 'build');
if (args.problems.length > 0) {
  printProblems(args.problems);
  process.exit(1);
}
const out = args.values.out as string | undefined;
// TAGSITE_CONFIG names another config file (the tests give each scenario its own).
const configFile = process.env.TAGSITE_CONFIG;
const content = contentDir(root, args.values.content as string | undefined);
const clean = args.values.clean === true;
// Nothing changed since the last build of this output (src/build/unchanged.ts): it is kept, and Astro never starts.
const inputs = buildInputs(root, configFile);
const kept = clean ? undefined : unchangedOutput(root, content, out, inputs);
if (kept) {
  console.log(`nothing changed since the last build of ${kept} (content, code, config, and the output as it left it): kept as it is in ${(performance.now() / 1000).toFixed(1)} s; --clean builds anew`);
  process.exit(0);
}
// With the same code, config and environment as the last build, the page code it kept renders the
// pages again, without Astro's bundling (src/build/kept-renderer.ts); else Astro builds, and keeps it.
const renderer = rendererFolder(root, content, out);
const keptCode = clean ? undefined : keptRenderer(renderer, inputs);
// A full build wants V8's default background threads, which `npm run build` gives rebuilds fewer of (./v8-pool.ts).
if (!keptCode) fullBuildWithDefaultPool();
// The content as it is before the build reads it: a file changed meanwhile makes the next build run.
// Listed by a thread while this one loads the build's code (and the kept page code), and waited for
// before the content is read.
let listing: Promise<ContentListing> | undefined = contentListingInThread(content);
// (Loaded only now: the check above ends a build with nothing changed without loading the build's code.)
const { rebuildContent } = await import('../build/kept-renderer.ts');

/** Runs a full build in a process with V8's default background threads, when this one has fewer: ends with its exit code. */
function fullBuildWithDefaultPool(): void {
  const code = againWithDefaultPool();
  if (code !== undefined) process.exit(code);
}

async function astroBuild(): Promise<BuildOutcome> {
  // A syntax error in the config is one line with its line number, before Astro prints its own.
  const config = configProblem(root);
  if (config) {
    printProblems([config]);
    process.exit(1);
  }
  buildStore().request = { contentDir: content, clean, keepRenderer: { folder: renderer, inputs }, ...(configFile ? { configFile } : {}) };
  const { build } = await import('astro');
  await build({
    root,
    ...(out ? { outDir: resolve(root, out) } : {}),
    ...(configFile ? { configFile } : {}),
    logLevel: 'warn',
  });
  return buildStore().outcome!;
}

let outcome: BuildOutcome;
let rebuilt: BuildOutcome | undefined;
let stamped: ContentStamp | undefined;
try {
  rebuilt = keptCode ? await stopOnProblems(rebuildContent(renderer, keptCode, content, listing, () => stampedOutput(root, content, out, inputs))) : undefined;
  // The stamp keeps the listing's files (as text) and folders; the files' stamps (by path, a Map as
  // big as the content) were for the reading only.
  stamped = contentStamp(await listing);
  listing = undefined;
  // Listed, and a rebuild's output checked: the thread that did both is done.
  void endOutputChecks();
  if (!rebuilt) fullBuildWithDefaultPool();
  outcome = rebuilt ?? (await astroBuild());
} catch (error) {
  // Problems in options and content end the process before anything is written (stopOnProblems).
  rmSync(workFolder(root), { recursive: true, force: true });
  console.error(`The build failed: ${(error as Error).message}`);
  if (!(error instanceof PartlyUpdatedError)) console.error('The output folder is unchanged.');
  process.exit(1);
}

stampBuild(root, content, out, inputs, stamped!, outcome.outDir, outcome.output);
const reused = outcome.reused > 0 ? ` (${outcome.reused} of ${outcome.pages} pages, feeds and index files unchanged, reused)` : '';
const code = rebuilt ? "; rendered by the last build's page code, no bundling" : '';
const inPlace = outcome.inPlace ? '; only the files that changed written into the output' : '';
const threads = outcome.byThread > 0 ? `; pages rendered by two threads (${outcome.byThread.toLocaleString('en')} by the second)` : '';
console.log(`built ${outcome.outDir} in ${outcome.seconds.toFixed(1)} s${reused}${code}${inPlace}${threads}`);
// Ends now rather than when the event loop empties: Node would first take apart the finished
// threads' heaps and this one's, some 0.1–0.4 s of a rebuild's time and CPU. Nothing is left to
// do: the output and its stamp are written, and a replaced output is deleted by a process of its own.
process.exit(0);
