/**
 * `import-forum`: an Invision Community or Discourse forum into the content folder. Reads the forum
 * tree, pages through the topics (most recently active first; a re-run stops at the first page that
 * holds nothing newer than the last complete run), writes one topic file per topic and the members
 * of members.json, and records what it wrote in the state file beside the content. Every write is
 * atomic and made under the content lock; a dry run reads the forum and writes nothing.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Problem } from '../content/problems.ts';
import type { Limits } from '../content/limits.ts';
import { readContentTypes } from '../content/content-types.ts';
import { CONTENT_LOCK, LockBusyError, withLock } from '../cli/lock.ts';
import { FetchFailure, jsonClient, redact } from './http.ts';
import { ipsHeaders, ipsSource } from './ips.ts';
import { discourseHeaders, discourseSource } from './discourse.ts';
import { forumIds, parentsFirst, withDescendants } from './mapping.ts';
import { addForums, readTypes, shownPath, writeForums, type NewForum } from './content-data.ts';
import { importMembers } from './members.ts';
import { planPage, relinkTopics, scanTopics, writePage, type PageContext, type TopicCounts } from './topic-files.ts';
import { readState, stateFileName, writeState } from './state.ts';
import { aliasesOf } from './old-links.ts';
import { writeTagAliases } from './tag-aliases.ts';
import { IMPORT_FORUM_COMMAND, type ForumImportRequest } from './arguments.ts';
import { progressLine } from './progress.ts';

/** Where topics of a forum the forum list does not name go. */
const FALLBACK_FORUM = { id: 'imported-topics', name: 'Imported topics' };

/** A re-run re-reads topics active this long before the last complete run started (clocks differ). */
const RERUN_MARGIN_MS = 60 * 60_000;

export interface ForumImportOutcome {
  report: Problem[];
  counts: TopicCounts;
  forumsAdded: number;
  members: { added: number; updated: number };
  /** Every request answered: the run is recorded as complete. */
  complete: boolean;
  /** The page after which paging stopped, because the rest was older than --since or the last run. */
  stoppedAfterPage?: number;
  requests: number;
  stateFile: string;
}

export async function importForum(request: ForumImportRequest, settings: { limits: Limits; excerptLength: number }): Promise<ForumImportOutcome | { problems: Problem[] }> {
  const { root, contentDir, url } = request;
  const secrets = [request.key ?? ''].filter(Boolean);
  const fail = (message: string, field = '(forum)'): { problems: Problem[] } => ({ problems: [{ file: IMPORT_FORUM_COMMAND, field, message: redact(message, secrets) }] });
  const statePath = shownPath(root, join(contentDir, stateFileName(url)));
  const read = readState(contentDir, request.from, url);
  if ('problem' in read) return { problems: [{ file: statePath, field: '(file)', message: read.problem }] };
  const { state } = read;
  const startedAt = new Date().toISOString();
  const progress = progressLine();
  const client = jsonClient({
    timeoutMs: request.timeoutMs, retryDelayMs: request.retryDelayMs, attempts: 5, concurrency: request.concurrency, secrets,
    headers: request.from === 'ips' ? ipsHeaders(request.key ?? '') : discourseHeaders(request.key, request.username),
    onRetry: (message) => progress.note(message),
  });
  const source = request.from === 'ips' ? ipsSource(url, client) : discourseSource(url, client);

  // 1. The forum tree, and the part of it --forums chooses (with parents and sub-forums).
  let allForums;
  try {
    allForums = parentsFirst(await source.forums());
  } catch (error) {
    if (error instanceof FetchFailure) return fail(`the forum list could not be read: ${error.message}; nothing was written`);
    throw error;
  }
  let chosen: Set<string> | undefined;
  if (request.forums) {
    const known = new Set(allForums.map((forum) => forum.id));
    const missing = request.forums.filter((id) => !known.has(id));
    if (missing.length > 0) return fail(`${missing.join(', ')} ${missing.length === 1 ? 'is not a forum' : 'are not forums'} of ${url} (known: ${[...known].slice(0, 30).join(', ')})`, '--forums');
    chosen = withDescendants(request.forums, allForums);
  }
  const ancestors = new Set<string>();
  for (const id of chosen ?? []) {
    for (let forum = allForums.find((f) => f.id === id); forum?.parentId !== undefined; forum = allForums.find((f) => f.id === forum!.parentId)) ancestors.add(forum.parentId);
  }
  const forums = chosen ? allForums.filter((forum) => chosen.has(forum.id) || ancestors.has(forum.id)) : allForums;

  // 2. Their ids in content-types.json: an earlier run's, else new ones; a fallback for unknown forums.
  const types = readTypes(root, contentDir, settings.limits);
  if ('problems' in types) return types;
  const taken = new Set(types.index.byId.keys());
  const existing = new Map(types.index.list.map((type) => [type.id, type.group === 'forum' ? type.name : undefined]));
  const ids = forumIds(forums, existing, new Map(Object.entries(state.forums).map(([id, forum]) => [id, forum.id])));
  const fallbackId = types.index.byId.get(FALLBACK_FORUM.id)?.group === 'forum' || !taken.has(FALLBACK_FORUM.id) ? FALLBACK_FORUM.id : `${FALLBACK_FORUM.id}-${Date.now()}`;
  const newForums: NewForum[] = [
    ...forums.map((forum) => ({ id: ids.get(forum.id)!, name: forum.name, ...(forum.parentId !== undefined && ids.has(forum.parentId) ? { parent: ids.get(forum.parentId)! } : {}), aliases: aliasesOf([forum.url], url) })),
    { id: fallbackId, name: FALLBACK_FORUM.name },
  ];
  for (const forum of forums) state.forums[forum.id] = { id: ids.get(forum.id)!, ...(forum.url ? { url: forum.url } : {}) };
  // Topics are checked against the content types as they will be; the fallback forum is written only if a topic needs it.
  const planned = addForums(types.text, types.index, newForums);
  const index = readContentTypes({ data: JSON.parse(planned.text), lineOf: () => undefined }, 'content-types.json').index;

  const report: Problem[] = [];
  const counts: TopicCounts = { listed: 0, imported: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0 };
  const scan = scanTopics(contentDir);
  const known = new Set(Object.values(state.topics).map((topic) => topic.file));
  const context: PageContext = {
    root, contentDir, base: url, source, state, limits: settings.limits, excerptLength: settings.excerptLength,
    types: { forumIds: ids, fallbackForum: fallbackId, tagsPerTopic: settings.limits.tagsPerTopic, index },
    includeHidden: request.includeHidden, dryRun: request.dryRun, slugs: scan.slugs,
    unrecorded: new Map([...scan.marked].filter(([, file]) => !known.has(file))), counts, written: new Set(), report,
    shown: (file) => shownPath(root, join(contentDir, file)),
  };
  const locked = async <T>(work: () => T): Promise<T> => (request.dryRun ? work() : withLock(join(contentDir, CONTENT_LOCK), work, { waitMs: 60_000 }));
  let forumsAdded = 0;
  const forumsToWrite = newForums.filter((forum) => forum.id !== fallbackId);

  try {
    if (!request.dryRun) {
      mkdirSync(contentDir, { recursive: true });
      const written = await locked(() => writeForums(root, contentDir, settings.limits, forumsToWrite));
      if ('problems' in written) return written;
      forumsAdded += written.added.length;
    } else forumsAdded += planned.added.filter((id) => id !== fallbackId).length;

    // 3. The topics, page by page, most recently active first.
    const sinceMs = request.since ? Date.parse(`${request.since}T00:00:00Z`) : undefined;
    const lastRunMs = state.completedAt ? Date.parse(state.completedAt) - RERUN_MARGIN_MS : undefined;
    const stopBefore = Math.max(sinceMs ?? -Infinity, lastRunMs ?? -Infinity);
    let olderThanSince = 0;
    let stoppedAfterPage: number | undefined;
    let complete = true;
    let savedAt = Date.now();
    let writing: Promise<void> = Promise.resolve();
    try {
      await source.topicPages(async (topics, page, pages) => {
        progress.show(`page ${page}${pages ? `/${pages}` : ''}: ${counts.listed + topics.length} topics read, ${counts.imported + counts.updated} written`);
        const lastChange = (topic: (typeof topics)[number]) => Math.max(Date.parse(topic.updated), Date.parse(topic.activity ?? topic.updated));
        const recent = topics.filter((topic) => !(lastChange(topic) < stopBefore));
        if (sinceMs !== undefined) olderThanSince += topics.filter((topic) => Date.parse(topic.updated) < sinceMs).length;
        const files = await planPage(context, recent);
        // A page's files are written while the next page is read: one write at a time, in page order.
        await writing;
        if (files.length > 0) {
          writing = (async () => {
            if (files.some((file) => file.text.includes(`\nforum: ${fallbackId}\n`)) && !request.dryRun) {
              const written = await locked(() => writeForums(root, contentDir, settings.limits, [{ id: fallbackId, name: FALLBACK_FORUM.name }]));
              if (!('problems' in written)) forumsAdded += written.added.length;
            }
            await locked(() => {
              writePage(context, files);
              if (!request.dryRun && Date.now() - savedAt > 1000) {
                writeState(contentDir, state);
                savedAt = Date.now();
              }
            });
          })();
          writing.catch(() => undefined); // awaited before the next write and at the end
        }
        const more = topics.length === 0 || recent.length > 0;
        if (!more) stoppedAfterPage = page;
        return more;
      }, chosen);
      await writing;
    } catch (error) {
      await writing;
      if (!(error instanceof FetchFailure)) throw error;
      complete = false;
      report.push({ file: IMPORT_FORUM_COMMAND, field: '(topic list)', message: `stopped: ${error.message}; the topics listed after it were not read (the next run goes on from the state file)` });
    }
    if (counts.failed > 0) complete = false;
    if (olderThanSince > 0) report.push({ file: IMPORT_FORUM_COMMAND, field: '--since', message: `${olderThanSince} topics listed were last active before ${request.since}: not imported` });

    // 4. Links to topics imported after the topic that links to them, and the aliases of files written before imports recorded them.
    await locked(() => relinkTopics(context, Object.keys(state.topics)));

    // 5. The tags' old addresses (tags.json), and the members.
    if (!request.dryRun) await locked(() => report.push(...writeTagAliases(root, contentDir, settings.limits, state)));
    const members = await importMembers({ root, contentDir, base: url, source, state, limits: settings.limits, dryRun: request.dryRun, report, locked });
    if (!members.complete) complete = false;
    if (complete) state.completedAt = startedAt;
    if (!request.dryRun) await locked(() => writeState(contentDir, state));
    return { report, counts, forumsAdded, members, complete, ...(stoppedAfterPage ? { stoppedAfterPage } : {}), requests: client.requestCount(), stateFile: statePath };
  } catch (error) {
    if (error instanceof LockBusyError) return fail(error.message, '(lock)');
    throw error;
  } finally {
    progress.done();
  }
}
