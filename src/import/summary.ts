/** The closing lines of an import: what was found, written and left, and how long it took. */
import type { ForumImportOutcome } from './import-forum.ts';

export function summary(outcome: ForumImportOutcome, dryRun: boolean, seconds: number): string {
  const { counts, members } = outcome;
  const verb = dryRun ? 'would write' : 'wrote';
  const lines = [
    `${counts.listed} topics listed: ${counts.imported} imported, ${counts.updated} updated, ${counts.unchanged} unchanged, ${counts.skipped} skipped, ${counts.failed} not read (one line each above)`,
    `${verb} ${counts.imported + counts.updated} topic files, ${outcome.forumsAdded} forums, ${members.added} new and ${members.updated} updated members; ${outcome.requests} requests in ${seconds.toFixed(1)} s`,
  ];
  if (outcome.stoppedAfterPage !== undefined) lines.push(`stopped after page ${outcome.stoppedAfterPage}: the topics after it were last active before --since or the last complete run`);
  lines.push(dryRun ? 'dry run: nothing written' : outcome.complete ? `state: ${outcome.stateFile} (a later run imports only what changed)` : `incomplete: run the same command again to go on (state: ${outcome.stateFile})`);
  return lines.join('\n');
}
