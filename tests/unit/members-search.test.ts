// The member search (SPEC 4.3): filterMembers against an independent brute-force oracle on random
// members and searches; URL parameters read and written; member records and member URLs.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  EMPTY_MEMBER_QUERY, filterMembers, memberParamsOf, parseMemberParams, type MemberQuery, type MemberRecord,
} from '../../src/search/member-search.ts';
import { authorCounts, memberRecords } from '../../src/outputs/member-index.ts';
import { memberSlug } from '../../src/model/urls.ts';
import { DATE_PRESETS, type DateFilter } from '../../src/search/query.ts';
import type { Member } from '../../src/content/members.ts';
import type { Topic } from '../../src/content/topics.ts';
import { dayOffset, expectedMembers } from '../oracles/members.ts';

const GROUPS = ['Members', 'Moderators', 'Staff', 'Équipe'];

// Fixed clocks, some where calendar arithmetic is awkward (month ends, 29 February, midnight).
const NOWS = ['2024-06-15T12:00:00Z', '2024-03-31T08:30:00Z', '2024-02-29T23:59:59Z', '2023-12-31T00:00:00Z', '2025-01-01T00:00:00Z', '2024-08-31T18:00:00Z'].map((iso) => new Date(iso));
const nowArb = fc.oneof(fc.constantFrom(...NOWS), fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }));

// A small alphabet, so "contains" often finds something; case and accents so case-insensitivity matters.
const text = (maxLength: number, minLength = 0) => fc.string({ unit: fc.constantFrom(...'aAbBeéÉ. x'.split('')), minLength, maxLength });
const caseVariant = (value: string) => fc.constantFrom(value, value.toUpperCase(), value.toLowerCase());

/** A member whose joined day is given as days relative to the test's clock, so presets have something to find. */
const memberArb = fc.record({
  name: text(6, 1),
  joinedDaysAgo: fc.oneof(fc.integer({ min: -2, max: 10 }), fc.integer({ min: 0, max: 800 })),
  group: fc.constantFrom(...GROUPS),
  twitter: fc.oneof(fc.constant(''), text(5)),
  website: fc.oneof(fc.constant(''), text(4).map((t) => `https://${t}.example`)),
  jabber: fc.oneof(fc.constant(''), text(5)),
  location: fc.oneof(fc.constant(''), text(5)),
  interests: fc.oneof(fc.constant(''), text(8)),
  topics: fc.integer({ min: 0, max: 4 }),
});
// Names are unique ignoring case, as members.json requires.
const membersArb = fc.uniqueArray(memberArb, { maxLength: 30, selector: (m) => m.name.toLowerCase() });

const sometimes = <T>(arb: fc.Arbitrary<T>, otherwise: T) => fc.oneof({ weight: 3, arbitrary: fc.constant(otherwise) }, { weight: 1, arbitrary: arb });

const joinedArb: fc.Arbitrary<{ kind: 'any' } | { kind: 'preset'; preset: (typeof DATE_PRESETS)[number] } | { kind: 'custom'; from?: number; to?: number }> = fc.oneof(
  fc.constant({ kind: 'any' as const }),
  fc.constantFrom(...DATE_PRESETS).map((preset) => ({ kind: 'preset' as const, preset })),
  fc.record({ kind: fc.constant('custom' as const), from: fc.integer({ min: -2, max: 800 }), to: fc.integer({ min: -2, max: 800 }) }, { requiredKeys: ['kind'] }),
);

const searchArb = fc.record({
  q: sometimes(text(2, 1), ''),
  joined: joinedArb,
  groups: sometimes(fc.uniqueArray(fc.constantFrom(...GROUPS, 'Nobody').chain(caseVariant), { minLength: 1, maxLength: 3 }), []),
  twitter: sometimes(text(2, 1), ''),
  website: sometimes(fc.constantFrom('https', 'HTTPS://', '.EXAMPLE', 'a'), ''),
  jabber: sometimes(text(2, 1), ''),
  location: sometimes(text(2, 1), ''),
  interests: sometimes(text(2, 1), ''),
  sort: fc.constantFrom('name', 'joined', 'topics') as fc.Arbitrary<MemberQuery['sort']>,
  dir: fc.constantFrom(undefined, 'asc', 'desc') as fc.Arbitrary<MemberQuery['dir']>,
});

describe('filterMembers equals SPEC 4.3 written out by brute force', () => {
  it('for random members, searches and clocks', () => {
    fc.assert(
      fc.property(membersArb, searchArb, nowArb, (raw, search, now) => {
        const members: MemberRecord[] = raw.map(({ joinedDaysAgo, ...member }) => ({
          ...member, slug: memberSlug(member.name), joined: dayOffset(now, -joinedDaysAgo),
        }));
        const joined: DateFilter =
          search.joined.kind === 'custom'
            ? {
                kind: 'custom',
                ...(search.joined.from !== undefined ? { from: dayOffset(now, -search.joined.from) } : {}),
                ...(search.joined.to !== undefined ? { to: dayOffset(now, -search.joined.to) } : {}),
              }
            : search.joined;
        const query: MemberQuery = { ...search, joined, page: 1 };
        const found = filterMembers(members, query, now);
        expect(found.map((m) => m.name)).toEqual(expectedMembers(members, query, now).map((m) => m.name));
      }),
      { numRuns: 3000 },
    );
  });

  it('an empty search finds every member, names A→Z', () => {
    const members = ['bea', 'Ana', 'Émile', 'carl', 'ana b'].map((name, i) => ({
      name, slug: memberSlug(name), joined: `2020-01-0${i + 1}`, group: 'Members', twitter: '', website: '', jabber: '', location: '', interests: '', topics: 0,
    }));
    expect(filterMembers(members, EMPTY_MEMBER_QUERY, new Date()).map((m) => m.name)).toEqual(['Ana', 'ana b', 'bea', 'carl', 'Émile']);
  });

  it('"last month" on 31 March reaches back to 29 February (not past it to 2 March)', () => {
    const now = new Date('2024-03-31T12:00:00Z');
    const member = (name: string, joined: string): MemberRecord => ({
      name, slug: name, joined, group: 'Members', twitter: '', website: '', jabber: '', location: '', interests: '', topics: 0,
    });
    const members = [member('feb28', '2024-02-28'), member('mar01', '2024-03-01'), member('mar02', '2024-03-02')];
    const query: MemberQuery = { ...EMPTY_MEMBER_QUERY, joined: { kind: 'preset', preset: 'month' } };
    expect(filterMembers(members, query, now).map((m) => m.name)).toEqual(['mar01', 'mar02']);
  });
});

// Normalised searches, as parseMemberParams gives them: trimmed text, groups without commas.
const urlText = fc.string({ unit: 'grapheme', maxLength: 12 }).map((t) => t.trim());
const dayArb = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const queryArb: fc.Arbitrary<MemberQuery> = fc.record({
  q: urlText,
  joined: fc.oneof(
    fc.constant<DateFilter>({ kind: 'any' }),
    fc.constantFrom(...DATE_PRESETS).map((preset): DateFilter => ({ kind: 'preset', preset })),
    fc.record({ kind: fc.constant('custom' as const), from: dayArb, to: dayArb }, { requiredKeys: ['kind'] }) as fc.Arbitrary<DateFilter>,
  ),
  groups: fc.uniqueArray(urlText.filter((g) => g !== '' && !g.includes(',')), { maxLength: 4 }),
  twitter: urlText, website: urlText, jabber: urlText, location: urlText, interests: urlText,
  sort: fc.constantFrom('name', 'joined', 'topics') as fc.Arbitrary<MemberQuery['sort']>,
  dir: fc.constantFrom('asc', 'desc') as fc.Arbitrary<MemberQuery['dir']>,
  page: fc.integer({ min: 1, max: 500 }),
}, { requiredKeys: ['q', 'joined', 'groups', 'twitter', 'website', 'jabber', 'location', 'interests', 'sort', 'page'] });

/** The same search with defaults spelt out (a natural direction). */
function explicit(query: MemberQuery): MemberQuery {
  return { ...query, dir: query.dir ?? (query.sort === 'name' ? 'asc' : 'desc') };
}

describe('parseMemberParams and memberParamsOf', () => {
  it('round-trip every search through the URL, without notes', () => {
    fc.assert(
      fc.property(queryArb, (query) => {
        const url = memberParamsOf(query).toString();
        const { query: back, notes } = parseMemberParams(new URLSearchParams(url));
        expect(notes).toEqual([]);
        expect(explicit(back)).toEqual(explicit(query));
        // Written again, the URL is the same (`joined=custom` without days stays: the form shows its day fields).
        expect(memberParamsOf(back).toString()).toBe(memberParamsOf(explicit(query)).toString());
      }),
      { numRuns: 2000 },
    );
  });

  it('leave defaults out of the URL', () => {
    expect(memberParamsOf(EMPTY_MEMBER_QUERY).toString()).toBe('');
    expect(memberParamsOf({ ...EMPTY_MEMBER_QUERY, dir: 'asc' }).toString()).toBe('');
    expect(memberParamsOf({ ...EMPTY_MEMBER_QUERY, sort: 'topics', dir: 'desc' }).toString()).toBe('sort=topics');
    expect(memberParamsOf({ ...EMPTY_MEMBER_QUERY, sort: 'topics', dir: 'asc' }).toString()).toBe('sort=topics&dir=asc');
  });

  it('read every parameter of SPEC 4.3', () => {
    const { query, notes } = parseMemberParams(new URLSearchParams(
      'q=an&joined=custom&joined_from=2020-01-01&joined_to=2020-12-31&group=Staff&twitter=t&website=w&jabber=j&location=l&interests=i&sort=joined&dir=asc&page=3',
    ));
    expect(notes).toEqual([]);
    expect(query).toEqual({
      q: 'an', joined: { kind: 'custom', from: '2020-01-01', to: '2020-12-31' }, groups: ['Staff'],
      twitter: 't', website: 'w', jabber: 'j', location: 'l', interests: 'i', sort: 'joined', dir: 'asc', page: 3,
    });
    expect(parseMemberParams(new URLSearchParams('joined=six_months')).query.joined).toEqual({ kind: 'preset', preset: 'six_months' });
  });

  it('take `group` comma-separated, repeated, or both; blanks and repeats dropped', () => {
    const groups = (search: string) => parseMemberParams(new URLSearchParams(search)).query.groups;
    expect(groups('group=Staff,Members')).toEqual(['Staff', 'Members']);
    expect(groups('group=Staff&group=Members')).toEqual(['Staff', 'Members']);
    expect(groups('group=Staff,%20Members%20&group=Moderators&group=Staff')).toEqual(['Staff', 'Members', 'Moderators']);
    expect(groups('group=,&group=')).toEqual([]);
    expect(memberParamsOf({ ...EMPTY_MEMBER_QUERY, groups: ['Staff', 'Members'] }).toString()).toBe('group=Staff%2CMembers');
  });

  it('apply a date range given without joined=custom (as old links do)', () => {
    expect(parseMemberParams(new URLSearchParams('joined_from=2021-05-01')).query.joined).toEqual({ kind: 'custom', from: '2021-05-01' });
  });

  it('ignore each malformed parameter with a note naming it, and keep the rest', () => {
    const cases: Array<[string, string]> = [
      ['joined=fortnight', 'joined'],
      ['joined=custom&joined_from=2023-02-30', 'joined_from'],
      ['joined_to=31/12/2020', 'joined_to'],
      ['sort=popular', 'sort'],
      ['dir=up', 'dir'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=-2', 'page'],
      ['page=1.5', 'page'],
    ];
    for (const [search, name] of cases) {
      const { query, notes } = parseMemberParams(new URLSearchParams(`q=ana&group=Staff&${search}`));
      expect(notes, search).toHaveLength(1);
      expect(notes[0], search).toContain(`${name}=`);
      expect(explicit(query), search).toEqual(explicit({ ...EMPTY_MEMBER_QUERY, q: 'ana', groups: ['Staff'] }));
    }
    const all = parseMemberParams(new URLSearchParams('joined=soon&joined_to=never&sort=x&dir=y&page=z'));
    expect(all.notes).toHaveLength(5);
    expect(all.query).toEqual(EMPTY_MEMBER_QUERY);
  });
});

describe('memberRecords', () => {
  it('counts each member\'s topics by author, ignoring case, and leaves unset fields empty', () => {
    const names = fc.uniqueArray(text(4, 1), { minLength: 1, maxLength: 8, selector: (n) => n.toLowerCase() });
    fc.assert(
      fc.property(names, fc.array(fc.nat(20)), (list, picks) => {
        const members: Member[] = list.map((name) => ({ name, joined: '2020-01-01', group: 'Members' }));
        const authors = picks.map((i) => (i < list.length * 2 ? (i % 2 ? list[i >> 1]!.toUpperCase() : list[i >> 1]!) : `unlisted${i}`));
        const topics = authors.map((author) => ({ author }) as Topic);
        const records = memberRecords(members, authorCounts(topics));
        for (const [i, record] of records.entries()) {
          expect(record.topics).toBe(authors.filter((a) => a.toLowerCase() === list[i]!.toLowerCase()).length);
          expect([record.twitter, record.website, record.jabber, record.location, record.interests]).toEqual(['', '', '', '', '']);
        }
      }),
    );
  });
});

describe('memberSlug', () => {
  it('gives distinct members distinct URL-safe slugs, never a page number', () => {
    const names = fc.uniqueArray(fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }), fc.nat(999).map(String)), {
      maxLength: 20, selector: (n) => n.toLowerCase(),
    });
    fc.assert(
      fc.property(names, (list) => {
        const slugs = list.map(memberSlug);
        expect(new Set(slugs).size).toBe(list.length);
        for (const slug of slugs) {
          expect(slug).not.toMatch(/^\d+$/);
          expect(slug).not.toMatch(/[/?#%\\]/);
          expect(['.', '..', '']).not.toContain(slug);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('is the same for a name in any case (topics may spell the author differently)', () => {
    expect(memberSlug('Ana Lima')).toBe(memberSlug('ana lima'));
  });
});
