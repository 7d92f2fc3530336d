/** The site's address from a host's build environment, and the warning for the sample's address. */
import { describe, expect, it } from 'vitest';
import { hostSiteAddress, sampleSiteWarning, SAMPLE_SITE } from '../../src/integration/host.ts';

describe('hostSiteAddress', () => {
  it('takes TAGSITE_SITE first, then the address Netlify, Cloudflare Pages or Vercel gives the build', () => {
    expect(hostSiteAddress({ TAGSITE_SITE: 'https://forum.example', NETLIFY: 'true', URL: 'https://x.netlify.app' })).toBe('https://forum.example');
    expect(hostSiteAddress({ NETLIFY: 'true', URL: 'https://tags.netlify.app' })).toBe('https://tags.netlify.app');
    expect(hostSiteAddress({ CF_PAGES: '1', CF_PAGES_URL: 'https://abc123.tags.pages.dev' })).toBe('https://abc123.tags.pages.dev');
    expect(hostSiteAddress({ VERCEL: '1', VERCEL_PROJECT_PRODUCTION_URL: 'tags.vercel.app' })).toBe('https://tags.vercel.app');
  });

  it('reads a host variable only on that host (URL alone is too common a name)', () => {
    expect(hostSiteAddress({ URL: 'https://elsewhere.example' })).toBeUndefined();
    expect(hostSiteAddress({ CF_PAGES_URL: 'https://abc.pages.dev' })).toBeUndefined();
    expect(hostSiteAddress({})).toBeUndefined();
  });
});

describe('sampleSiteWarning', () => {
  it("is one line for the sample's address only", () => {
    const warning = sampleSiteWarning(SAMPLE_SITE);
    expect(warning).toMatch(/^astro\.config\.mjs: site: is the sample's https:\/\/flowsmiths\.example/);
    expect(warning).not.toContain('\n');
    expect(sampleSiteWarning(new URL('/community/', SAMPLE_SITE))).toBeDefined();
    expect(sampleSiteWarning('https://forum.example')).toBeUndefined();
    expect(sampleSiteWarning(undefined)).toBeUndefined();
  });
});
