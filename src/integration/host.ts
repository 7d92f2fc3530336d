/**
 * The site's public address (Astro's `site`) when the config does not name one: from the build
 * environment of the host building it. Feeds, the sitemap, canonical links and the workflow list
 * are absolute URLs, so a site built on a host without its address would point elsewhere.
 */

/** The sample content's address: a build publishing it is told so. */
export const SAMPLE_SITE = 'https://flowsmiths.example';

type Environment = Record<string, string | undefined>;

/** The hosts' variables hostSiteAddress reads (besides TAGSITE_SITE). */
export const HOST_ENVIRONMENT: readonly string[] = ['NETLIFY', 'URL', 'CF_PAGES', 'CF_PAGES_URL', 'VERCEL', 'VERCEL_PROJECT_PRODUCTION_URL'];

/** The address from the build environment: TAGSITE_SITE, else Netlify's, Cloudflare Pages' or Vercel's; undefined elsewhere. */
export function hostSiteAddress(env: Environment = process.env): string | undefined {
  if (env.TAGSITE_SITE) return env.TAGSITE_SITE;
  // Netlify: URL is the site's main address (https://<name>.netlify.app or its custom domain).
  if (env.NETLIFY === 'true' && env.URL) return env.URL;
  // Cloudflare Pages: the address of this deployment.
  if (env.CF_PAGES === '1' && env.CF_PAGES_URL) return env.CF_PAGES_URL;
  // Vercel: the production domain, without a scheme.
  if (env.VERCEL === '1' && env.VERCEL_PROJECT_PRODUCTION_URL) return `https://${env.VERCEL_PROJECT_PRODUCTION_URL.replace(/^https?:\/\//, '')}`;
  return undefined;
}

/** One warning line when the site would publish the sample's address, else undefined. */
export function sampleSiteWarning(site: string | URL | undefined): string | undefined {
  if (!site || new URL(site).host !== new URL(SAMPLE_SITE).host) return undefined;
  return `astro.config.mjs: site: is the sample's ${SAMPLE_SITE}, so feeds, the sitemap, canonical links and the workflow list point there; set site (or TAGSITE_SITE) to your address (Netlify, Cloudflare Pages and Vercel builds take theirs)`;
}
