/**
 * Typed filters (SPEC 10): operators typed in the words field (`tags:api+json -tags:beta @mira
 * order:views`), each meaning what one of the form's controls means (SPEC 4.2). On submit each one
 * understood moves into its URL parameter and the rest stay words; one not understood stays in the
 * words, where it is searched as words, and is named in a note. Pure: the visitor's clock is passed in.
 */
import { MAX_PARAM_LENGTH, isDay, monthsBack, SORTS, type Sort, type SearchQuery, type DateFilter } from './query.ts';
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
type Param = 'tags' | 'match' | 'exclude_tags' | 'author' | 'type' | 'created' | 'created_from' | 'created_to' | 'updated' | 'updated_from' | 'updated_to'
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
const OPERATORS: ReadonlyMap<string, Operator> = new Map<string, Operator>([
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
const GROUP: ReadonlyMap<string, string> = new Map([
  ['tag', 'tags'], ['-tag', '-tags'], ['forum', 'type'], ['category', 'type'], ['@', 'author'], ['activity-after', 'updated-after'], ['activity-before', 'updated-before'],
]);

/** A name that could be meant as an operator: letters and hyphens (so `10:30` and `c++:` are words). */
const OPERATOR_NAME = /^-?[a-z][a-z-]{0,30}$/i;

/** The words field split at spaces outside quotes. */
function pieces(q: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < q.length; i++) {
    const char = q[i]!;
    if (quoted && char === '\\' && i + 1 < q.length) {
      current += char + q[++i];
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (!quoted && /\s/u.test(char)) {
      if (current) out.push(current);
      current = '';
    } else current += char;
  }
  if (current) out.push(current);
  return out;
}

/** The operator a piece of the words field is meant as, or undefined for words. */
function operatorOf(piece: string): { name: string; value: string } | undefined {
  if (piece.startsWith('@') && piece.length > 1) return { name: '@', value: piece.slice(1) };
  const colon = piece.indexOf(':');
  if (colon < 1) return undefined;
  const name = piece.slice(0, colon);
  const value = piece.slice(colon + 1);
  if (!OPERATOR_NAME.test(name)) return undefined;
  // An address (`https://…`) is words; an unknown name with nothing after it (`note:`) too.
  if (value.startsWith('//') || (value === '' && !OPERATORS.has(name.toLowerCase()))) return undefined;
  return { name: name.toLowerCase(), value };
}

/** What a words field says: the parameters its operators set, its other words, and the operators not understood. */
export interface TypedFilters {
  /** Parameters to set, each replacing what the form said for it. */
  params: Array<[Param, string]>;
  /** The words left: plain words, quoted phrases and the operators not understood, as typed. */
  words: string;
  /** Each operator not understood, as typed, and why. */
  problems: Array<{ typed: string; why: string }>;
}

/**
 * Reads the operators of a words field (`now`: the visitor's clock, for `7d`, `3m`, `1y`). Never
 * throws. Reading its words again finds the same problems and nothing to move: an operator given
 * twice (`tags:a tags:b`) is not understood either time, so neither moves.
 */
export function readTypedFilters(q: string, now: Date, options: { fixedTag?: string } = {}): TypedFilters {
  const params: Array<[Param, string]> = [];
  const words: string[] = [];
  const problems: Array<{ typed: string; why: string }> = [];
  const read = pieces(q).map((piece) => ({ piece, operator: operatorOf(piece) }));
  const given = new Map<string, number>();
  for (const { operator } of read) {
    if (!operator) continue;
    const group = GROUP.get(operator.name) ?? operator.name;
    given.set(group, (given.get(group) ?? 0) + 1);
  }
  for (const { piece, operator } of read) {
    if (!operator) {
      words.push(piece);
      continue;
    }
    const { name, value } = operator;
    const notUnderstood = (why: string) => {
      words.push(piece);
      problems.push({ typed: piece, why });
    };
    const run = OPERATORS.get(name === '@' ? 'author' : name);
    const group = GROUP.get(name) ?? name;
    if (!run) notUnderstood(`no operator ${name}:`);
    else if (value.length > MAX_PARAM_LENGTH) notUnderstood(`at most ${MAX_PARAM_LENGTH} characters`);
    else if (given.get(group)! > 1) notUnderstood(`${group}: given more than once`);
    else if (options.fixedTag !== undefined && group === 'tags') notUnderstood(`this page lists the tag '${options.fixedTag}' only`);
    else {
      const reading = run(value, now);
      if ('expected' in reading) notUnderstood(`expected ${reading.expected}`);
      else params.push(...reading.params);
    }
  }
  return { params, words: words.join(' '), problems };
}

/** The operators not understood, in one line (shown under the words field). Empty when there are none. */
export function notUnderstoodText(problems: TypedFilters['problems']): string {
  if (problems.length === 0) return '';
  const each = problems.map(({ typed, why }) => `${JSON.stringify(typed.length > 60 ? `${typed.slice(0, 60)}…` : typed)} (${why})`);
  return `Not understood, so searched as words: ${each.join(', ')}.`;
}

/**
 * Moves the operators of `params`' words (`q`) into their own parameters, each replacing what the
 * form said for it; the rest stays in `q`, with every operator not understood (see `problems`).
 */
export function moveTypedFilters(params: URLSearchParams, now: Date, options: { fixedTag?: string } = {}): { params: URLSearchParams; problems: TypedFilters['problems'] } {
  const q = params.get('q') ?? '';
  const typed = readTypedFilters(q, now, options);
  const out = new URLSearchParams(params);
  for (const field of ['created', 'updated'] as const) {
    // A typed day makes the range custom: a preset chosen before (its day fields hidden) no longer counts, nor do those fields.
    const typedDays = typed.params.some(([name]) => name === field);
    const preset = (out.get(field) ?? '').toLowerCase();
    if (typedDays && preset !== '' && preset !== 'any' && preset !== 'custom') (out.delete(`${field}_from`), out.delete(`${field}_to`));
  }
  for (const [name, value] of typed.params) out.set(name, value);
  if (typed.words) out.set('q', typed.words);
  else out.delete('q');
  return { params: out, problems: typed.problems };
}

/** The words of a field as searched while it is being typed: operators wait for the submit (a half-typed `tags:ap` is no tag yet). */
export function wordsWhileTyping(q: string): string {
  return pieces(q).filter((piece) => !operatorOf(piece)).join(' ');
}

/** A value as an operator writes it: bare when it reads back as itself, else quoted. */
function written(value: string, bare: RegExp): string {
  return bare.test(value) ? value : `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

// A tag without spaces, quotes, commas, and with pluses only at its end, reads back bare.
const BARE_TAG = /^[^\s",+]+\+*$/u;
const BARE_VALUE = /^[^\s"]+$/u;

function dateOperators(field: 'created' | 'updated', filter: DateFilter): string[] {
  if (filter.kind !== 'custom') return [];
  return [...(filter.from ? [`${field}-after:${filter.from}`] : []), ...(filter.to ? [`${field}-before:${filter.to}`] : [])];
}

const TYPED_SORT: ReadonlyMap<Sort, string> = new Map([['relevancy', 'relevance'], ['newest', 'latest'], ['updated', 'activity'], ['replies', 'replies'], ['views', 'views']]);

/**
 * A search written as typed filters: `typed`, the words field saying everything operators can say,
 * and `rest`, the search without it (what only the form can say: any word, date presets, the page).
 */
export function typedFiltersOf(query: SearchQuery): { typed: string; rest: SearchQuery } {
  const parts: string[] = [];
  const rest: SearchQuery = { ...query, tags: [], match: 'any', excludeTags: [], q: '', in: 'all', author: '', type: '', minReplies: 0, minViews: 0 };
  delete rest.maxReplies;
  delete rest.maxViews;
  delete rest.sort;
  if (query.tags.length) parts.push(`tags:${query.tags.map((tag) => written(tag, BARE_TAG)).join(query.match === 'all' ? '+' : ',')}`);
  if (query.excludeTags.length) parts.push(`-tags:${query.excludeTags.map((tag) => written(tag, BARE_TAG)).join(',')}`);
  if (query.author) parts.push(BARE_VALUE.test(query.author) ? `@${query.author}` : `author:${written(query.author, BARE_VALUE)}`);
  if (query.type) parts.push(`type:${written(query.type, BARE_VALUE)}`);
  for (const field of ['created', 'updated'] as const) {
    const typed = dateOperators(field, query[field]);
    if (typed.length) (parts.push(...typed), (rest[field] = { kind: 'any' }));
  }
  if (query.minReplies > 0) parts.push(`replies-min:${query.minReplies}`);
  if (query.maxReplies !== undefined) parts.push(`replies-max:${query.maxReplies}`);
  if (query.minViews > 0) parts.push(`views-min:${query.minViews}`);
  if (query.maxViews !== undefined) parts.push(`views-max:${query.maxViews}`);
  if (query.in === 'titles') parts.push('in:title');
  if (query.sort) parts.push(`order:${TYPED_SORT.get(query.sort)}`);
  if (query.q) parts.push(query.q);
  return { typed: parts.join(' '), rest };
}
