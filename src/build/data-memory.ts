/**
 * The data files' memory, kept in the build's cache folder (`data.v8`): what reading
 * content-types.json, members.json, links.json and tags.json gave the last build, each with the
 * file's stamp, for the next build with the same code, project root and limits. A file with the
 * same stamp is then neither parsed nor checked against its schema again: Ajv compiling three
 * schemas and checking 400 members took some 0.3 s of a traced rebuild's main thread at 10,000
 * topics (about 0.1 s of CPU; the rest was waiting for a core). Each reading is serialized when it
 * is made, so nothing the build does with it later is remembered.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { replaceFile } from '../cli/atomic-file.ts';
import type { DataMemory } from '../content/load.ts';
import type { Limits } from '../content/limits.ts';

type Entries = Array<[name: string, stamp: string, reading: Buffer]>;

/** The data memory of `cacheDir`, for these code, root and limits (another's is not read), with save(). */
export function dataMemory(cacheDir: string, code: string, root: string, limits: Limits | undefined): DataMemory & { save(): void } {
  const file = join(cacheDir, 'data.v8');
  const context = JSON.stringify([code, root, limits ?? null]);
  const earlier = new Map<string, [stamp: string, reading: Buffer]>();
  try {
    const stored = deserialize(readFileSync(file)) as { context?: unknown; entries?: Entries };
    if (stored.context === context && Array.isArray(stored.entries)) for (const [name, stamp, reading] of stored.entries) earlier.set(name, [stamp, reading]);
  } catch {
    // none yet, or unreadable: every file is read
  }
  const now = new Map<string, [stamp: string, reading: Buffer]>();
  return {
    get(name, stamp) {
      const entry = earlier.get(name);
      if (entry?.[0] !== stamp) return undefined;
      try {
        const reading = deserialize(entry[1]) as unknown;
        now.set(name, entry);
        return reading;
      } catch {
        return undefined; // damaged: read again
      }
    },
    set(name, stamp, reading) {
      try {
        now.set(name, [stamp, serialize(reading)]);
      } catch {
        // not a value the memory can hold: read again next time
      }
    },
    save() {
      const same = now.size === earlier.size && [...now].every(([name, entry]) => earlier.get(name) === entry);
      if (same) return;
      const entries: Entries = [...now].map(([name, [stamp, reading]]) => [name, stamp, reading]);
      mkdirSync(cacheDir, { recursive: true });
      replaceFile(file, (put) => put(serialize({ context, entries })), { flush: false });
    },
  };
}
