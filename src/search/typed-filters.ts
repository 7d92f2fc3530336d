/**
 * Typed filters (SPEC 10): operators typed in the words field (`tags:api+json -tags:beta @mira
 * order:views`), each meaning what one of the form's controls means (SPEC 4.2). On submit each one
 * understood moves into its URL parameter and the rest stay words; one not understood stays in the
 * words, where it is searched as words, and is named in a note. Pure: the visitor's clock is passed in.
 */
import { MAX_PARAM_LENGTH, type Sort, type SearchQuery, type DateFilter } from './query.ts';
import { GROUP, OPERATOR_NAME, OPERATORS, type Param } from './typed-operators.ts';

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
