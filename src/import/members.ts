/** The forum's member profiles into members.json, checked by the build's own reader before it is written. */
import { join } from 'node:path';
import type { Limits } from '../content/limits.ts';
import type { Problem } from '../content/problems.ts';
import { readMembers, type Member } from '../content/members.ts';
import { memberKey } from '../model/members.ts';
import { writeFileAtomic } from '../cli/atomic-file.ts';
import { FetchFailure } from './http.ts';
import { memberRecord, mergeMembers, readMemberFile, shownPath } from './content-data.ts';
import type { ForumSource } from './source.ts';
import type { ImportState } from './state.ts';
import { IMPORT_FORUM_COMMAND } from './arguments.ts';

export interface MemberImport {
  root: string;
  contentDir: string;
  /** The forum's address: profile addresses become aliases relative to it. */
  base: string;
  source: ForumSource;
  state: ImportState;
  limits: Limits;
  dryRun: boolean;
  report: Problem[];
  locked: <T>(work: () => T) => Promise<T>;
}

export async function importMembers(run: MemberImport): Promise<{ added: number; updated: number; complete: boolean }> {
  const { report, state } = run;
  const note = (name: string, message: string) => report.push({ file: IMPORT_FORUM_COMMAND, field: `member ${JSON.stringify(name)}`, message });
  const authors = [...new Set(Object.values(state.topics).map((topic) => topic.author).filter(Boolean))];
  let profiles;
  try {
    profiles = await run.source.members(authors, new Set(Object.keys(state.members).map(memberKey)));
  } catch (error) {
    if (!(error instanceof FetchFailure)) throw error;
    report.push({ file: IMPORT_FORUM_COMMAND, field: '(members)', message: `not imported: ${error.message}; the next run tries again` });
    return { added: 0, updated: 0, complete: false };
  }
  for (const line of profiles.notes) report.push({ file: IMPORT_FORUM_COMMAND, field: '(members)', message: line });
  const members: Member[] = [];
  const urls = new Map<string, string | undefined>();
  for (const profile of profiles.members) {
    const converted = memberRecord(profile, run.base);
    if ('skip' in converted) {
      note(profile.name, `not listed in members.json: ${converted.skip}`);
      continue;
    }
    if (urls.has(memberKey(converted.member.name))) continue;
    urls.set(memberKey(converted.member.name), profile.url);
    for (const line of converted.notes) note(profile.name, line);
    members.push(converted.member);
  }

  return run.locked(() => {
    const file = readMemberFile(run.root, run.contentDir, run.limits);
    if ('problems' in file) {
      report.push(...file.problems.map((problem) => ({ ...problem, message: `${problem.message} (members were not imported)` })));
      return { added: 0, updated: 0, complete: false };
    }
    const merged = mergeMembers(file.text, file.members, members, state, run.limits.dataFileRecords);
    if (merged.leftOut > 0) report.push({ file: IMPORT_FORUM_COMMAND, field: '(members)', message: `${merged.leftOut} members left out: members.json holds at most ${run.limits.dataFileRecords} (limits.dataFileRecords); members who started topics came first` });
    const path = join(run.contentDir, 'members.json');
    const shown = shownPath(run.root, path);
    const check = readMembers({ data: JSON.parse(merged.text), lineOf: () => undefined }, shown);
    if (check.problems.length > 0) {
      report.push(...check.problems.map((problem) => ({ ...problem, message: `${problem.message} (members were not imported)` })));
      return { added: 0, updated: 0, complete: false };
    }
    if (!run.dryRun && (merged.added > 0 || merged.updated > 0)) writeFileAtomic(path, merged.text);
    for (const [name, hash] of Object.entries(merged.hashes)) {
      const url = urls.get(memberKey(name));
      state.members[name] = { hash, ...(url ? { url } : {}) };
    }
    return { added: merged.added, updated: merged.updated, complete: true };
  });
}
