/**
 * The import's state file beside the content (`<content>/.tagsite-import-<host>.json`): for each
 * topic, forum, member and tag it imported, its address on the old forum and what was written
 * (a hash of the file's text, so a file a person edited since is recognised and left alone), and
 * when the last complete run started (a later run pages only through what changed since).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../cli/atomic-file.ts';
import { record, text } from './source.ts';

export interface ImportedTopic {
  /** The topic file, relative to the content folder, with `/`. */
  file: string;
  /** sha256 of the text written. */
  hash: string;
  /** The forum's change stamp of the topic when it was written. */
  stamp: string;
  url: string;
  author: string;
}

export interface ImportState {
  version: 1;
  from: 'ips' | 'discourse';
  url: string;
  /** When the last run that read everything it asked for started (ISO 8601). */
  completedAt?: string;
  /** Forum id on the old forum → its content-types id and address. */
  forums: Record<string, { id: string; url?: string }>;
  topics: Record<string, ImportedTopic>;
  /** Member name → old profile address and a hash of the record written to members.json. */
  members: Record<string, { url?: string; hash: string }>;
  /** Tag → its address on the old forum. */
  tags: Record<string, string>;
}

/** sha256 of a text, in hex. */
export function textHash(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** The state file's name for a forum address: `.tagsite-import-forum.example.json`. */
export function stateFileName(url: string): string {
  return `.tagsite-import-${new URL(url).host.toLowerCase().replace(/[^a-z0-9.-]/g, '-')}.json`;
}

export function emptyState(from: ImportState['from'], url: string): ImportState {
  return { version: 1, from, url, forums: {}, topics: {}, members: {}, tags: {} };
}

/**
 * The state of earlier runs from this address, or an empty one. A state file that cannot be read is
 * a problem (message), never silently replaced: it is what protects files people edited.
 */
export function readState(contentDir: string, from: ImportState['from'], url: string): { state: ImportState } | { problem: string } {
  const path = join(contentDir, stateFileName(url));
  if (!existsSync(path)) return { state: emptyState(from, url) };
  let data: Record<string, unknown>;
  try {
    data = record(JSON.parse(readFileSync(path, 'utf8')));
  } catch (error) {
    return { problem: `cannot be read (${(error as Error).message.split('\n')[0]}); move it away to import everything again` };
  }
  if (data.version !== 1) return { problem: 'is not a state file of this version of import-forum; move it away to import everything again' };
  if (text(data.from) !== from) return { problem: `was written by an import from ${String(data.from)}, not ${from}` };
  return {
    state: {
      ...emptyState(from, url),
      ...(text(data.completedAt) ? { completedAt: text(data.completedAt) } : {}),
      forums: record(data.forums) as ImportState['forums'],
      topics: record(data.topics) as ImportState['topics'],
      members: record(data.members) as ImportState['members'],
      tags: record(data.tags) as ImportState['tags'],
    },
  };
}

/** Writes the state atomically. */
export function writeState(contentDir: string, state: ImportState): void {
  writeFileAtomic(join(contentDir, stateFileName(state.url)), `${JSON.stringify(state, null, 1)}\n`);
}
