/**
 * The /workflows/ searching client (SPEC 5). Reads its settings from `[data-workflow-client]`
 * (written by the page from the site options), loads the list (source.ts) and renders
 * the matches. The list is untrusted: text goes in with textContent, and only http(s) addresses
 * become links.
 */
import { backupDownloadUrl, safeHttpUrl, screenshotAddress, type WorkflowListItem } from '../../model/workflow-list.ts';
import { loadWorkflowList, type LoadedList } from './source.ts';
import { workflowSearch, type WorkflowSearch } from './search.ts';

function element<T extends HTMLElement>(root: HTMLElement, hook: string): T {
  const found = root.querySelector<T>(`[${hook}]`);
  if (!found) throw new Error(`the workflows page lacks [${hook}]`);
  return found;
}

function text(tag: string, value: string, hook?: string): HTMLElement {
  const node = document.createElement(tag);
  node.textContent = value;
  if (hook) node.setAttribute(hook, '');
  return node;
}

/** A link when the address is http(s); otherwise the words alone, so a hostile `javascript:` address never becomes clickable. */
function link(label: string, address: string, hook?: string): HTMLElement {
  const url = safeHttpUrl(address, document.baseURI);
  const node = url ? document.createElement('a') : document.createElement('span');
  node.textContent = label;
  if (url) (node as HTMLAnchorElement).href = url;
  if (hook) node.setAttribute(hook, '');
  return node;
}

/** Where the page's addresses start: the backup downloads and the screenshots given as bare file names. */
interface Bases {
  download: string;
  screenshot: string;
}

function renderItem(item: WorkflowListItem, bases: Bases): HTMLLIElement {
  const entry = document.createElement('li');
  entry.className = 'workflow';
  entry.setAttribute('data-workflow', item['workflow-file']);

  const heading = document.createElement('h2');
  heading.append(link(item['workflow-name'], item['workflow-release-page'], 'data-workflow-name'));
  if (item['workflow-version']) heading.append(' ', text('span', item['workflow-version'], 'data-workflow-version'));
  entry.append(heading);

  const byline = document.createElement('p');
  byline.className = 'workflow-byline';
  byline.append('by ', link(item['workflow-author-name'], item['workflow-author-site'], 'data-workflow-author'));
  const details = [item['workflow-type'], item['workflow-language']].filter(Boolean).join(' · ');
  if (details) byline.append(` · ${details}`);
  entry.append(byline);

  if (item['workflow-description-small']) entry.append(text('p', item['workflow-description-small'], 'data-workflow-description'));

  const downloads = document.createElement('p');
  downloads.className = 'workflow-downloads';
  // Without the author's own download (real lists have such items) the backup download is the only one.
  const downloadUrl = safeHttpUrl(item['workflow-download-link'], document.baseURI);
  if (downloadUrl) {
    const download = document.createElement('a');
    download.setAttribute('data-download', '');
    download.textContent = `Download ${item['workflow-file']}`;
    download.href = downloadUrl;
    downloads.append(download, ' · ');
  }
  // The backup address is built here from the site's own base; encodeURIComponent keeps the name inside one path segment.
  const backup = document.createElement('a');
  backup.setAttribute('data-backup-download', '');
  backup.textContent = downloadUrl ? 'Backup download' : `Download ${item['workflow-file']} (backup)`;
  backup.href = backupDownloadUrl(bases.download, item['workflow-file']);
  downloads.append(backup);
  // A bare screenshot name is resolved against the screenshot base, as the real clients do.
  const screenshotUrl = safeHttpUrl(screenshotAddress(bases.screenshot, item['workflow-screenshot']), document.baseURI);
  if (screenshotUrl) {
    const screenshot = document.createElement('a');
    screenshot.setAttribute('data-workflow-screenshot', '');
    screenshot.textContent = 'Screenshot';
    screenshot.href = screenshotUrl;
    downloads.append(' · ', screenshot);
  }
  entry.append(downloads);
  return entry;
}

function showResults(root: HTMLElement, finder: WorkflowSearch, total: number, query: string, bases: Bases): void {
  const results = element<HTMLUListElement>(root, 'data-workflow-results');
  const found = finder.search(query);
  results.replaceChildren(...found.map((item) => renderItem(item, bases)));
  const noun = (n: number) => `${n} workflow${n === 1 ? '' : 's'}`;
  element(root, 'data-workflow-count').textContent = query.trim()
    ? `Found ${noun(found.length)} matching “${query.trim()}” (of ${total})`
    : noun(total);
}

function showSource(root: HTMLElement, loaded: LoadedList): void {
  const source = element(root, 'data-workflow-source');
  const notice = element(root, 'data-workflow-notice');
  if (!loaded.ok) {
    source.textContent = '';
    source.setAttribute('data-workflow-source', '');
    notice.textContent = `The workflow list could not be loaded right now (${loaded.errors.join('; ')}). Please try again in a few minutes.`;
    notice.hidden = false;
    return;
  }
  source.textContent = loaded.source;
  source.setAttribute('data-workflow-source', loaded.source);
  element(root, 'data-workflow-source-line').hidden = false;
  if (loaded.stale) {
    const when = new Date(loaded.savedAt).toLocaleString();
    notice.textContent = `The workflow list could not be loaded (${loaded.errors.join('; ')}). Showing the copy saved in this browser on ${when}; it may be out of date.`;
    notice.hidden = false;
  } else notice.hidden = true;
}

/** Loads the list and searches it as the visitor types; resolves once the list is shown (or could not be loaded). */
export async function start(root: HTMLElement): Promise<void> {
  const settings = root.dataset;
  const bases: Bases = { download: settings.backupDownloadBase ?? '', screenshot: settings.screenshotBase ?? '' };
  const input = element<HTMLInputElement>(root, 'data-workflow-search');
  // Said by the script, not the HTML: without JavaScript nothing is loading.
  element(root, 'data-workflow-status').textContent = 'Loading the workflow list…';
  const initial = new URLSearchParams(location.search).get('q');
  if (initial !== null) input.value = initial;

  const loaded = await loadWorkflowList({
    primaryUrl: settings.primaryUrl ?? '',
    backupUrl: settings.backupUrl ?? '',
    cacheSeconds: Number(settings.cacheSeconds ?? 360),
    timeoutMs: Number(settings.timeoutMs ?? 10_000),
    fetch: (...args) => fetch(...args),
    now: () => Date.now(),
    storage: (() => {
      try {
        return window.localStorage;
      } catch {
        return undefined;
      }
    })(),
  });
  showSource(root, loaded);
  element(root, 'data-workflow-status').textContent = loaded.ok ? '' : 'No workflow list available.';
  root.setAttribute('data-state', loaded.ok ? 'ready' : 'failed');
  if (!loaded.ok) return;

  const finder = workflowSearch(loaded.items);
  const update = () => {
    showResults(root, finder, loaded.items.length, input.value, bases);
    // The address always says what is searched, so a search can be shared.
    const url = new URL(location.href);
    if (input.value.trim()) url.searchParams.set('q', input.value);
    else url.searchParams.delete('q');
    history.replaceState(null, '', url);
  };
  input.addEventListener('input', update);
  input.form?.addEventListener('submit', (event) => {
    event.preventDefault();
    update();
  });
  update();
}
