/**
 * The security headers of `_headers`, served as a host serves them, on every page type in real
 * Chromium: the site passes its own Content-Security-Policy (no violation, scripts finished), and
 * the policy does stop what it is for (an inline script, an image from another host).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildSampleSite } from '../helpers/build.ts';
import { serveStatic, type StaticHost } from '../../src/cli/static-server.ts';
import { headersForPath } from '../../src/outputs/headers.ts';
import { launchChromium } from '../helpers/browser.ts';
import { PAGE_TYPES } from './page-types.ts';

let browser: Browser;
let site: StaticHost;
let rules: string;
let outDir: string;

beforeAll(async () => {
  outDir = await buildSampleSite('csp');
  rules = readFileSync(join(outDir, '_headers'), 'utf8');
  site = await serveStatic(outDir, '/', { headers: (path) => headersForPath(rules, path) });
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** A page that records every CSP violation and console error from its first moment. */
async function watchedPage(): Promise<{ page: Page; violations: string[]; errors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations: string[] = [];
  const errors: string[] = [];
  await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportViolation: (text: string) => void }).reportViolation(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
    );
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, violations, errors };
}

it('_headers gives every path the policy, Referrer-Policy and X-Content-Type-Options', () => {
  const headers = headersForPath(rules, '/topics/anything/');
  // Files, and the one inline script listing pages hold (first-paint), by its hash.
  expect(headers['Content-Security-Policy']).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
  expect(headers['Content-Security-Policy']).toMatch(/img-src 'self'(;|$)/);
  expect(headers['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['X-Content-Type-Options']).toBe('nosniff');
  // The list addresses keep their cache rule beside it.
  expect(headersForPath(rules, '/api/workflows.json')['Cache-Control']).toMatch(/max-age=/);
});

describe('the site passes its own policy', () => {
  it.each(PAGE_TYPES)('the $name page: no violation, scripts finished', async ({ path, ready }) => {
    const { page, violations, errors } = await watchedPage();
    const response = await page.goto(`${site.url}${path}`);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    if (ready) await page.waitForSelector(ready);
    await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

it("a listing page's inline script is the one the policy's hash allows", () => {
  const html = readFileSync(join(outDir, 'search/index.html'), 'utf8');
  const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
  expect(inline).toHaveLength(1);
  const digest = createHash('sha256').update(inline[0]!).digest('base64');
  expect(headersForPath(rules, '/search/')['Content-Security-Policy']).toContain(`script-src 'self' 'sha256-${digest}'`);
});

it('the policy stops an inline script and an image from another host', async () => {
  const { page, violations } = await watchedPage();
  await page.goto(`${site.url}/`);
  const ran = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.inlineRan = true';
    document.body.append(script);
    const image = new Image();
    image.src = 'http://127.0.0.2:9/x.png';
    document.body.append(image);
    await new Promise((resolve) => setTimeout(resolve, 300));
    return (window as unknown as { inlineRan?: boolean }).inlineRan === true;
  });
  expect(ran).toBe(false);
  expect(violations.some((text) => text.startsWith('script-src'))).toBe(true);
  expect(violations.some((text) => text.startsWith('img-src'))).toBe(true);
  await page.context().close();
});
