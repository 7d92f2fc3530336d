// The /workflows/ client's rules without a browser: where the list comes from (fresh cache,
// primary, backup, stale cache), why an address is rejected, and the search.
import { describe, expect, it } from 'vitest';
import { cacheKey, fetchWorkflowList, loadWorkflowList, type WorkflowSourceConfig } from '../../src/client/workflows/source.ts';
import { workflowSearch } from '../../src/client/workflows/search.ts';
import { WORKFLOW_KEYS, type WorkflowListItem } from '../../src/model/workflow-list.ts';

function item(name: string, fields: Partial<WorkflowListItem> = {}): WorkflowListItem {
  const empty = Object.fromEntries(WORKFLOW_KEYS.map((key) => [key, ''])) as unknown as WorkflowListItem;
  return { ...empty, 'workflow-name': name, 'workflow-file': `${name}.flowsmith`, ...fields };
}

const LIST = [item('Clipboard Cleaner'), item('Weather Menubar')];

class MemoryStorage {
  data = new Map<string, string>();
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
}

type Reply = { status: number; body: string } | 'hang' | 'unreachable';

/** A fetch that answers each address as told and records what was asked. */
function fakeNetwork(replies: Record<string, Reply>) {
  const asked: string[] = [];
  const fetchList = ((url: string, init?: RequestInit) => {
    asked.push(url);
    const reply = replies[url] ?? 'unreachable';
    if (reply === 'unreachable') return Promise.reject(new TypeError('Failed to fetch'));
    if (reply === 'hang')
      return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    return Promise.resolve(new Response(reply.body, { status: reply.status }));
  }) as typeof fetch;
  return { asked, fetchList };
}

const ok = (data: unknown): Reply => ({ status: 200, body: JSON.stringify(data) });

function config(replies: Record<string, Reply>, at: { now: number }, storage: MemoryStorage | undefined = new MemoryStorage()) {
  const network = fakeNetwork(replies);
  const settings: WorkflowSourceConfig = {
    primaryUrl: '/p.json',
    backupUrl: '/b.json',
    cacheSeconds: 360,
    timeoutMs: 30,
    fetch: network.fetchList,
    now: () => at.now,
    storage: storage as unknown as Storage,
  };
  return { settings, asked: network.asked, storage };
}

describe('where the list comes from', () => {
  it('primary first; then a fresh cache with no request; after cacheSeconds the network again', async () => {
    const at = { now: 1_000_000 };
    const { settings, asked } = config({ '/p.json': ok(LIST), '/b.json': ok([]) }, at);
    expect(await loadWorkflowList(settings)).toMatchObject({ ok: true, source: 'primary', items: LIST, stale: false });
    at.now += 359_999;
    expect(await loadWorkflowList(settings)).toMatchObject({ ok: true, source: 'cache', items: LIST, stale: false });
    expect(asked).toEqual(['/p.json']);
    at.now += 1;
    expect(await loadWorkflowList(settings)).toMatchObject({ ok: true, source: 'primary' });
    expect(asked).toEqual(['/p.json', '/p.json']);
  });

  it.each([
    ['an HTTP error', { status: 503, body: 'busy' }, 'primary address: HTTP 503'],
    ['invalid JSON', { status: 200, body: '<html>quota exceeded</html>' }, 'primary address: the answer is not valid JSON'],
    ['JSON that is not a list', { status: 200, body: '{"items": []}' }, 'primary address: the answer is not a workflow list (a JSON array)'],
    ['a timeout', 'hang', 'primary address: no answer within 0.03 s'],
    ['no connection', 'unreachable', 'primary address: the address could not be reached'],
  ] as Array<[string, Reply, string]>)('primary fails with %s → the backup', async (_, reply, reason) => {
    const { settings, asked } = config({ '/p.json': reply, '/b.json': ok(LIST) }, { now: 0 });
    expect(await loadWorkflowList(settings)).toEqual({ ok: true, source: 'backup', items: LIST, savedAt: 0, stale: false, errors: [reason] });
    expect(asked).toEqual(['/p.json', '/b.json']);
  });

  it('both fail: a stale cache is served with the reasons; with no cache, ok is false', async () => {
    const at = { now: 5_000 };
    const storage = new MemoryStorage();
    const warm = config({ '/p.json': ok(LIST) }, at, storage);
    await loadWorkflowList(warm.settings);
    at.now += 3_600_000;
    const failing = config({ '/p.json': { status: 500, body: '' }, '/b.json': 'hang' }, at, storage);
    expect(await loadWorkflowList(failing.settings)).toEqual({
      ok: true,
      source: 'cache',
      items: LIST,
      savedAt: 5_000,
      stale: true,
      errors: ['primary address: HTTP 500', 'backup address: no answer within 0.03 s'],
    });
    const cold = config({ '/p.json': { status: 500, body: '' }, '/b.json': { status: 404, body: '' } }, at);
    expect(await loadWorkflowList(cold.settings)).toEqual({ ok: false, errors: ['primary address: HTTP 500', 'backup address: HTTP 404'] });
  });

  it('a cache saved "in the future" (the clock was turned back) is not fresh', async () => {
    const storage = new MemoryStorage();
    storage.setItem(cacheKey('/p.json'), JSON.stringify({ savedAt: 10_000, items: [item('Old')] }));
    const { settings } = config({ '/p.json': ok(LIST) }, { now: 1_000 }, storage);
    expect(await loadWorkflowList(settings)).toMatchObject({ source: 'primary', items: LIST });
  });

  it('corrupt or refused storage never breaks the page', async () => {
    const storage = new MemoryStorage();
    storage.setItem(cacheKey('/p.json'), '{not json');
    expect(await loadWorkflowList(config({ '/p.json': ok(LIST) }, { now: 0 }, storage).settings)).toMatchObject({ source: 'primary' });
    const refusing = { getItem: () => { throw new Error('SecurityError'); }, setItem: () => { throw new Error('QuotaExceededError'); } };
    const { settings } = config({ '/p.json': ok(LIST) }, { now: 0 }, refusing as unknown as MemoryStorage);
    expect(await loadWorkflowList(settings)).toMatchObject({ ok: true, source: 'primary', items: LIST });
    expect(await loadWorkflowList({ ...settings, storage: undefined })).toMatchObject({ ok: true, source: 'primary' });
  });

  it('the list and the cache are untrusted: only items with a name are kept, values become strings', async () => {
    const network = fakeNetwork({ '/x.json': ok([{ 'workflow-name': 'A', 'workflow-version': 3 }, 'junk', null, { 'workflow-name': 7 }]) });
    const items = await fetchWorkflowList('/x.json', 50, network.fetchList);
    expect(items).toHaveLength(1);
    expect(items[0]!['workflow-version']).toBe('');
    expect(Object.keys(items[0]!)).toEqual([...WORKFLOW_KEYS]);
  });
});

describe('search', () => {
  const items = [
    item('Clipboard Cleaner', { 'workflow-description-small': 'Cleans copied text whenever the clipboard changes.', 'workflow-author-name': 'Mira' }),
    item('Weather Menubar', { 'workflow-description-small': 'Shows temperature and an icon in the menubar.', 'workflow-author-name': 'quietfox' }),
    item('Übersetzer', { 'workflow-description-small': 'Sends the selected text to a translation API.', 'workflow-author-name': 'felix' }),
  ];
  const names = (query: string) => workflowSearch(items).search(query).map((found) => found['workflow-name']);

  it('an empty query lists everything in list order', () => {
    expect(names('')).toEqual(['Clipboard Cleaner', 'Weather Menubar', 'Übersetzer']);
    expect(names('   ')).toEqual(['Clipboard Cleaner', 'Weather Menubar', 'Übersetzer']);
  });

  it('matches name, description and author, case-insensitively', () => {
    expect(names('MENUBAR')).toEqual(['Weather Menubar']);
    expect(names('translation')).toEqual(['Übersetzer']);
    expect(names('MIRA')).toEqual(['Clipboard Cleaner']);
    expect(names('übersetzer')).toEqual(['Übersetzer']);
  });

  it('tolerates a typo in longer words, and every word must match', () => {
    expect(names('clipbaord')).toEqual(['Clipboard Cleaner']);
    expect(names('temprature')).toEqual(['Weather Menubar']);
    expect(names('text felix')).toEqual(['Übersetzer']);
    expect(names('text quietfox')).toEqual([]);
    expect(names('zzzzzz')).toEqual([]);
  });

  it('text matches both: the better match (in the name) first', () => {
    const found = workflowSearch([item('Notes', { 'workflow-description-small': 'Cleaner notes.' }), item('Cleaner')]).search('cleaner');
    expect(found.map((f) => f['workflow-name'])).toEqual(['Cleaner', 'Notes']);
  });
});
