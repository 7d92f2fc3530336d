// SPEC 4.3 written out a second time, plainly and without the app's code, so the unit and browser
// tests of the member search compare the app against an independent answer.
import type { MemberQuery, MemberRecord } from '../../src/search/member-search.ts';
// `joined` presets mean what the topic search's date presets mean: one oracle of them for both.
import { presetStart } from './search.ts';

const DAY_MS = 86_400_000;

/** Midnight UTC at the start of a `YYYY-MM-DD` day (setUTCFullYear keeps years before 100). */
export function dayStartMs(day: string): number {
  const date = new Date(0);
  date.setUTCFullYear(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
  return date.getTime();
}

/** The UTC day `days` days after (negative: before) the instant `from`. */
export function dayOffset(from: Date, days: number): string {
  return new Date(from.getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

const collator = new Intl.Collator('en', { sensitivity: 'base' });

/** Names A→Z as people read them (case and accents aside), exact spelling only to break a tie. */
export function nameOrder(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

const contains = (text: string, needle: string) => text.toLowerCase().includes(needle.toLowerCase());

/** Whether one member passes every filter of a member search (all must hold). */
function passes(member: MemberRecord, query: MemberQuery, now: Date): boolean {
  if (query.q !== '' && !contains(member.name, query.q)) return false;
  const joined = query.joined;
  // A joined day counts from its start, as a plain date does everywhere (SPEC 2.1).
  if (joined.kind === 'preset' && dayStartMs(member.joined) < presetStart(joined.preset, now)) return false;
  // Custom ranges are whole days, both ends included: plain day strings compare in date order.
  if (joined.kind === 'custom' && ((joined.from && member.joined < joined.from) || (joined.to && member.joined > joined.to))) return false;
  if (query.groups.length > 0 && !query.groups.some((group) => group.toLowerCase() === member.group.toLowerCase())) return false;
  for (const field of ['twitter', 'website', 'jabber', 'location', 'interests'] as const) {
    if (query[field] !== '' && !contains(member[field], query[field])) return false;
  }
  return true;
}

/**
 * The members a search should find, in order: `name` A→Z by default, `joined` and `topics` newest /
 * most first by default, `dir` turns it round; ties always go by name A→Z.
 */
export function expectedMembers(members: readonly MemberRecord[], query: MemberQuery, now: Date): MemberRecord[] {
  const found = members.filter((member) => passes(member, query, now));
  const dir = query.dir ?? (query.sort === 'name' ? 'asc' : 'desc');
  const primary = (a: MemberRecord, b: MemberRecord): number => {
    if (query.sort === 'name') return nameOrder(a.name, b.name);
    if (query.sort === 'topics') return a.topics - b.topics;
    return a.joined < b.joined ? -1 : a.joined > b.joined ? 1 : 0;
  };
  return found.sort((a, b) => (dir === 'asc' ? primary(a, b) : primary(b, a)) || nameOrder(a.name, b.name));
}
