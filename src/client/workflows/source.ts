/**
 * Where the /workflows/ client gets its list (SPEC 5): a fresh browser cache first (no request at
 * all), else the primary address, else the backup, else a stale cache. No DOM here: fetch, clock
 * and storage are passed in, so the rules are tested in Node and in Chromium alike.
 */
import { readWorkflowItem, type WorkflowListItem } from '../../model/workflow-list.ts';

export type ListSource = 'primary' | 'backup' | 'cache';

export interface WorkflowSourceConfig {
  /** Absolute or page-relative addresses of the list. */
  primaryUrl: string;
  backupUrl: string;
  /** How long a saved list is used without asking the network (workflows.cacheSeconds). */
  cacheSeconds: number;
  /** How long one address may take before the next is tried. */
  timeoutMs: number;
  fetch: typeof fetch;
  now: () => number;
  /** undefined when the browser refuses storage (private modes): the client then always fetches. */
  storage: Storage | undefined;
}

export type LoadedList =
  | { ok: true; source: ListSource; items: WorkflowListItem[]; savedAt: number; stale: boolean; errors: string[] }
  | { ok: false; errors: string[] };

interface SavedList {
  savedAt: number;
  items: unknown[];
}

/** One storage key per list address, so two sites (or two lists) on one origin never share a cache. */
export function cacheKey(primaryUrl: string): string {
  return `tagsite:workflows:v1:${primaryUrl}`;
}

function readSaved(config: WorkflowSourceConfig): { savedAt: number; items: WorkflowListItem[] } | undefined {
  try {
    const text = config.storage?.getItem(cacheKey(config.primaryUrl));
    if (!text) return undefined;
    const saved = JSON.parse(text) as Partial<SavedList>;
    if (typeof saved.savedAt !== 'number' || !Array.isArray(saved.items)) return undefined;
    // Storage is as untrusted as the network: read it back through the same item check.
    return { savedAt: saved.savedAt, items: saved.items.map(readWorkflowItem).filter((item) => item !== undefined) };
  } catch {
    return undefined;
  }
}

function save(config: WorkflowSourceConfig, items: WorkflowListItem[], savedAt: number): void {
  try {
    config.storage?.setItem(cacheKey(config.primaryUrl), JSON.stringify({ savedAt, items } satisfies SavedList));
  } catch {
    // Full or refused storage: the list still shows; the next visit fetches again.
  }
}

/** Fetches one address; throws an Error saying why it is unusable (HTTP error, not JSON, not a list, no answer in time). */
export async function fetchWorkflowList(url: string, timeoutMs: number, fetchList: typeof fetch): Promise<WorkflowListItem[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetchList(url, { signal: controller.signal, headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    // The body is read under the same timeout: a server may send headers and then stall.
    const text = await response.text();
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new Error('the answer is not valid JSON');
    }
    if (!Array.isArray(data)) throw new Error('the answer is not a workflow list (a JSON array)');
    return data.map(readWorkflowItem).filter((item) => item !== undefined);
  } catch (error) {
    if (controller.signal.aborted) throw new Error(`no answer within ${timeoutMs / 1000} s`);
    throw error instanceof Error && error.name !== 'TypeError' ? error : new Error('the address could not be reached');
  } finally {
    clearTimeout(timer);
  }
}

/** The list to show, and where it came from. Never throws: when nothing is usable, `ok` is false with the reasons. */
export async function loadWorkflowList(config: WorkflowSourceConfig): Promise<LoadedList> {
  const saved = readSaved(config);
  const now = config.now();
  const age = saved ? now - saved.savedAt : Infinity;
  // A saved time in the future (the clock was changed) counts as stale.
  if (saved && age >= 0 && age < config.cacheSeconds * 1000) {
    return { ok: true, source: 'cache', items: saved.items, savedAt: saved.savedAt, stale: false, errors: [] };
  }
  const errors: string[] = [];
  for (const [source, url] of [['primary', config.primaryUrl], ['backup', config.backupUrl]] as const) {
    try {
      const items = await fetchWorkflowList(url, config.timeoutMs, config.fetch);
      const savedAt = config.now();
      save(config, items, savedAt);
      return { ok: true, source, items, savedAt, stale: false, errors };
    } catch (error) {
      errors.push(`${source} address: ${(error as Error).message}`);
    }
  }
  if (saved) return { ok: true, source: 'cache', items: saved.items, savedAt: saved.savedAt, stale: true, errors };
  return { ok: false, errors };
}
