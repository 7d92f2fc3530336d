import { enableCompileCache } from 'node:module';
enableCompileCache('/work/main/.tagsite-build/compile-cache');
const mods = process.argv.slice(2);
for (const m of mods) { const t = performance.now(); await import(m); console.log((performance.now() - t).toFixed(0).padStart(5), m); }
