import { normaliseTag } from '../model/tags.ts';

/** Date filter of SPEC 4.2: a preset relative to the visitor's clock, or a custom inclusive day range. */
export type DateFilter =
  | { kind: 'any' }
  | { kind: 'preset'; preset: DatePreset }
  | { kind: 'custom'; from?: string; to?: string };

export const DATE_PRESETS = ['day', 'week', 'month', 'six_months', 'year'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];
export const SORTS = ['relevancy', 'newest', 'updated', 'replies', 'views'] as const;
export type Sort = (typeof SORTS)[number];

/** A search, as the form and the URL describe it (SPEC 4.2), after normalising. */
export interface SearchQuery {
  tags: string[];
  match: 'any' | 'all';
  /** Tags none of whose topics are listed (`exclude_tags`). */
  excludeTags: string[];
  q: string;
  words: 'all' | 'any';
  in: 'all' | 'titles';
  author: string;
  type: string;
  created: DateFilter;
  updated: DateFilter;
  minReplies: number;
  minViews: number;
  /** At most this many replies / views; undefined: no upper bound (0 is one: no replies). */
  maxReplies?: number;
  maxViews?: number;
  /** Undefined means the default: relevancy when `q` is given, newest otherwise. */
  sort?: Sort;
  page: number;
}

export const EMPTY_QUERY: SearchQuery = {
  tags: [],
  match: 'any',
  excludeTags: [],
  q: '',
  words: 'all',
  in: 'all',
  author: '',
  type: '',
  created: { kind: 'any' },
  updated: { kind: 'any' },
  minReplies: 0,
  minViews: 0,
  page: 1,
};

/** The forum's own parameter names, accepted so old links keep working. */
// Maps, not object literals: a parameter's name or value is data (`__proto__`, `constructor`), and
// a lookup must never reach Object.prototype.
export const ALIASES: ReadonlyMap<string, string> = new Map([
  ['search_in', 'in'],
  ['search_and_or', 'words'],
  ['start_after', 'created_from'],
  ['start_before', 'created_to'],
  ['updated_after', 'updated_from'],
  ['updated_before', 'updated_to'],
  ['search_min_replies', 'min_replies'],
  ['search_min_views', 'min_views'],
  ['sortby', 'sort'],
]);

// Values the forum used for its parameters, mapped to ours.
const ALIAS_VALUES: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  ['in', new Map([['titles_only', 'titles'], ['title', 'titles'], ['posts', 'all'], ['all_posts', 'all'], ['first_post', 'all']])],
  ['words', new Map([['and', 'all'], ['or', 'any']])],
  ['sort', new Map([['relevance', 'relevancy'], ['date', 'newest'], ['created', 'newest'], ['latest', 'updated'], ['most_replies', 'replies'], ['most_views', 'views']])],
]);

/** Longest value a parameter may have; a longer one is ignored with a note (a pasted page is no search). */
export const MAX_PARAM_LENGTH = 500;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a string is a real calendar day YYYY-MM-DD. */
export function isDay(text: string): boolean {
  if (!DAY.test(text)) return false;
  const ms = Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)));
  return new Date(ms).toISOString().slice(0, 10) === text;
}

/** Splits the `tags` parameter: comma-separated, each normalised as in SPEC 2.1, empty and repeated ones dropped. */
export function parseTags(value: string): string[] {
  const tags: string[] = [];
  for (const raw of value.split(',')) {
    const tag = normaliseTag(raw);
    if (tag && !tags.includes(tag)) tags.push(tag);
  }
  return tags;
}

/**
 * Reads a date filter from parameters `<field>`, `<field>_from`, `<field>_to` (also used by the
 * member search's `joined`). Bad values are reported through `bad` and ignored.
 */
export function readDateFilter(values: Map<string, string>, field: string, bad: (name: string, value: string, expected: string) => void): DateFilter {
  const from = values.get(`${field}_from`) ?? '';
  const to = values.get(`${field}_to`) ?? '';
  const preset = (values.get(field) ?? '').toLowerCase();
  const goodFrom = from === '' || isDay(from);
  const goodTo = to === '' || isDay(to);
  if (!goodFrom) bad(`${field}_from`, from, 'a date YYYY-MM-DD');
  if (!goodTo) bad(`${field}_to`, to, 'a date YYYY-MM-DD');
  const range = { kind: 'custom' as const, ...(goodFrom && from ? { from } : {}), ...(goodTo && to ? { to } : {}) };
  // `custom` with no days yet stays `custom` (it admits every date), so a form can show its day
  // fields; with only malformed days it is ignored like any malformed parameter.
  if (preset === 'custom') return range.from || range.to || (from === '' && to === '') ? range : { kind: 'any' };
  if (preset === '' || preset === 'any') {
    // A range given without `created=custom` (as the forum's start_after links do) still applies.
    return range.from || range.to ? range : { kind: 'any' };
  }
  if ((DATE_PRESETS as readonly string[]).includes(preset)) return { kind: 'preset', preset: preset as DatePreset };
  bad(field, values.get(field)!, `any, ${DATE_PRESETS.join(', ')} or custom`);
  return range.from || range.to ? range : { kind: 'any' };
}

/** Writes a date filter as parameters (nothing for `any`). */
export function writeDateFilter(params: URLSearchParams, field: string, filter: DateFilter): void {
  if (filter.kind === 'preset') params.set(field, filter.preset);
  if (filter.kind === 'custom') {
    params.set(field, 'custom');
    if (filter.from) params.set(`${field}_from`, filter.from);
    if (filter.to) params.set(`${field}_to`, filter.to);
  }
}

/**
 * Reads a search from URL parameters (our names and the forum's aliases). A malformed parameter is
 * ignored and explained in `notes`, never fatal.
 */
export function parseSearchParams(params: URLSearchParams): { query: SearchQuery; notes: string[] } {
  const notes: string[] = [];
  const values = new Map<string, string>();
  const bad = (name: string, value: string, expected: string) =>
    notes.push(`Ignored ${name}=${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}: expected ${expected}.`);
  for (const [rawKey, rawValue] of params) {
    const key = ALIASES.get(rawKey) ?? rawKey;
    if (rawValue.length > MAX_PARAM_LENGTH) {
      bad(rawKey, rawValue, `at most ${MAX_PARAM_LENGTH} characters`);
      continue;
    }
    const value = ALIAS_VALUES.get(key)?.get(rawValue.trim().toLowerCase()) ?? rawValue.trim();
    // An explicit parameter wins over its alias.
    if (!values.has(key) || !ALIASES.has(rawKey)) values.set(key, value);
  }
  const query: SearchQuery = { ...EMPTY_QUERY, created: { kind: 'any' }, updated: { kind: 'any' } };

  const tags = values.get('tags');
  if (tags) query.tags = parseTags(tags);
  const excluded = values.get('exclude_tags');
  if (excluded) query.excludeTags = parseTags(excluded);
  const choice = <T extends string>(name: string, allowed: readonly T[], set: (value: T) => void) => {
    const value = values.get(name);
    if (value === undefined || value === '') return;
    const lower = value.toLowerCase() as T;
    if (allowed.includes(lower)) set(lower);
    else bad(name, value, allowed.join(', '));
  };
  choice('match', ['any', 'all'] as const, (v) => (query.match = v));
  choice('words', ['all', 'any'] as const, (v) => (query.words = v));
  choice('in', ['all', 'titles'] as const, (v) => (query.in = v));
  choice('sort', SORTS, (v) => (query.sort = v));
  query.q = (values.get('q') ?? '').replace(/\s+/gu, ' ').trim();
  query.author = (values.get('author') ?? '').trim();
  query.type = (values.get('type') ?? '').trim().toLowerCase();

  for (const field of ['created', 'updated'] as const) query[field] = readDateFilter(values, field, bad);


  const counts = [['min_replies', 'minReplies'], ['min_views', 'minViews'], ['max_replies', 'maxReplies'], ['max_views', 'maxViews']] as const;
  for (const [name, key] of counts) {
    const value = values.get(name);
    if (value === undefined || value === '') continue;
    if (/^\d+$/.test(value)) query[key] = Number(value);
    else bad(name, value, 'a whole number >= 0');
  }
  const page = values.get('page');
  if (page !== undefined && page !== '') {
    if (/^[1-9]\d*$/.test(page)) query.page = Number(page);
    else bad('page', page, 'a page number 1, 2, …');
  }
  return { query, notes };
}

/** Writes a search as URL parameters: our names only, defaults left out, so URLs stay short and shareable. */
export function searchParamsOf(query: SearchQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.tags.length) params.set('tags', query.tags.join(','));
  if (query.tags.length > 1 && query.match !== 'any') params.set('match', query.match);
  if (query.excludeTags.length) params.set('exclude_tags', query.excludeTags.join(','));
  if (query.q) params.set('q', query.q);
  if (query.q && query.words !== 'all') params.set('words', query.words);
  if (query.q && query.in !== 'all') params.set('in', query.in);
  if (query.author) params.set('author', query.author);
  if (query.type) params.set('type', query.type);
  for (const field of ['created', 'updated'] as const) writeDateFilter(params, field, query[field]);

  if (query.minReplies > 0) params.set('min_replies', String(query.minReplies));
  if (query.minViews > 0) params.set('min_views', String(query.minViews));
  if (query.maxReplies !== undefined) params.set('max_replies', String(query.maxReplies));
  if (query.maxViews !== undefined) params.set('max_views', String(query.maxViews));
  if (query.sort) params.set('sort', query.sort);
  if (query.page > 1) params.set('page', String(query.page));
  return params;
}

/** The sort in effect: the one asked for, else relevancy with words and newest without. */
export function effectiveSort(query: SearchQuery): Sort {
  if (query.sort && (query.sort !== 'relevancy' || query.q)) return query.sort;
  return query.q ? 'relevancy' : 'newest';
}

/** `now` moved back by whole calendar months; a day the month lacks becomes its last day (31 March − 1 month = 28 February, not 3 March). */
export function monthsBack(now: Date, months: number): number {
  const moved = new Date(now);
  moved.setUTCDate(1);
  moved.setUTCMonth(moved.getUTCMonth() - months);
  const lastDay = new Date(moved);
  lastDay.setUTCMonth(lastDay.getUTCMonth() + 1, 0);
  return moved.setUTCDate(Math.min(now.getUTCDate(), lastDay.getUTCDate()));
}

const PRESET_START: Record<DatePreset, (now: Date) => number> = {
  day: (now) => now.getTime() - 86_400_000,
  week: (now) => now.getTime() - 7 * 86_400_000,
  month: (now) => monthsBack(now, 1),
  six_months: (now) => monthsBack(now, 6),
  year: (now) => monthsBack(now, 12),
};

/**
 * The instants a date filter admits, [from, to) in epoch ms. Presets reach back from the visitor's
 * clock `now`; custom days are whole UTC days, both ends inclusive.
 */
export function dateBounds(filter: DateFilter, now: Date): { from: number; to: number } {
  if (filter.kind === 'preset') return { from: PRESET_START[filter.preset](now), to: Infinity };
  if (filter.kind === 'custom') {
    return {
      from: filter.from ? Date.parse(`${filter.from}T00:00:00Z`) : -Infinity,
      to: filter.to ? Date.parse(`${filter.to}T00:00:00Z`) + 86_400_000 : Infinity,
    };
  }
  return { from: -Infinity, to: Infinity };
}
