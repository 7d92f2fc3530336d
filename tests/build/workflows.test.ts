// The workflow list file as built (SPEC 5): published byte-identical at both addresses, valid
// against its schema, one item per workflow topic with absolute URLs (also under a sub-path);
// `_headers` from the options; download links on topic pages; a consumer written the old way; and
// the builds that must fail (no `site`, duplicate workflow files).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'node-html-parser';
import { buildSite } from '../helpers/build.ts';
import { projectRoot, runScript } from '../helpers/cli.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { copyFixture, writeTopic } from './fixture-copies.ts';
import { loadContent } from '../../src/content/load.ts';
import { projectOptions } from '../../src/cli/project.ts';
import type { ResolvedOptions } from '../../src/integration/options.ts';
import type { WorkflowListItem } from '../../src/model/workflow-list.ts';

const fixture = join(projectRoot, 'tests/fixtures/workflows');
const schema = JSON.parse(readFileSync(join(projectRoot, 'schemas/workflow-list.schema.json'), 'utf8')) as { $id: string };
const { content } = loadContent({ root: projectRoot, contentDir: fixture, excerptLength: 200 });
const workflowTopics = content.topics.filter((topic) => topic.workflow);

let options: ResolvedOptions;
let site: string;
let plain: string;
let sub: string;
let host: StaticHost;

/** An Astro config of this test's own (removed afterwards): Astro and scripts/project.ts read TAGSITE_CONFIG from the project root. */
function writeConfig(name: string, body: string): { env: Record<string, string>; remove: () => void } {
  const file = `tests/fixtures/.tmp-workflows-${process.pid}-${name}.mjs`;
  writeFileSync(
    join(projectRoot, file),
    `import { defineConfig } from 'astro/config';\nimport tagsite from '../../src/integration/index.ts';\nexport default defineConfig(${body});\n`,
  );
  return { env: { TAGSITE_CONFIG: file }, remove: () => rmSync(join(projectRoot, file), { force: true }) };
}

// Vitest puts Vite's own variables (BASE_URL=/, MODE=test …) into process.env; a build started from
// a test inherits them and Astro would take BASE_URL over `base`. Undefined drops them.
const BUILD_ENV = { BASE_URL: undefined, MODE: undefined, DEV: undefined, PROD: undefined, SSR: undefined } as unknown as Record<string, string>;

const read = (dir: string, path: string) => readFileSync(join(dir, path));
const list = (dir: string) => JSON.parse(read(dir, 'api/workflows.json').toString('utf8')) as WorkflowListItem[];

beforeAll(async () => {
  let config: Record<string, unknown>;
  ({ options, config } = await projectOptions(projectRoot));
  site = String(config.site);
  // One build after the other: they share Astro's caches.
  plain = (await buildSite(fixture, BUILD_ENV)).outDir;
  sub = (await buildSite(fixture, { ...BUILD_ENV, TAGSITE_BASE: '/community' })).outDir;
  host = await serveStatic(plain);
});

afterAll(async () => {
  await host?.close();
});

describe('the published list', () => {
  it('is at the primary and the backup address, byte-identical', () => {
    expect(options.workflows.primaryUrl).toBe('/api/workflows.json');
    expect(options.workflows.backupUrl).toBe('/api/workflows-backup.json');
    const primary = read(plain, 'api/workflows.json');
    expect(primary.length).toBeGreaterThan(100);
    expect(read(plain, 'api/workflows-backup.json').equals(primary)).toBe(true);
    expect(read(sub, 'api/workflows-backup.json').equals(read(sub, 'api/workflows.json'))).toBe(true);
  });

  it('is valid against schemas/workflow-list.schema.json, whose $id carries the version', () => {
    expect(schema.$id).toMatch(/\/workflow-list\/v\d+\.json$/);
    const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    for (const dir of [plain, sub]) {
      expect(validate(list(dir)), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it('has one item per workflow topic, with all eleven keys', () => {
    const items = list(plain);
    expect(items).toHaveLength(workflowTopics.length);
    expect(items.map((item) => item['workflow-file']).sort()).toEqual(workflowTopics.map((topic) => topic.workflow!.file).sort());
    for (const item of items) expect(Object.keys(item)).toHaveLength(11);
    expect(items.some((item) => item['workflow-name'] === 'How do I share a workflow?')).toBe(false);
  });

  it('has absolute URLs: the topic page from Astro `site` (and `base`) unless a release page is given', () => {
    for (const [dir, base] of [[plain, '/'], [sub, '/community/']] as const) {
      for (const item of list(dir)) {
        const topic = workflowTopics.find((t) => t.workflow!.file === item['workflow-file'])!;
        expect(item['workflow-release-page']).toBe(topic.workflow!.release ?? new URL(`${base}topics/${topic.slug}/`, site).href);
        for (const key of ['workflow-release-page', 'workflow-download-link', 'workflow-author-site', 'workflow-screenshot'] as const) {
          if (item[key] !== '') expect(new URL(item[key]).protocol).toMatch(/^https?:$/);
        }
      }
    }
    expect(list(sub).find((item) => item['workflow-file'] === 'Übersetzer.flowsmith')!['workflow-release-page']).toBe(
      `${site.replace(/\/$/, '')}/community/topics/ubersetzer/`,
    );
  });

  it('_headers gives both list addresses the 360-second cache lifetime (with the base)', () => {
    // The list addresses' rules (every page's security headers, rule `<base>/*`, are tested with the CSP).
    const rules = (dir: string) =>
      read(dir, '_headers')
        .toString('utf8')
        .split(/\n(?=\S)/)
        .filter((rule) => rule && !rule.startsWith('#') && !/^\S*\/\*\n/.test(rule))
        .flatMap((rule) => rule.split('\n').filter(Boolean));
    expect(rules(plain)).toEqual([
      '/api/workflows.json',
      '  Cache-Control: public, max-age=360',
      '/api/workflows-backup.json',
      '  Cache-Control: public, max-age=360',
      '/api/workflow_api.json',
      '  Cache-Control: public, max-age=360',
      '/api/workflow_api-backup.json',
      '  Cache-Control: public, max-age=360',
    ]);
    expect(rules(sub)).toEqual([
      '/community/api/workflows.json',
      '  Cache-Control: public, max-age=360',
      '/community/api/workflows-backup.json',
      '  Cache-Control: public, max-age=360',
      '/community/api/workflow_api.json',
      '  Cache-Control: public, max-age=360',
      '/community/api/workflow_api-backup.json',
      '  Cache-Control: public, max-age=360',
    ]);
  });
});

describe('pages', () => {
  it('every workflow topic page links the download and the backup download; others do not', () => {
    for (const topic of content.topics) {
      const page = parse(read(plain, `topics/${topic.slug}/index.html`).toString('utf8'));
      const download = page.querySelector('a[data-download]');
      const backup = page.querySelector('a[data-backup-download]');
      if (!topic.workflow) {
        expect(download).toBeNull();
        expect(backup).toBeNull();
        continue;
      }
      expect(download!.getAttribute('href')).toBe(topic.workflow.download);
      const href = backup!.getAttribute('href')!;
      expect(href.startsWith(options.workflows.backupDownloadBase)).toBe(true);
      expect(decodeURIComponent(href.slice(options.workflows.backupDownloadBase.length))).toBe(topic.workflow.file);
      expect(new URL(href).search + new URL(href).hash).toBe('');
    }
  });

  it('/workflows/ gets its addresses from the options, with the base', () => {
    const settings = (dir: string) => parse(read(dir, 'workflows/index.html').toString('utf8')).querySelector('[data-workflow-client]')!;
    expect(settings(plain).getAttribute('data-primary-url')).toBe('/api/workflows.json');
    expect(settings(sub).getAttribute('data-primary-url')).toBe('/community/api/workflows.json');
    expect(settings(sub).getAttribute('data-backup-url')).toBe('/community/api/workflows-backup.json');
    expect(settings(plain).getAttribute('data-cache-seconds')).toBe('360');
    expect(settings(plain).getAttribute('data-timeout-ms')).toBe('10000');
  });
});

describe('a consumer written the old way', () => {
  // How existing clients search the file: a case-insensitive substring over three keys.
  async function oldClient(url: string, query: string): Promise<string[]> {
    const response = await fetch(url);
    const items = (await response.json()) as Array<{ 'workflow-name': string; 'workflow-description-small': string; 'workflow-author-name': string }>;
    const q = query.toLowerCase();
    return items
      .filter((item) =>
        item['workflow-name'].toLowerCase().indexOf(q) !== -1 ||
        item['workflow-description-small'].toLowerCase().indexOf(q) !== -1 ||
        item['workflow-author-name'].toLowerCase().indexOf(q) !== -1,
      )
      .map((item) => item['workflow-name']);
  }

  it('reads the published file from either address', async () => {
    for (const path of ['/api/workflows.json', '/api/workflows-backup.json']) {
      expect(await oldClient(host.url + path, 'CLIPBOARD')).toEqual(['Clipboard Cleaner']);
      expect(await oldClient(host.url + path, 'translation api')).toEqual(['Übersetzer']);
      expect(await oldClient(host.url + path, 'kenji')).toEqual(['Report #1? 100% done']);
      expect((await oldClient(host.url + path, '')).length).toBe(workflowTopics.length);
    }
  });
});

describe('other options and failing builds', () => {
  it('publishes at the configured site path only, with the configured lifetime', async () => {
    const config = writeConfig(
      'options',
      `{ site: 'https://fixture.example', integrations: [tagsite({ workflows: { primaryUrl: '/data/list.json', backupUrl: 'https://mirror.example/list.json', cacheSeconds: 60 } })] }`,
    );
    try {
      const { outDir } = await buildSite(fixture, { ...BUILD_ENV, ...config.env });
      expect(existsSync(join(outDir, 'data/list.json'))).toBe(true);
      expect(existsSync(join(outDir, 'api/workflows.json'))).toBe(false);
      expect(read(outDir, '_headers').toString('utf8')).toContain('/data/list.json\n  Cache-Control: public, max-age=60\n');
      // No rule for the backup address on another host; the page may fetch it (connect-src).
      const headers = read(outDir, '_headers').toString('utf8');
      expect(headers).not.toMatch(/^\S*mirror\.example/m);
      expect(headers).toMatch(/connect-src 'self' https:\/\/mirror\.example[;\s]/);
      const items = JSON.parse(read(outDir, 'data/list.json').toString('utf8')) as WorkflowListItem[];
      expect(items.find((item) => item['workflow-file'] === 'Übersetzer.flowsmith')!['workflow-release-page']).toBe(
        'https://fixture.example/topics/ubersetzer/',
      );
    } finally {
      config.remove();
    }
  });

  it('without Astro `site` the list cannot be built: a clear one-line reason, nothing written', async () => {
    const config = writeConfig('no-site', `{ integrations: [tagsite({})] }`);
    const out = join(plain, '..', 'no-site');
    try {
      const result = await runScript('build', ['--content', fixture, '--out', out], { ...BUILD_ENV, ...config.env });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        "astro.config.mjs: site: is required to publish the workflow list: its release pages are absolute URLs (set site: 'https://your.domain')",
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(out)).toBe(false);
    } finally {
      config.remove();
    }
  });

  it('two topics with one workflow file: validate and build report both files', async () => {
    const dir = copyFixture('workflows');
    writeTopic(dir, 'copy.md', {
      title: 'A copy',
      author: 'kenji',
      created: '2025-01-01',
      forum: 'help',
      workflow: '\n  file: Weather Menubar.flowsmith\n  download: https://copy.example/w',
    });
    for (const script of ['validate', 'build']) {
      const result = await runScript(script, ['--content', dir, ...(script === 'build' ? ['--out', join(dir, '..', 'dist')] : [])], BUILD_ENV);
      expect(result.code).toBe(1);
      const problems = result.stderr.split('\n').filter((text) => text.includes('workflow.file'));
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/topics\/weather-menubar\.md:\d+: workflow\.file: 'Weather Menubar\.flowsmith' is also the workflow file of /);
      expect(problems[0]).toContain('topics/copy.md');
    }
    expect(existsSync(join(dir, '..', 'dist'))).toBe(false);
  });
});
