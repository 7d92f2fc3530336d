/**
 * Where a build's time went, phase by phase: said in one line at the end of a long build
 * (./pipeline.ts), and read back from that line by `npm run bench`, which prints it beside Hugo's.
 */

/** Seconds of each phase. The index thread works alongside the pages: its time is not added to the others. */
export interface BuildPhases {
  /** From the process's start to the build's: Node, the build script, Astro and its config (or the kept page code), and any wait for another build of the same output. */
  start: number;
  /** Reading and validating the content. */
  content: number;
  /** Astro's bundling of the page code; none when the page code the last build kept renders (./kept-renderer.ts). */
  bundling?: number;
  /** Keying, rendering and writing the pages (those unchanged are reused). */
  pages: number;
  /** Redirects, headers, the sitemap, the search page, the swap or the update in place. */
  finishing: number;
  /** Of `finishing`: waiting for the second thread to finish the search index and feeds. */
  waiting: number;
  /** The search index and the tag feeds, made in a second thread while the pages render. */
  indexAndFeeds: number;
}

/** The line's label of each phase, in the order they run. */
const LABELS: ReadonlyArray<readonly [keyof BuildPhases, string]> = [
  ['start', 'start'],
  ['content', 'content'],
  ['bundling', 'bundling'],
  ['pages', 'pages'],
  ['finishing', 'finishing'],
  ['waiting', 'of it waiting for the index'],
  ['indexAndFeeds', 'search index and feeds (second thread)'],
];

const PREFIX = 'phases: ';

/** The build's phases line: `phases: start 1.9 s · content 2.1 s · …`. */
export function phasesLine(phases: BuildPhases): string {
  const parts = LABELS.flatMap(([key, label]) => (phases[key] === undefined ? [] : [`${label} ${phases[key].toFixed(1)} s`]));
  return `${PREFIX}${parts.join(' · ')}`;
}

/** The phases said by a build's output (its phasesLine), or undefined when it said none. */
export function readPhases(output: string): BuildPhases | undefined {
  const line = output.split('\n').find((text) => text.startsWith(PREFIX));
  if (!line) return undefined;
  const said = new Map<string, number>();
  for (const part of line.slice(PREFIX.length).split(' · ')) {
    const match = /^(.+) (\d+(?:\.\d+)?) s$/.exec(part);
    if (match) said.set(match[1]!, Number(match[2]));
  }
  const phases: Partial<BuildPhases> = {};
  for (const [key, label] of LABELS) if (said.has(label)) phases[key] = said.get(label)!;
  const required: Array<keyof BuildPhases> = ['start', 'content', 'pages', 'finishing', 'waiting', 'indexAndFeeds'];
  return required.every((key) => phases[key] !== undefined) ? (phases as BuildPhases) : undefined;
}

/** Times (performance.now(), ms since the process started) at which a build's phases began or ended. */
export interface BuildMarks {
  /** prepareBuild is done: the content is read and validated, the index thread started. */
  prepared: number;
  /** The index thread was handed the content, and (once it has finished the index and feeds) the seconds it took by its own clock. */
  threadStarted: number;
  threadSeconds?: number;
  /** The first page is about to render, after Astro's bundling (`bundled`) or with the kept page code. */
  rendering?: { at: number; bundled: boolean };
}

/** The phases of a build that finished just now, its finishing having begun at `finishing` and waited `waiting` ms for the index thread. */
export function buildPhases({ started, marks }: { started: number; marks: BuildMarks }, finishing: number, waiting: number): BuildPhases {
  const now = performance.now();
  const rendering = marks.rendering ?? { at: marks.prepared, bundled: false };
  const seconds = (ms: number) => Math.max(0, ms) / 1000;
  return {
    start: seconds(started),
    content: seconds(marks.prepared - started),
    ...(rendering.bundled ? { bundling: seconds(rendering.at - marks.prepared) } : {}),
    pages: seconds(finishing - (rendering.bundled ? rendering.at : marks.prepared)),
    finishing: seconds(now - finishing),
    waiting: seconds(waiting),
    indexAndFeeds: marks.threadSeconds ?? seconds(now - marks.threadStarted),
  };
}
