/** Issue 2 item 7: committing one Markdown file and rebuilding raises its tags' counts (16 → 17). */
import { afterAll, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { runScript } from '../helpers/cli.ts';
import { buildSite } from '../helpers/build.ts';
import { copyFixture, writeTopic } from './fixture-copies.ts';
import { readPage, tagCountOnTagsPage, textOf } from './built-site.ts';

const content = copyFixture('valid-small');
let outDir = '';
afterAll(() => {
  rmSync(dirname(content), { recursive: true, force: true });
  if (outDir) rmSync(dirname(outDir), { recursive: true, force: true });
});

const day = (n: number) => new Date(Date.UTC(2023, 0, 1 + n)).toISOString().slice(0, 10);

it('adding one topic with a tag used by 16 topics makes the tag page say 17', async () => {
  // 16 topics with the tag `automation`, one every ten days of 2023 (older than the rest of valid-small).
  for (let i = 0; i < 16; i++) {
    writeTopic(content, `help/automation-${String(i).padStart(2, '0')}.md`, {
      title: `"Automation question ${i}"`,
      author: 'mira',
      created: day(i * 10),
      forum: i % 2 ? 'help' : 'scripting',
      tags: i % 3 ? '[automation]' : '[automation, api]',
      replies: String(i % 4),
    });
  }
  ({ outDir } = await buildSite(content));
  const before = readPage(outDir, '/tags/automation/');
  expect(textOf(before.querySelector('[data-result-count]'))).toBe('Found 16 results');
  expect(before.querySelectorAll('[data-results] [data-result]')).toHaveLength(16);
  const tagsBefore = readPage(outDir, '/tags/');
  expect(tagCountOnTagsPage(tagsBefore, 'automation')).toBe(16);
  const apiBefore = tagCountOnTagsPage(tagsBefore, 'api')!;

  // The contributor's commit: one Markdown file, newer than everything else.
  writeTopic(
    content,
    'community/my-first-automation.md',
    { title: '"My first automation"', author: 'newcomer', created: '2025-03-01T12:00:00Z', forum: 'community', tags: '[Automation, API, beginners]' },
    'I automated my **morning routine** today.\n',
  );
  const result = await runScript('build', ['--content', content, '--out', outDir]);
  expect(result.code, result.stderr).toBe(0);

  const after = readPage(outDir, '/tags/automation/');
  expect(textOf(after.querySelector('[data-result-count]'))).toBe('Found 17 results');
  const entries = after.querySelectorAll('[data-results] [data-result]');
  expect(entries).toHaveLength(17);
  expect(entries[0]!.getAttribute('data-topic')).toBe('my-first-automation');
  expect(textOf(entries[0]!.querySelector('[data-title]'))).toBe('My first automation');
  expect(textOf(entries[0]!.querySelector('[data-excerpt]'))).toBe('I automated my morning routine today.');
  // The 16 older ones follow, unchanged in order.
  expect(entries.slice(1).map((e) => e.getAttribute('data-topic'))).toEqual(
    before.querySelectorAll('[data-results] [data-result]').map((e) => e.getAttribute('data-topic')),
  );

  const tagsAfter = readPage(outDir, '/tags/');
  expect(tagCountOnTagsPage(tagsAfter, 'automation')).toBe(17);
  expect(tagCountOnTagsPage(tagsAfter, 'api')).toBe(apiBefore + 1);
  expect(tagCountOnTagsPage(tagsAfter, 'beginners')).toBe(1);
  expect(textOf(readPage(outDir, '/tags/beginners/').querySelector('[data-result-count]'))).toBe('Found 1 result');
  expect(textOf(readPage(outDir, '/topics/my-first-automation/').querySelector('h1'))).toBe('My first automation');
});
