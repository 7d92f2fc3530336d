/** What a long build says: its phases, and on a terminal one updating count of rendered pages. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildProgress, pageRendered, pagesRendered } from '../../src/build/progress.ts';
import { buildStore } from '../../src/build/store.ts';

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream };
}

afterEach(() => {
  vi.useRealTimers();
  Object.assign(buildStore(), { reuse: undefined, rendered: undefined });
});

describe('buildProgress', () => {
  it('keeps a small build quiet when not on a terminal', () => {
    const { written, stream: out } = stream(false);
    const progress = buildProgress(999, out);
    progress.phase('content read');
    progress.countPages();
    progress.done();
    expect(written).toEqual([]);
  });

  it('prints one line a phase for a long build in a log, and no updating line', () => {
    vi.useFakeTimers();
    const { written, stream: out } = stream(false);
    const progress = buildProgress(1000, out);
    progress.phase('content read and validated: 1,000 topics');
    progress.countPages();
    vi.advanceTimersByTime(2000);
    progress.phase('writing');
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(/^\[tagsite +\d+\.\d s\] content read and validated: 1,000 topics\n$/);
    expect(written.join('')).not.toContain('\r');
  });

  it('on a terminal counts the pages as they render, on one line it rewrites', () => {
    vi.useFakeTimers();
    const { written, stream: out } = stream(true);
    const progress = buildProgress(10, out);
    Object.assign(buildStore(), { reuse: { previous: new Map(), next: new Map(), reused: new Set(), carried: new Set() } });
    progress.countPages();
    for (let i = 0; i < 1234; i++) pageRendered();
    vi.advanceTimersByTime(300);
    expect(written.at(-1)).toBe('\r\x1b[K  1,234 pages rendered');
    progress.phase('writing the search index');
    expect(written.slice(-2)).toEqual(['\r\x1b[K', expect.stringMatching(/\] writing the search index\n$/)]);
  });

  it('says its closing line as it says its phases: in a long build, not in a small one', () => {
    const long = stream(false);
    buildProgress(1000, long.stream).summary('phases: start 1.0 s');
    expect(long.written).toEqual(['phases: start 1.0 s\n']);
    const small = stream(false);
    buildProgress(999, small.stream).summary('phases: start 1.0 s');
    expect(small.written).toEqual([]);
  });

  it('counts its phase lines from the start it is given', () => {
    const { written, stream: out } = stream(false);
    buildProgress(1000, out, performance.now() - 2500).phase('content read');
    expect(written[0]).toMatch(/^\[tagsite +2\.5 s\] content read\n$/);
  });

  it('counts nothing outside a build (astro dev renders pages too)', () => {
    pageRendered();
    expect(buildStore().rendered).toBeUndefined();
  });
});

it("counts the pages a second thread rendered among the build's, and says how many it did", () => {
  expect(pagesRendered(18, 0)).toBe('18 pages rendered');
  expect(pagesRendered(11_302, 4_786)).toBe('16,088 pages rendered (4,786 by a second thread)');
});
