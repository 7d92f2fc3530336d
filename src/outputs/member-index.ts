import type { Member } from '../content/members.ts';
import type { Topic } from '../content/topics.ts';
import { memberKey } from '../model/members.ts';
import { memberSlug } from '../model/urls.ts';
import type { MemberRecord } from '../search/member-search.ts';

/** How many topics each author has, by memberKey. */
export function authorCounts(topics: readonly Pick<Topic, 'author'>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const topic of topics) {
    const key = memberKey(topic.author);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** The member search's records: every profile with its topic count (`counts`: the topics' authorCounts); unset fields are "". */
export function memberRecords(members: readonly Member[], counts: ReadonlyMap<string, number>): MemberRecord[] {
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
    topics: counts.get(memberKey(member.name)) ?? 0,
  }));
}
