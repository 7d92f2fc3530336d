import options from 'virtual:tagsite/options';
import { fromSiteRecords } from '../../build/site-records.ts';
import { memberKeyer } from '../../build/page-reuse.ts';
import { memberRecords } from '../../outputs/member-index.ts';
import { EMPTY_MEMBER_QUERY, filterMembers, MEMBERS_PAGE_SIZE, type MemberRecord } from '../../search/member-search.ts';
import { paginate } from '../../model/listing.ts';
import { memberKey } from '../../model/members.ts';
import type { Topic } from '../../content/topics.ts';

export type MembersPageProps =
  | { kind: 'list'; members: MemberRecord[]; total: number; page: number; pages: number; groups: string[] }
  | MemberPageProps;

/** A member's profile with one page of their topics (newest first; pages 2+ at /members/<member>/<n>/). */
export interface MemberPageProps {
  kind: 'member';
  member: MemberRecord;
  topics: Topic[];
  page: number;
  pages: number;
}

/** Every listed member with their topic count, in the member search's default order (name A→Z). */
export const memberList = fromSiteRecords(({ members, authorCounts }): MemberRecord[] =>
  filterMembers(memberRecords(members, authorCounts), EMPTY_MEMBER_QUERY, new Date(0)),
);

/** Each listed member with their topics split into listing pages (`pageSize` a page, at least one page). */
const memberTopicPages = fromSiteRecords(({ topics }) => {
  const byAuthor = new Map<string, Topic[]>();
  for (const topic of topics) {
    const key = memberKey(topic.author);
    let list = byAuthor.get(key);
    if (!list) byAuthor.set(key, (list = []));
    list.push(topic);
  }
  return (member: MemberRecord): Topic[][] => {
    const pages = paginate(byAuthor.get(memberKey(member.name)) ?? [], options.pageSize);
    return pages.length > 0 ? pages : [[]];
  };
});

/** Pages 2+ of each member's topics: /members/<member>/<n>/. */
export async function memberTopicPagePaths() {
  const [members, pagesOf, keyPages] = await Promise.all([memberList(), memberTopicPages(), memberKeyer()]);
  return members.flatMap((member) => {
    const paths = pagesOf(member).slice(1).map((topics, i, rest) => ({
      params: { slug: member.slug, page: String(i + 2) },
      props: { kind: 'member', member, topics, page: i + 2, pages: rest.length + 1 } satisfies MemberPageProps,
    }));
    keyPages(paths.map(({ props }) => props), member.name);
    return paths;
  });
}

/** Pages of /members/ (page 1 when `firstPage`, else /members/<n>/) and each member's first page. */
export async function memberPagePaths(firstPage: boolean) {
  const members = await memberList();
  const groups = [...new Set(members.map((member) => member.group))].sort();
  const pages = paginate(members, MEMBERS_PAGE_SIZE);
  const list = pages.map((pageMembers, i) => ({
    params: { slug: String(i + 1) },
    props: { kind: 'list', members: pageMembers, total: members.length, page: i + 1, pages: pages.length, groups } as MembersPageProps,
  }));
  if (firstPage) return [list[0]!];
  const [pagesOf, keyPages] = await Promise.all([memberTopicPages(), memberKeyer()]);
  return [
    ...list.slice(1),
    ...members.map((member) => {
      const pages = pagesOf(member);
      const props: MembersPageProps = { kind: 'member', member, topics: pages[0]!, page: 1, pages: pages.length };
      keyPages([props], member.name);
      return { params: { slug: member.slug }, props };
    }),
  ];
}
