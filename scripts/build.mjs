/**
 * `npm run build [-- --content <dir>] [--out <dir>] [--clean]`: the build is src/cli/build.ts.
 * This entry first turns on Node's compile cache, in the project's build folder, for this process
 * and the build's worker threads: the build's modules, Astro's and the page code the last build
 * kept are then loaded compiled (and type-stripped) as the last build left them, not parsed
 * again, some 0.3 s of a rebuild at 10,000 topics. Node checks each module's source against what
 * it compiled, so an edited file is compiled anew; NODE_COMPILE_CACHE names another folder, and
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 *
 * It then has this thread's module resolutions answered from the last builds' where they still
 * hold (src/build/resolution-memory.ts), some 0.1 s more.
 *
 * And it has Rolldown, the bundler Astro's Vite runs, allocate without transparent huge pages
 * (MIMALLOC_ALLOW_THP=0, unless the environment says otherwise). Rolldown's allocator, mimalloc,
 * reserves a 1 GiB arena and asks the kernel for huge pages on it, and the kernel then clears 2 MiB
 * at each first touch of a page: at 10,000 topics that was 1.3 s of a 2.3 s bundling, and 0.1 GB of
 * peak memory. It is read as the allocator starts, so it is set before anything loads the bundler,
 * and the full build's own process (src/cli/v8-pool.ts) inherits it.
 *
 * Plain JavaScript: Node loads this file before the cache is on, and a TypeScript entry would have
 * it load its type stripper for every build (some 50 ms); the modules below are stripped once.
 */
import { enableCompileCache } from 'node:module';
import { join } from 'node:path';

process.env.MIMALLOC_ALLOW_THP ??= '0';
const { directory } = enableCompileCache(process.env.NODE_COMPILE_CACHE ?? join(process.cwd(), '.tagsite-build', 'compile-cache'));
// Worker threads turn it on from the environment.
if (directory) process.env.NODE_COMPILE_CACHE = directory;
// Where this thread's imports resolve to is remembered for the next build too (src/build/resolution-memory.ts).
const { rememberResolutions } = await import('../src/build/resolution-memory.ts');
rememberResolutions(join(process.cwd(), '.tagsite-build', 'resolutions.json'), process.cwd());
await import('../src/cli/build.ts');
