/**
 * The `_headers` file of static hosts (Netlify, Cloudflare Pages): the workflow lists' cache
 * lifetime at every list address (both key styles, primary and backup), and the security headers
 * of every page (Content-Security-Policy, Referrer-Policy, X-Content-Type-Options).
 */
import { withBase } from '../model/urls.ts';
import { appendToHostFile } from './host-files.ts';
import { scriptHash } from './first-paint.ts';

/**
 * The `_headers` rules for the list paths. Paths that an existing `_headers` (from public/) already
 * names are left to it, so a hand-written rule is never doubled.
 */
export function workflowHeaderRules(paths: readonly string[], base: string, cacheSeconds: number, existing = ''): string {
  const named = new Set(existing.split(/\r?\n/).filter((line) => /^\S/.test(line)).map((line) => line.trim()));
  const rules = paths
    .map((path) => withBase(base, path))
    .filter((path) => !named.has(path))
    .map((path) => `${path}\n  Cache-Control: public, max-age=${cacheSeconds}\n`);
  return rules.length === 0 ? '' : `# The workflow lists: as long in HTTP caches as in the /workflows/ client (workflows.cacheSeconds).\n${rules.join('')}`;
}

/** Adds the list's rules to `<dir>/_headers`, creating it or appending to the copy of public/_headers. */
export function writeWorkflowHeaders(dir: string, paths: readonly string[], base: string, cacheSeconds: number): void {
  if (paths.length === 0) return;
  appendToHostFile(dir, '_headers', (existing) => workflowHeaderRules(paths, base, cacheSeconds, existing));
}

/** What the security headers depend on: where images may come from, and the other hosts pages fetch from. */
export interface SecurityHeaderOptions {
  /** The `topicImages` option. */
  topicImages: 'same-site' | 'any-host';
  /** Addresses pages fetch or show images from (the workflow lists, the screenshot prefix): absolute ones add their origin. */
  connect: readonly string[];
  images: readonly string[];
  /** The exact text of each inline script pages hold (first-paint.ts): allowed by its hash. */
  inlineScripts?: readonly string[];
}

function origins(addresses: readonly string[]): string[] {
  return [...new Set(addresses.filter((address) => /^https?:\/\//i.test(address) && URL.canParse(address)).map((address) => new URL(address).origin))];
}

/**
 * The headers every page is sent with. The Content-Security-Policy is one the site passes: its
 * scripts are files (Astro's bundles) but for listing pages' first-paint script, allowed by its
 * hash, so `script-src 'self' 'sha256-…'` and never 'unsafe-inline'; Astro inlines small
 * component styles, so styles also allow 'unsafe-inline' (topics can hold no style: the sanitiser
 * removes it). Images: the site's own, plus any https host when `topicImages` is `any-host`.
 */
export function securityHeaders({ topicImages, connect, images, inlineScripts = [] }: SecurityHeaderOptions): Record<string, string> {
  const imageSources = ["'self'", ...(topicImages === 'any-host' ? ['https:'] : origins(images))];
  const policy = [
    "default-src 'self'",
    ["script-src 'self'", ...inlineScripts.map(scriptHash)].join(' '),
    "style-src 'self' 'unsafe-inline'",
    `img-src ${imageSources.join(' ')}`,
    `connect-src ${["'self'", ...origins(connect)].join(' ')}`,
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': policy,
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Content-Type-Options': 'nosniff',
  };
}

/** The `_headers` rule giving every path under `base` the security headers, unless public/_headers already has a rule for that path. */
export function securityHeaderRules(base: string, headers: Record<string, string>, existing = ''): string {
  const path = withBase(base, '/*');
  const named = new Set(existing.split(/\r?\n/).filter((line) => /^\S/.test(line)).map((line) => line.trim()));
  if (named.has(path)) return '';
  const lines = Object.entries(headers).map(([name, value]) => `  ${name}: ${value}\n`);
  return `# Every page: a Content-Security-Policy the site passes (topicImages decides img-src), no referrer to other sites beyond the origin, no MIME sniffing.\n${path}\n${lines.join('')}`;
}

/** Adds the security rule to `<dir>/_headers`, creating it or appending to what is there. */
export function writeSecurityHeaders(dir: string, base: string, headers: Record<string, string>): void {
  appendToHostFile(dir, '_headers', (existing) => securityHeaderRules(base, headers, existing));
}

/** The headers a `_headers` file gives one path: every rule whose pattern (`*` matching anything) matches it, in order. */
export function headersForPath(rules: string, path: string): Record<string, string> {
  const headers: Record<string, string> = {};
  let matching = false;
  for (const line of rules.split(/\r?\n/)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (/^\S/.test(line)) {
      const pattern = new RegExp(`^${line.trim().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
      matching = pattern.test(path);
    } else if (matching) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
  }
  return headers;
}
