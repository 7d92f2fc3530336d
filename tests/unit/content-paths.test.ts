import { join } from 'node:path';
import { expect, it } from 'vitest';
import { inRoot } from '../../src/content/content-files.ts';

it("gives each topic file's path as join gives it, whatever the root and wherever the file", () => {
  const files = ['topics/2025/merge-csv-files.md', 'topics/2025/zip-a-folder.md', 'topics/2024/rename-photos.md', 'topics/first.md', 'first.md', '../content/topics/2025/merge-csv-files.md', '../../srv/forum/topics/a/b/c.md', 'topics/./2025/../2025/odd.md', '../first.md'];
  for (const root of ['/', '/work/flowsmiths', '/work/flowsmiths/', 'project', '.', '..', 'a/..', '/srv/a b/ç']) {
    const fullPath = inRoot(root);
    // Twice: the second time from the folders it has joined already.
    for (const file of [...files, ...files]) expect(fullPath(file), `${root} + ${file}`).toBe(join(root, file));
  }
});
