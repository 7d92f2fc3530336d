// What a built site weighs and the hosts' limits it passes (src/build/host-limits.ts).
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { folderFiles } from '../../src/build/folder-files.ts';
import { hostLimitWarnings, measureSite, readableBytes, redirectRulesWarning, sizeLine } from '../../src/build/host-limits.ts';

const MiB = 1024 * 1024;

describe("a site's size", () => {
  it('counts every file in every folder, their bytes and the largest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tagsite-size-'));
    mkdirSync(join(dir, 'tags', 'api'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), 'x'.repeat(300));
    writeFileSync(join(dir, 'tags', 'api', 'index.html'), 'y'.repeat(5000));
    writeFileSync(join(dir, 'tags', 'rss.xml'), 'z'.repeat(10));
    const size = measureSite(folderFiles(dir));
    expect(size).toEqual({ files: 3, bytes: 5310, largest: { path: 'tags/api/index.html', bytes: 5000 } });
    expect(sizeLine(size)).toBe('site: 3 files, 6 KB, largest tags/api/index.html (5 KB)');
  });

  it('reads as people read sizes', () => {
    expect(readableBytes(1)).toBe('1 KB');
    expect(readableBytes(1536 * 1024)).toBe('1.5 MB');
    expect(readableBytes(2.5 * 1024 * MiB)).toBe('2.50 GB');
  });
});

describe("the hosts' limits", () => {
  const site = (files: number, bytes: number, largest: number) => ({ files, bytes, largest: { path: 'search-index/core.json', bytes: largest } });

  it('says nothing for a site every host takes', () => {
    expect(hostLimitWarnings(site(20_000, 1024 * MiB, 25 * MiB))).toEqual([]);
  });

  it("warns, in one line each, of Cloudflare Pages' 20,000 files and 25 MiB a file and GitHub Pages' 1 GB, naming what brings it under", () => {
    const warnings = hostLimitWarnings(site(20_001, 1024 * MiB + 1, 25 * MiB + 1));
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^warning: 20,001 files, more than Cloudflare Pages takes \(20,000 a site\): .*`pageSize`/);
    expect(warnings[1]).toMatch(/^warning: search-index\/core\.json is 25\.0 MB, more than Cloudflare Pages takes \(25\.0 MB a file\)/);
    expect(warnings[2]).toMatch(/^warning: the site is 1\.00 GB, more than GitHub Pages takes \(1\.00 GB a site\): .*`excerptLength`/);
    for (const warning of warnings) expect(warning).not.toContain('\n');
  });
});

describe('_redirects', () => {
  it('warns when it has more rules than Cloudflare Pages reads, comments and blank lines aside', () => {
    const rules = (n: number) => `# Old addresses\n${Array.from({ length: n }, (_, i) => `/t/${i} /topics/t${i}/ 301`).join('\n')}\n\n`;
    expect(redirectRulesWarning(rules(2000))).toBeUndefined();
    expect(redirectRulesWarning(rules(2001))).toBe(
      'warning: _redirects has 2,001 rules, more than Cloudflare Pages reads (2,000): there the rest are ignored, and the redirect pages and the 404 page lead those old addresses to their pages (without a 301)',
    );
  });
});
