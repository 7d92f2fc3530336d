/** Issue 22: a build says where its time went, and the bench reads that line back. */
import { describe, expect, it } from 'vitest';
import { phasesLine, readPhases, type BuildPhases } from '../../src/build/phases.ts';
import { medianRebuild, table } from '../../scripts/bench/report.ts';

const full: BuildPhases = { start: 1.94, content: 2.1, bundling: 1.38, pages: 17.26, finishing: 0.8, waiting: 0.31, indexAndFeeds: 6.04 };

describe('phasesLine and readPhases', () => {
  it('says each phase in the order it runs, to a tenth of a second', () => {
    expect(phasesLine(full)).toBe('phases: start 1.9 s · content 2.1 s · bundling 1.4 s · pages 17.3 s · finishing 0.8 s · of it waiting for the index 0.3 s · search index and feeds (second thread) 6.0 s');
  });

  it('leaves bundling out of a rebuild with the kept page code', () => {
    const { bundling: _bundling, ...rebuild } = full;
    expect(phasesLine(rebuild)).not.toContain('bundling');
    expect(readPhases(phasesLine(rebuild))).toEqual({ start: 1.9, content: 2.1, pages: 17.3, finishing: 0.8, waiting: 0.3, indexAndFeeds: 6.0 });
  });

  it("reads the line back from a build's whole output", () => {
    const output = ['[tagsite   2.1 s] content read and validated: 10,000 topics', 'site: 26,897 files, 244.7 MB, largest sitemap-0.xml (1.8 MB)', phasesLine(full), 'built /tmp/site in 22.0 s'].join('\n');
    expect(readPhases(output)).toEqual({ start: 1.9, content: 2.1, bundling: 1.4, pages: 17.3, finishing: 0.8, waiting: 0.3, indexAndFeeds: 6.0 });
  });

  it('reads nothing from an output without the line, or with a phase missing', () => {
    expect(readPhases('built /tmp/site in 1.0 s')).toBeUndefined();
    expect(readPhases('phases: start 1.0 s · content 2.0 s · pages 3.0 s')).toBeUndefined();
  });
});

describe("the bench's table", () => {
  it('shows the phases of the clean build and of each rebuild, pages per second, and the time and CPU time beside Hugo\'s', () => {
    const { bundling: _bundling, ...rebuild } = full;
    const lines = table([{ size: 10_000, notes: [], build: { seconds: 20, cpuSeconds: 36.4, systemSeconds: 5.2, peakRss: 1e9, files: 26_000, pages: 16_000, bytes: 2e8, phases: full }, hugo: { version: 'v0.111.3', seconds: 8, cpuSeconds: 9.1, systemSeconds: 1.3, peakRss: 7e8, files: 15_000 }, rebuilds: { post: { seconds: 1.8, peakRss: 5e8, phases: { ...rebuild, pages: 1.2 } }, title: { seconds: 4, peakRss: 5e8 }, bumped: { seconds: 9.5, peakRss: 6e8, phases: { ...rebuild, indexAndFeeds: 7.5 } } } }]).split('\n');
    const row = (label: string) => lines.filter((line) => line.startsWith(label));
    expect(row('  pages per second')[0]).toMatch(/ 800( |$)/);
    expect(row('  start / content / bundling / pages / finishing')[0]).toContain('1.9 / 2.1 / 1.4 / 17.3 / 0.8 s (0.3 s waiting)');
    // Each edit's rebuild, against the 2 s of the issue: its post, then its title, then its activity date.
    expect(row('rebuild after one topic changed: a paragraph added to its post')[0]).toMatch(/ 1\.8 s, 0\.47 GB ✓/);
    expect(row('  … then its title changed')[0]).toMatch(/ 4\.0 s, 0\.47 GB ✗/);
    expect(row('  … then its `updated` moved to the top')[0]).toMatch(/ 9\.5 s, 0\.56 GB ✗/);
    expect(row('    start / content / pages / finishing')[0]).toContain('1.9 / 2.1 / 1.2 / 0.8 s (0.3 s waiting)');
    expect(row('  search index and feeds (second thread, alongside)').map((line) => /(\d+\.\d) s/.exec(line)?.[1])).toEqual(['6.0']);
    expect(row('    search index and feeds (second thread, alongside)').map((line) => /(\d+\.\d) s/.exec(line)?.[1])).toEqual(['6.0', undefined, '7.5']);
    expect(row('  tagsite / Hugo')[0]).toMatch(/ 2\.50× ✗/);
    expect(row('  CPU time, tagsite / Hugo (user + system, all threads)')[0]).toContain('36.4 s / 9.1 s = 4.00×');
    // The part of it in the kernel, where a file system slow at making files shows.
    expect(row('    of it in the kernel')[0]).toContain('5.2 s / 1.3 s');
  });
});

describe('rebuilds run more than once', () => {
  it('give the median run, with its phases, the highest memory, and every time', () => {
    const runs = [2.6, 1.9, 2.1].map((seconds, i) => ({ seconds, peakRss: [4e8, 5e8, 3e8][i]!, phases: { ...full, pages: seconds } }));
    expect(medianRebuild(runs)).toEqual({ seconds: 2.1, peakRss: 5e8, phases: { ...full, pages: 2.1 }, runs: [2.6, 1.9, 2.1] });
    // Of an even number, the slower middle one.
    expect(medianRebuild(runs.slice(0, 2)).seconds).toBe(2.6);
    expect(medianRebuild(runs.slice(1, 2))).toEqual({ ...runs[1], runs: [1.9] });
  });

  it("show the median against the target, with the fastest and slowest run", () => {
    const post = medianRebuild([2.4, 1.8, 1.9].map((seconds) => ({ seconds, peakRss: 5e8 })));
    const lines = table([{ size: 10_000, notes: [], rebuilds: { post, title: { seconds: 2.2, peakRss: 5e8 } } }]).split('\n');
    expect(lines.find((line) => line.startsWith('rebuild after one topic changed'))).toMatch(/ 1\.9 s \(median of 3: 1\.8–2\.4 s\), 0\.47 GB ✓/);
    // One run: its time alone.
    expect(lines.find((line) => line.startsWith('  … then its title changed'))).toMatch(/ 2\.2 s, 0\.47 GB ✗/);
  });
});
