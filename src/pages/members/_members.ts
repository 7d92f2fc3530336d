import { perSite, siteData } from '../../site-data.ts';
import { memberRecords } from '../../lib/member-records.ts';
import { EMPTY_MEMBER_QUERY, filterMembers, MEMBERS_PAGE_SIZE, type MemberRecord } from '../../lib/search/members.ts';
import { paginate } from '../../lib/listing.ts';
import type { Topic } from '../../lib/topics.ts';

export type MembersPageProps =
  | { kind: 'list'; members: MemberRecord[]; total: number; page: number; pages: number; groups: string[] }
  | { kind: 'member'; member: MemberRecord; topics: Topic[] };

/** Every listed member with their topic count, in the member search's default order (name A→Z). */
export const memberList = perSite(({ members, topics }): MemberRecord[] =>
  filterMembers(memberRecords(members, topics), EMPTY_MEMBER_QUERY, new Date(0)),
);

/** Pages of /members/ (page 1 when `firstPage`, else /members/<n>/) and one page per member. */
export async function memberPagePaths(firstPage: boolean) {
  const members = await memberList();
  const groups = [...new Set(members.map((member) => member.group))].sort();
  const pages = paginate(members, MEMBERS_PAGE_SIZE);
  const list = pages.map((pageMembers, i) => ({
    params: { slug: String(i + 1) },
    props: { kind: 'list', members: pageMembers, total: members.length, page: i + 1, pages: pages.length, groups } as MembersPageProps,
  }));
  if (firstPage) return [list[0]!];
  const { topics } = await siteData();
  const byAuthor = new Map<string, Topic[]>();
  for (const topic of topics) {
    const key = topic.author.toLowerCase();
    let list = byAuthor.get(key);
    if (!list) byAuthor.set(key, (list = []));
    list.push(topic);
  }
  return [
    ...list.slice(1),
    ...members.map((member) => ({
      params: { slug: member.slug },
      props: { kind: 'member', member, topics: byAuthor.get(member.name.toLowerCase()) ?? [] } as MembersPageProps,
    })),
  ];
}
