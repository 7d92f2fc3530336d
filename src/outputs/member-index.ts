import type { Member } from '../content/members.ts';
import type { Topic } from '../content/topics.ts';
import { tagSlug } from '../model/tags.ts';
import type { MemberRecord } from '../search/member-search.ts';

/**
 * A member's URL segment: the lower-cased name escaped like a tag (names are unique ignoring case).
 * An all-digit name gets a `~n` prefix, which tag escaping never makes, so it cannot be taken for
 * a page number of /members/<n>/.
 */
export function memberSlug(name: string): string {
  const slug = tagSlug(name.toLowerCase());
  return /^\d+$/.test(slug) ? `~n${slug}` : slug;
}

/** Site path of a member's page: the profile, or page `page` of their topics. */
export function memberPath(name: string, page = 1): string {
  const base = `/members/${encodeURIComponent(memberSlug(name))}/`;
  return page <= 1 ? base : `${base}${page}/`;
}

/** The member search's records: every profile with its topic count; unset fields are "". */
export function memberRecords(members: readonly Member[], topics: readonly Topic[]): MemberRecord[] {
  const counts = new Map<string, number>();
  for (const topic of topics) counts.set(topic.author.toLowerCase(), (counts.get(topic.author.toLowerCase()) ?? 0) + 1);
  return members.map((member) => ({
    name: member.name,
    slug: memberSlug(member.name),
    joined: member.joined,
    group: member.group,
    twitter: member.twitter ?? '',
    website: member.website ?? '',
    jabber: member.jabber ?? '',
    location: member.location ?? '',
    interests: member.interests ?? '',
    topics: counts.get(member.name.toLowerCase()) ?? 0,
  }));
}
