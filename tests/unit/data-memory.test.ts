/**
 * The data files' memory (src/build/data-memory.ts): a rebuild takes what reading
 * content-types.json, members.json, links.json and tags.json gave the last build while each file's
 * stamp is the same, for the same code, root and limits; a reading with problems is not kept.
 */
import { afterAll, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContentInParallel } from '../../src/content/load.ts';
import { dataMemory } from '../../src/build/data-memory.ts';
import { stampListing } from '../../src/build/output-check.ts';
import { fileStamp } from '../../src/content/file-stamp.ts';
import { DEFAULT_LIMITS } from '../../src/content/limits.ts';
import { writeCorpus } from '../../scripts/bench/corpus.ts';

const dir = mkdtempSync(join(tmpdir(), 'tagsite-data-memory-'));
const content = join(dir, 'content');
const cache = join(dir, 'cache');
writeCorpus(content, { count: 60, seed: 'data-memory' });
writeFileSync(join(content, 'tags.json'), JSON.stringify({ automation: { description: 'Things that run by themselves.', synonyms: ['robots'] } }));
const options = { root: dir, contentDir: content, excerptLength: 200 };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const dataOf = ({ content: site }: Awaited<ReturnType<typeof loadContentInParallel>>) => ({ contentTypes: site.contentTypes, members: site.members, links: site.links, tags: site.tags });

it('gives the readings of unchanged data files back as they were read, and reads a changed or other file anew', async () => {
  const first = dataMemory(cache, 'code-1', dir, undefined);
  const read = await loadContentInParallel({ ...options, dataMemory: first });
  expect(read.problems).toEqual([]);
  expect(read.content.members.length).toBeGreaterThan(0);
  expect(read.content.tags.canonicalOf.get('robots')).toBe('automation');
  first.save();

  // members.json changed after the content's listing: the build goes by the listing, whose stamp is the remembered one.
  const { stamps } = stampListing(content);
  const membersFile = join(content, 'members.json');
  const members = JSON.parse(readFileSync(membersFile, 'utf8')) as Array<{ name: string }>;
  writeFileSync(membersFile, JSON.stringify([...members, { ...members[0], name: 'Quillon Vashti' }], null, 2));
  const fromMemory = await loadContentInParallel({ ...options, dataMemory: dataMemory(cache, 'code-1', dir, undefined) }, undefined, stamps);
  expect(dataOf(fromMemory)).toEqual(dataOf(read));
  expect(fromMemory.content.members.some((member) => member.name === 'Quillon Vashti')).toBe(false);

  // Looked up now, the file's stamp has changed: it is read again, and that reading remembered.
  const again = dataMemory(cache, 'code-1', dir, undefined);
  const reread = await loadContentInParallel({ ...options, dataMemory: again });
  expect(reread.content.members.map((member) => member.name)).toContain('Quillon Vashti');
  expect(reread.content.links).toEqual(read.content.links);
  again.save();
  expect((dataMemory(cache, 'code-1', dir, undefined).get('members.json', fileStamp(membersFile)!) as { members: unknown[] }).members).toHaveLength(members.length + 1);

  // Other code, another root or other limits: nothing is taken.
  for (const other of [dataMemory(cache, 'code-2', dir, undefined), dataMemory(cache, 'code-1', content, undefined), dataMemory(cache, 'code-1', dir, { ...DEFAULT_LIMITS, dataFileRecords: 5 })]) {
    expect(other.get('members.json', fileStamp(membersFile)!)).toBeUndefined();
  }
});

it('does not remember a reading with problems: the next build reports them again', async () => {
  const linksFile = join(content, 'links.json');
  const links = readFileSync(linksFile, 'utf8');
  writeFileSync(linksFile, JSON.stringify([{ title: 'No address' }]));
  try {
    const memory = dataMemory(cache, 'code-3', dir, undefined);
    const first = await loadContentInParallel({ ...options, dataMemory: memory });
    const problems = first.problems.filter((problem) => problem.file.endsWith('links.json'));
    expect(problems.length).toBeGreaterThan(0);
    memory.save();
    const saved = dataMemory(cache, 'code-3', dir, undefined);
    expect(saved.get('links.json', fileStamp(linksFile)!)).toBeUndefined();
    expect(saved.get('content-types.json', fileStamp(join(content, 'content-types.json'))!)).toBeDefined();
    const second = await loadContentInParallel({ ...options, dataMemory: dataMemory(cache, 'code-3', dir, undefined) });
    expect(second.problems.filter((problem) => problem.file.endsWith('links.json'))).toEqual(problems);
  } finally {
    writeFileSync(linksFile, links);
  }
});
