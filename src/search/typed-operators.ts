/**
 * The operators of typed filters (typed-filters.ts) and what their values may be: each operator's
 * name, what it sets, and the help that lists them. Maps, never object lookups: a typed name or
 * value is data (`order:constructor`).
 */
import { isDay, monthsBack, SORTS, type Sort } from './query.ts';
import { normaliseTag } from '../model/tags.ts';

/** One operator, as the help on /search/ and docs/reference.md list it. */
export interface OperatorHelp {
  typed: string;
  meaning: string;
}

/** The grammar, shown to visitors by SearchForm.astro. */
export const OPERATOR_HELP: readonly OperatorHelp[] = [
  { typed: 'tags:api+json', meaning: 'tagged api and json (all of them)' },
  { typed: 'tags:api,json', meaning: 'tagged api or json (any of them)' },
  { typed: '-tags:beta', meaning: 'not tagged beta (-tags:beta,bug: neither)' },
  { typed: '@mira or author:mira', meaning: 'written by mira' },
  { typed: 'forum:help or type:guides', meaning: 'in that content type; a forum with its sub-forums' },
  { typed: 'created-after:2025-01-31', meaning: 'created on or after that day; also created-before:, updated-after:, updated-before:' },
  { typed: 'updated-after:7d', meaning: 'a day counted back from today: 7d, 3m, 1y (days, months, years)' },
  { typed: 'replies-min:3', meaning: 'at least 3 replies; also replies-max:, views-min:, views-max:' },
  { typed: 'in:title', meaning: 'the words in titles only' },
  { typed: 'order:views', meaning: 'sort: relevance, latest, activity, replies or views' },
  { typed: '"two words"', meaning: 'these words next to each other, in this order' },
  { typed: 'author:"Mira K"', meaning: 'quotes around a value with spaces' },
];

/** URL parameters set by typed filters, in the order they are written. */
export type Param = 'tags' | 'match' | 'exclude_tags' | 'author' | 'type' | 'created' | 'created_from' | 'created_to' | 'updated' | 'updated_from' | 'updated_to'
  | 'min_replies' | 'max_replies' | 'min_views' | 'max_views' | 'in' | 'sort';

/** What an operator's value means, or why it means nothing (`expected`). */
type Reading = { params: Array<[Param, string]> } | { expected: string };

const DAY_MS = 86_400_000;

/** `7d`, `3m`, `1y` ago as a UTC day (the days of a custom date range are UTC days), or undefined when that is no day. */
export function daysAgo(value: string, now: Date): string | undefined {
  const match = /^(\d{1,5})([dmy])$/.exec(value.toLowerCase());
  if (!match) return undefined;
  const n = Number(match[1]);
  const ms = match[2] === 'd' ? now.getTime() - n * DAY_MS : monthsBack(now, match[2] === 'm' ? n : 12 * n);
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return undefined;
  const day = new Date(ms).toISOString().slice(0, 10);
  return isDay(day) ? day : undefined;
}

/** Splits a tag list: `,` between tags means any of them, `+` all of them; an item may be quoted. */
function readTagList(value: string): { tags: string[]; match: 'any' | 'all' } | { expected: string } {
  const tags: string[] = [];
  const separators = new Set<string>();
  let i = 0;
  while (i <= value.length) {
    let item = '';
    if (value[i] === '"') {
      const quoted = readQuoted(value, i);
      if (!quoted) return { expected: 'a closing quote' };
      item = quoted.text;
      i = quoted.end;
    } else {
      // A run of pluses ends the tag with all but its last (`c+++json`: `c++` and `json`); a run at
      // the end is the tag's own (`c++`).
      const start = i;
      while (i < value.length && value[i] !== ',') {
        if (value[i] === '+') {
          let run = i;
          while (value[run] === '+') run++;
          if (run < value.length && value[run] !== ',') {
            i = run - 1;
            break;
          }
          i = run;
          continue;
        }
        i++;
      }
      item = value.slice(start, i);
    }
    const tag = normaliseTag(item);
    if (!tag) return { expected: 'a tag name between separators' };
    if (!tags.includes(tag)) tags.push(tag);
    if (i >= value.length) break;
    if (value[i] !== ',' && value[i] !== '+') return { expected: '+ or , between tags' };
    separators.add(value[i]!);
    i++;
    if (i === value.length) return { expected: 'a tag after the last separator' };
  }
  if (separators.size > 1) return { expected: 'either + (all of) or , (any of) between tags, not both' };
  return { tags, match: separators.has('+') ? 'all' : 'any' };
}

/** A quoted value starting at `start`: `\"` and `\\` escape; undefined when it is not closed. */
function readQuoted(text: string, start: number): { text: string; end: number } | undefined {
  let out = '';
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) out += text[++i];
    else if (char === '"') return { text: out, end: i + 1 };
    else out += char;
  }
  return undefined;
}

/** A value as typed: unquoted, or the text of one quoted string that is the whole value. */
function plainValue(value: string): string | undefined {
  if (!value.startsWith('"')) return value.includes('"') ? undefined : value;
  const quoted = readQuoted(value, 0);
  return quoted && quoted.end === value.length ? quoted.text : undefined;
}

const text = (param: Param, expected: string) => (value: string): Reading => {
  const plain = plainValue(value);
  if (plain === undefined) return { expected: 'a value in one pair of quotes' };
  return plain.trim() ? { params: [[param, plain.trim()]] } : { expected };
};

const count = (param: Param) => (value: string): Reading =>
  /^\d{1,15}$/.test(value) ? { params: [[param, String(Number(value))]] } : { expected: 'a whole number >= 0' };

const date = (field: 'created' | 'updated', end: 'from' | 'to') => (value: string, now: Date): Reading => {
  const day = isDay(value) ? value : daysAgo(value, now);
  return day ? { params: [[field, 'custom'], [`${field}_${end}`, day]] } : { expected: 'a date YYYY-MM-DD, or 7d, 3m, 1y ago' };
};

/** `order:` values: ours, SPEC 10's and Discourse's names. */
const ORDERS: ReadonlyMap<string, Sort> = new Map([
  ...SORTS.map((sort) => [sort, sort] as const),
  ['relevance', 'relevancy'], ['latest', 'newest'], ['created', 'newest'], ['activity', 'updated'], ['latest-post', 'updated'],
  ['bumped', 'updated'], ['posts', 'replies'], ['posters', 'replies'],
]);

const IN_VALUES: ReadonlyMap<string, 'titles' | 'all'> = new Map([['title', 'titles'], ['titles', 'titles'], ['all', 'all'], ['posts', 'all']]);

type Operator = (value: string, now: Date) => Reading;

const tagsOperator = (param: 'tags' | 'exclude_tags') => (value: string): Reading => {
  const list = readTagList(value);
  if ('expected' in list) return list;
  if (param === 'exclude_tags') return list.tags.length > 1 && list.match === 'all' ? { expected: ', between tags left out (-tags:a,b: neither)' } : { params: [[param, list.tags.join(',')]] };
  return { params: [['tags', list.tags.join(',')], ['match', list.match]] };
};

/** Every operator by its lower-case name (a Map: a typed name is data, never a property). */
export const OPERATORS: ReadonlyMap<string, Operator> = new Map<string, Operator>([
  ['tags', tagsOperator('tags')],
  ['tag', tagsOperator('tags')],
  ['-tags', tagsOperator('exclude_tags')],
  ['-tag', tagsOperator('exclude_tags')],
  ['author', text('author', 'a name')],
  ['forum', text('type', 'a content-type id')],
  ['type', text('type', 'a content-type id')],
  ['category', text('type', 'a content-type id')],
  ['created-after', date('created', 'from')],
  ['created-before', date('created', 'to')],
  ['updated-after', date('updated', 'from')],
  ['updated-before', date('updated', 'to')],
  ['activity-after', date('updated', 'from')],
  ['activity-before', date('updated', 'to')],
  ['replies-min', count('min_replies')],
  ['replies-max', count('max_replies')],
  ['views-min', count('min_views')],
  ['views-max', count('max_views')],
  ['in', (value) => {
    const where = IN_VALUES.get(value.toLowerCase());
    return where ? { params: [['in', where]] } : { expected: 'title' };
  }],
  ['order', (value) => {
    const sort = ORDERS.get(value.toLowerCase());
    return sort ? { params: [['sort', sort]] } : { expected: 'relevance, latest, activity, replies or views' };
  }],
]);

/** Names of one operator: given twice, neither counts (which of the two would?). */
export const GROUP: ReadonlyMap<string, string> = new Map([
  ['tag', 'tags'], ['-tag', '-tags'], ['forum', 'type'], ['category', 'type'], ['@', 'author'], ['activity-after', 'updated-after'], ['activity-before', 'updated-before'],
]);

/** A name that could be meant as an operator: letters and hyphens (so `10:30` and `c++:` are words). */
export const OPERATOR_NAME = /^-?[a-z][a-z-]{0,30}$/i;

