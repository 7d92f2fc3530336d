/** Link records beyond reading: add-link's record, appending without touching old records, the atomic write, the directory's texts. */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { appendRecordText, argumentProblem, linkRecordFromArguments } from '../../src/cli/add-link.ts';
import { linkCountText, linksByTag, linkTagCounts } from '../../src/model/link-records.ts';
import { publishedLinkRecord } from '../../src/outputs/links.ts';
import { linksTagPath } from '../../src/model/urls.ts';
import { writeFileAtomic } from '../../src/cli/atomic-file.ts';
import type { LinkRecord } from '../../src/content/links.ts';

const record = (n: number): LinkRecord => ({
  name: `Tool ${n}`,
  description: `Docs ${n}`,
  tags: ['api', `t${n}`],
  link: `https://t${n}.example/docs`,
  timestamp: '2024-01-02',
  credit: 'me@site',
});

describe('the record add-link builds', () => {
  it('keeps the file order of fields, splits tags at commas and defaults the day', () => {
    const built = linkRecordFromArguments({ credit: 'a@b', link: 'https://x.example', tags: ' api , JSON Path ,', description: 'd', name: 'n' }, '2025-05-06');
    expect(Object.keys(built)).toEqual(['name', 'description', 'tags', 'link', 'timestamp', 'credit']);
    // Spaces around commas go; case and empty items stay, for the file's rules to judge.
    expect(built.tags).toEqual(['api', 'JSON Path', '']);
    expect(built.timestamp).toBe('2025-05-06');
    expect(linkRecordFromArguments({ timestamp: '2020-01-01', tags: '' }, '2025-05-06')).toEqual({ tags: [], timestamp: '2020-01-01' });
  });

  it('points a problem at the argument to fix', () => {
    expect(argumentProblem({ file: 'content/links.json', field: '[13].description', message: 'must not be empty' }, 'add-link')).toEqual({
      file: 'add-link',
      field: '--description',
      message: 'must not be empty',
    });
    expect(argumentProblem({ file: 'content/links.json', field: '[0].tags[2]', message: 'must not be empty' }, 'add-link')).toEqual({
      file: 'add-link',
      field: '--tags',
      message: 'tag 3: must not be empty',
    });
  });
});

describe('appending to the text of links.json', () => {
  it('rewrites a canonically formatted file the same way, the old text being an exact prefix', () => {
    const old = [record(1), record(2)];
    const text = `${JSON.stringify(old, null, 2)}\n`;
    const updated = appendRecordText(text, old, record(3))!;
    expect(updated).toBe(`${JSON.stringify([...old, record(3)], null, 2)}\n`);
    expect(updated.startsWith(text.slice(0, text.lastIndexOf('}') + 1))).toBe(true);
  });

  it('inserts before the closing bracket of any other layout, keeping every old byte', () => {
    const old = [record(1), record(2)];
    const text = '[\n    {"name":"Tool 1","description":"Docs 1","tags":["api","t1"],"link":"https://t1.example/docs","timestamp":"2024-01-02","credit":"me@site"},\n' +
      '    {"name":"Tool 2","description":"Docs 2","tags":["api","t2"],"link":"https://t2.example/docs","timestamp":"2024-01-02","credit":"me@site"}\n]';
    const updated = appendRecordText(text, old, record(3))!;
    expect(JSON.parse(updated)).toEqual([...old, record(3)]);
    const lastOld = text.lastIndexOf('}') + 1;
    expect(updated.slice(0, lastOld)).toBe(text.slice(0, lastOld));
    expect(updated.endsWith(']')).toBe(true);
  });

  it('keeps CRLF line ends and handles an empty array', () => {
    const crlf = '[\r\n  {"name":"Tool 1","description":"Docs 1","tags":[],"link":"https://t1.example/docs","timestamp":"2024-01-02","credit":"me@site"}\r\n]\r\n';
    const updated = appendRecordText(crlf, [JSON.parse(crlf)[0]], record(2))!;
    expect(updated.replace(/\r\n/g, '')).not.toContain('\n');
    expect(JSON.parse(updated)).toHaveLength(2);
    expect(JSON.parse(appendRecordText('[ ]', [], record(1))!)).toEqual([record(1)]);
    expect(appendRecordText('{}', [], record(1))).toBeUndefined();
  });

  it('always reads back as the old records plus the new one (any records, any canonical file)', () => {
    const text = fc.string({ minLength: 1, maxLength: 20 });
    const arbitraryRecord = fc.record({ name: text, description: text, tags: fc.array(text, { maxLength: 3 }), link: text, timestamp: text, credit: text });
    fc.assert(
      fc.property(fc.array(arbitraryRecord, { maxLength: 4 }), arbitraryRecord, fc.boolean(), (old, added, canonical) => {
        const file = canonical ? `${JSON.stringify(old, null, 2)}\n` : `${JSON.stringify(old)}\n`;
        const updated = appendRecordText(file, old, added)!;
        expect(JSON.parse(updated)).toEqual([...old, added]);
      }),
    );
  });
});

describe('the atomic write', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tagsite-atomic-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces the file and leaves no temporary file', () => {
    const file = join(dir, 'links.json');
    writeFileSync(file, 'old\n');
    writeFileAtomic(file, 'new\n');
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(readdirSync(dir)).toEqual(['links.json']);
  });

  it('leaves the old file intact, and removes the temporary file, when the rename fails', () => {
    const file = join(dir, 'links.json');
    writeFileSync(file, 'old\n');
    let tempText = '';
    expect(() =>
      writeFileAtomic(file, 'new\n', (from) => {
        tempText = readFileSync(from, 'utf8');
        throw Object.assign(new Error('disk gone'), { code: 'EIO' });
      }),
    ).toThrow('disk gone');
    expect(tempText).toBe('new\n');
    expect(readFileSync(file, 'utf8')).toBe('old\n');
    expect(readdirSync(dir)).toEqual(['links.json']);
  });
});

describe('the directory', () => {
  it('counts records, and the records carrying the chosen tag', () => {
    expect(linkCountText(13, 13, '')).toBe('13 link records');
    expect(linkCountText(1, 1, '')).toBe('1 link record');
    expect(linkCountText(5, 13, 'api')).toBe("5 link records tagged 'api', of 13");
    expect(linkCountText(0, 13, 'nope')).toBe("No link records are tagged 'nope'.");
  });

  it('lists every tag with its record count, A→Z', () => {
    expect(linkTagCounts([record(1), record(2), { tags: ['api', 'api'] }])).toEqual([['api', 3], ['t1', 1], ['t2', 1]]);
  });

  it('encodes the tag in the filter URL', () => {
    expect(linksTagPath('c++ & c#')).toBe('/links/?tag=c%2B%2B%20%26%20c%23');
  });

  it('publishes exactly the six fields, in the file order', () => {
    const withExtra = { ...record(1), order: 3 } as LinkRecord;
    expect(JSON.stringify(publishedLinkRecord(withExtra))).toBe(JSON.stringify(record(1)));
  });
});

describe('linksByTag', () => {
  it('gives each tag its records in the file order, a record once even with its tag twice', () => {
    const twice = { ...record(3), tags: ['t3', 'api', 't3'] };
    const records = [record(1), record(2), twice];
    const tags = linksByTag(records);
    expect(tags.get('api')).toEqual([record(1), record(2), twice]);
    expect(tags.get('t3')).toEqual([twice]);
    expect(tags.get('t1')).toEqual([record(1)]);
    expect(tags.has('none')).toBe(false);
    expect([...tags.keys()].sort()).toEqual(['api', 't1', 't2', 't3']);
  });

  it('is made once for a list of records, and anew for another list', () => {
    const records = [record(1), record(2)];
    expect(linksByTag(records)).toBe(linksByTag(records));
    const other = [record(2)];
    expect(linksByTag(other)).not.toBe(linksByTag(records));
    expect(linksByTag(other).get('api')).toEqual([record(2)]);
  });
});
