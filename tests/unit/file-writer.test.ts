import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileWriterThread } from '../../src/build/file-writer.ts';
import { directoryPageFile } from '../../src/build/prerenderer.ts';

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tagsite-writer-'));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;

describe('the file writer thread', () => {
  it('writes every queued file, in its folders, before close resolves; many writes may wait at once', async () => {
    const dir = folder();
    const files = fileWriterThread(dir);
    // 5,000 files from 8 writers at a time: more than the writer lets wait, so writes wait on it.
    const names = Array.from({ length: 5000 }, (_, i) => `topics/t-${i}/index.html`);
    for (let i = 0; i < names.length; i += 8) await Promise.all(names.slice(i, i + 8).map((name) => files.write(name, bytes(`<p>${name}</p>`))));
    await files.close();
    for (const name of [names[0]!, names[2345]!, names[4999]!]) expect(readFileSync(join(dir, name), 'utf8')).toBe(`<p>${name}</p>`);
  });

  it('reports a file it cannot write, naming it, and writes nothing after it', async () => {
    const dir = folder();
    // A file where the page's folder should be.
    writeFileSync(join(dir, 'tags'), 'in the way');
    const files = fileWriterThread(dir);
    await files.write('topics/a/index.html', bytes('a'));
    await files.write('tags/x/index.html', bytes('x'));
    await expect(files.close()).rejects.toThrow(/could not write tags\/x\/index\.html/);
    expect(readFileSync(join(dir, 'topics/a/index.html'), 'utf8')).toBe('a');
  });

  it('fails the writes that come after a failure instead of queueing them, and writes none of them', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'tags'));
    writeFileSync(join(dir, 'tags', 'x'), 'in the way');
    const files = fileWriterThread(dir);
    await files.write('tags/x/index.html', bytes('x'));
    // The failure reaches the rendering thread with the writer's next message: a later write throws it.
    let thrown: Error | undefined;
    for (let i = 0; i < 200 && !thrown; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      thrown = await files.write(`topics/t-${i}/index.html`, bytes('b')).then(() => undefined, (error: Error) => error);
    }
    expect(thrown?.message).toMatch(/could not write tags\/x\/index\.html/);
    await expect(files.close()).rejects.toThrow(/tags\/x\/index\.html/);
    expect(existsSync(join(dir, 'topics'))).toBe(false);
  });
});

describe('a page file of the directory build format', () => {
  it('is the address under the base, with index.html, decoded', () => {
    expect(directoryPageFile('/topics/x/', '/')).toBe('topics/x/index.html');
    expect(directoryPageFile('/', '/')).toBe('index.html');
    expect(directoryPageFile('/community/tags/api/2/', '/community')).toBe('tags/api/2/index.html');
    expect(directoryPageFile('/community/tags/api/', '/community/')).toBe('tags/api/index.html');
    expect(directoryPageFile('/tags/%E6%97%A5%E6%9C%AC/', '/')).toBe('tags/日本/index.html');
  });

  it('is none for status-code pages, addresses outside the base, and addresses of files', () => {
    expect(directoryPageFile('/404/', '/')).toBeUndefined();
    expect(directoryPageFile('/community/500/', '/community')).toBeUndefined();
    expect(directoryPageFile('/elsewhere/x/', '/community')).toBeUndefined();
    expect(directoryPageFile('/api/workflows.json', '/')).toBeUndefined();
  });
});
