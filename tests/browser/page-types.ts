/** The page types of a built sample site, for the browser tests that visit each. */

/** Every page type, with what shows that its scripts have finished (if it has any). */
export const PAGE_TYPES: Array<{ name: string; path: string; ready?: string }> = [
  { name: 'home', path: '/' },
  { name: 'tag list', path: '/tags/' },
  { name: 'tag page', path: '/tags/api/', ready: '[data-search-root] [data-needs-js]:not([hidden])' },
  { name: 'tag intersection', path: '/tags/intersection/api/json/' },
  { name: 'topic with a workflow', path: '/topics/csv-to-json-converter/' },
  { name: 'search with results', path: '/search/?q=json&tags=api', ready: '[data-search-root][data-search-state="done"]' },
  { name: 'member search', path: '/members/?group=Staff', ready: '[data-member-root][data-search-state="done"]' },
  { name: 'member profile', path: '/members/tomasz/' },
  { name: 'documentation links', path: '/links/?tag=api' },
  { name: 'workflows', path: '/workflows/', ready: '[data-workflow-client][data-state="ready"]' },
  { name: 'about (MDX)', path: '/about/' },
  { name: 'not found', path: '/no/such/page/' },
];
