// Importing a list, building and publishing gives the list back (SPEC 5.1): a fixture list of
// several hundred invented items with every oddity of the real lists is imported, built and served
// on 127.0.0.1, and read the way real clients read both key styles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSite } from '../helpers/build.ts';
import { projectRoot } from '../helpers/cli.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { importWorkflows, type ImportOutcome } from '../../src/cli/import-workflows.ts';
import { projectOptions } from '../../src/cli/project.ts';
import { WORKFLOW_KEYS, underscoreKey, backupDownloadUrl, isSitePath } from '../../src/model/workflow-list.ts';
import { makeList } from '../fixtures/workflow-import/make-list.ts';

const BUILD_ENV = { BASE_URL: undefined, MODE: undefined, DEV: undefined, PROD: undefined, SSR: undefined } as unknown as Record<string, string>;
const list = makeList();
let outcome: ImportOutcome;
let host: StaticHost;
let options: Awaited<ReturnType<typeof projectOptions>>['options'];

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tagsite-import-'));
  const contentDir = join(dir, 'content');
  cpSync(join(projectRoot, 'tests/fixtures/workflow-import/content'), contentDir, { recursive: true });
  const listFile = join(dir, 'workflow_api.json');
  writeFileSync(listFile, `[\n${list.map((item) => JSON.stringify(item)).join(',\n')}\n]\n`);
  const result = await importWorkflows({ root: dir, list: listFile, contentDir, forum: 'share-workflows', date: '2025-01-02', dryRun: false });
  if ('problems' in result) throw new Error(JSON.stringify(result.problems));
  outcome = result;
  ({ options } = await projectOptions(projectRoot));
  host = await serveStatic((await buildSite(contentDir, BUILD_ENV)).outDir);
}, 240_000);

afterAll(async () => {
  await host?.close();
});

/** The report's (item, key) pairs: `[12].workflow_file` → "12 workflow_file"; an item's own line → "12". */
const reported = () => new Set(outcome.report.map((line) => line.field.replace(/^\[(\d+)\]\.?/, '$1 ').trim()));

describe('import, build, publish', () => {
  it('accounts for every item: imported or skipped with a line', () => {
    expect(outcome.imported + outcome.skipped).toBe(list.length);
    expect(outcome.skipped).toBeGreaterThan(0);
    const lines = reported();
    list.forEach((_, i) => {
      if (!outcome.written.topics.length) return;
      const skippedLine = outcome.report.find((line) => line.field === `[${i}]` && line.message.includes('skipped'));
      if (skippedLine) expect(lines.has(String(i))).toBe(true);
    });
  });

  it('gives back every imported item\'s eleven values in both key styles, except what the report names', async () => {
    const underscore = (await (await fetch(`${host.url}${options.workflows.underscorePrimaryUrl}`)).json()) as Array<Record<string, string>>;
    const hyphenated = (await (await fetch(`${host.url}${options.workflows.primaryUrl}`)).json()) as Array<Record<string, string>>;
    // The imported items and the fixture's one topic a person wrote.
    expect(underscore).toHaveLength(outcome.imported + 1);
    expect(hyphenated).toHaveLength(outcome.imported + 1);
    const lines = reported();
    let exact = 0;
    let named = 0;
    // Items are found by name + author, as Hatmaker's update check does; reported renames by file.
    list.forEach((item, i) => {
      if ([...lines].some((line) => line === String(i))) return; // skipped, and said so
      const published = underscore.filter((p) => p.workflow_name === item.workflow_name && p.workflow_author_name!.startsWith(item.workflow_author_name!.slice(0, 80).trimEnd()));
      expect(published.length, `item ${i}`).toBeGreaterThan(0);
      const match = published.find((p) => p.workflow_file === item.workflow_file) ?? published[0]!;
      const hyphen = hyphenated[underscore.indexOf(match)]!;
      for (const key of WORKFLOW_KEYS) {
        const u = underscoreKey(key);
        expect(hyphen[key], `item ${i} ${key}`).toBe(match[u]);
        if (match[u] === item[u]) exact++;
        else {
          expect(lines.has(`${i} ${u}`), `item ${i} ${u}: ${JSON.stringify(item[u])} → ${JSON.stringify(match[u])} is not in the report`).toBe(true);
          named++;
        }
      }
    });
    expect(exact + named).toBe(outcome.imported * 11);
    console.log(`round trip: ${outcome.imported} items, ${exact} values exact, ${named} changed values all named in the report`);
  });

  it('reads both lists like the real clients, with the backup download rule for spaces, + and non-ASCII', async () => {
    const lists = await Promise.all([options.workflows.underscorePrimaryUrl, options.workflows.underscoreBackupUrl, options.workflows.primaryUrl, options.workflows.backupUrl].map(async (path) => (await fetch(host.url + path)).text()));
    expect(lists[1]).toBe(lists[0]);
    expect(lists[3]).toBe(lists[2]);
    const items = JSON.parse(lists[0]!) as Array<{ workflow_name: string; workflow_download_link: string; workflow_file: string }>;
    // The PHP example: `$item->workflow_name` for every item, never blank.
    expect(items.every((item) => item.workflow_name !== '')).toBe(true);
    const odd = items.filter((item) => /[ +]|[^\x00-\x7f]/.test(item.workflow_file));
    expect(odd.some((item) => item.workflow_file.includes(' '))).toBe(true);
    expect(odd.some((item) => item.workflow_file.includes('+'))).toBe(true);
    expect(odd.some((item) => /[^\x00-\x7f]/.test(item.workflow_file))).toBe(true);
    const base = isSitePath(options.workflows.backupDownloadBase) ? host.url + options.workflows.backupDownloadBase : options.workflows.backupDownloadBase;
    for (const item of odd) {
      const backup = backupDownloadUrl(base, item.workflow_file);
      expect(decodeURIComponent(backup.slice(base.length))).toBe(item.workflow_file);
      expect(new URL(backup).search + new URL(backup).hash).toBe('');
      expect(new URL(backup).pathname.split('/').pop()).toBe(encodeURIComponent(item.workflow_file));
    }
    const hyphenated = JSON.parse(lists[2]!) as Array<Record<string, string>>;
    expect(hyphenated.map((item) => item['workflow-name'])).toEqual(items.map((item) => item.workflow_name));
  });
});
