/**
 * What a full build keeps for the next content rebuild (./kept-renderer.ts), and the reading of it:
 * a module of its own, light enough for `npm run build` to read before it loads the build's code
 * (src/cli/build.ts decides then whether the build is a content rebuild).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AstroConfig } from 'astro';
import type { FolderFiles } from './folder-files.ts';
import type { BuildSettings } from './pipeline.ts';
import type { PageFiles } from './prerenderer.ts';

/** The file in the renderer's folder that says what the full build kept. */
export const HEAD = 'renderer.json';

/** What a content rebuild needs from the full build that kept the page code. */
export interface KeptRenderer {
  /** The inputs of that build (./unchanged.ts): the kept code is used only with the same. */
  inputs: string;
  /** The folder of the kept bundle (in the renderer's folder), and its entry module. */
  bundle: string;
  entry: string;
  settings: BuildSettings;
  pageFiles: Omit<PageFiles, 'outDir' | 'reuse'>;
  trailingSlash: AstroConfig['trailingSlash'];
  /** Each route's style sheets, by Astro's page key (`route&component`). */
  styles: Array<[key: string, styles: unknown[]]>;
  /** Scripts integrations injected (`injectScript`), which Astro puts into every page's <head>. */
  scripts: unknown[];
  /** The browser's files in the output as the build left them: `_astro/` and public/'s. */
  assets: FolderFiles;
}

/** The renderer kept in `folder` by a full build with these `inputs`, if there is one. */
export function keptRenderer(folder: string, inputs: string): KeptRenderer | undefined {
  try {
    const kept = JSON.parse(readFileSync(join(folder, HEAD), 'utf8')) as KeptRenderer;
    return kept.inputs === inputs && existsSync(join(folder, kept.bundle, kept.entry)) ? kept : undefined;
  } catch {
    return undefined; // none kept, or unreadable: a full build
  }
}
