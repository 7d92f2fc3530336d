/**
 * The workflow list format as both sides read it: the build that writes the list and the browser
 * client that reads it. No Node or Ajv imports, so the client bundle stays small.
 */
import type { WorkflowListItem, WorkflowListUnderscoreItem } from '../content/schema-types.ts';
import { withBase } from './urls.ts';

export type { WorkflowListItem, WorkflowListUnderscoreItem };

/** The two key styles real clients read: `workflow-name` (the first list) and `workflow_name` (the recommended one). */
export type KeyStyle = 'hyphenated' | 'underscore';

/** The eleven keys every item has, in the order they are written (schemas/workflow-list.schema.json). */
export const WORKFLOW_KEYS = [
  'workflow-name',
  'workflow-version',
  'workflow-description-small',
  'workflow-type',
  'workflow-language',
  'workflow-release-page',
  'workflow-download-link',
  'workflow-author-name',
  'workflow-author-site',
  'workflow-file',
  'workflow-screenshot',
] as const satisfies ReadonlyArray<keyof WorkflowListItem>;

export type WorkflowKey = (typeof WORKFLOW_KEYS)[number];

/** A key in the underscore style: `workflow-file` → `workflow_file`. */
export function underscoreKey(key: WorkflowKey): keyof WorkflowListUnderscoreItem {
  return key.replace(/-/g, '_') as keyof WorkflowListUnderscoreItem;
}

/** The same item with underscore keys, values and key order unchanged. */
export function toUnderscore(item: WorkflowListItem): WorkflowListUnderscoreItem {
  return Object.fromEntries(WORKFLOW_KEYS.map((key) => [underscoreKey(key), item[key]])) as unknown as WorkflowListUnderscoreItem;
}

/**
 * An address a list may publish: http or https with a host (`http://` alone is a placeholder, not
 * an address). The same rule as the URL patterns of the topic, members and list schemas.
 */
export const PUBLISHABLE_URL = /^[hH][tT][tT][pP][sS]?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/;

/** Where /workflows/ shows a screenshot from: a URL as given, a bare file name under the screenshot base (URL-encoded). */
export function screenshotAddress(screenshotBase: string, screenshot: string): string {
  if (!screenshot) return '';
  return /^[hH][tT][tT][pP][sS]?:\/\//.test(screenshot) ? screenshot : screenshotBase + encodeURIComponent(screenshot);
}

/** The workflow's name: `workflow.name`, else its file name without the extension; a file named only `.flowsmith` falls back to the topic title. */
export function workflowName(file: string, title: string, name?: string): string {
  if (name) return name;
  const dot = file.lastIndexOf('.');
  const stem = dot > 0 ? file.slice(0, dot) : dot === 0 ? '' : file;
  return stem.trim() || title;
}

/** The backup download address of a workflow file: the base + the file name URL-encoded (spaces, `#`, `?`, `%` and non-Latin names survive). */
export function backupDownloadUrl(downloadBase: string, file: string): string {
  return downloadBase + encodeURIComponent(file);
}

/** True when an option address is a path on this site (published by the build) rather than a URL elsewhere. */
export function isSitePath(address: string): boolean {
  return !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(address) && !address.startsWith('//');
}

/** An option address as a link on the site: a site path gets Astro's `base` in front; a URL stays as given. */
export function siteAddress(base: string, address: string): string {
  return isSitePath(address) ? withBase(base, address) : address;
}

/** The address as an http(s) URL to link to, or undefined: the list is untrusted, so `javascript:` and friends never become links. */
export function safeHttpUrl(value: string, baseUrl?: string): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value, baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads one untrusted list item in either key style (hyphenated keys win when an item has both):
 * every key becomes a string ("" when missing or not a string); undefined unless it is an object with a name.
 */
export function readWorkflowItem(raw: unknown): WorkflowListItem | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const record = raw as Record<string, unknown>;
  const item = {} as WorkflowListItem;
  for (const key of WORKFLOW_KEYS) {
    const value = record[key] ?? record[underscoreKey(key)];
    item[key] = typeof value === 'string' ? value : '';
  }
  return item['workflow-name'] ? item : undefined;
}
